import Foundation
import ShareCore
import Testing
import TestSupport
@testable import ShareActivities

/// Plugins (SPEC §6): manifests found in the config folder, run through the built binary.
@Suite struct PluginTests {
    /// Writes `name.activity` into the fixture's plugin folder.
    @discardableResult
    private func plugin(_ fixtures: Fixtures, _ name: String, _ text: String) throws -> URL {
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name + ".activity")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// A script in the fixture folder that records its argv, one word a line, and its stdin.
    private func recorder(_ fixtures: Fixtures, exit status: Int32 = 0, stderr: String = "", sleep seconds: Int = 0) throws -> URL {
        let script = fixtures.files.appendingPathComponent("recorder-\(UUID().uuidString).sh")
        let log = fixtures.files.appendingPathComponent("argv.txt").path
        let input = fixtures.files.appendingPathComponent("stdin.txt").path
        var body = "#!/bin/sh\n: > '\(log)'\nfor word in \"$@\"; do printf '%s\\n' \"$word\" >> '\(log)'; done\ncat > '\(input)'\n"
        body += "printf 'first line\\nhttps://example.com/done\\n'\n"
        if !stderr.isEmpty { body += "printf '%s' '\(stderr)' >&2\n" }
        if seconds > 0 { body += "sleep \(seconds)\n" }
        body += "exit \(status)\n"
        try body.write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        return script
    }

    /// Writes plugin `id` (`Type=com.example.ID`) called `name`, with the
    /// manifest's other `lines`, whose Exec runs a ``recorder(_:exit:stderr:sleep:)``
    /// with `arguments`.
    private func recordingPlugin(_ fixtures: Fixtures, _ id: String, name: String, _ lines: [String] = [], arguments: String = "",
                                 exit status: Int32 = 0, stderr: String = "", sleep seconds: Int = 0) throws {
        let script = try recorder(fixtures, exit: status, stderr: stderr, sleep: seconds)
        let exec = "Exec=\(script.path)" + (arguments.isEmpty ? "" : " " + arguments)
        try plugin(fixtures, id, (["[Activity]", "Type=com.example.\(id)", "Name=\(name)"] + lines + [exec]).joined(separator: "\n") + "\n")
    }

    private func argv(_ fixtures: Fixtures) throws -> [String] {
        let text = try String(contentsOf: fixtures.files.appendingPathComponent("argv.txt"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    @Test func hostileTextReachesArgvByteForByteAndStdoutLinesComeBack() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "echo", name: "Echo", ["Accepts=string;file;"], arguments: #"--text %s --files %F "quoted %f" %%"#)
        let hostile = "$(touch /tmp/pwned) `id` ; rm -rf ~ \"quoted\" 'single' \\back"
        let run = try fixtures.share("--activity", "com.example.echo", "--json", "--text", hostile, fixtures.pdf.path, fixtures.text.path)
        #expect(run.status == 0, "stderr: \(run.err)")
        #expect(try argv(fixtures) == ["--text", hostile, "--files", fixtures.pdf.path, fixtures.text.path,
                                       "quoted \(fixtures.pdf.path)", "%"])
        let object = try #require(JSONSerialization.jsonObject(with: Data(run.out.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "performed")
        let returned = try #require(object["returnedItems"] as? [[String: String]])
        #expect(returned == [["kind": "string", "value": "first line"], ["kind": "url", "value": "https://example.com/done"]])
    }

    @Test func jsonInputAndFieldsReachTheProgram() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "json", name: "JSON", ["Input=json"])
        let run = try fixtures.share("--activity", "com.example.json", "--text", "PIN 4821", "https://nshipster.com")
        #expect(run.status == 0, "stderr: \(run.err)")
        let input = try Data(contentsOf: fixtures.files.appendingPathComponent("stdin.txt"))
        let object = try #require(JSONSerialization.jsonObject(with: input) as? [String: Any])
        let items = try #require(object["items"] as? [[String: String]])
        #expect(items == [["kind": "string", "value": "PIN 4821"], ["kind": "url", "value": "https://nshipster.com"]])
    }

    @Test func aFailingPluginFailsWithItsStderr() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "fail", name: "Fail", exit: 7, stderr: "quota exceeded for today")
        let run = try fixtures.share("--activity", "com.example.fail", "--json", "--text", "x")
        #expect(run.status == 3)
        #expect(run.err.contains("quota exceeded for today"), "stderr: \(run.err)")
        #expect(run.out.contains(#""outcome":"failed""#))
    }

    @Test func aPluginPastItsTimeoutIsStoppedAndFails() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "slow", name: "Slow", ["Timeout=1"], sleep: 30)
        let started = Date()
        let run = try fixtures.share("--activity", "com.example.slow", "--json", "--text", "x")
        #expect(run.status == 3)
        #expect(run.out.contains(#""code":"timeout""#), "stdout: \(run.out)")
        #expect(Date().timeIntervalSince(started) < 20, "the process group was killed, not waited for")
    }

    @Test func interruptingShareStopsThePluginsWholeGroup() throws {
        let fixtures = try Fixtures()
        let pidFile = fixtures.files.appendingPathComponent("child.pid").path
        let started = fixtures.files.appendingPathComponent("started").path
        let script = fixtures.files.appendingPathComponent("slow.sh")
        // The plugin starts a child of its own, then waits; both must go when share is interrupted.
        try "#!/bin/sh\nsleep 300 &\necho $! > '\(pidFile)'\n: > '\(started)'\nwait\n".write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        try plugin(fixtures, "slow", "[Activity]\nType=com.example.slow\nName=Slow\nTimeout=600\nExec=\(script.path)\n")
        let process = Process()
        process.executableURL = try Share.binary()
        process.arguments = ["--activity", "com.example.slow", "--json", "--text", "x"]
        process.environment = fixtures.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try eventually("the plugin to say it started", timeout: 20) { FileManager.default.fileExists(atPath: started) }
        kill(process.processIdentifier, SIGINT)
        let json = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(json.contains(#""outcome":"cancelled""#), "stdout: \(json)")
        let child = try #require(Int32(String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        // The child was killed with its group; reap-free check: it no longer exists (or is a zombie of init).
        try eventually("the plugin's child \(child) to end", timeout: 10) {
            let state = (try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)) ?? ""
            return state.isEmpty || state.split(separator: " ").dropFirst(2).first == "Z"
        }
    }

    @Test func eligibilityByKindMimeGlobAndCount() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "png", name: "PNG only", ["Accepts=image;", "MimeType=image/png;", "MaxItems=1"], arguments: "%f")
        func reason(_ items: [String]) throws -> String? {
            let rows = try ActivityRow.parse(try fixtures.share(["--explain", "--json"] + items))
            return try rows.row("com.example.png").reason
        }
        #expect(try reason([fixtures.pngNamedText.path]) == nil)  // a PNG named .txt is an image/png
        #expect(try reason([fixtures.pdf.path]) == "unsupported-items")
        #expect(try reason([fixtures.png.path, fixtures.pngNamedText.path]) == "unsupported-items")  // MaxItems=1
        #expect(try reason(["--text", "hi"]) == "unsupported-items")
    }

    /// The picker shows `Name[ko]` in Korean (KoreanTests); `--list` is
    /// machine-readable and lists `Name` in every language.
    @Test func nameForTheLanguageAndNameForTheList() throws {
        let fixtures = try Fixtures()
        try recordingPlugin(fixtures, "mustache", name: "Mustachify", ["Name[ko]=콧수염"])
        let manifest = try PluginManifest(text: "[Activity]\nType=com.example.mustache\nName=Mustachify\nName[ko]=콧수염\nExec=/bin/true\n",
                                          path: "mustache.activity", language: "ko", findExecutable: { $0 })
        #expect(manifest.localizedName == "콧수염" && manifest.name == "Mustachify")
        for language in ["ko_KR.UTF-8", "en_US.UTF-8"] {
            let list = try fixtures.share(["--list", "--text", "x"], changes: ["LANG": language])
            #expect(list.out.contains("com.example.mustache\tMustachify"), "\(language): \(list.out)")
        }
    }

    @Test func brokenManifestsAreSkippedAndNamedByExplain() throws {
        let fixtures = try Fixtures()
        let script = try recorder(fixtures)
        try plugin(fixtures, "good", "[Activity]\nType=com.example.good\nName=Good\nExec=\(script.path)\n")
        let noType = try plugin(fixtures, "no-type", "[Activity]\nName=Nameless\nExec=\(script.path)\n")
        let badKey = try plugin(fixtures, "bad-key", "[Activity]\nType=com.example.bad\nName=Bad\nColour=red\nExec=\(script.path)\n")
        let missing = try plugin(fixtures, "missing", "[Activity]\nType=com.example.missing\nName=Missing\nExec=/nonexistent/tool %f\n")
        let list = try fixtures.share("--list", "--text", "x")
        #expect(list.status == 0, "a broken plugin never breaks share: \(list.err)")
        #expect(list.out.contains("com.example.good\tGood"))
        #expect(!list.out.contains("com.example.bad") && !list.out.contains("com.example.missing"))
        let explain = try fixtures.share("--explain", "--text", "x")
        #expect(explain.status == 0)
        #expect(explain.out.contains("\(noType.path): Type is missing"), "stdout: \(explain.out)")
        #expect(explain.out.contains("\(badKey.path): line 4: unknown key 'Colour'"))
        #expect(explain.out.contains("\(missing.path): Exec: /nonexistent/tool is not an executable on PATH"))
    }

    @Test func execLinesSplitTheDesktopEntryWay() throws {
        #expect(try ExecLine.split(#"tool "a b" c\sd "e\"f" "g\$h" x\ny"#, path: "t") == ["tool", "a b", "c", "d", "e\"f", "g$h", "x\ny"])
        #expect(throws: PluginProblem.self) { try ExecLine.split(#"tool "open"#, path: "t") }
        // Other characters pass through whole, escaped or quoted or not.
        #expect(try ExecLine.split(#"콧수염 "김 민수" \é\s😀 "\ñ""#, path: "t") == ["콧수염", "김 민수", #"\é"#, "😀", #"\ñ"#])
        #expect(try ExecLine.split("\t도구\t 인자", path: "t") == ["도구", "인자"])
    }

    @Test func listsSplitOnSemicolonsAndDropSpacesAndEmptyWords() {
        #expect(PluginManifest.list(" url ; image;;file; ") == ["url", "image", "file"])
        #expect(PluginManifest.list("제목;본문 ;") == ["제목", "본문"])
        #expect(PluginManifest.list(nil) == [])
    }
}

/// A plugin's Fields are a form shown before Exec; the values reach the program.
@Suite struct PluginFieldsTests {
    @Test func fieldsAreAskedInAFormAndPassedInTheEnvironmentAndJSON() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = fixtures.files.appendingPathComponent("fields.txt").path
        let input = fixtures.files.appendingPathComponent("fields.json").path
        let script = fixtures.files.appendingPathComponent("post.sh")
        try "#!/bin/sh\nprintf '%s\\n' \"$SHARE_FIELD_SUBJECT\" > '\(log)'\ncat > '\(input)'\n"
            .write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        try "[Activity]\nType=com.example.post\nName=Post\nInput=json\nFields=subject;\nExec=\(script.path)\n"
            .write(to: folder.appendingPathComponent("post.activity"), atomically: true, encoding: .utf8)
        let q = TmuxSession.quote
        let command = [try Share.binary().path, "--activity", "com.example.post", "--json", "--text", "x"].map(q).joined(separator: " ")
        let session = try TmuxSession(command, workingDirectory: fixtures.files, environment: fixtures.environment)
        _ = try session.waitFor("Subject:")
        try session.sendLiteral("안녕 world")
        _ = try session.waitFor("안녕 world")
        try session.send("C-x")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        #expect(session.stdout.contains(#""outcome":"performed""#), "stdout: \(session.stdout)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "안녕 world\n")
        let object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: input))) as? [String: Any])
        #expect(object["fields"] as? [String: String] == ["subject": "안녕 world"])
    }

    /// Picked from the picker, a plugin's output stays on a screen until
    /// Enter, and its summary line follows on stderr.
    @Test func aPluginPickedFromThePickerShowsWhatItPrinted() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = fixtures.files.appendingPathComponent("echo.sh")
        try "#!/bin/sh\nprintf 'first line\\nhttps://example.com/done\\n'\n".write(to: script, atomically: true, encoding: .utf8)
        #expect(chmod(script.path, 0o755) == 0)
        try "[Activity]\nType=com.example.echo\nName=Echo plugin\nAccepts=string;\nExec=\(script.path)\n"
            .write(to: folder.appendingPathComponent("echo.activity"), atomically: true, encoding: .utf8)
        let q = TmuxSession.quote
        // --only keeps the picker to the plugin: Enter picks it.
        let command = [try Share.binary().path, "--only", "com.example.echo", "--text", "hi"].map(q).joined(separator: " ")
        let session = try TmuxSession(command, width: 80, height: 24, workingDirectory: fixtures.files, environment: fixtures.environment)
        try session.waitFor("Echo plugin")
        try session.send("Enter")
        let screen = try session.waitFor("https://example.com/done")
        #expect(screen.lines[0].contains("Echo plugin") && screen.contains("first line"), "screen:\n\(screen.text)")
        #expect(screen.contains("Enter close"), "screen:\n\(screen.text)")
        #expect(!session.hasExited, "the screen waits for a key")
        try session.send("Enter")
        #expect(try session.waitForExit() == 0, "stderr: \(session.stderr)")
        #expect(session.stderr.contains("first line (and 1 more)"), "the summary line: \(session.stderr)")
        #expect(session.stdout.isEmpty, "nothing on stdout without --json: \(session.stdout)")
    }
}
