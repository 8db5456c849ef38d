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

    @Test func aWrongPasswordAndAMissingRoomSaySo() throws {
        let fixtures = try Fixtures()
        let server = try Homeserver(fixtures)
        let wrong = try Self.config(fixtures, server, login: "password-command = printf wrong")
        let refused = try MessageTests.message(fixtures, wrong, to: "#team:localhost", ["--text", "hi"])
        refused.expectExit(3, saying: "refused the login of @kim:localhost (HTTP 403: M_FORBIDDEN")
        let config = try Self.config(fixtures, server)
        let missing = try MessageTests.message(fixtures, config, to: "#nowhere:localhost", ["--text", "hi"])
        missing.expectExit(3, saying: "no room #nowhere:localhost on \(server.url) (HTTP 404: M_NOT_FOUND")
    }
}
