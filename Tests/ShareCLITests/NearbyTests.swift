import Foundation
import ShareSupport
import Testing
import TestSupport
@testable import ShareActivities
@testable import ShareCore

/// `share --activity airDrop` with no terminal: its news on stderr, the
/// first line the link. Started on 127.0.0.1 and fetched with curl.
final class NearbyRun {
    let process = Process()
    let url: String
    private let errorPipe = Pipe()
    private let outputPipe = Pipe()
    private var stderrSoFar = Data()
    private let watchdog: ProcessWatchdog

    /// `path` is share's `PATH`: by default an empty folder, so that no
    /// `wormhole` runs (it would reach for the public relay).
    init(_ fixtures: Fixtures, _ arguments: [String], path: String? = nil, changes: [String: String] = [:]) throws {
        process.executableURL = try Share.binary()
        process.arguments = ["--activity", "airDrop", "--bind", "127.0.0.1", "--json"] + arguments
        var environment = fixtures.environment.merging(changes) { $1 }
        environment["PATH"] = try path ?? NearbyRun.emptyPath(fixtures)
        process.environment = environment
        process.currentDirectoryURL = fixtures.files
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        watchdog = ProcessWatchdog(pid: process.processIdentifier, seconds: 60)
        var found: String?
        while found == nil {
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            stderrSoFar.append(chunk)
            let text = String(decoding: stderrSoFar, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("On this network") && text.contains($0 + "\n") }),
               let start = line.range(of: "http://") {
                found = String(line[start.lowerBound...]).trimmingCharacters(in: .whitespaces)
            }
        }
        guard let found else {
            process.waitUntilExit()
            _ = watchdog.finish()
            throw NearbyRunError.noLink(String(decoding: stderrSoFar, as: UTF8.self))
        }
        url = found
    }

    /// A folder with no programs in it, for `PATH`.
    static func emptyPath(_ fixtures: Fixtures) throws -> String {
        let folder = fixtures.root.appendingPathComponent("empty-path")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.path
    }

    /// Reads stderr until a line holds `text`; that line.
    func line(containing text: String) throws -> String {
        while true {
            let lines = String(decoding: stderrSoFar, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            // Only whole lines (the last piece may be cut).
            if let line = lines.dropLast().first(where: { $0.contains(text) }) { return String(line) }
            let chunk = errorPipe.fileHandleForReading.availableData
            if chunk.isEmpty { throw NearbyRunError.noLink(String(decoding: stderrSoFar, as: UTF8.self)) }
            stderrSoFar.append(chunk)
        }
    }

    /// Waits for share to end: its status, the JSON completion, and all of stderr.
    func finish() -> (status: Int32, completion: [String: Any], stderr: String) {
        let rest = errorPipe.fileHandleForReading.readDataToEndOfFile()
        let output = outputPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = watchdog.finish()
        let completion = (try? JSONSerialization.jsonObject(with: output)) as? [String: Any] ?? ["stdout": String(decoding: output, as: UTF8.self)]
        return (process.terminationStatus, completion, String(decoding: stderrSoFar + rest, as: UTF8.self))
    }

    /// Stops share (it serves until someone downloads).
    func stop() {
        if process.isRunning { process.terminate() }
    }

    enum NearbyRunError: Error { case noLink(String) }
}

/// curl, as a phone's browser would fetch: the response's head and body.
struct Fetched {
    var status: Int
    var headers: [String: String]
    var body: Data

    static func get(_ url: String, _ extra: [String] = [], in directory: URL) throws -> Fetched {
        let head = directory.appendingPathComponent("head-\(UUID().uuidString)")
        let body = directory.appendingPathComponent("body-\(UUID().uuidString)")
        let run = try Share.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-g", "--path-as-is", "-D", head.path, "-o", body.path] + extra + [url],
                                environment: ["PATH": "/usr/bin:/bin"], directory: directory)
        try #require(run.status == 0, "curl \(url): \(run.status) \(run.err)")
        let lines = try String(contentsOf: head, encoding: .utf8).split(separator: "\r\n")
        let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Fetched(status: status, headers: headers, body: (try? Data(contentsOf: body)) ?? Data())
    }
}

@Suite struct NearbyTests {
    @Test func oneFileIsADownloadWithItsNameTypeAndLengthAndTheFirstDownloadFinishes() throws {
        let fixtures = try Fixtures()
        let bytes = Data((0..<200_000).map { UInt8($0 % 251) })
        let file = try fixtures.file("보고서 final.pdf", FixtureBytes.pdf + bytes)
        let run = try NearbyRun(fixtures, [file.path])
        defer { run.stop() }
        #expect(run.url.hasPrefix("http://127.0.0.1:"))
        let token = run.url.split(separator: "/").last.map(String.init) ?? ""
        let base64url = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        #expect(token.count == 22 && token.allSatisfy(base64url.contains), "132 bits as 22 base64url characters: \(token)")
        let got = try Fetched.get(run.url, in: fixtures.root)
        #expect(got.status == 200)
        #expect(got.body == FixtureBytes.pdf + bytes)
        #expect(got.headers["content-type"] == "application/pdf")
        #expect(got.headers["content-length"] == String(FixtureBytes.pdf.count + bytes.count))
        #expect(got.headers["accept-ranges"] == "bytes")
        #expect(got.headers["content-disposition"] == "attachment; filename=\"___ final.pdf\"; filename*=UTF-8''%EB%B3%B4%EA%B3%A0%EC%84%9C%20final.pdf")
        let (status, completion, stderr) = run.finish()
        #expect(status == 0, "\(stderr)")
        #expect(completion["outcome"] as? String == "performed")
        let returned = completion["returnedItems"] as? [[String: Any]] ?? []
        #expect(returned.map { $0["value"] as? String } == [run.url, "127.0.0.1"], "the link and who downloaded it")
        #expect(stderr.contains("127.0.0.1 downloaded 보고서 final.pdf"), "\(stderr)")
        // The server is gone with share.
        let after = try Share.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", run.url],
                                  environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        #expect(after.status == 7, "connection refused once share has exited")
    }

    @Test func aDownloadCutShortIsResumedWithARangeAndOnlyTheWholeOneFinishes() throws {
        let fixtures = try Fixtures()
        let bytes = Data((0..<100_000).map { UInt8(($0 * 7) % 256) })
        let file = try fixtures.file("data.bin", bytes)
        let run = try NearbyRun(fixtures, [file.path])
        defer { run.stop() }
        // A player's look at the file's tail first: it reaches the end, but is not the file.
        let tail = try Fetched.get(run.url, ["-r", "-1"], in: fixtures.root)
        #expect(tail.status == 206 && tail.body == bytes.suffix(1) && tail.headers["content-range"] == "bytes 99999-99999/100000")
        let first = try Fetched.get(run.url, ["-r", "0-39999"], in: fixtures.root)
        #expect(first.status == 206, "a part is not a download: share still serves")
        #expect(first.headers["content-range"] == "bytes 0-39999/100000")
        #expect(first.body == bytes.prefix(40_000))
        let rest = try Fetched.get(run.url, ["-r", "40000-"], in: fixtures.root)
        #expect(rest.status == 206)
        #expect(rest.headers["content-range"] == "bytes 40000-99999/100000")
        #expect(first.body + rest.body == bytes)
        let (status, completion, _) = run.finish()
        #expect(status == 0 && completion["outcome"] as? String == "performed")
    }

    @Test func textIsAnEscapedPageWithACopyButtonAndLinks() throws {
        let fixtures = try Fixtures()
        let run = try NearbyRun(fixtures, ["--text", "<script>alert(1)</script> 서울 & more https://example.com/a?b=1&c=2", "https://example.org/x\"y"])
        defer { run.stop() }
        let page = try Fetched.get(run.url, in: fixtures.root)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.headers["content-security-policy"]?.hasPrefix("default-src 'none'") == true)
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; 서울 &amp; more"), "\(html)")
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("<a href=\"https://example.com/a?b=1&amp;c=2\">"), "links in the text are links")
        #expect(html.contains("<a class=\"link\" href=\"https://example.org/x%22y\">"), "\(html)")
        #expect(html.contains("<button data-copy=\"t0\">Copy</button>") && !html.contains("onclick"))
        let policy = page.headers["content-security-policy"] ?? ""
        #expect(policy.contains("script-src 'sha256-") && !policy.contains("script-src 'unsafe-inline'"), "only the page's own script: \(policy)")
        let script = try #require(html.range(of: "<script>").flatMap { open in html.range(of: "</script>").map { String(html[open.upperBound..<$0.lowerBound]) } })
        #expect(policy.contains(NearbyPage.scriptHash) && NearbyPage.script == script)
        let (status, completion, _) = run.finish()
        #expect(status == 0 && completion["outcome"] as? String == "performed", "the page is the download when there is no file")
    }

    @Test func severalFilesAreAPageAndAZipStreamedWithEveryFileWhole() throws {
        let fixtures = try Fixtures()
        let big = Data((0..<300_000).map { UInt8(($0 * 13) % 256) })
        let files = [
            try fixtures.file("a.txt", Data("첫 번째\n".utf8)),
            try fixtures.file("사진.png", FixtureBytes.png),
            try fixtures.file("big.bin", big),
        ]
        let run = try NearbyRun(fixtures, files.map(\.path))
        defer { run.stop() }
        let page = try Fetched.get(run.url, in: fixtures.root)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains("<a href=\"1\" download>a.txt</a>") && html.contains("<a href=\"2\" download>사진.png</a>"), "\(html)")
        #expect(html.contains("<a class=\"all\" href=\"all.zip\" download>Download all (zip,"))
        let single = try Fetched.get(run.url + "2", in: fixtures.root)
        #expect(single.body == FixtureBytes.png && single.headers["content-type"] == "image/png")
        // That finished the share (the first complete download); a --keep run serves the zip too.
        let (status, _, _) = run.finish()
        #expect(status == 0)

        let kept = try NearbyRun(fixtures, ["--keep"] + files.map(\.path))
        defer { kept.stop() }
        let zip = try Fetched.get(kept.url + "all.zip", in: fixtures.root)
        #expect(zip.status == 200 && zip.headers["content-type"] == "application/zip")
        #expect(zip.headers["content-length"] == nil, "streamed as it is made")
        let archive = fixtures.root.appendingPathComponent("all.zip")
        try zip.body.write(to: archive)
        let listing = try Share.run(ServerScript.python, ["-c", """
            import sys, zipfile, hashlib
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                for i in z.infolist():
                    print(i.filename, hashlib.sha256(z.read(i)).hexdigest())
            """, archive.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], directory: fixtures.root)
        try #require(listing.status == 0, "zipfile: \(listing.err)")
        let expected = try files.map { file in "\(file.lastPathComponent) \(SHA256.hex(try Data(contentsOf: file)))" }
        #expect(listing.out.split(separator: "\n").map(String.init) == expected)
        #expect(try Fetched.get(kept.url + "1", in: fixtures.root).status == 200, "--keep serves on after a download")
        kept.stop()
        _ = kept.finish()
    }

    @Test func zipEntriesHaveNamesEverySystemUnpacksInsideItsFolderWhileThePageShowsTheRealOnes() throws {
        let fixtures = try Fixtures()
        let names = ["..\\..\\x.txt", "a:b.txt", "a_b.txt", "what?.txt", "<>|\"*.txt", "tab\there.txt", "line\nbreak.txt",
                     "bell\u{7}.txt", "CON.txt", "nul", "ends in dots. .", "..."]
        let files = try names.enumerated().map { try fixtures.file($0.element, Data("\($0.offset): \($0.element)\n".utf8)) }
        let run = try NearbyRun(fixtures, ["--keep"] + files.map(\.path))
        defer { run.stop() }
        let html = String(decoding: try Fetched.get(run.url, in: fixtures.root).body, as: UTF8.self)
        for name in names { #expect(html.contains(" download>\(MarkupEscaping.html(name))</a>"), "the page shows \(name) as it is") }
        let zip = try Fetched.get(run.url + "all.zip", in: fixtures.root)
        let archive = fixtures.root.appendingPathComponent("all.zip")
        try zip.body.write(to: archive)
        // What a receiver's unzip meets: every entry one plain name that Windows, Android and Linux take as it is.
        let checked = try Share.run(ServerScript.python, ["-c", """
            import hashlib, json, sys, zipfile
            reserved = {"CON", "PRN", "AUX", "NUL"} | {p + str(n) for p in ("COM", "LPT") for n in range(1, 10)}
            problems, entries, seen = [], [], set()
            with zipfile.ZipFile(sys.argv[1]) as z:
                assert z.testzip() is None
                for info in z.infolist():
                    name = info.filename
                    bad = [c for c in name if c in '\\\\/:*?"<>|' or ord(c) < 32 or 127 <= ord(c) <= 159]
                    if bad: problems.append("%r has %r" % (name, bad))
                    if name in ("", ".", "..") or name.startswith("/"): problems.append("%r is no plain name" % name)
                    if name.endswith((".", " ")): problems.append("%r ends in a dot or space" % name)
                    if name.split(".")[0].strip().upper() in reserved: problems.append("%r is a device on Windows" % name)
                    if len(name.encode()) > 255: problems.append("%r is too long" % name)
                    if name.lower() in seen: problems.append("%r is there twice" % name)
                    seen.add(name.lower())
                    entries.append([name, hashlib.sha256(z.read(info)).hexdigest()])
            print(json.dumps({"problems": problems, "entries": entries}))
            """, archive.path], environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], directory: fixtures.root)
        try #require(checked.status == 0, "zipfile: \(checked.err)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.out.utf8)) as? [String: Any])
        #expect((report["problems"] as? [String]) == [], "\(report)")
        let entries = report["entries"] as? [[String]] ?? []
        #expect(entries.map { $0[1] } == (try files.map { SHA256.hex(try Data(contentsOf: $0)) }), "each file whole, in order: \(entries)")
        #expect(entries.map { $0[0] } == [".._.._x.txt", "a_b.txt", "a_b (2).txt", "what_.txt", "_____.txt", "tab_here.txt",
                                          "line_break.txt", "bell_.txt", "_CON.txt", "_nul", "ends in dots", "file"])
        run.stop()
        _ = run.finish()
    }

    @Test func onlyWebAddressesAreLinksAndTheLinkEndsInASlash() throws {
        let fixtures = try Fixtures()
        let run = try NearbyRun(fixtures, ["--keep", "--url", "javascript:alert(document.domain)", "--url", "mailto:kim@example.com",
                                           "--url", "tel:+821012345678", "--url", "https://example.com/page"])
        defer { run.stop() }
        let html = String(decoding: try Fetched.get(run.url, in: fixtures.root).body, as: UTF8.self)
        #expect(html.contains("<pre>javascript:alert(document.domain)</pre>") && !html.contains("href=\"javascript:"), "\(html)")
        #expect(html.contains("<pre>mailto:kim@example.com</pre>") && html.contains("<pre>tel:+821012345678</pre>"), "\(html)")
        #expect(!html.contains("href=\"mailto:") && !html.contains("href=\"tel:"), "\(html)")
        #expect(html.contains("<a class=\"link\" href=\"https://example.com/page\">"), "\(html)")
        let bare = try Fetched.get(String(run.url.dropLast()), in: fixtures.root)
        #expect(bare.status == 308 && bare.headers["location"] == "/" + (run.url.split(separator: "/").last.map(String.init) ?? "") + "/")
        run.stop()
        _ = run.finish()
    }

    @Test func aSignalWithoutATerminalStopsWormholeAndRemovesItsFolder() throws {
        let fixtures = try Fixtures()
        let bin = fixtures.root.appendingPathComponent("slow-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let pidFile = fixtures.root.appendingPathComponent("wormhole.pid")
        // A wormhole that gives a code and then waits for the other side, forever.
        try Data("#!/bin/sh\necho $$ > \(pidFile.path)\necho 'Wormhole code is: 1-slow-code'\nexec sleep 600\n".utf8)
            .write(to: bin.appendingPathComponent("wormhole"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: bin.appendingPathComponent("wormhole").path)
        let temporary = fixtures.root.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        let files = [try fixtures.file("a.txt", Data("a\n".utf8)), try fixtures.file("b.txt", Data("b\n".utf8))]
        let run = try NearbyRun(fixtures, files.map(\.path), path: bin.path + ":/usr/bin:/bin", changes: ["TMPDIR": temporary.path])
        defer { run.stop() }
        _ = try run.line(containing: "Anywhere (magic-wormhole): 1-slow-code")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1, "the folder of links is there")
        let pid = try #require(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0)
        run.process.terminate()
        let (status, completion, _) = run.finish()
        #expect(status == 1 && completion["outcome"] as? String == "cancelled", "\(completion)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the folder is removed")
        // The sender got TERM with its process group; it is gone once reaped by init.
        try eventually("wormhole to end with share", timeout: 10) { kill(pid, 0) != 0 }
    }

    @Test func nothingButTheSharedItemsIsReachable() throws {
        let fixtures = try Fixtures()
        let secret = try fixtures.file("secret.txt", Data("not shared\n".utf8))
        let file = try fixtures.file("shared.txt", Data("shared\n".utf8))
        try FileManager.default.createSymbolicLink(atPath: fixtures.files.appendingPathComponent("link").path, withDestinationPath: secret.path)
        let run = try NearbyRun(fixtures, ["--keep", file.path, try fixtures.file("second.txt", Data("2\n".utf8)).path])
        defer { run.stop() }
        let base = String(run.url.dropLast())  // http://127.0.0.1:PORT/TOKEN
        let root = String(base[..<base.range(of: "/", options: .backwards)!.lowerBound])
        let token = String(base[base.range(of: "/", options: .backwards)!.upperBound...])
        for path in ["/", "/\(token)/../secret.txt", "/\(token)/%2e%2e/secret.txt", "/\(token)/..%2Fsecret.txt", "/\(token)/3",
                     "/\(token)//etc/passwd", "/\(token)/1/../../secret.txt", "/\(token)/link", "/\(token)/0", "/\(token)/all.zip/..",
                     "/\(token)x/1", "/\(token.uppercased())/1", secret.path, "/etc/passwd"] {
            let got = try Fetched.get(root + path, in: fixtures.root)
            #expect(got.status == 404, "\(path) → \(got.status)")
            #expect(!String(decoding: got.body, as: UTF8.self).contains("not shared"))
        }
        let post = try Fetched.get(base + "/1", ["-X", "POST", "--data", "x"], in: fixtures.root)
        #expect(post.status == 405 && post.headers["allow"] == "GET, HEAD")
        let put = try Fetched.get(base + "/1", ["-X", "DELETE"], in: fixtures.root)
        #expect(put.status == 405)
        let withBody = try Fetched.get(base + "/1", ["-X", "GET", "--data", "x"], in: fixtures.root)
        #expect(withBody.status == 400)
        let head = try Fetched.get(base + "/1", ["-I"], in: fixtures.root)
        #expect(head.status == 200 && head.headers["content-length"] == "7")
        run.stop()
        _ = run.finish()
    }

    @Test func twentyWrongLinksStopTheServerAndSayWhy() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("shared.txt", Data("shared\n".utf8))
        let run = try NearbyRun(fixtures, [file.path])
        defer { run.stop() }
        let root = String(run.url.dropLast(24))  // http://127.0.0.1:PORT, without /TOKEN/
        // What browsers ask for by themselves is not a guess.
        #expect(try Fetched.get(root + "/favicon.ico", in: fixtures.root).status == 404)
        for guess in 1...19 {
            let got = try Fetched.get(root + "/" + String(repeating: "0", count: 21) + String(guess % 10) + "/", in: fixtures.root)
            #expect(got.status == 404)
        }
        // The twentieth ends the share: its answer may be cut by the server stopping.
        let last = try Share.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-w", "%{http_code}", root + "/guess/"],
                                 environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        #expect((last.status == 0 && last.out == "404") || last.status == 52, "\(last.status) \(last.out)")
        let (status, completion, stderr) = run.finish()
        #expect(status == 3, "\(stderr)")
        let error = completion["error"] as? [String: Any]
        #expect(error?["code"] as? String == "serve-failed")
        #expect((error?["message"] as? String)?.contains("20 requests for a wrong link (the last from 127.0.0.1): someone may be guessing") == true,
                "\(completion)")
    }

    @Test func threeHundredUnfinishedRequestsFromOneAddressLeaveTheLinkToAnother() throws {
        let fixtures = try Fixtures()
        let bytes = Data((0..<300_000).map { UInt8(($0 * 11) % 256) })
        let file = try fixtures.file("photo.bin", bytes)
        let run = try NearbyRun(fixtures, [file.path])
        defer { run.stop() }
        // One client on the network opens connection after connection and never ends a request.
        let holders = try (0..<300).map { _ in
            let holder = try RawClient(run.url, from: "127.0.0.1")
            try holder.send("GET \(holder.path) HTTP/1.1\r\nHost: x\r\n")
            return holder
        }
        let began = ContinuousClock.now
        let phone = try RawClient(run.url, from: "127.0.0.2", timeout: 5)
        try phone.send("GET \(phone.path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (status, _, start) = try phone.readHead()
        let body = start + (try phone.readToEnd())
        let took = ContinuousClock.now - began
        #expect(status == 200 && body == bytes, "\(status), \(body.count) bytes")
        #expect(took < .seconds(2), "another address is served at once: \(took)")
        withExtendedLifetime(holders) {}
        let (code, completion, stderr) = run.finish()
        #expect(code == 0 && completion["outcome"] as? String == "performed")
        #expect(stderr.contains("127.0.0.2 downloaded photo.bin"), "\(stderr)")
    }

    @Test func aRequestWhoseHeadComesTooSlowlyIsClosed() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("shared.txt", Data("shared\n".utf8))
        let run = try NearbyRun(fixtures, [file.path])
        defer { run.stop() }
        let slow = try RawClient(run.url)
        let began = ContinuousClock.now
        // A byte a second, never silent long enough for the idle time-out: only a limit on the head's time ends it.
        let head = Array("GET \(slow.path) HTTP/1.1\r\nHost: x\r\nX-Slow: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 60)
        var closed = false
        for byte in head {
            try slow.send(String(decoding: [byte], as: UTF8.self))
            if slow.closes(within: 1) { closed = true; break }
        }
        let took = ContinuousClock.now - began
        #expect(closed, "the connection is closed before the head ends")
        #expect(took > .seconds(NearbyServer.headTimeout.components.seconds - 1) && took < NearbyServer.headTimeout + .seconds(3), "\(took)")
        #expect(try Fetched.get(run.url, in: fixtures.root).status == 200, "and the link works on")
        #expect(run.finish().status == 0)
    }

    /// A download of a `size`-byte file whose client reads its first bytes
    /// and then nothing (a small window holds the server mid-file) while
    /// `change` is made to the file; then the rest, as fast as it comes.
    private static func download(_ fixtures: Fixtures, size: Int, changing change: (URL) throws -> Void)
        throws -> (run: NearbyRun, bytes: Data, headers: [String: String], body: Data, took: Duration) {
        let bytes = Data((0..<size).map { (index: Int) -> UInt8 in UInt8(truncatingIfNeeded: index * 7 + index / 251) })
        let file = try fixtures.file("changing.bin", bytes)
        let run = try NearbyRun(fixtures, [file.path])
        let client = try RawClient(run.url, receiveBuffer: 16_384, timeout: 10)
        try client.send("GET \(client.path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let (status, headers, start) = try client.readHead(atLeast: 1)
        #expect(status == 200 && headers["content-length"] == String(size))
        try change(file)
        let changed = ContinuousClock.now
        let body = start + (try client.readToEnd())
        return (run, bytes, headers, body, ContinuousClock.now - changed)
    }

    @Test(arguments: [1 << 20, 8 << 20])
    func aFileThatGetsShorterWhileSentEndsTheDownloadShortAndTheShareIsNotDone(size: Int) throws {
        let fixtures = try Fixtures()
        let (run, bytes, _, body, took) = try Self.download(fixtures, size: size) { file in
            try #require(truncate(file.path, 100_000) == 0)
        }
        defer { run.stop() }
        #expect(body.count < size, "the client sees fewer bytes than promised: \(body.count)")
        #expect(body == bytes.prefix(body.count), "and only the file's own bytes, no zeros")
        #expect(took < .seconds(5), "the connection ends at once: \(took)")
        _ = try run.line(containing: "changing.bin could not be sent to 127.0.0.1: the file is shorter than when the share began")
        run.stop()
        let (status, completion, stderr) = run.finish()
        #expect(status == 1 && completion["outcome"] as? String == "cancelled", "not performed: \(completion) \(stderr)")
    }

    @Test func aFileThatGrowsWhileSentIsSentAsLongAsPromised() throws {
        let fixtures = try Fixtures()
        let (run, bytes, headers, body, _) = try Self.download(fixtures, size: 1 << 20) { file in
            let handle = try FileHandle(forWritingTo: file)
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(repeating: 0xEE, count: 1 << 20))
            try handle.close()
        }
        defer { run.stop() }
        #expect(headers["content-length"] == String(bytes.count))
        #expect(body == bytes, "the promised length of the file's bytes, nothing past it: \(body.count)")
        let (status, completion, _) = run.finish()
        #expect(status == 0 && completion["outcome"] as? String == "performed")
    }

    @Test func aTimeoutWithNoDownloadFailsAndABadBindIsClear() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("shared.txt", Data("shared\n".utf8))
        let run = try NearbyRun(fixtures, ["--timeout", "1", file.path])
        let (status, completion, _) = run.finish()
        #expect(status == 3)
        let error = completion["error"] as? [String: Any]
        #expect(error?["code"] as? String == "timeout" && error?["message"] as? String == "nobody downloaded within 1 seconds")

        let everywhere = try fixtures.share("--activity", "airDrop", "--bind", "0.0.0.0", "--json", file.path)
        #expect(everywhere.status == 3 && everywhere.out.contains("listens on every address, which one link cannot name"), "\(everywhere.out)")
        let bad = try fixtures.share("--activity", "airDrop", "--bind", "no-such-interface0", "--json", file.path)
        #expect(bad.status == 3)
        #expect(bad.out.contains("\"code\":\"no-network\""), "\(bad.out)")
        #expect(bad.out.contains("no interface or address 'no-such-interface0'"), "\(bad.out)")
        let zero = try fixtures.share("--activity", "airDrop", "--timeout", "0", file.path)
        #expect(zero.status == 2 && zero.err.contains("--timeout takes whole seconds from 1 to 86400, not '0'"))
    }
}

/// magic-wormhole, end to end against Debian's own mailbox server and
/// transit relay on 127.0.0.1, with `wormhole receive` on the other side.
@Suite struct NearbyWormholeTests {
    /// The servers, and a config that points share at them.
    static func servers(_ fixtures: Fixtures) throws -> (ServerScript, URL, [String]) {
        let servers = try ServerScript(script: "wormhole_servers.py", arguments: [], logFile: fixtures.root.appendingPathComponent("wormhole.log"))
        let transit = try #require(servers.nextLine()?.split(separator: " ").last.flatMap { Int($0) })
        let relay = ["--relay-url", "ws://127.0.0.1:\(servers.port)/v1", "--transit-helper", "tcp:127.0.0.1:\(transit)"]
        let config = try fixtures.writeConfig("[nearby]\nwormhole-relay = \(relay[1])\nwormhole-transit = \(relay[3])\n")
        return (servers, config, relay)
    }

    static let wormhole = "/usr/bin/wormhole"

    @Test func severalFilesGoAcrossByCodeAndArriveWhole() throws {
        let fixtures = try Fixtures()
        let (servers, config, relay) = try Self.servers(fixtures)
        defer { servers.stop() }
        let bytes = Data((0..<500_000).map { UInt8(($0 * 31) % 256) })
        let files = [try fixtures.file("사진.bin", bytes), try fixtures.file("note.txt", Data("메모\n".utf8))]
        let run = try NearbyRun(fixtures, ["--config", config.path] + files.map(\.path), path: "/usr/bin:/bin")
        defer { run.stop() }
        let line = try run.line(containing: "Anywhere (magic-wormhole): ")
        let code = String(line.split(separator: " ").last ?? "")
        #expect(code.split(separator: "-").count >= 3, "a code such as 7-eskimo-spearhead: \(line)")
        let inbox = fixtures.root.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let received = try Share.run(URL(fileURLWithPath: Self.wormhole), relay + ["receive", "--accept-file", "--hide-progress", code],
                                     environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": fixtures.root.path], directory: inbox)
        try #require(received.status == 0, "wormhole receive: \(received.err)")
        #expect(try Data(contentsOf: inbox.appendingPathComponent("shared/사진.bin")) == bytes)
        #expect(try String(contentsOf: inbox.appendingPathComponent("shared/note.txt"), encoding: .utf8) == "메모\n")
        let (status, completion, stderr) = run.finish()
        #expect(status == 0, "\(stderr)")
        #expect(completion["outcome"] as? String == "performed")
        let returned = (completion["returnedItems"] as? [[String: Any]] ?? []).compactMap { $0["value"] as? String }
        #expect(returned.last == "magic-wormhole " + code, "\(returned)")
        #expect(stderr.contains("Sent through magic-wormhole"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixtures.root.path).filter { $0.hasPrefix("share-wormhole-") }
        #expect(leftovers.isEmpty, "the folder of links is removed")
    }

    @Test func textGoesAsAWormholeText() throws {
        let fixtures = try Fixtures()
        let (servers, config, relay) = try Self.servers(fixtures)
        defer { servers.stop() }
        let run = try NearbyRun(fixtures, ["--config", config.path, "--text", "서울 & 🦋 hello", "https://example.com/x"], path: "/usr/bin:/bin")
        defer { run.stop() }
        let code = String(try run.line(containing: "Anywhere (magic-wormhole): ").split(separator: " ").last ?? "")
        let received = try Share.run(URL(fileURLWithPath: Self.wormhole), relay + ["receive", "--hide-progress", code],
                                     environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": fixtures.root.path], directory: fixtures.root)
        try #require(received.status == 0, "wormhole receive: \(received.err)")
        #expect(received.out == "서울 & 🦋 hello\nhttps://example.com/x\n")
        let (status, _, _) = run.finish()
        #expect(status == 0)
    }

    @Test func aMissingOrFailingWormholeIsSaidAndTheLinkStillWorks() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("shared.txt", Data("shared\n".utf8))
        let missing = try NearbyRun(fixtures, [file.path])
        defer { missing.stop() }
        _ = try missing.line(containing: "magic-wormhole is not installed (the magic-wormhole package): no code for other networks")
        #expect(try Fetched.get(missing.url, in: fixtures.root).status == 200)
        #expect(missing.finish().status == 0)

        let bin = fixtures.root.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let fake = bin.appendingPathComponent("wormhole")
        try Data("#!/bin/sh\necho 'ERROR: We had a problem connecting to the relay server' >&2\nexit 1\n".utf8).write(to: fake)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let failing = try NearbyRun(fixtures, [file.path], path: bin.path)
        defer { failing.stop() }
        _ = try failing.line(containing: "magic-wormhole failed: ERROR: We had a problem connecting to the relay server")
        #expect(failing.process.isRunning, "the link on this network goes on")
        #expect(try Fetched.get(failing.url, in: fixtures.root).body == Data("shared\n".utf8))
        let (status, completion, _) = failing.finish()
        #expect(status == 0 && completion["outcome"] as? String == "performed")
    }
}

/// The server's words for requests, without a server.
@Suite struct NearbyWordsTests {
    @Test func byteRangesAsRFC9110Says() {
        #expect(NearbyServer.byteRange("bytes=0-99", size: 1000) == .part(0...99))
        #expect(NearbyServer.byteRange("bytes=900-", size: 1000) == .part(900...999))
        #expect(NearbyServer.byteRange("bytes=-100", size: 1000) == .part(900...999))
        #expect(NearbyServer.byteRange("bytes=-5000", size: 1000) == .part(0...999))
        #expect(NearbyServer.byteRange("bytes=500-5000", size: 1000) == .part(500...999))
        #expect(NearbyServer.byteRange("bytes=1000-", size: 1000) == .unsatisfiable)
        #expect(NearbyServer.byteRange("bytes=0-1,5-6", size: 1000) == .whole, "several ranges: the whole file")
        #expect(NearbyServer.byteRange("items=0-1", size: 1000) == .whole)
        #expect(NearbyServer.byteRange("bytes=9-3", size: 1000) == .whole)
        #expect(NearbyServer.byteRange("bytes=x-", size: 1000) == .whole)
        #expect(NearbyServer.byteRange("bytes=99999999999999999999-", size: 1000) == .whole)
    }

    @Test func tokensCompareWholeAndDispositionsCarryUTF8() {
        let token = NearbyServer.newToken()
        #expect(token.count == 22 && token != NearbyServer.newToken())
        #expect(NearbyServer.sameToken(Substring(token), token))
        #expect(!NearbyServer.sameToken(Substring(token.dropLast()), token))
        #expect(!NearbyServer.sameToken(Substring(token + "0"), token))
        #expect(!NearbyServer.sameToken("", token))
        #expect(NearbyServer.disposition("a\"b\\c.txt") == "attachment; filename=\"a_b_c.txt\"; filename*=UTF-8''a%22b%5Cc.txt")
    }

    @Test func theDefaultRouteNamesItsInterface() throws {
        let table = """
            Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT
            docker0\t000011AC\t00000000\t0001\t0\t0\t0\t0000FFFF\t0\t0\t0
            wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0
            """
        #expect(NetworkAddress.defaultRouteInterface(table) == "wlan0")
        #expect(NetworkAddress.defaultRouteInterface("Iface\tDestination\n") == nil)
        #expect(throws: NetworkAddress.Failure.self) { try NetworkAddress.choose(bind: nil, routes: "Iface\tDestination\n") }
        #expect(try NetworkAddress.choose(bind: "lo").address == "127.0.0.1")
        #expect(try NetworkAddress.choose(bind: "127.0.0.1").interface == "lo")
    }

    @Test func zipNamesAreUniqueAndPlain() {
        #expect(ZipStream.uniqueNames(["a.txt", "A.txt", "a.txt", "b", "b", "x/y", ".."]) == ["a.txt", "A (2).txt", "a (3).txt", "b", "b (2)", "x_y", "file"])
        #expect(ZipStream.uniqueNames(["..\\..\\x.txt", "a:b.txt", "a_b.txt", "/etc/passwd", "CON.txt", "con", "Lpt1.tar.gz", "aux .txt",
                                       "console", "end. . ", "tab\there", "\u{85}x", "...", ".hidden"])
                == [".._.._x.txt", "a_b.txt", "a_b (2).txt", "_etc_passwd", "_CON.txt", "_con", "_Lpt1.tar.gz", "_aux .txt",
                    "console", "end", "tab_here", "_x", "file", ".hidden"])
        // A name as long as a file system takes (253 bytes) keeps its extension when a number must fit.
        let long = String(repeating: "가", count: 83) + ".txt"
        #expect(ZipStream.uniqueNames([long, long]) == [long, String(repeating: "가", count: 82) + " (2).txt"])
    }
}

/// Nearby's screen on a real terminal: the code scans back to the link,
/// the download shows as it goes, Esc stops.
@Suite struct NearbyScreenTests {
    static func start(_ fixtures: Fixtures, _ arguments: [String], width: Int = 100, height: Int = 30) throws -> TmuxSession {
        var environment = fixtures.environment
        environment["TERM"] = "xterm-256color"
        // No wormhole (it would reach for the public relay): only what tmux needs to start share.
        let bin = fixtures.root.appendingPathComponent("tmux-path")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for tool in ["env", "sh", "mv"] {
            try? FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent(tool).path, withDestinationPath: "/usr/bin/" + tool)
        }
        environment["PATH"] = bin.path
        let q = TmuxSession.quote
        return try TmuxSession(([try Share.binary().path, "--activity", "airDrop", "--bind", "127.0.0.1", "--json"] + arguments).map(q)
                                .joined(separator: " "), width: width, height: height, workingDirectory: fixtures.files, environment: environment)
    }

    /// At 80×24 the code is smaller (level L, a quiet zone of 2) and still
    /// scans to the link, which is on screen whole.
    @Test func atEightyByTwentyFourTheSmallerCodeStillScans() throws {
        let fixtures = try Fixtures()
        let file = try fixtures.file("report.pdf", Data("%PDF-1.4\n".utf8))
        let session = try Self.start(fixtures, [file.path], width: 80, height: 24)
        defer { session.close() }
        let shown = try session.waitFor("Waiting for someone to open the link")
        #expect(!shown.contains("does not fit"), "\(shown.text)")
        let link = try Self.scan(shown.text, in: fixtures)
        #expect(link.hasPrefix("http://127.0.0.1:") && link.split(separator: "/").last?.count == 22, "\(link)")
        // Beside the code, cut after the port's slash.
        let token = String(link.split(separator: "/").last ?? "")
        #expect(shown.contains(String(link.dropLast(token.count + 1))) && shown.contains(token + "/"), "the link on screen: \(shown.text)")
        try session.send("Escape")
        _ = try session.waitForExit()
    }

    /// The link the QR code on `screen` holds.
    static func scan(_ screen: String, in fixtures: Fixtures) throws -> String {
        let png = fixtures.root.appendingPathComponent("code-\(UUID().uuidString).png")
        let extract = try Share.run(ServerScript.python, [ServerScript.support.appendingPathComponent("qr_from_screen.py").path, png.path],
                                    environment: ["PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"], directory: fixtures.root, input: Data(screen.utf8))
        try #require(extract.status == 0, "no QR code on the screen:\n\(screen)")
        let decoded = try Share.run(URL(fileURLWithPath: "/usr/bin/zbarimg"), ["--raw", "--nodbus", "-q", png.path],
                                    environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        try #require(decoded.status == 0, "zbarimg: \(decoded.err)")
        return decoded.out.trimmingCharacters(in: .newlines)
    }

    @Test func theCodeScansToTheLinkADownloadShowsAsItGoesAndOneCutShortDoesNotEndTheShare() throws {
        let fixtures = try Fixtures()
        // Larger than what the loopback's socket buffers hold, so a client that stops reading holds the server mid-file.
        let bytes = Data((0..<30_000_000).map { UInt8($0 % 253) })
        let file = try fixtures.file("movie.bin", bytes)
        let session = try Self.start(fixtures, [file.path])
        defer { session.close() }
        let shown = try session.waitFor("Waiting for someone to open the link")
        #expect(shown.contains("Nearby: movie.bin") && shown.contains("On this network (lo)"), "\(shown.text)")
        let link = try Self.scan(shown.text, in: fixtures)
        #expect(link.hasPrefix("http://127.0.0.1:") && link.hasSuffix("/"), "\(link)")
        #expect(link.split(separator: "/").last?.count == 22, "the token whole in the code: \(link)")
        // A client that reads a little, then stops reading until told, then hangs up.
        let stalled = Process()
        stalled.executableURL = ServerScript.python
        stalled.arguments = ["-c", """
            import socket, sys, urllib.parse
            url = urllib.parse.urlsplit(sys.argv[1])
            s = socket.create_connection((url.hostname, url.port))
            s.sendall(("GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % url.path).encode())
            got = 0
            while got < 100000:
                got += len(s.recv(65536))
            print("READ", flush=True)
            sys.stdin.read()
            s.close()
            """, link]
        let hold = Pipe()
        let said = Pipe()
        stalled.standardInput = hold
        stalled.standardOutput = said
        try stalled.run()
        defer { if stalled.isRunning { stalled.terminate() } }
        #expect(String(decoding: said.fileHandleForReading.availableData, as: UTF8.self).hasPrefix("READ"))
        let running = try session.waitUntil("the download under way") { $0.text.contains("127.0.0.1 is downloading movie.bin · ") }
        #expect(running.contains(" of 30"), "bytes of the whole:\n\(running.text)")
        #expect(running.text.range(of: #"of 30[.0-9]* MB \([0-9]+%\)"#, options: .regularExpression) != nil, "and the percent:\n\(running.text)")
        #expect(running.contains("░"), "and a bar:\n\(running.text)")
        try hold.fileHandleForWriting.close()
        stalled.waitUntilExit()
        try session.waitFor("127.0.0.1 stopped downloading movie.bin at")
        #expect(!session.hasExited, "a download cut short does not end the share")
        // A whole download does.
        let whole = try Fetched.get(link, in: fixtures.root)
        #expect(whole.body == bytes)
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        #expect(completion["outcome"] as? String == "performed")
    }

    @Test func escStopsServingAndCancels() throws {
        let fixtures = try Fixtures()
        let session = try Self.start(fixtures, ["--text", "서울 hello"])
        defer { session.close() }
        let shown = try session.waitFor("Waiting for someone to open the link")
        let link = try Self.scan(shown.text, in: fixtures)
        try session.send("c")
        try session.waitFor("Sent the link to the terminal's clipboard (OSC 52)")
        try session.send("Escape")
        #expect(try session.waitForExit() == 1, "stderr: \(session.stderr)")
        let completion = try #require(try JSONSerialization.jsonObject(with: Data(session.stdout.utf8)) as? [String: Any])
        #expect(completion["outcome"] as? String == "cancelled")
        let after = try Share.run(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", link],
                                  environment: ["PATH": "/usr/bin:/bin"], directory: fixtures.root)
        #expect(after.status == 7, "the server is gone with share")
    }
}
