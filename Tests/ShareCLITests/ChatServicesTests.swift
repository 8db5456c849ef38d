import Foundation
@testable import ShareActivities
import ShareCore
import Testing

/// Message to a Telegram bot's chat and a Discord webhook, against the
/// tests' servers that answer as the published APIs do and check each
/// request against them (`webhook_server.py --service`).
@Suite struct ChatServicesTests {
    /// A service's test server; stopped when released.
    final class Service {
        let server: ServerScript

        init(_ fixtures: Fixtures, _ arguments: [String]) throws {
            server = try ServerScript(script: "webhook_server.py", arguments: arguments,
                                      logFile: fixtures.root.appendingPathComponent("chat-\(UUID().uuidString.prefix(8)).log"))
        }

        deinit { server.stop() }

        var address: String { "http://127.0.0.1:\(server.port)" }

        /// The next request the server reported.
        func next() throws -> [String: Any] {
            let line = try #require(server.nextLine(within: 20), "no request came")
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }

        /// The JSON body of a reported request.
        static func json(_ request: [String: Any]) throws -> [String: Any] {
            let body = try #require(Data(base64Encoded: request["body"] as? String ?? ""))
            return try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any], "\(request)")
        }
    }

    static func completion(_ run: ShareRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out); stderr: \(run.err)")
    }

    static func telegram(_ service: Service, token: String = "12345:bot-secret") -> String {
        "[message.phone]\ntype = telegram\ntoken-command = printf '%s' '\(token)'\nchat = -1001234\napi = \(service.address)\n"
    }

    @Test func telegramSendsTheTextAPhotoAndADocumentAndUndoDeletesThem() throws {
        let fixtures = try Fixtures()
        let service = try Service(fixtures, ["--service", "telegram", "--token", "12345:bot-secret"])
        let config = try fixtures.writeConfig(Self.telegram(service))
        let run = try MessageTests.message(fixtures, config, to: "phone", ["--json", "--subject", "Q4", "--text", "숫자 & <notes>",
                                                                           fixtures.png.path, fixtures.pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let ids = (try Self.completion(run)["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(ids == ["101", "102", "103"], "each message's id: \(ids)")
        let text = try service.next()
        #expect(text["path"] as? String == "/bot12345:bot-secret/sendMessage")
        #expect(try Service.json(text) as NSDictionary == ["chat_id": "-1001234", "text": "Q4\n숫자 & <notes>"])
        let photo = try service.next()
        let photoParts = try #require(photo["parts"] as? [[String: Any]])
        #expect(photo["path"] as? String == "/bot12345:bot-secret/sendPhoto"
                && photoParts.contains { $0["name"] as? String == "photo" && $0["filename"] as? String == "pic.png" }, "\(photo)")
        let document = try service.next()
        let documentParts = try #require(document["parts"] as? [[String: Any]])
        let pdfSize = try Data(contentsOf: fixtures.pdf).count
        #expect(document["path"] as? String == "/bot12345:bot-secret/sendDocument"
                && documentParts.contains { $0["name"] as? String == "document" && $0["size"] as? Int == pdfSize }, "\(document)")
        #expect(!(run.out + run.err).contains("bot-secret"), "the token is never printed")

        // --undo deletes the three, reading the token again from the config.
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out == "deleted message 101 from phone\ndeleted message 102 from phone\ndeleted message 103 from phone\n",
                "stdout: \(undo.out); stderr: \(undo.err)")
        let deletion = try service.next()
        let deleted = try Service.json(deletion) as NSDictionary
        #expect(deletion["path"] as? String == "/bot12345:bot-secret/deleteMessage"
                && deleted == ["chat_id": "-1001234", "message_id": 101], "\(deletion)")
    }

    /// A wrong token, a chat not set, too big a file, too long a text, and a
    /// service asking to slow down: each said before or as it happens.
    @Test func telegramsRefusalsSayWhatToDo() throws {
        let fixtures = try Fixtures()
        let service = try Service(fixtures, ["--service", "telegram", "--token", "12345:bot-secret", "--busy-after", "1"])
        let wrong = try fixtures.writeConfig(Self.telegram(service, token: "12345:wrong"))
        let refused = try MessageTests.message(fixtures, wrong, to: "phone", ["--text", "hi"])
        refused.expectExit(3, saying: "Telegram refused the bot's token (HTTP 401: Unauthorized); check [message.phone] token-command")
        #expect(!refused.err.contains("12345:wrong"))
        let config = try fixtures.writeConfig(Self.telegram(service))
        let busy = try MessageTests.message(fixtures, config, to: "phone", ["--text", "hi"])
        busy.expectExit(3, saying: "Telegram asks to slow down: too many messages (retry after 7 s)")

        let long = try MessageTests.message(fixtures, config, to: "phone", ["--text", String(repeating: "가", count: 4097)])
        long.expectExit(3, saying: "the text is 4097 characters; Telegram takes 4096 in a message")
        let big = fixtures.root.appendingPathComponent("big.iso")
        try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: 51 * 1024 * 1024)
        let tooBig = try MessageTests.message(fixtures, config, to: "phone", [big.path])
        tooBig.expectExit(2, saying: "big.iso is 53.5 MB; Telegram bots send files up to 50.0 MB")

        let noChat = try fixtures.writeConfig("[message.phone]\ntype = telegram\ntoken-command = printf x\n")
        let missing = try MessageTests.message(fixtures, noChat, to: "phone", ["--text", "hi"])
        #expect(missing.status == 2 && missing.err.contains("(type = telegram) needs `chat = …`"), "\(missing.err)")
    }

    @Test func discordGetsTheTextAndFilesInOneRequestAndUndoDeletesIt() throws {
        let fixtures = try Fixtures()
        let service = try Service(fixtures, ["--service", "discord"])
        let config = try fixtures.writeConfig("[message.team]\ntype = discord\nurl-command = printf '\(service.address)/api/webhooks/1234/good-token'\n")
        let run = try MessageTests.message(fixtures, config, to: "team", ["--json", "--subject", "Build", "--text", "done ✅",
                                                                          fixtures.png.path, fixtures.pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let ids = (try Self.completion(run)["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(ids == ["101"], "\(ids)")
        let request = try service.next()
        #expect(request["path"] as? String == "/api/webhooks/1234/good-token?wait=true")
        let parts = try #require(request["parts"] as? [[String: Any]])
        #expect(parts.map { $0["name"] as? String ?? "" } == ["payload_json", "files[0]", "files[1]"], "\(parts)")
        let payload = try #require(try JSONSerialization.jsonObject(with: Data((parts[0]["text"] as? String ?? "").utf8)) as? [String: Any])
        #expect(payload["content"] as? String == "**Build**\ndone ✅", "\(payload)")
        let pdfSize = try Data(contentsOf: fixtures.pdf).count
        #expect(parts[2]["filename"] as? String == "Q4 Projections.pdf" && parts[2]["size"] as? Int == pdfSize)

        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out == "deleted message 101 from team\n", "stdout: \(undo.out); stderr: \(undo.err)")
        let deletion = try service.next()
        #expect(deletion["method"] as? String == "DELETE" && deletion["path"] as? String == "/api/webhooks/1234/good-token/messages/101")

        // A webhook deleted on Discord's side, and a rate limit: said.
        let gone = try fixtures.writeConfig("[message.team]\ntype = discord\nurl = \(service.address)/api/webhooks/1234/old-token\n")
        let refused = try MessageTests.message(fixtures, gone, to: "team", ["--text", "hi"])
        refused.expectExit(3, saying: "Discord refused the webhook (HTTP 401: Invalid Webhook Token); it was deleted, or [message.team]'s address is wrong")
        #expect(!refused.err.contains("old-token"), "the address is a secret")
        let limited = try Service(fixtures, ["--service", "discord", "--busy-after", "0"])
        let busyConfig = try fixtures.writeConfig("[message.team]\ntype = discord\nurl = \(limited.address)/api/webhooks/1234/good-token\n")
        let busy = try MessageTests.message(fixtures, busyConfig, to: "team", ["--text", "hi"])
        busy.expectExit(3, saying: "Discord asks to slow down: too many messages (retry after 1.5 s)")
    }

    /// Files over a Discord message's 25 MB go through Link's place when
    /// there is one, and are refused before anything is sent when not.
    @Test func discordsLimitIsCheckedFirst() throws {
        let fixtures = try Fixtures()
        let service = try Service(fixtures, ["--service", "discord"])
        let config = try fixtures.writeConfig("[message.team]\ntype = discord\nurl = \(service.address)/api/webhooks/1234/good-token\n")
        let big = fixtures.root.appendingPathComponent("video.mp4")
        try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: 26 * 1024 * 1024)
        let refused = try MessageTests.message(fixtures, config, to: "team", [big.path])
        refused.expectExit(2, saying: "the files are 27.3 MB; a Discord webhook's message carries up to 25.0 MB")
        // Nothing went: the next request the service sees is the next message's.
        #expect(try MessageTests.message(fixtures, config, to: "team", ["--text", "after"]).status == 0)
        let parts = try #require(try service.next()["parts"] as? [[String: Any]])
        #expect((parts.first?["text"] as? String)?.contains("\"content\":\"after\"") == true, "\(parts)")
    }

    /// A Telegram bot may delete its messages for 48 hours: past them,
    /// --undo says so without asking Telegram.
    @Test func telegramsUndoWindowIsFortyEightHours() {
        let sent = Date(timeIntervalSince1970: 1_800_000_000)
        let step = UndoAction("deleteChatMessage", ["section": "message.phone", "config": "/nonexistent/share.conf", "type": "telegram",
                                                    "id": "101", "chat": "-1001234", "sent": "1800000000"])
        let late = ChatUndo.delete(step, environment: [:], now: sent.addingTimeInterval(48 * 3600 + 60))
        #expect(late == .failure(UndoRefusal("Telegram lets a bot delete its messages for 48 hours; message 101 is older: delete it in Telegram")))
        let inTime = ChatUndo.delete(step, environment: [:], now: sent.addingTimeInterval(47 * 3600))
        #expect(inTime == .failure(UndoRefusal("the config file /nonexistent/share.conf that named [message.phone] cannot be read")),
                "within the window it goes on to the config: \(inTime)")
    }
}
