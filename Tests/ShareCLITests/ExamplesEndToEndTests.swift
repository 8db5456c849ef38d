import Foundation
import Testing

/// The Swift API's examples (Examples/, `make examples`), driven in tmux like a person would.
@Suite struct ExamplesEndToEndTests {
    /// An example's binary: next to `share` in the products directory.
    private func example(_ name: String) throws -> String {
        try Share.binary().deletingLastPathComponent().appendingPathComponent(name).path
    }

    private func start(_ name: String, _ world: MailWorld, _ arguments: [String]) throws -> TmuxSession {
        let q = TmuxSession.quote
        let command = ([try example(name), "--config", world.config.path] + arguments).map(q).joined(separator: " ")
        return try TmuxSession(command, workingDirectory: world.fixtures.files, environment: world.fixtures.environment)
    }

    /// Seed 000: the provider computes the report only for Mail Report, which opens the compose screen prefilled.
    @Test func customMailActivityFedByAnItemProviderSendsTheReport() throws {
        let (world, server) = try MailWorld.withServer()
        defer { server.stop() }
        let session = try start("example-custom-mail", world, ["--json"])
        // Mail Report is an application activity: first in the share row, so Enter picks it.
        var screen = try session.waitFor("Mail Report")
        #expect(screen.contains("“Q4 report”"), "the placeholder is in the header; screen:\n\(screen.text)")
        try session.send("Enter")
        screen = try session.waitUntil("the prefilled compose screen") { screen in
            screen.lines.first?.contains("Mail Report") == true && screen.contains("Subject:  Q4 report")
                && screen.contains("📎 Q4 report.csv")
        }
        #expect(screen.contains("the Q4 numbers are attached."), "screen:\n\(screen.text)")
        try session.sendLiteral("park@example.com")
        _ = try session.waitFor("To:       park@example.com")
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let completion = try Completion.parse(ShareRun(status: 0, stdout: Data(session.stdout.utf8), stderr: Data()))
        #expect(completion.activityType == "com.example.report-mail" && completion.outcome == "sent", "\(completion)")
        let check = try server.onlyMessage().check
        #expect(check.header("Subject") == "Q4 report")
        #expect(check.attachments.map(\.filename) == ["Q4 report.csv"])
        #expect(check.textParts.first?.normalizedText?.contains("the Q4 numbers are attached.") == true)
    }

    /// Seed 003: an item source with a subject and link metadata.
    @Test func itemSourceSubjectAndLinkMetadataReachTheHeaderAndMail() throws {
        let world = try MailWorld()
        let session = try start("example-pin-share", world, ["--json"])
        var screen = try session.waitFor("PIN 4821")
        #expect(screen.contains("bank.example/account"), "the metadata's host is the subtitle; screen:\n\(screen.text)")
        // Mail gets the sentence and the subject "Your PIN"; it is the first tile.
        try session.send("Enter")
        screen = try session.waitUntil("Mail's compose screen") { $0.contains("Subject:  Your PIN") }
        #expect(screen.contains("Your PIN is 4821. It expires in 10 minutes"), "screen:\n\(screen.text)")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1)
        #expect(session.stdout.contains(#""outcome":"cancelled""#), "stdout: \(session.stdout)")
    }
}
