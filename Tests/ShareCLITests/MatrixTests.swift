import Foundation
import Testing

/// Message to Matrix against a real Synapse on 127.0.0.1
/// (`Tests/Support/matrix_server.py`, installed from PyPI into a virtual
/// environment on first use), with lee reading the rooms back through the
/// client-server API.
@Suite(.serialized) struct MatrixTests {
    final class Homeserver {
        let server: ServerScript

        init(_ fixtures: Fixtures) throws {
            let folder = fixtures.root.appendingPathComponent("synapse", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            server = try ServerScript(script: "matrix_server.py", arguments: ["serve", folder.path],
                                      logFile: fixtures.root.appendingPathComponent("synapse.log"), startSeconds: 600)
        }

        deinit { server.stop() }

        var url: String { "http://127.0.0.1:\(server.port)" }

        /// The message events of `room` as `user` reads them back.
        func messages(_ room: String, as user: String = "lee", password: String = "lee-pass") throws -> [[String: Any]] {
            let answer = try ServerScript.query("matrix_server.py", ["messages", url, user, password, room])
            let object = try #require(try JSONSerialization.jsonObject(with: answer) as? [String: Any])
            return object["events"] as? [[String: Any]] ?? []
        }

        /// The bytes of an `mxc://` URI.
        func media(_ uri: String) throws -> Data {
            try ServerScript.query("matrix_server.py", ["media", url, "lee", "lee-pass", uri])
        }
    }

    static func config(_ fixtures: Fixtures, _ server: Homeserver, login: String = "password-command = printf kim-pass") throws -> URL {
        try fixtures.writeConfig("[message.chat]\ntype = matrix\nhomeserver = \(server.url)\nuser = @kim:localhost\n\(login)\n")
    }

    @Test func aRoomGetsTheTextAPictureAndAFileAPersonADirectRoomAndUndoRedacts() throws {
        let fixtures = try Fixtures()
        let server = try Homeserver(fixtures)
        let config = try Self.config(fixtures, server)
        let run = try MessageTests.message(fixtures, config, to: "#team:localhost",
                                           ["--json", "--text", "release notes: https://example.com/r?a=1&b=2", fixtures.png.path, fixtures.pdf.path])
        #expect(run.status == 0, "stderr: \(run.err)")
        let events = try server.messages("#team:localhost")
        #expect(events.count == 3, "\(events)")
        let text = try #require(events.first?["content"] as? [String: Any])
        #expect(text["msgtype"] as? String == "m.text" && text["body"] as? String == "release notes: https://example.com/r?a=1&b=2")
        #expect(text["formatted_body"] as? String == "release notes: <a href=\"https://example.com/r?a=1&amp;b=2\">https://example.com/r?a=1&amp;b=2</a>",
                "\(text)")
        let picture = try #require(events[1]["content"] as? [String: Any])
        let info = try #require(picture["info"] as? [String: Any])
        #expect(picture["msgtype"] as? String == "m.image" && picture["body"] as? String == "pic.png", "\(picture)")
        #expect(info["mimetype"] as? String == "image/png" && info["w"] as? Int == 1 && info["h"] as? Int == 1, "\(info)")
        #expect(try server.media(picture["url"] as? String ?? "") == (try Data(contentsOf: fixtures.png)), "the uploaded bytes are the picture's")
        let file = try #require(events[2]["content"] as? [String: Any])
        #expect(file["msgtype"] as? String == "m.file" && file["body"] as? String == "Q4 Projections.pdf", "\(file)")
        let ids = (try ChatServicesTests.completion(run)["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(ids == events.compactMap { $0["id"] as? String }, "the event ids are the returned items")

        // A person: a direct room made (is_direct, lee invited), where lee reads it.
        let direct = try MessageTests.message(fixtures, config, to: "@lee:localhost", ["--text", "just for you"])
        #expect(direct.status == 0, "stderr: \(direct.err)")
        let dm = try server.messages("@kim:localhost")
        #expect((dm.last?["content"] as? [String: Any])?["body"] as? String == "just for you", "\(dm)")

        // An end-to-end encrypted room: refused, with its own code.
        let secret = try MessageTests.message(fixtures, config, to: "#secret:localhost", ["--json", "--text", "nope"])
        #expect(secret.status == 3, "\(secret.err)")
        let error = try #require(try ChatServicesTests.completion(secret)["error"] as? [String: Any])
        #expect(error["code"] as? String == "encrypted-room"
                && (error["message"] as? String ?? "").contains("#secret:localhost is an end-to-end encrypted room"), "\(error)")
        #expect(try server.messages("#secret:localhost", as: "kim", password: "kim-pass").isEmpty)

        // --undo redacts the direct message (the newest share); the token logged in for is reused.
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out.hasPrefix("redacted "), "stdout: \(undo.out); stderr: \(undo.err)")
        let after = try server.messages("@kim:localhost")
        #expect(after.last?["redacted"] as? Bool == true, "\(after)")
        let token = fixtures.root.appendingPathComponent("state/share/matrix/chat.token")
        let attributes = try FileManager.default.attributesOfItem(atPath: token.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "the token is kept private")
    }

    /// A big picture goes with its size and a thumbnail of at most 320
    /// pixels; a file over the server's m.upload.size is refused before
    /// anything is uploaded; a wrong password and a missing room are said.
    @Test func aBigPictureGoesWithAThumbnailAndLimitsAndRefusalsAreSaid() throws {
        let fixtures = try Fixtures()
        let server = try Homeserver(fixtures)
        let photo = fixtures.root.appendingPathComponent("photo.jpg")
        _ = try ServerScript.query("image_tool.py", ["solid", photo.path, "1600", "1200", "200", "120", "40"])
        let sent = try MessageTests.message(fixtures, try Self.config(fixtures, server), to: "#team:localhost", [photo.path])
        #expect(sent.status == 0, "stderr: \(sent.err)")
        let picture = try #require(try server.messages("#team:localhost").last?["content"] as? [String: Any])
        let info = try #require(picture["info"] as? [String: Any])
        let thumbnail = try #require(info["thumbnail_info"] as? [String: Any], "\(info)")
        #expect(info["w"] as? Int == 1600 && info["h"] as? Int == 1200 && thumbnail["w"] as? Int == 320 && thumbnail["h"] as? Int == 240
                && thumbnail["mimetype"] as? String == "image/jpeg", "\(info)")
        let small = try server.media(info["thumbnail_url"] as? String ?? "")
        #expect(small.count == thumbnail["size"] as? Int && small.starts(with: [0xFF, 0xD8]), "the thumbnail's bytes are a JPEG of its size")

        let big = fixtures.root.appendingPathComponent("big.iso")
        try #require(FileManager.default.createFile(atPath: big.path, contents: nil))
        try FileHandle(forWritingTo: big).truncate(atOffset: 60 * 1024 * 1024)
        let tooBig = try MessageTests.message(fixtures, try Self.config(fixtures, server), to: "#team:localhost", [big.path])
        tooBig.expectExit(3, saying: "big.iso is 62.9 MB; \(server.url) takes uploads up to 52.4 MB")

        let wrong = try Self.config(fixtures, server, login: "password-command = printf wrong")
        let refused = try MessageTests.message(fixtures, wrong, to: "#team:localhost", ["--text", "hi"])
        refused.expectExit(3, saying: "refused the login of @kim:localhost (HTTP 403: M_FORBIDDEN")
        let config = try Self.config(fixtures, server)
        let missing = try MessageTests.message(fixtures, config, to: "#nowhere:localhost", ["--text", "hi"])
        missing.expectExit(3, saying: "no room #nowhere:localhost on \(server.url) (HTTP 404: M_NOT_FOUND")
    }

    /// An answer lost on the way back (502 after the homeserver took the
    /// event): the retry goes with the same transaction id, and the room
    /// has the message once.
    @Test func aRetryNeverPostsTwice() throws {
        let fixtures = try Fixtures()
        let server = try Homeserver(fixtures)
        let proxy = try ServerScript(script: "matrix_server.py", arguments: ["lossy", server.url],
                                     logFile: fixtures.root.appendingPathComponent("lossy.log"))
        defer { proxy.stop() }
        let config = try fixtures.writeConfig("[message.chat]\ntype = matrix\nhomeserver = http://127.0.0.1:\(proxy.port)\n"
                                              + "user = @kim:localhost\npassword-command = printf kim-pass\n")
        let run = try MessageTests.message(fixtures, config, to: "#team:localhost", ["--text", "once only"])
        #expect(run.status == 0, "stderr: \(run.err)")
        var sends: [String] = []
        // Both were reported before share had its answers: reading up to the second waits for nothing.
        while sends.count < 2, let line = proxy.nextLine() {
            let request = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
            if request["method"] == "PUT", let path = request["path"], path.contains("/send/") { sends.append(path) }
        }
        #expect(sends.count == 2 && sends[0] == sends[1], "the retry is the same request, the same transaction id: \(sends)")
        let bodies = try server.messages("#team:localhost").compactMap { ($0["content"] as? [String: Any])?["body"] as? String }
        #expect(bodies.filter { $0 == "once only" }.count == 1, "\(bodies)")
    }

    /// To offers the rooms the account is in (looked up in the background
    /// when the form opens, offered from the next opening) and the
    /// contacts' Matrix IDs; a room picked there gets the message.
    @Test func toOffersRoomsAndPeopleAndARoomPickedGetsTheMessage() throws {
        let fixtures = try Fixtures()
        let server = try Homeserver(fixtures)
        let contacts = fixtures.home.appendingPathComponent(".contacts", isDirectory: true)
        try FileManager.default.createDirectory(at: contacts, withIntermediateDirectories: true)
        try Data("BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Lee Jiwon\r\nIMPP:matrix:u/lee:localhost\r\nEND:VCARD\r\n".utf8)
            .write(to: contacts.appendingPathComponent("lee.vcf"))
        let config = try fixtures.writeConfig("[message.chat]\ntype = matrix\nhomeserver = \(server.url)\nuser = @kim:localhost\n"
                                              + "token-command = \(try Self.token(server))\n")
        let rooms = fixtures.root.appendingPathComponent("state/share/matrix/chat.rooms")
        let q = TmuxSession.quote
        let command = ([try Share.binary().path, "--config", config.path, "--activity", "message", "--json", "--text", "standup in 5"])
            .map(q).joined(separator: " ")
        let first = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        try first.waitFor("To:")
        try first.waitUntil("the rooms looked up") { _ in FileManager.default.fileExists(atPath: rooms.path) }
        try first.send("Escape")
        _ = try first.waitForExit()
        first.close()
        #expect(try String(contentsOf: rooms, encoding: .utf8) == "Team <#team:localhost>\n", "the encrypted room is left out")

        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        defer { session.close() }
        try session.waitFor("To:")
        try session.sendLiteral("le")
        let person = try session.waitFor("Lee Jiwon <@lee:localhost>")
        #expect(!person.contains("Team <#team"), "\(person.text)")
        try session.send("C-u")
        try session.sendLiteral("te")
        try session.waitUntil("the room offered") { !$0.text.contains("Lee Jiwon") && $0.text.contains("Team <#team:localhost>") }
        try session.send("Tab")
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        #expect((try server.messages("#team:localhost").last?["content"] as? [String: Any])?["body"] as? String == "standup in 5")
    }

    /// kim's access token, from a login (the way Element's "Access Token" gives one), as a token-command.
    static func token(_ server: Homeserver) throws -> String {
        let answer = try ServerScript.query("matrix_server.py", ["token", server.url, "kim", "kim-pass"])
        return "printf " + String(decoding: answer, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
