import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import ShareActivities
import ShareCore
import Testing

/// One place of Link's tests (`Tests/Support/link_servers.py`): a paste
/// form, fiche, `rclone serve webdav`, Nextcloud's WebDAV and share API,
/// or an S3 service that checks Signature Version 4 itself.
final class LinkPlaceServer {
    let server: ServerScript
    /// The folder the place keeps its files in (fiche, WebDAV, Nextcloud).
    let folder: URL

    init(_ fixtures: Fixtures, _ mode: String, _ arguments: [String] = []) throws {
        folder = fixtures.root.appendingPathComponent("place-\(mode)-\(UUID().uuidString.prefix(6))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("shared"), withIntermediateDirectories: true)
        let folderArgument = ["fiche", "webdav", "nextcloud"].contains(mode) ? [folder.path] : []
        server = try ServerScript(script: "link_servers.py", arguments: [mode] + folderArgument + arguments,
                                  logFile: fixtures.root.appendingPathComponent(folder.lastPathComponent + ".log"))
    }

    deinit { server.stop() }

    var port: Int { server.port }

    /// The next request the place reported, as JSON.
    func nextRequest() throws -> [String: Any] {
        let line = try #require(server.nextLine(within: 20), "the place reported no request; its log:\n\(server.log)")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }

    /// The bytes at `url`, fetched by Python's urllib.
    static func fetch(_ url: String) throws -> Data {
        try ServerScript.query("link_servers.py", ["fetch", url])
    }

    /// The status and body of a GET of `url`, whatever the status.
    static func fetchStatus(_ url: String) throws -> (status: Int, body: String) {
        let answer = String(decoding: try ServerScript.query("link_servers.py", ["fetch", url, "--status"]), as: UTF8.self)
        let status = try #require(Int(answer.prefix { $0 != "\n" }), "\(answer)")
        return (status, String(answer.drop { $0 != "\n" }.dropFirst()))
    }

    /// The members of the zip at `url`, read by Python's zipfile.
    static func unzip(_ url: String) throws -> [String: Data] {
        let json = try ServerScript.query("link_servers.py", ["fetch", url, "--unzip"])
        let members = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        return members.compactMapValues { Data(base64Encoded: $0) }
    }
}

/// Link (SPEC §9) against real places on 127.0.0.1: Debian's fiche for
/// termbin, a 0x0-style form that checks what it is sent, `rclone serve
/// webdav`, Nextcloud's share API, a local rclone remote, and an S3
/// service that checks each signature in Python. In each, the
/// bytes fetched back through the link (or found where the place keeps
/// them) are the bytes shared, and each failure has its words and code.
@Suite struct LinkTests {
    static func completion(_ run: ShareRun) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any], "stdout: \(run.out); stderr: \(run.err)")
    }

    /// The links of a completion's returned items.
    static func links(_ run: ShareRun) throws -> [String] {
        let items = try #require(try completion(run)["returnedItems"] as? [[String: Any]], "stdout: \(run.out)")
        return items.compactMap { $0["kind"] as? String == "url" ? $0["value"] as? String : nil }
    }

    /// The error code and message of a failed completion.
    static func error(_ run: ShareRun) throws -> (code: String, message: String) {
        let error = try #require(try completion(run)["error"] as? [String: Any], "stdout: \(run.out)")
        return (error["code"] as? String ?? "", error["message"] as? String ?? "")
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: - termbin (fiche)

    @Test func termbinSendsTheTextToFicheAndTheLinkFetchesItBack() throws {
        let fixtures = try Fixtures()
        let fiche = try LinkPlaceServer(fixtures, "fiche")
        let config = try fixtures.writeConfig("[link.bin]\ntype = termbin\nhost = 127.0.0.1\nport = \(fiche.port)\n")
        let text = try fixtures.share("--config", config.path, "--activity", "link", "--json", "--text", "빌드 로그: 3 failures")
        #expect(text.status == 0, "stderr: \(text.err)")
        let link = try #require(try LinkTests.links(text).first)
        #expect(link.hasPrefix("http://127.0.0.1:"), "\(link)")
        #expect(try LinkPlaceServer.fetch(link + "/index.txt") == Data("빌드 로그: 3 failures\n".utf8))

        // A text file goes byte for byte; the summary names the place and the link.
        let file = try fixtures.share("--config", config.path, "--activity", "link", fixtures.text.path)
        #expect(file.status == 0 && file.out.isEmpty, "stderr: \(file.err)")
        let said = file.err.trimmingCharacters(in: .newlines)
        #expect(said.hasPrefix("Uploaded to bin: http://127.0.0.1:"), "stderr: \(file.err)")
        let fileLink = String(said.dropFirst("Uploaded to bin: ".count))
        #expect(try LinkPlaceServer.fetch(fileLink + "/index.txt") == (try Data(contentsOf: fixtures.text)))
    }

    /// `[link] fallback`: a place that fails (a 503, a closed port) hands
    /// the share to the next, and the result says which one served.
    @Test func fallbackTriesTheNextPlaceAndSaysWhichServed() throws {
        let fixtures = try Fixtures()
        let failing = try LinkPlaceServer(fixtures, "paste", ["--status", "503"])
        let fiche = try LinkPlaceServer(fixtures, "fiche")
        let places = """
            [link.failing]
            type = paste
            url = http://127.0.0.1:\(failing.port)/
            [link.gone]
            type = paste
            url = http://127.0.0.1:\(try LinkTests.closedPort())/
            [link.bin]
            type = termbin
            host = 127.0.0.1
            port = \(fiche.port)
            """
        let config = try fixtures.writeConfig("[link]\nfallback = gone, bin\n" + places)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", "--text", "fallback works")
        #expect(run.status == 0, "stderr: \(run.err)")
        let link = try #require(try LinkTests.links(run).first)
        #expect(try LinkPlaceServer.fetch(link + "/index.txt") == Data("fallback works\n".utf8))
        let warnings = try #require(try LinkTests.completion(run)["warnings"] as? [String], "\(run.out)")
        #expect(warnings.count == 2 && warnings[0].hasPrefix("tried first: failing: ") && warnings[0].contains("HTTP 503")
                && warnings[1].hasPrefix("tried first: gone: "), "\(warnings)")
        #expect(try failing.nextRequest()["parts"] != nil, "the first place was tried")

        // Every place failing: the last one's error, naming those tried before.
        let none = try fixtures.writeConfig("[link]\nfallback = gone\n" + places)
        let failed = try fixtures.share("--config", none.path, "--activity", "link", "--json", "--text", "x")
        #expect(failed.status == 3, "\(failed.err)")
        let error = try LinkTests.error(failed)
        #expect(error.code == "place-unreachable" && error.message.contains("tried before: failing: "), "\(error)")

        // A fallback naming no place is a config error with its line.
        let wrong = try fixtures.writeConfig("[link]\nfallback = nowhere\n" + places)
        let refused = try fixtures.share("--config", wrong.path, "--activity", "link", "--text", "x")
        #expect(refused.status == 2 && refused.err.contains("fallback names no place: there is no [link.nowhere] section"), "\(refused.err)")
    }

    @Test func termbinTakesTextOnly() throws {
        let fixtures = try Fixtures()
        let fiche = try LinkPlaceServer(fixtures, "fiche")
        let config = try fixtures.writeConfig("[link.bin]\ntype = termbin\nhost = 127.0.0.1\nport = \(fiche.port)\n")
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", fixtures.png.path)
        #expect(run.status == 2, "refused before anything was sent; stderr: \(run.err)")
        let error = try LinkTests.error(run)
        #expect(error.code == "invalid-input" && error.message.contains("takes one text") && error.message.contains("image/png"), "\(error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fiche.folder.path) == ["shared"], "nothing reached fiche")
    }

    @Test func termbinThatDoesNotAnswerTimesOutAndOneThatIsNotThereIsUnreachable() throws {
        let fixtures = try Fixtures()
        let silent = try LinkPlaceServer(fixtures, "silent")
        let port = try LinkTests.closedPort()
        let config = try fixtures.writeConfig("""
            [link.quiet]
            type = termbin
            host = 127.0.0.1
            port = \(silent.port)
            timeout = 1
            [link.gone]
            type = termbin
            host = 127.0.0.1
            port = \(port)
            """)
        let quiet = try fixtures.share("--config", config.path, "--activity", "link", "--json", "--text", "hello")
        #expect(quiet.status == 3, "stderr: \(quiet.err)")
        let timeout = try LinkTests.error(quiet)
        #expect(timeout.code == "timeout" && timeout.message.contains("within 1 s"), "\(timeout)")

        let gone = try fixtures.share("--config", config.path, "--activity", "link", "--place", "gone", "--json", "--text", "hello")
        let unreachable = try LinkTests.error(gone)
        #expect(gone.status == 3 && unreachable.code == "place-unreachable", "\(unreachable)")
        #expect(unreachable.message.contains("127.0.0.1:\(port)") && unreachable.message.contains("refused"), "\(unreachable)")
    }

    // MARK: - paste (a 0x0-style form)

    @Test func pasteSendsTheFormAndTheLinkServesTheBytes() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\nfield = upload\nexpires = 24\n")
        let bytes = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) })
        let file = try fixtures.file("build.bin", bytes)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", file.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(run.err.isEmpty, "nothing but the JSON with --json; stderr: \(run.err)")
        let request = try paste.nextRequest()
        let parts = try #require(request["parts"] as? [[String: Any]])
        #expect(parts.count == 2, "\(parts.map { $0["name"] ?? "" })")
        let filePart = try #require(parts.first { $0["name"] as? String == "upload" }, "the file goes in the configured field")
        #expect(filePart["filename"] as? String == "build.bin" && filePart["size"] as? Int == bytes.count, "\(filePart)")
        let expires = try #require(parts.first { $0["name"] as? String == "expires" })
        #expect(Data(base64Encoded: expires["bytes"] as? String ?? "") == Data("24".utf8))
        let link = try #require(try LinkTests.links(run).first)
        #expect(try LinkPlaceServer.fetch(link) == bytes)

        // The history has the share; --undo deletes it with the token the service gave.
        let history = try fixtures.share("--history")
        #expect(history.out.contains("link") && history.out.contains(link), "\(history.out)")
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out == "deleted build.bin from paste\n", "stdout: \(undo.out); stderr: \(undo.err)")
        let deletion = try paste.nextRequest()
        #expect(deletion["path"] as? String == "/f/build.bin" && deletion["delete"] as? [String: String] == ["token": "tok-1", "delete": ""],
                "0x0's deletion: the token and delete, posted to the link: \(deletion)")
        #expect(try LinkPlaceServer.fetchStatus(link).status == 404, "the upload is gone")
        #expect(try fixtures.share("--undo").status == 3, "not deleted twice")
    }

    /// termbin keeps what it is sent: --undo says so and fails.
    @Test func undoSaysWhereAnUploadCannotBeDeleted() throws {
        let fixtures = try Fixtures()
        let fiche = try LinkPlaceServer(fixtures, "fiche")
        let config = try fixtures.writeConfig("[link.bin]\ntype = termbin\nhost = 127.0.0.1\nport = \(fiche.port)\n")
        #expect(try fixtures.share("--config", config.path, "--activity", "link", "--text", "kept").status == 0)
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 3 && undo.err.contains("termbin keeps what it is sent; bin cannot delete it"), "stderr: \(undo.err)")
    }

    @Test func textBecomesOneFileNamedAfterTheSubjectAndSeveralFilesOneZip() throws {
        let fixtures = try Fixtures()
        let paste = try LinkPlaceServer(fixtures, "paste")
        let config = try fixtures.writeConfig("[link.paste]\ntype = paste\nurl = http://127.0.0.1:\(paste.port)/\n")
        let text = try fixtures.share("--config", config.path, "--activity", "link", "--json", "--subject", "Build log",
                                      "--text", "line one", "https://example.com/ci/42")
        #expect(text.status == 0, "stderr: \(text.err)")
        let parts = try #require(try paste.nextRequest()["parts"] as? [[String: Any]])
        #expect(parts.count == 1 && parts[0]["name"] as? String == "file" && parts[0]["filename"] as? String == "Build log.txt", "\(parts)")
        #expect(Data(base64Encoded: parts[0]["bytes"] as? String ?? "") == Data("line one\nhttps://example.com/ci/42\n".utf8))

        let several = try fixtures.share("--config", config.path, "--activity", "link", "--json", fixtures.pdf.path, fixtures.png.path)
        #expect(several.status == 0, "stderr: \(several.err)")
        let zipped = try #require(try paste.nextRequest()["parts"] as? [[String: Any]])
        #expect(zipped.first?["filename"] as? String == "shared.zip" && zipped.first?["type"] as? String == "application/zip", "\(zipped)")
        let members = try LinkPlaceServer.unzip(try #require(try LinkTests.links(several).first))
        #expect(members == ["Q4 Projections.pdf": try Data(contentsOf: fixtures.pdf), "pic.png": try Data(contentsOf: fixtures.png)])
    }

    @Test func aPlaceThatRefusesFailsOrAnswersNoLinkSaysSo() throws {
        let fixtures = try Fixtures()
        let refusing = try LinkPlaceServer(fixtures, "paste", ["--status", "413"])
        let failing = try LinkPlaceServer(fixtures, "paste", ["--status", "503"])
        let chatty = try LinkPlaceServer(fixtures, "paste", ["--answer", "Thanks! Your file is safe with us."])
        let silent = try LinkPlaceServer(fixtures, "silent")
        let config = try fixtures.writeConfig("""
            [link.refusing]
            type = paste
            url = http://127.0.0.1:\(refusing.port)/
            [link.failing]
            type = paste
            url = http://127.0.0.1:\(failing.port)/
            [link.chatty]
            type = paste
            url = http://127.0.0.1:\(chatty.port)/
            [link.silent]
            type = paste
            url = http://127.0.0.1:\(silent.port)/
            timeout = 1
            [link.gone]
            type = paste
            url = http://127.0.0.1:\(try LinkTests.closedPort())/
            """)
        func failure(_ place: String) throws -> (code: String, message: String) {
            let run = try fixtures.share("--config", config.path, "--activity", "link", "--place", place, "--json", fixtures.text.path)
            #expect(run.status == 3, "\(place): stderr: \(run.err)")
            return try LinkTests.error(run)
        }
        let refused = try failure("refusing")
        #expect(refused.code == "upload-refused" && refused.message.contains("HTTP 413: the file is too large for this test"), "\(refused)")
        let failed = try failure("failing")
        #expect(failed.code == "upload-failed" && failed.message.contains("HTTP 503"), "\(failed)")
        let noLink = try failure("chatty")
        #expect(noLink.code == "no-link" && noLink.message.contains("'Thanks! Your file is safe with us.'"), "\(noLink)")
        let timeout = try failure("silent")
        #expect(timeout.code == "timeout" && timeout.message.contains("[link.silent] timeout"), "\(timeout)")
        let gone = try failure("gone")
        #expect(gone.code == "place-unreachable" && gone.message.contains("could not connect"), "\(gone)")
        // Each place got the file once: no retries behind the person's back.
        for place in [refusing, failing, chatty] { #expect(try place.nextRequest()["parts"] != nil) }
    }

    // MARK: - WebDAV

    @Test func webdavPutsTheFileByteForByteAndKeepsThePasswordSecret() throws {
        let fixtures = try Fixtures()
        let dav = try LinkPlaceServer(fixtures, "webdav", ["--user", "kim", "--pass", "s3cr3t-word"])
        let config = try fixtures.writeConfig("""
            [link.dav]
            type = webdav
            url = http://127.0.0.1:\(dav.port)/shared/
            user = kim
            password-command = printf s3cr3t-word
            [link.wrong]
            type = webdav
            url = http://127.0.0.1:\(dav.port)/shared/
            user = kim
            password-command = printf wrong-word
            [link.nofolder]
            type = webdav
            url = http://127.0.0.1:\(dav.port)/missing/
            user = kim
            password-command = printf s3cr3t-word
            """)
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let file = try fixtures.file("report 2026.bin", bytes)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", file.path, fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try LinkTests.links(run) == ["http://127.0.0.1:\(dav.port)/shared/report%202026.bin", "http://127.0.0.1:\(dav.port)/shared/pic.png"],
                "WebDAV gives each file a link of its own")
        #expect(try Data(contentsOf: dav.folder.appendingPathComponent("shared/report 2026.bin")) == bytes)
        #expect(try Data(contentsOf: dav.folder.appendingPathComponent("shared/pic.png")) == (try Data(contentsOf: fixtures.png)))

        let wrong = try fixtures.share("--config", config.path, "--activity", "link", "--place", "wrong", "--json", fixtures.text.path)
        let refused = try LinkTests.error(wrong)
        #expect(wrong.status == 3 && refused.code == "upload-refused" && refused.message.contains("HTTP 401"), "\(refused)")
        #expect(!(wrong.out + wrong.err).contains("wrong-word") && !(run.out + run.err).contains("s3cr3t"), "a password is never printed")

        let missing = try fixtures.share("--config", config.path, "--activity", "link", "--place", "nofolder", "--json", fixtures.text.path)
        let noFolder = try LinkTests.error(missing)
        #expect(noFolder.code == "upload-refused" && noFolder.message.contains("does not exist there; make it first"), "\(noFolder)")
    }

    @Test func httpsPlacesAreCheckedAndCaFileTrustsAPrivateOne() throws {
        let fixtures = try Fixtures()
        let certificate = try MailTLSTests.makeCertificate(in: fixtures.root)
        let dav = try LinkPlaceServer(fixtures, "webdav", ["--user", "kim", "--pass", "pw", "--cert", certificate.cert.path,
                                                          "--key", certificate.key.path])
        let config = try fixtures.writeConfig("""
            [link.private]
            type = webdav
            url = https://127.0.0.1:\(dav.port)/shared/
            user = kim
            password-command = printf pw
            ca-file = \(certificate.cert.path)
            [link.untrusted]
            type = webdav
            url = https://127.0.0.1:\(dav.port)/shared/
            user = kim
            password-command = printf pw
            """)
        let trusted = try fixtures.share("--config", config.path, "--activity", "link", "--json", fixtures.text.path)
        #expect(trusted.status == 0, "stderr: \(trusted.err)")
        #expect(try LinkTests.links(trusted) == ["https://127.0.0.1:\(dav.port)/shared/note.txt"])
        #expect(try Data(contentsOf: dav.folder.appendingPathComponent("shared/note.txt")) == (try Data(contentsOf: fixtures.text)))

        let untrusted = try fixtures.share("--config", config.path, "--activity", "link", "--place", "untrusted", "--json", fixtures.pdf.path)
        let error = try LinkTests.error(untrusted)
        #expect(untrusted.status == 3 && error.code == "place-unreachable", "\(error)")
        #expect(error.message.contains("certificate") && error.message.contains("ca-file"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: dav.folder.appendingPathComponent("shared/Q4 Projections.pdf").path))
    }

    @Test func placesAreCompletedForTheShell() throws {
        let fixtures = try Fixtures()
        let config = try fixtures.writeConfig("[link.zeta]\ntype = paste\nurl = https://0x0.st/\n[link.alpha]\ntype = termbin\nhost = termbin.com\nport = 9999\n")
        let run = try fixtures.share("--config", config.path, "--complete", "places")
        #expect(run.status == 0 && run.out == "zeta\nalpha\n", "in the order written; stdout: \(run.out); stderr: \(run.err)")
    }

    @Test func nextcloudSharesTheFileThroughTheOCSAPI() throws {
        let fixtures = try Fixtures()
        let cloud = try LinkPlaceServer(fixtures, "nextcloud", ["--user", "kim", "--pass", "s3cr3t-word"])
        let config = try fixtures.writeConfig("""
            [link.cloud]
            type = webdav
            url = http://127.0.0.1:\(cloud.port)/remote.php/dav/files/kim/shared/
            user = kim
            password-command = printf s3cr3t-word
            share = nextcloud
            """)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", fixtures.pdf.path)
        #expect(run.status == 0, "stderr: \(run.err); log: \(cloud.server.log)")
        let put = try cloud.nextRequest()
        #expect(put["method"] as? String == "PUT" && put["path"] as? String == "/remote.php/dav/files/kim/shared/Q4 Projections.pdf", "\(put)")
        let share = try cloud.nextRequest()
        #expect(share["path"] as? String == "/ocs/v2.php/apps/files_sharing/api/v1/shares?format=json" && share["ocs"] as? String == "true", "\(share)")
        #expect(share["form"] as? [String: String] == ["path": "/shared/Q4 Projections.pdf", "shareType": "3"], "\(share)")
        let link = try #require(try LinkTests.links(run).first)
        #expect(link.hasPrefix("http://127.0.0.1:\(cloud.port)/s/"), "the public share's link, not the WebDAV address: \(link)")
        #expect(try LinkPlaceServer.fetch(link) == (try Data(contentsOf: fixtures.pdf)))

        // --undo: the public share and the file deleted, the password read again from the config.
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out == "deleted Q4 Projections.pdf and its public link from cloud\n", "stdout: \(undo.out); stderr: \(undo.err)")
        let unshare = try cloud.nextRequest()
        #expect(unshare["method"] as? String == "DELETE" && unshare["path"] as? String == "/ocs/v2.php/apps/files_sharing/api/v1/shares/T1?format=json"
                && unshare["ocs"] as? String == "true", "\(unshare)")
        #expect(try LinkPlaceServer.fetchStatus(link).status == 404, "the public link is gone")
        #expect(!FileManager.default.fileExists(atPath: cloud.folder.appendingPathComponent("shared/Q4 Projections.pdf").path), "the file is gone")

        // A place no longer in the config: said, with what to delete by hand.
        #expect(try fixtures.share("--config", config.path, "--activity", "link", fixtures.png.path).status == 0)
        try Data("[link.other]\ntype = termbin\nhost = 127.0.0.1\nport = 9\n".utf8).write(to: config)
        let gone = try fixtures.share("--undo")
        #expect(gone.status == 3 && gone.err.contains("has no [link.cloud] section any more; delete pic.png there by hand"), "stderr: \(gone.err)")
    }

    // MARK: - rclone

    @Test func rcloneCopiesToTheRemoteAndSaysClearlyWhenItCannotLink() throws {
        let fixtures = try Fixtures()
        let rcloneConfig = fixtures.root.appendingPathComponent("rclone.conf")
        let destination = fixtures.root.appendingPathComponent("remote-folder")
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        let made = try Share.run(URL(fileURLWithPath: "/usr/bin/rclone"), ["config", "create", "here", "local"],
                                 environment: ["RCLONE_CONFIG": rcloneConfig.path, "PATH": "/usr/bin:/bin", "HOME": fixtures.home.path],
                                 directory: fixtures.root)
        try #require(made.status == 0, "rclone config create: \(made.err)")
        let config = try fixtures.writeConfig("[link.drive]\ntype = rclone\nremote = here:\(destination.path)\n")
        let run = try fixtures.share(["--config", config.path, "--activity", "link", "--json", fixtures.pdf.path],
                                     changes: ["RCLONE_CONFIG": rcloneConfig.path])
        #expect(run.status == 3, "stderr: \(run.err)")
        #expect(try Data(contentsOf: destination.appendingPathComponent("Q4 Projections.pdf")) == (try Data(contentsOf: fixtures.pdf)),
                "rclone copyto put the file on the remote")
        let error = try LinkTests.error(run)
        #expect(error.code == "no-link", "\(error)")

        // What --undo runs for an rclone upload: rclone deletefile, the place read again from the config.
        let step = UndoAction("deleteUpload", ["place": "drive", "type": "rclone", "config": config.path, "name": "Q4 Projections.pdf",
                                               "link": "https://example.com/x", "target": "here:\(destination.path)/Q4 Projections.pdf"])
        var environment = fixtures.environment
        environment["RCLONE_CONFIG"] = rcloneConfig.path
        let deleted = LinkUndo.delete(step, environment: environment)
        #expect(deleted == .success("deleted here:\(destination.path)/Q4 Projections.pdf"), "\(deleted)")
        #expect(!FileManager.default.fileExists(atPath: destination.appendingPathComponent("Q4 Projections.pdf").path))
        #expect(error.message.contains("rclone link failed") && error.message.contains("doesn't support public links"), "\(error.message)")
        #expect(!error.message.hasPrefix("20"), "rclone's date is left out: \(error.message)")

        // No rclone on PATH: said, with what to install.
        let missing = try fixtures.share(["--config", config.path, "--activity", "link", "--json", fixtures.pdf.path],
                                         changes: ["PATH": fixtures.root.path])
        let noRclone = try LinkTests.error(missing)
        #expect(noRclone.code == "configuration" && noRclone.message.contains("apt install rclone"), "\(noRclone)")
    }

    // MARK: - S3

    /// An S3 place's section for the test service at `port`.
    static func s3Place(_ name: String, port: Int, secret: String = "s3cr3t/Key+42", bucket: String = "shared", more: String = "") -> String {
        """
        [link.\(name)]
        type = s3
        endpoint = http://127.0.0.1:\(port)
        bucket = \(bucket)
        access-key = AKIDTEST
        secret-key-command = printf '%s' '\(secret)'

        """ + more
    }

    /// Starts the test's S3 service, its one bucket `shared`.
    static func s3Server(_ fixtures: Fixtures) throws -> LinkPlaceServer {
        try LinkPlaceServer(fixtures, "s3", ["--access-key", "AKIDTEST", "--secret-key", "s3cr3t/Key+42", "--bucket", "shared"])
    }

    /// Each file is PUT with a signature the service checks, the SHA-256 it
    /// signs is that of the bytes received, and each file's presigned link
    /// fetches its bytes back until it expires; a link whose signature is
    /// changed fetches nothing.
    @Test func s3PutsEachFileSignedAndItsPresignedLinkFetchesItUntilItExpires() throws {
        let fixtures = try Fixtures()
        let s3 = try LinkTests.s3Server(fixtures)
        let config = try fixtures.writeConfig(LinkTests.s3Place("bucket", port: s3.port, more: "prefix = /team/2026/\nexpires = 1h\n"))
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })
        let file = try fixtures.file("build.bin", bytes)
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", file.path, fixtures.png.path)
        #expect(run.status == 0, "stderr: \(run.err); log: \(s3.server.log)")
        let links = try LinkTests.links(run)
        try #require(links.count == 2, "S3 gives each file a link of its own: \(links)")
        for (link, name) in zip(links, ["build.bin", "pic.png"]) {
            #expect(link.hasPrefix("http://127.0.0.1:\(s3.port)/shared/team/2026/\(name)?"), "\(link)")
            for parameter in ["X-Amz-Algorithm=AWS4-HMAC-SHA256", "X-Amz-Credential=AKIDTEST%2F", "%2Fus-east-1%2Fs3%2Faws4_request",
                              "X-Amz-Expires=3600", "X-Amz-SignedHeaders=host", "X-Amz-Signature="] {
                #expect(link.contains(parameter), "\(parameter) in \(link)")
            }
        }
        for (expected, name) in [(bytes, "build.bin"), (try Data(contentsOf: fixtures.png), "pic.png")] {
            let put = try s3.nextRequest()
            #expect(put["method"] as? String == "PUT" && put["status"] as? Int == 200 && put["key"] as? String == "team/2026/\(name)", "\(put)")
            #expect(put["size"] as? Int == expected.count && put["sha256"] as? String == put["contentSha256"] as? String, "\(put)")
            #expect(put["signedHeaders"] as? [String] == ["host", "x-amz-content-sha256", "x-amz-date"], "\(put)")
        }
        #expect(try LinkPlaceServer.fetch(links[0]) == bytes)
        #expect(try LinkPlaceServer.fetch(links[1]) == (try Data(contentsOf: fixtures.png)))
        #expect(!(run.out + run.err).contains("s3cr3t"), "the secret key is never printed")

        // A signature changed in one digit is refused.
        let last = try #require(links[0].last)
        let tampered = String(links[0].dropLast()) + (last == "0" ? "1" : "0")
        let refused = try LinkPlaceServer.fetchStatus(tampered)
        #expect(refused.status == 403 && refused.body.contains("<Code>SignatureDoesNotMatch</Code>"), "\(refused)")

        // An hour later the link is refused: the service's clock moves instead of the test waiting.
        #expect(try LinkPlaceServer.fetchStatus(links[0]).status == 200)
        _ = try LinkPlaceServer.fetch("http://127.0.0.1:\(s3.port)/_test/clock?advance=3601")
        let expired = try LinkPlaceServer.fetchStatus(links[0])
        #expect(expired.status == 403 && expired.body.contains("<Code>AccessDenied</Code><Message>Request has expired</Message>"), "\(expired)")
    }

    /// A key with spaces, unicode and characters that URIs reserve is
    /// encoded as the signature's rules say (the service decodes the path
    /// and encodes it again): the key and the bytes come back the same.
    @Test func s3KeysWithSpacesAndUnicodeRoundTrip() throws {
        let fixtures = try Fixtures()
        let s3 = try LinkTests.s3Server(fixtures)
        let config = try fixtures.writeConfig(LinkTests.s3Place("bucket", port: s3.port, more: "prefix = 보고서 2026\n"))
        let name = "결과 (최종) #1+2=3 ~ 100%.txt"
        let file = try fixtures.file(name, Data("빌드 결과\n".utf8))
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", file.path)
        #expect(run.status == 0, "stderr: \(run.err); log: \(s3.server.log)")
        let put = try s3.nextRequest()
        #expect(put["status"] as? Int == 200 && put["key"] as? String == "보고서 2026/" + name, "\(put)")
        let link = try #require(try LinkTests.links(run).first)
        #expect(link.contains("/shared/%EB%B3%B4%EA%B3%A0%EC%84%9C%202026/"), "each segment encoded, '/' kept: \(link)")
        #expect(link.contains("%20%28%EC%B5%9C%EC%A2%85%29%20%231%2B2%3D3%20~%20100%25.txt?"), "\(link)")
        #expect(link.contains("X-Amz-Expires=604800"), "7 days unless expires says otherwise: \(link)")
        #expect(try LinkPlaceServer.fetch(link) == Data("빌드 결과\n".utf8))
    }

    /// A wrong secret is S3's SignatureDoesNotMatch, a bucket that is not
    /// there NoSuchBucket, a secret-key-command that fails a configuration
    /// error, a closed port unreachable: each with its code and what to do.
    @Test func s3FailuresSayWhatTheServiceSaidAndWhatToDo() throws {
        let fixtures = try Fixtures()
        let s3 = try LinkTests.s3Server(fixtures)
        let config = try fixtures.writeConfig(LinkTests.s3Place("wrong", port: s3.port, secret: "not-the-s3cr3t")
                                              + LinkTests.s3Place("nobucket", port: s3.port, bucket: "missing")
                                              + "[link.nosecret]\ntype = s3\nendpoint = http://127.0.0.1:\(s3.port)\nbucket = shared\n"
                                              + "access-key = AKIDTEST\nsecret-key-command = echo no pass here >&2; exit 3\n"
                                              + LinkTests.s3Place("gone", port: try LinkTests.closedPort()))
        func failure(_ place: String) throws -> (code: String, message: String) {
            let run = try fixtures.share("--config", config.path, "--activity", "link", "--place", place, "--json", fixtures.text.path)
            #expect(run.status == 3, "\(place): stderr: \(run.err)")
            #expect(!(run.out + run.err).contains("s3cr3t"), "the secret key is never printed")
            return try LinkTests.error(run)
        }
        let wrong = try failure("wrong")
        #expect(wrong.code == "upload-refused" && wrong.message.contains("wrong refused note.txt (HTTP 403: SignatureDoesNotMatch: "), "\(wrong)")
        #expect(wrong.message.hasSuffix("; check access-key and secret-key-command"), "\(wrong)")
        let refusedPut = try s3.nextRequest()
        #expect(refusedPut["code"] as? String == "SignatureDoesNotMatch" && refusedPut["status"] as? Int == 403, "\(refusedPut)")
        let noBucket = try failure("nobucket")
        #expect(noBucket.code == "upload-refused" && noBucket.message.contains("HTTP 404: NoSuchBucket: The specified bucket does not exist")
                && noBucket.message.contains("the bucket missing does not exist at http://127.0.0.1:\(s3.port): make it first"), "\(noBucket)")
        let noSecret = try failure("nosecret")
        #expect(noSecret.code == "configuration" && noSecret.message.contains("[link.nosecret] secret-key-command failed (exit 3): no pass here"),
                "\(noSecret)")
        let gone = try failure("gone")
        #expect(gone.code == "place-unreachable" && gone.message.contains("could not connect"), "\(gone)")
    }

    /// The signed DELETE that `share --undo` is to use: the object's link
    /// answers 404 afterwards; with a wrong secret the object stays.
    @Test func s3DeleteRemovesAnUploadedObject() throws {
        let fixtures = try Fixtures()
        let s3 = try LinkTests.s3Server(fixtures)
        let config = try fixtures.writeConfig(LinkTests.s3Place("bucket", port: s3.port, more: "prefix = undo me\n"))
        let run = try fixtures.share("--config", config.path, "--activity", "link", "--json", fixtures.pdf.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        let link = try #require(try LinkTests.links(run).first)
        #expect(try LinkPlaceServer.fetch(link) == (try Data(contentsOf: fixtures.pdf)))

        // --undo with a wrong secret in the config now: refused, and the object stays.
        try Data(LinkTests.s3Place("bucket", port: s3.port, secret: "wrong", more: "prefix = undo me\n").utf8).write(to: config)
        let refused = try fixtures.share("--undo")
        #expect(refused.status == 3 && refused.err.contains("refused to delete undo me/Q4 Projections.pdf")
                && refused.err.contains("SignatureDoesNotMatch"), "stderr: \(refused.err)")
        #expect(try LinkPlaceServer.fetchStatus(link).status == 200, "a refused delete leaves the object")

        try Data(LinkTests.s3Place("bucket", port: s3.port, more: "prefix = undo me\n").utf8).write(to: config)
        let undo = try fixtures.share("--undo")
        #expect(undo.status == 0 && undo.out == "deleted undo me/Q4 Projections.pdf from bucket\n", "stdout: \(undo.out); stderr: \(undo.err)")
        let gone = try LinkPlaceServer.fetchStatus(link)
        #expect(gone.status == 404 && gone.body.contains("<Code>NoSuchKey</Code>"), "\(gone)")
        var reports: [[String: Any]] = []
        while reports.last?["method"] as? String != "DELETE" || reports.last?["status"] as? Int != 204 { reports.append(try s3.nextRequest()) }
        #expect(reports.last?["key"] as? String == "undo me/Q4 Projections.pdf", "\(reports)")
    }

    /// The signer against the published example of Signature Version 4
    /// (a presigned GET and a header-signed GET of `test.txt`, 24 May 2013).
    @Test func s3SignerMatchesThePublishedExamples() throws {
        let signer = S3Signer(accessKey: "AKIAIOSFODNN7EXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", region: "us-east-1")
        let date = Date(timeIntervalSince1970: 1_369_353_600)
        let query = try signer.presignedQuery("GET", path: "/test.txt", host: "examplebucket.s3.amazonaws.com", seconds: 86_400, at: date)
        #expect(query == "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
                + "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        let request = S3Signer.canonicalRequest("GET", path: "/test.txt", query: [], headers: [
            ("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"), ("x-amz-content-sha256", S3Signer.emptyPayload),
            ("x-amz-date", "20130524T000000Z"),
        ], payloadHash: S3Signer.emptyPayload)
        #expect(request.signedHeaders == "host;range;x-amz-content-sha256;x-amz-date")
        #expect(try signer.sign(request.text, time: "20130524T000000Z") == "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
        #expect(S3Signer.path(["b", "a b/c", "~ü"]) == "/b/a%20b%2Fc/~%C3%BC")
    }

    /// How the question lists an S3 place, and its endpoint as requests name it.
    @MainActor @Test func s3PlaceIsListedByEndpointAndBucket() {
        var place = LinkPlace(name: "archive", kind: .s3)
        place.endpoint = LinkActivity.s3Endpoint("HTTPS://S3.EU-West-1.amazonaws.com:443/")
        place.bucket = "team-files"
        #expect(LinkActivity.describe(place) == "archive · s3 · https://s3.eu-west-1.amazonaws.com/team-files")
        #expect(LinkActivity.s3Endpoint("http://[::1]:9000") == "http://[::1]:9000")
        #expect(LinkActivity.s3Endpoint("http://minio.lan:80") == "http://minio.lan")
        #expect(LinkActivity.s3Endpoint("https://kim@s3.example.com") == nil)
        #expect(LinkActivity.s3Endpoint("https://s3.example.com/bucket") == nil)
        #expect(LinkActivity.s3Endpoint("https://s3.example.com:99999") == nil)
        #expect(LinkActivity.s3Endpoint("ftp://s3.example.com") == nil)
    }

    // MARK: - Places

    @Test func withoutAPlaceLinkIsUnavailableAndSaysWhy() throws {
        let fixtures = try Fixtures()
        let explain = try fixtures.share("--explain", "--json", fixtures.pdf.path)
        let rows = try #require(try JSONSerialization.jsonObject(with: explain.stdout) as? [[String: Any]])
        let link = try #require(rows.first { $0["type"] as? String == "link" })
        #expect(link["title"] as? String == "Link" && link["category"] as? String == "action" && link["eligible"] as? Bool == false)
        #expect(link["reason"] as? String == "unavailable" && link["detail"] as? String == "no place configured: add a [link.NAME] section")
        let run = try fixtures.share("--activity", "link", fixtures.pdf.path)
        run.expectExit(4, saying: "no place configured")
    }

    @Test func placeChoosesAmongPlacesAndDefaultOverridesTheFirst() throws {
        let fixtures = try Fixtures()
        let first = try LinkPlaceServer(fixtures, "paste")
        let second = try LinkPlaceServer(fixtures, "paste")
        let places = "[link.one]\ntype = paste\nurl = http://127.0.0.1:\(first.port)/\n[link.two]\ntype = paste\nurl = http://127.0.0.1:\(second.port)/\n"
        let firstIsUsed = try fixtures.writeConfig(places, at: "first.conf")
        let run = try fixtures.share("--config", firstIsUsed.path, "--activity", "link", "--json", fixtures.text.path)
        #expect(try LinkTests.links(run).first?.contains(":\(first.port)/") == true, "\(run.out)")
        let defaulted = try fixtures.writeConfig("[link]\ndefault = two\n" + places, at: "default.conf")
        let second1 = try fixtures.share("--config", defaulted.path, "--activity", "link", "--json", fixtures.text.path)
        #expect(try LinkTests.links(second1).first?.contains(":\(second.port)/") == true, "\(second1.out)")
        let named = try fixtures.share("--config", defaulted.path, "--activity", "link", "--place", "one", "--json", fixtures.text.path)
        #expect(try LinkTests.links(named).first?.contains(":\(first.port)/") == true, "\(named.out)")

        let unknown = try fixtures.share("--config", defaulted.path, "--activity", "link", "--place", "three", "--json", fixtures.text.path)
        let error = try LinkTests.error(unknown)
        #expect(unknown.status == 3 && error.code == "no-place" && error.message == "no place called three: the places are one, two", "\(error)")
    }

    @Test func aPlaceThatCannotWorkIsAConfigErrorWithItsLine() throws {
        let fixtures = try Fixtures()
        let cases: [(String, String)] = [
            ("[link.x]\ntype = ftp\n", "share.conf:2: type is paste, termbin, webdav, rclone or s3, not 'ftp'"),
            ("[link.x]\ntype = s3\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\n", "[link.x] (type = s3) needs `endpoint = …`"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\naccess-key = K\nsecret-key-command = pass s3\n",
             "[link.x] (type = s3) needs `bucket = …`"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\nsecret-key-command = pass s3\n",
             "[link.x] (type = s3) needs `access-key = …`"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\naccess-key = K\n", "[link.x] (type = s3) needs `secret-key-command = …`"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com/b\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\n",
             "share.conf:3: endpoint is the S3 service's http:// or https:// address without a path"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = my/bucket\naccess-key = K\nsecret-key-command = pass s3\n",
             "share.conf:4: bucket is a bucket's name"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\nexpires = 8d\n",
             "share.conf:7: expires is at most 7d (604800 s), the longest an S3 presigned link lasts, not '8d'"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\nexpires = 604801\n",
             "share.conf:7: expires is at most 7d"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\nexpires = soon\n",
             "share.conf:7: expires is how long the link stays valid, in seconds or as 12h or 7d, not 'soon'"),
            ("[link.x]\ntype = s3\nendpoint = https://s3.example.com\nbucket = b\naccess-key = K\nsecret-key-command = pass s3\nprefix = a/../b\n",
             "share.conf:7: prefix is a folder inside the bucket"),
            ("[link.x]\nurl = https://0x0.st/\n", "[link.x] needs `type = paste`"),
            ("[link.x]\ntype = paste\n", "[link.x] (type = paste) needs `url = …`"),
            ("[link.x]\ntype = termbin\nhost = termbin.com\nport = 99999\n", "port is a number from 1 to 65535"),
            ("[link.x]\ntype = webdav\nurl = https://cloud.example/dav/\nuser = kim\n", "sets user but not password-command"),
            ("[link.x]\ntype = webdav\nurl = https://cloud.example/dav/\nshare = dropbox\n", "share is nextcloud or owncloud"),
            ("[link]\ndefault = y\n[link.x]\ntype = paste\nurl = https://0x0.st/\n", "default names no place: there is no [link.y] section"),
            ("[link.x]\ntype = paste\nurl = https://0x0.st/\ntoken = abc\n", "token"),
        ]
        for (config, words) in cases {
            let file = try fixtures.writeConfig(config)
            let run = try fixtures.share("--config", file.path, "--list", fixtures.text.path)
            run.expectExit(2, saying: words)
        }
        // Every s3 key at once, expires at its longest: a place that works.
        let s3 = try fixtures.writeConfig("""
            [link.x]
            type = s3
            endpoint = https://s3.eu-west-1.amazonaws.com
            bucket = team.files-2026
            region = eu-west-1
            access-key = AKIAIOSFODNN7EXAMPLE
            secret-key-command = pass show s3
            prefix = shared/links
            expires = 7d
            ca-file = ~/ca.pem
            timeout = 30
            """)
        let listed = try fixtures.share("--config", s3.path, "--list", fixtures.text.path)
        #expect(listed.status == 0 && listed.out.contains("link"), "stdout: \(listed.out); stderr: \(listed.err)")
    }
}
