import Foundation
import Testing

/// A real XMPP server for one test: `Tests/Support/xmpp_server.py` runs
/// Debian's prosody on 127.0.0.1 with its state in a folder of the test's,
/// an upload service (XEP-0363) on its own HTTPS port, and an independent
/// client (slixmpp) logged in as the receiver, which reports each message
/// it gets as a line of JSON.
final class XMPPServer {
    let server: ServerScript
    let directory: URL

    /// The certificate the server presents (self-signed: also the CA to trust).
    var certificate: URL { directory.appendingPathComponent("cert.pem") }
    /// `xmpp://127.0.0.1:PORT`, for `[message] server`.
    var address: String { "xmpp://127.0.0.1:\(server.port)" }

    /// Starts prosody with `users` (LOCAL:PASSWORD) and the receiver `bob@localhost`.
    init(root: URL, users: [String] = ["alice:wonderland"], receiver: String = "bob:builder", uploadLimit: Int? = nil) throws {
        directory = root.appendingPathComponent("xmpp-\(UUID().uuidString.prefix(8))", isDirectory: true)
        var arguments = [directory.path]
        for user in users { arguments += ["--user", user] }
        arguments += ["--receiver", receiver]
        if let uploadLimit { arguments += ["--upload-limit", String(uploadLimit)] }
        server = try ServerScript(script: "xmpp_server.py", arguments: arguments,
                                  logFile: root.appendingPathComponent(directory.lastPathComponent + ".log"))
    }

    func stop() { server.stop() }

    /// The next message the receiver got: body, oob, id, from, error.
    func nextMessage() throws -> [String: Any] {
        let line = try #require(server.nextLine(within: 20), "the receiver got no message; prosody's log:\n\(log)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// The bytes at an upload link, fetched with the server's certificate trusted.
    func fetch(_ url: String) throws -> Data {
        try ServerScript.query("xmpp_server.py", ["--fetch", url, "--ca", certificate.path])
    }

    /// prosody's whole log (debug: every stanza received and sent).
    var fullLog: String { (try? String(contentsOf: directory.appendingPathComponent("prosody.log"), encoding: .utf8)) ?? "" }

    /// The end of prosody's log, for failure messages.
    var log: String {
        let text = (try? String(contentsOf: directory.appendingPathComponent("prosody.log"), encoding: .utf8)) ?? "(no log)"
        return text.split(separator: "\n").suffix(30).joined(separator: "\n") + "\n" + server.log
    }
}

/// Message (SPEC §2) over XMPP against a real prosody the test starts: the
/// text and each file's upload link reach a second account, the uploaded
/// bytes are the file's, and every failure says what to do.
@Suite struct MessageTests {
    static func completion(_ run: ShareRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out); stderr: \(run.err)")
    }

    /// A config with alice's account on `xmpp`; `changes` replaces or adds keys (a `nil` value removes one).
    static func config(_ fixtures: Fixtures, _ xmpp: XMPPServer, _ changes: [String: String?] = [:]) throws -> URL {
        var keys: [(String, String?)] = [("jid", "alice@localhost"), ("password-command", "printf wonderland"),
                                         ("server", xmpp.address), ("ca-file", xmpp.certificate.path)]
        for (key, value) in changes {
            if let index = keys.firstIndex(where: { $0.0 == key }) { keys[index].1 = value } else { keys.append((key, value)) }
        }
        let lines = keys.compactMap { key, value in value.map { "\(key) = \($0)" } }
        return try fixtures.writeConfig("[message]\n" + lines.joined(separator: "\n") + "\n")
    }

    /// A server that takes uploads up to 1,000 bytes, alice's config for it,
    /// and a file of 5,000 bytes. The caller stops the server.
    static func startUploadLimited(_ fixtures: Fixtures) throws -> (xmpp: XMPPServer, config: URL, big: URL) {
        let xmpp = try XMPPServer(root: fixtures.root, uploadLimit: 1000)
        do {
            return (xmpp, try config(fixtures, xmpp), try fixtures.file("big.bin", Data(repeating: 7, count: 5000)))
        } catch {
            xmpp.stop()
            throw error
        }
    }

    /// Runs Message: `share --config CONFIG --activity message --to RECIPIENT ARGUMENTS…`.
    static func message(_ fixtures: Fixtures, _ config: URL, to recipient: String, _ arguments: [String]) throws -> ShareRun {
        try fixtures.share(["--config", config.path, "--activity", "message", "--to", recipient] + arguments)
    }

    @Test func textAndAFileReachTheReceiverAndTheUploadHoldsTheFilesBytes() throws {
        let fixtures = try Fixtures()
        let xmpp = try XMPPServer(root: fixtures.root)
        defer { xmpp.stop() }
        let config = try Self.config(fixtures, xmpp)
        let text = "Q4 numbers & <notes> 안녕 🎉\nsecond line"
        let run = try Self.message(fixtures, config, to: "bob@localhost", ["--body", text, "--json", fixtures.png.path])
        #expect(run.status == 0, "stderr: \(run.err)\n\(xmpp.log)")
        let completion = try Self.completion(run)
        #expect(completion["outcome"] as? String == "sent")
        let ids = (completion["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(ids.count == 2, "one id for the text, one for the file: \(completion)")

        let first = try xmpp.nextMessage()
        #expect(first["body"] as? String == text)
        #expect(first["type"] as? String == "chat")
        #expect((first["from"] as? String)?.hasPrefix("alice@localhost/") == true, "\(first)")
        #expect(first["oob"] as? [String] == [])
        let second = try xmpp.nextMessage()
        let link = try #require(second["body"] as? String)
        #expect(link.hasPrefix("https://localhost:") && link.hasSuffix("/" + fixtures.png.lastPathComponent), "\(link)")
        #expect(second["oob"] as? [String] == [link], "the link as out-of-band data too: \(second)")
        #expect(Set([first["id"] as? String, second["id"] as? String].compactMap { $0 }) == Set(ids))
        #expect(try xmpp.fetch(link) == (try Data(contentsOf: fixtures.png)), "the uploaded bytes are the file's")
        let received = xmpp.fullLog.split(separator: "\n").filter { $0.contains("Received[c2s") }
        #expect(received.contains { $0.contains("<auth ") && $0.contains("mechanism='SCRAM-SHA-1'") }, "SCRAM, not PLAIN, where the server offers both")
        #expect(received.contains { $0.contains("<enable ") && $0.contains("xmlns='urn:xmpp:sm:3'") }, "stream management where the server offers it")
    }

    @Test func directTLSDeliversToo() throws {
        let fixtures = try Fixtures()
        let xmpp = try XMPPServer(root: fixtures.root)
        defer { xmpp.stop() }
        let port = try String(contentsOf: xmpp.directory.appendingPathComponent("direct-tls-port"), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let config = try Self.config(fixtures, xmpp, ["server": "xmpps://127.0.0.1:\(port)"])
        let run = try Self.message(fixtures, config, to: "bob@localhost", ["--text", "over direct TLS"])
        #expect(run.status == 0, "stderr: \(run.err)\n\(xmpp.log)")
        #expect(try xmpp.nextMessage()["body"] as? String == "over direct TLS")
        // prosody's log lines are "DATE TIME SESSION\tLEVEL\tTEXT": share's session is the one that sent the message.
        let lines = xmpp.fullLog.split(separator: "\n")
        func session(_ line: Substring) -> Substring? { line.split(separator: "\t").first?.split(separator: " ").last }
        let share = try #require(lines.first { $0.contains("Received[c2s]: <message") && $0.contains("to='bob@localhost'") }.flatMap(session),
                                 "no message in prosody's log")
        #expect(lines.contains { session($0) == share && $0.contains("<auth ") }, "share's session logged in")
        #expect(!lines.contains { session($0) == share && $0.contains("<starttls") }, "TLS from the first byte, not STARTTLS")
    }

    @Test func eachRecipientGetsTheMessageAndARefusedOneIsNamed() throws {
        let fixtures = try Fixtures()
        // carol exists but is offline (the server keeps hers); nobody has no account: the server refuses his.
        let xmpp = try XMPPServer(root: fixtures.root, users: ["alice:wonderland", "carol:singer"])
        defer { xmpp.stop() }
        let config = try Self.config(fixtures, xmpp)
        let run = try Self.message(fixtures, config, to: "bob@localhost, carol@localhost",
                                   ["--to", "nobody@localhost", "--json", "--text", "see you at 10"])
        #expect(run.status == 0, "stderr: \(run.err)\n\(xmpp.log)")
        let completion = try Self.completion(run)
        #expect(completion["outcome"] as? String == "sent")
        #expect(completion["returnedItems"] as? [[String: Any]] != nil && (completion["returnedItems"] as? [[String: Any]])?.count == 2,
                "one message each for bob and carol: \(completion)")
        #expect(run.err.contains("not delivered to nobody@localhost: service-unavailable"), "stderr: \(run.err)")
        #expect(!run.err.contains("carol"), "carol's message waits for her on the server: \(run.err)")
        let message = try xmpp.nextMessage()
        #expect(message["body"] as? String == "see you at 10")
        #expect(message["to"] as? String == "bob@localhost")
    }

    /// A send that fails on the way: alice's password (what her
    /// password-command prints), the config's other `changes`, the
    /// recipient, and the words stderr must hold; `PORT` in `changes` and
    /// `words` stands for the server's STARTTLS port.
    struct Failure: Sendable, CustomTestStringConvertible {
        var name: String
        var password = "wonderland"
        var changes: [String: String?] = [:]
        var recipient = "bob@localhost"
        var words: [String]
        var testDescription: String { name }
    }

    static let failures = [
        Failure(name: "a wrong password says authentication failed", password: "not-the-password",
                words: ["authentication failed for alice@localhost"]),
        Failure(name: "one refused recipient is named in the error", recipient: "nobody@localhost",
                words: ["nobody got the message: nobody@localhost: service-unavailable"]),
        Failure(name: "direct TLS to a STARTTLS port says what", changes: ["server": "xmpps://127.0.0.1:PORT"],
                words: ["the TLS handshake with 127.0.0.1:PORT failed", "is this a direct-TLS port?"]),
        Failure(name: "a name that does not resolve says what", changes: ["server": "xmpp://no-such-host.invalid:5222"],
                words: ["cannot connect to no-such-host.invalid:5222: the name does not resolve"]),
        Failure(name: "an untrusted certificate names ca-file", changes: ["ca-file": nil],
                words: ["certificate verification failed", "set ca-file for a private server"]),
    ]

    @Test(arguments: failures) func aFailedSendSaysWhyAndNeverShowsThePassword(_ failure: Failure) throws {
        let fixtures = try Fixtures()
        let xmpp = try XMPPServer(root: fixtures.root)
        defer { xmpp.stop() }
        let port = String(xmpp.server.port)
        var changes = failure.changes.mapValues { $0?.replacingOccurrences(of: "PORT", with: port) }
        changes["password-command"] = "printf \(failure.password)"
        let config = try Self.config(fixtures, xmpp, changes)
        let run = try Self.message(fixtures, config, to: failure.recipient, ["--text", "hi"])
        run.expectExit(3, saying: failure.words.map { $0.replacingOccurrences(of: "PORT", with: port) })
        #expect(!run.err.contains(failure.password) && !run.out.contains(failure.password), "the password is never shown")
    }

    @Test func aServerThatIsDownIsNamed() throws {
        let fixtures = try Fixtures()
        let xmpp = try XMPPServer(root: fixtures.root)
        let address = xmpp.address
        let config = try Self.config(fixtures, xmpp)
        xmpp.stop()
        let run = try Self.message(fixtures, config, to: "bob@localhost", ["--text", "hi"])
        run.expectExit(3, saying: "cannot connect to \(address.dropFirst("xmpp://".count)): connection refused")
    }

    @Test func aFileOverTheServersUploadLimitIsRefusedWithBothSizes() throws {
        let fixtures = try Fixtures()
        let (xmpp, config, big) = try Self.startUploadLimited(fixtures)
        defer { xmpp.stop() }
        let run = try Self.message(fixtures, config, to: "bob@localhost", [big.path])
        run.expectExit(3, saying: "big.bin is 5.0 KB; the server takes uploads up to 1.0 KB")
    }

    /// With a Link place, a file over the server's upload limit goes
    /// through it: the receiver gets its link (as out-of-band data too),
    /// which fetches the file's bytes; a small one still goes the server's way.
    @Test func aFileOverTheUploadLimitGoesAsALinkThroughLinksPlace() throws {
        let fixtures = try Fixtures()
        let (xmpp, config, big) = try Self.startUploadLimited(fixtures)
        defer { xmpp.stop() }
        let paste = try LinkPlaceServer(fixtures, "paste")
        let withPlace = try fixtures.writeConfig(try String(contentsOf: config, encoding: .utf8)
                                                 + "[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let small = try fixtures.file("small.txt", Data("tiny\n".utf8))
        let run = try Self.message(fixtures, withPlace, to: "bob@localhost", ["--json", "--text", "two files", big.path, small.path])
        #expect(run.status == 0, "stderr: \(run.err)\n\(xmpp.log)")
        let warnings = try Self.completion(run)["warnings"] as? [String] ?? []
        #expect(warnings == ["big.bin went as a link through paste: over the server's upload limit"], "\(run.out)")
        #expect(try xmpp.nextMessage()["body"] as? String == "two files")
        let linked = try xmpp.nextMessage()
        let link = "http://127.0.0.1:\(paste.port)/f/big.bin"
        #expect(linked["body"] as? String == link && linked["oob"] as? [String] == [link], "\(linked)")
        #expect(try LinkPlaceServer.fetch(link) == (try Data(contentsOf: big)), "the link fetches the file's bytes")
        let uploaded = try #require(try xmpp.nextMessage()["body"] as? String)
        #expect(uploaded.hasPrefix("https://localhost:") && uploaded.hasSuffix("/small.txt"), "the small file is the server's upload: \(uploaded)")
    }

    /// A message refused before anything is sent: the config, the
    /// recipient, the exit status and the words of stderr.
    struct Refusal: Sendable, CustomTestStringConvertible {
        var config: String
        var recipient: String
        var status: Int32
        var words: String
        var testDescription: String { words }
    }

    /// A Slack-style webhook `team` and no XMPP account.
    static let team = "[message.team]\ntype = slack\nurl = http://127.0.0.1:1/\n"

    static let refusals = [
        Refusal(config: "[message]\njid = alice@localhost\npassword-command = false\nserver = xmpp://127.0.0.1:1\n",
                recipient: "not-a-jid", status: 2, words: "'not-a-jid' is not a JID"),
        Refusal(config: team, recipient: "tema", status: 2, words: "'tema' is not a JID nor a webhook (team)"),
        Refusal(config: team, recipient: "kim@example.com", status: 3, words: "no XMPP account is configured ([message] jid)"),
    ]

    @Test(arguments: refusals) func aMessageRefusedBeforeSendingSaysWhy(_ refusal: Refusal) throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig(refusal.config)
        let run = try Self.message(fixtures, config, to: refusal.recipient, ["--text", "hi"])
        run.expectExit(refusal.status, saying: refusal.words)
    }

    @Test func withoutAnAccountExplainSaysWhatIsMissing() throws {
        let fixtures = try Fixtures()
        let run = try fixtures.share(["--explain", "--text", "hi"])
        #expect(run.out.contains("message") && run.out.contains("no messaging account: set jid and password-command"), "stdout: \(run.out)")
    }
}

/// Message to team chats by webhook (`[message.NAME]`), against a local
/// HTTP server that reports each request: the body each type promises.
@Suite struct MessageWebhookTests {
    final class Hook {
        let server: ServerScript
        init(root: URL, fail: Int? = nil) throws {
            server = try ServerScript(script: "webhook_server.py", arguments: fail.map { ["--fail", String($0)] } ?? [],
                                      logFile: root.appendingPathComponent("webhook-\(UUID().uuidString.prefix(8)).log"))
        }

        var url: String { "http://127.0.0.1:\(server.port)/hooks/team" }

        /// The next request: method, path, headers (lowercased names), body.
        func next() throws -> (method: String, path: String, headers: [String: String], body: Data) {
            let line = try #require(server.nextLine(within: 20), "no request came")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            return (record["method"] as? String ?? "", record["path"] as? String ?? "", record["headers"] as? [String: String] ?? [:],
                    Data(base64Encoded: record["body"] as? String ?? "") ?? Data())
        }

        func stop() { server.stop() }
    }

    static func json(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "\(String(decoding: data, as: UTF8.self))")
    }

    @Test func slackGetsTheTextAsJSONWithTheSubjectInBold() throws {
        let fixtures = try Fixtures()
        let hook = try Hook(root: fixtures.root)
        defer { hook.stop() }
        let config = try fixtures.writeConfig("[message.team]\ntype = slack\nurl = \(hook.url)\n")
        let run = try MessageTests.message(fixtures, config, to: "team", ["--subject", "Q4", "--json",
                                                                          "--text", "numbers & 안녕 \"quoted\"", "https://example.com/a?b=1&c=2"])
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try MessageTests.completion(run)["outcome"] as? String == "sent")
        let request = try hook.next()
        #expect(request.method == "POST" && request.path == "/hooks/team")
        #expect(request.headers["content-type"] == "application/json")
        #expect(try Self.json(request.body) as NSDictionary == ["text": "*Q4*\nnumbers & 안녕 \"quoted\"\nhttps://example.com/a?b=1&c=2"])
    }

    @Test func ntfyGetsTheTextWithATitleAndEachFileAsAnAttachment() throws {
        let fixtures = try Fixtures()
        let hook = try Hook(root: fixtures.root)
        defer { hook.stop() }
        let config = try fixtures.writeConfig("[message.phone]\ntype = ntfy\nurl-command = printf '\(hook.url)'\n")
        let run = try MessageTests.message(fixtures, config, to: "phone", ["--subject", "Résumé", "--text", "on its way", fixtures.png.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let text = try hook.next()
        #expect(text.method == "POST" && String(decoding: text.body, as: UTF8.self) == "on its way")
        #expect(text.headers["title"] == "=?UTF-8?B?UsOpc3Vtw6k=?=", "a non-ASCII title as an encoded-word: \(text.headers)")
        let file = try hook.next()
        #expect(file.method == "PUT" && file.headers["filename"] == fixtures.png.lastPathComponent, "\(file.headers)")
        #expect(file.body == (try Data(contentsOf: fixtures.png)))
    }

    @Test func jsonGetsTheDocumentedBodyWithTheFilesBytes() throws {
        let fixtures = try Fixtures()
        let hook = try Hook(root: fixtures.root)
        defer { hook.stop() }
        let config = try fixtures.writeConfig("[message.bot]\ntype = json\nurl = \(hook.url)\n")
        let run = try MessageTests.message(fixtures, config, to: "bot", ["--text", "hello", "https://example.com", fixtures.pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let body = try Self.json(try hook.next().body)
        #expect(body["subject"] is NSNull)
        #expect(body["text"] as? String == "hello\nhttps://example.com")
        #expect(body["urls"] as? [String] == ["https://example.com"])
        let file = try #require((body["files"] as? [[String: Any]])?.first)
        let bytes = try Data(contentsOf: fixtures.pdf)
        #expect(file["name"] as? String == fixtures.pdf.lastPathComponent)
        #expect(file["type"] as? String == "application/pdf")
        #expect(file["size"] as? Int == bytes.count)
        #expect(Data(base64Encoded: file["base64"] as? String ?? "") == bytes)
    }

    @Test func aRefusingWebhookAndAFileForSlackSayWhy() throws {
        let fixtures = try Fixtures()
        let hook = try Hook(root: fixtures.root, fail: 500)
        defer { hook.stop() }
        let config = try fixtures.writeConfig("[message.team]\ntype = slack\nurl = \(hook.url)\n")
        let refused = try MessageTests.message(fixtures, config, to: "team", ["--text", "hi"])
        refused.expectExit(3, saying: "team: the server answered HTTP 500: the webhook refuses this on purpose")
        _ = try hook.next()

        // Known before anything is sent: refused as bad input.
        let file = try MessageTests.message(fixtures, config, to: "team", [fixtures.pdf.path])
        file.expectExit(2, saying: "team is a Slack-style webhook, which takes text only; Q4 Projections.pdf cannot go there")
    }

    /// A file for Slack, with a Link place: it goes through the place and
    /// the text carries its link.
    @Test func aFileForSlackGoesAsALinkWhenAPlaceIsConfigured() throws {
        let fixtures = try Fixtures()
        let hook = try Hook(root: fixtures.root)
        defer { hook.stop() }
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[message.team]\ntype = slack\nurl = \(hook.url)\n"
                                              + "[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let run = try MessageTests.message(fixtures, config, to: "team", ["--json", "--text", "the deck", fixtures.pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let link = "http://127.0.0.1:\(paste.port)/f/Q4%20Projections.pdf"
        #expect(try Self.json(try hook.next().body) as NSDictionary == ["text": "the deck\n\nQ4 Projections.pdf: \(link)"])
        #expect(try LinkPlaceServer.fetch(link) == (try Data(contentsOf: fixtures.pdf)))
        #expect(try MessageTests.completion(run)["warnings"] as? [String] == ["Q4 Projections.pdf went as a link through paste"])
    }

    /// A webhook that cannot be reached is named, with its server but never
    /// its path (a webhook's path is its secret), in share's words.
    @Test func anUnreachableWebhookIsNamedWithItsServerOnly() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[message.team]\ntype = slack\nurl = http://127.0.0.1:1/hooks/T0SECRET/B0SECRET\n")
        let run = try MessageTests.message(fixtures, config, to: "team", ["--text", "hi"])
        run.expectExit(3, saying: "share: team: could not connect to 127.0.0.1:1\n")
        #expect(!run.err.contains("SECRET") && !run.err.contains("Failed to connect"), "stderr: \(run.err)")
    }

    @Test func aURLCommandsOutputIsNeverRepeated() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[message.team]\ntype = slack\nurl-command = printf 'hunter2-secret\\nhttps://x.example/'\n")
        let run = try MessageTests.message(fixtures, config, to: "team", ["--text", "hi"])
        run.expectExit(3, saying: "[message.team] url-command's first line is not an http:// or https:// address")
        #expect(!run.err.contains("hunter2"), "a secret is never repeated: \(run.err)")
    }

    @Test func aWebhookAloneMakesMessageAvailable() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig(MessageTests.team)
        let listed = try fixtures.share(["--config", config.path, "--list", "--text", "hi"])
        #expect(listed.out.contains("message\t"), "a webhook alone makes Message available: \(listed.out)")
    }

    @Test func aWebhookSectionWithoutATypeOrAURLIsAConfigError() throws {
        let fixtures = try Fixtures()
        for (contents, words) in [("[message.team]\nurl = http://x/\n", "[message.team] needs `type = slack`, `ntfy`, `json`, `telegram`, `discord` or `matrix`"),
                                  ("[message.team]\ntype = teams\nurl = http://x/\n", "type is slack, ntfy, json, telegram, discord or matrix, not 'teams'"),
                                  ("[message.team]\ntype = slack\n", "[message.team] needs exactly one of url and url-command"),
                                  ("[message.team]\ntype = slack\nurl = ftp://x/\n", "url is an http:// or https:// address"),
                                  ("[message.team]\ntype = slack\nurl = http://x/\ntoken = 1\n", "unknown key 'token' in [message.team]")] {
            let config = try fixtures.writeConfig(contents)
            let run = try fixtures.share(["--config", config.path, "--list", "--text", "hi"])
            #expect(run.status == 2 && run.err.contains(words), "\(contents): \(run.err)")
        }
    }
}

/// Message's form in a real terminal: To offers the contacts' XMPP
/// addresses and the webhooks as one types, and Send delivers to a real
/// prosody.
@Suite struct MessageFormTests {
    @Test func toOffersContactsAndWebhooksAndSendDelivers() throws {
        let fixtures = try Fixtures()
        let xmpp = try XMPPServer(root: fixtures.root)
        defer { xmpp.stop() }
        let contacts = fixtures.home.appendingPathComponent(".contacts", isDirectory: true)
        try FileManager.default.createDirectory(at: contacts, withIntermediateDirectories: true)
        let cards = [
            ("bob.vcf", ["BEGIN:VCARD", "VERSION:4.0", "FN:Bob Builder", "EMAIL:bob@mail.example", "IMPP;PREF=1:xmpp:bob@localhost", "END:VCARD"]),
            ("old.vcf", ["BEGIN:VCARD", "VERSION:3.0", "FN:Bobby Tables", "X-JABBER:bobby@localhost", "END:VCARD"]),
            ("mail.vcf", ["BEGIN:VCARD", "VERSION:4.0", "FN:Bo Mail-only", "EMAIL:bo@mail.example", "END:VCARD"]),
        ]
        for (name, lines) in cards {
            try Data((lines.joined(separator: "\r\n") + "\r\n").utf8).write(to: contacts.appendingPathComponent(name))
        }
        let account = try MessageTests.config(fixtures, xmpp)
        let config = try fixtures.writeConfig(try String(contentsOf: account, encoding: .utf8)
            + "\n[message.bobs-team]\ntype = slack\nurl = http://127.0.0.1:1/\n")
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, "--config", config.path, "--activity", "message", "--json", "--text", "lunch?"])
            .map(q).joined(separator: " "), width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        defer { session.close() }
        try session.waitFor("To:")
        try session.sendLiteral("bo")
        let offered = try session.waitFor("Bob Builder <bob@localhost>")
        #expect(offered.contains("Bobby Tables <bobby@localhost>") && offered.contains("bobs-team"), "\(offered.text)")
        #expect(!offered.contains("Bo Mail-only"), "a contact without an XMPP address is not offered:\n\(offered.text)")
        #expect(!offered.contains("is not a JID"), "what is being typed toward an offer is no mistake:\n\(offered.text)")
        try session.sendLiteral("b b")
        let filtered = try session.waitUntil("only Bob Builder") { !$0.text.contains("Bobby Tables") && $0.text.contains("Bob Builder <bob@localhost>") }
        #expect(!filtered.contains("bobs-team"), "\(filtered.text)")
        try session.send("Tab")
        try session.waitUntil("Bob chosen") { $0.lines.contains { $0.hasPrefix(" To:") && $0.contains("Bob Builder <bob@localhost>,") } }
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)\n\(xmpp.log)")
        #expect(session.stdout.contains("\"outcome\":\"sent\""), "stdout: \(session.stdout)")
        let message = try xmpp.nextMessage()
        #expect(message["body"] as? String == "lunch?")
        #expect(message["to"] as? String == "bob@localhost")
    }
}

extension MessageFormTests {
    @Test func aFileOverTheUploadLimitKeepsTheFormOpenWithBothSizes() throws {
        let fixtures = try Fixtures()
        let (xmpp, config, big) = try MessageTests.startUploadLimited(fixtures)
        defer { xmpp.stop() }
        let q = TmuxSession.quote
        let session = try TmuxSession(([try Share.binary().path, "--config", config.path, "--activity", "message", big.path])
            .map(q).joined(separator: " "), width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        defer { session.close() }
        try session.waitFor("To:")
        try session.sendLiteral("bob@localhost")
        try session.send("C-x")
        let refused = try session.waitFor("big.bin is 5.0 KB; the server takes uploads up to 1.0 KB")
        #expect(refused.lines.contains { $0.hasPrefix(" To:") && $0.contains("bob@localhost") }, "the form stays, as typed:\n\(refused.text)")
        #expect(!session.hasExited)
    }
}
