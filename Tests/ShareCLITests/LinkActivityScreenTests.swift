import Foundation
import Testing

/// Link on a real terminal: a question when there are several places, the
/// upload's progress that Esc stops, and the link with a QR code that scans
/// back to it, closed with Esc.
@Suite struct LinkActivityScreenTests {
    static func start(_ fixtures: Fixtures, _ config: URL, _ arguments: [String], width: Int = 100, height: Int = 30) throws -> TmuxSession {
        var environment = fixtures.environment
        environment["TERM"] = "xterm-256color"
        let q = TmuxSession.quote
        return try TmuxSession(([try Share.binary().path, "--config", config.path, "--activity", "link", "--json"] + arguments).map(q)
                                .joined(separator: " "), width: width, height: height, workingDirectory: fixtures.files, environment: environment)
    }

    static func completion(_ session: TmuxSession) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any], "stdout: \(session.stdout)")
    }

    @Test func theLinkShowsWithACodeThatScansToItAndEscCloses() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let session = try Self.start(fixtures, config, [fixtures.pdf.path])
        defer { session.close() }
        let shown = try session.waitFor("Uploaded to paste")
        let link = "http://127.0.0.1:\(paste.port)/f/Q4%20Projections.pdf"
        #expect(try NearbyScreenTests.scan(shown.text, in: fixtures) == link)
        #expect(shown.contains(link), "the link on screen: \(shown.text)")
        // It stays until Esc: the person has time to scan or copy it.
        #expect(!session.hasExited)
        try session.send("Escape")
        #expect(try session.waitForExit() == 0)
        let completion = try Self.completion(session)
        #expect(completion["outcome"] as? String == "performed", "\(completion)")
        #expect((completion["returnedItems"] as? [[String: Any]])?.first?["value"] as? String == link)
        #expect(try LinkPlaceServer.fetch(link) == (try Data(contentsOf: fixtures.pdf)))
    }

    @Test func severalPlacesAskWhichOne() throws {
        let fixtures = try Fixtures()
        let first = try LinkPlaceServer(fixtures, "paste")
        let second = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("""
            [link.office]
            type = paste
            url = http://127.0.0.1:\(first.port)/
            [link.home]
            type = paste
            url = http://127.0.0.1:\(second.port)/
            """)
        let session = try Self.start(fixtures, config, [fixtures.text.path])
        defer { session.close() }
        let asked = try session.waitFor("Upload to")
        #expect(asked.contains("office · paste · http://127.0.0.1:\(first.port)/") && asked.contains("home · paste"), "\(asked.text)")
        try session.sendLiteral("home")
        try session.send("Enter")
        _ = try session.waitFor("Uploaded to home")
        try session.send("Escape")
        #expect(try session.waitForExit() == 0)
        let items = try #require(try Self.completion(session)["returnedItems"] as? [[String: Any]])
        #expect(items.first?["value"] as? String == "http://127.0.0.1:\(second.port)/f/note.txt", "\(items)")
        #expect(try second.nextRequest()["parts"] != nil)

        // Closing the question cancels: nothing is uploaded.
        let closed = try Self.start(fixtures, config, [fixtures.text.path])
        defer { closed.close() }
        _ = try closed.waitFor("Upload to")
        try closed.send("Escape")
        #expect(try closed.waitForExit() == 1)
        #expect(try Self.completion(closed)["outcome"] as? String == "cancelled")
    }

    @Test func escStopsAnUploadThatWaitsForItsPlace() throws {
        let fixtures = try Fixtures()
        let silent = try LinkPlaceServer(fixtures, "silent")
        let config = try fixtures.writeConfig("[link.slow]\ntype = termbin\nhost = 127.0.0.1\nport = \(silent.port)\ntimeout = 60\n")
        let session = try Self.start(fixtures, config, ["--text", "a log line"])
        defer { session.close() }
        _ = try session.waitFor("Uploading shared.txt to slow")
        try session.send("Escape")
        #expect(try session.waitForExit(timeout: 10) == 1, "Esc ends the share long before the place's minute")
        let completion = try Self.completion(session)
        let error = completion["error"] as? [String: Any]
        #expect(completion["outcome"] as? String == "cancelled" && error?["code"] as? String == "cancelled", "\(completion)")
        let message = (error?["message"] as? String) ?? ""
        #expect(message.contains("no link was made"), "\(completion)")
    }
}
