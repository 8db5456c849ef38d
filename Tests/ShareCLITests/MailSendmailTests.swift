import Foundation
import Testing

/// The sendmail transport (SPEC §5: a sendmail-compatible command, always
/// called with `-i` and `--` before recipients), driven through a script
/// that records its argv and stdin.
@Suite struct MailSendmailTests {
    /// Writes an executable sendmail stand-in into the world's folder that
    /// records argv (one per line) in `argv.txt`, stdin in `stdin.eml`,
    /// writes `stderr` to its stderr and exits with `status`.
    static func sendmail(in world: MailWorld, status: Int32, stderr: String = "") throws -> URL {
        let directory = world.root.appendingPathComponent("sendmail", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let script = directory.appendingPathComponent("fake-sendmail")
        let text = """
            #!/bin/sh
            dir='\(directory.path)'
            : > "$dir/argv.txt"
            for word in "$@"; do printf '%s\\n' "$word" >> "$dir/argv.txt"; done
            cat > "$dir/stdin.eml"
            printf '%s' '\(stderr)' >&2
            exit \(status)

            """
        try Data(text.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        try world.configure(["sendmail = \(script.path)"])
        return directory
    }

    static let message = ["--send", "--json", "--to", "박지성 <park@example.com>", "--cc", "lee@example.com",
                          "--bcc", "hidden@example.com", "--subject", "sendmail 경유", "--body", "via sendmail\n.\nFrom me"]

    @Test func sendmailIsCalledWithDashIAndDoubleDashAndNoBcc() throws {
        let world = try MailWorld()
        let directory = try Self.sendmail(in: world, status: 0)

        let run = try world.share(Self.message)
        #expect(run.status == 0, "stdout: \(run.out) stderr: \(run.err)")
        #expect(try Completion.parse(run).outcome == "sent")

        let argv = try String(contentsOf: directory.appendingPathComponent("argv.txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        let separator = try #require(argv.firstIndex(of: "--"), "no -- before the recipients: \(argv)")
        let options = Array(argv[..<separator])
        let recipients = Array(argv[(separator + 1)...])
        #expect(options == ["-i", "-f", MailWorld.fromAddress], "options before --: \(argv)")
        #expect(recipients.sorted() == ["hidden@example.com", "lee@example.com", "park@example.com"], "recipients: \(argv)")

        let stdin = directory.appendingPathComponent("stdin.eml")
        let check = try MailCheck.run(file: stdin)
        #expect(check.defects.isEmpty, "defects: \(check.defects)")
        #expect(!check.hasBccHeader, "the message given to sendmail has a Bcc header")
        #expect(!String(decoding: try Data(contentsOf: stdin), as: UTF8.self).contains("hidden@example.com"))
        #expect(check.header("Subject") == "sendmail 경유")
        #expect(check.addresses["to"] == [.init(name: "박지성", addr: "park@example.com")])
        #expect(check.textParts.first?.normalizedText?.components(separatedBy: "\n").contains(".") == true)

        let sent = try world.onlyMessage(in: world.sent, flagged: "S")
        #expect(try MailCheck.run(file: sent).addresses["bcc"] == [.init(name: "", addr: "hidden@example.com")])
        world.expectEmpty(world.drafts, world.outbox)
    }

    @Test func sendmailTemporaryFailureQueues() throws {
        let world = try MailWorld()
        _ = try Self.sendmail(in: world, status: 75, stderr: "deferred: connection timed out")

        try world.expectQueued(try world.share(Self.message))
    }

    @Test func sendmailRefusalFailsWithItsWordsAndKeepsDraft() throws {
        let world = try MailWorld()
        let words = "recipient quota exceeded for park@example.com"
        _ = try Self.sendmail(in: world, status: 1, stderr: words)

        let run = try world.share(Self.message)
        // stderr carries sendmail's words.
        try world.expectFailedKeepingDraft(run, saying: words)
        #expect(try Completion.parse(run).hasError)
    }
}
