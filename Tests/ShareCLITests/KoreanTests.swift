import Foundation
import Testing

/// `share` in Korean: the built binary with `LANG=ko_KR.UTF-8`, reading
/// the catalog `make locale` compiles into `.build/locale`, in a Korean
/// locale made for the tests (the machine need not have one).
@Suite struct KoreanTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// `LOCPATH` with ko_KR.UTF-8 in it: made once by localedef from
    /// Debian's `locales` sources, kept in .build/test-locales.
    static let locales: Result<URL, LocaleProblem> = {
        let folder = root.appendingPathComponent(".build/test-locales")
        let locale = folder.appendingPathComponent("ko_KR.UTF-8")
        if FileManager.default.fileExists(atPath: locale.appendingPathComponent("LC_MESSAGES").path) { return .success(folder) }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let made = try Share.run(URL(fileURLWithPath: "/usr/bin/localedef"), ["-i", "ko_KR", "-f", "UTF-8", locale.path],
                                     environment: ["PATH": "/usr/bin:/bin"], directory: folder)
            guard made.status == 0 else { return .failure(LocaleProblem(text: "localedef: \(made.err) (apt-get install locales)")) }
            return .success(folder)
        } catch {
            return .failure(LocaleProblem(text: "localedef: \(error)"))
        }
    }()

    struct LocaleProblem: Error, CustomStringConvertible {
        var text: String
        var description: String { text }
    }

    /// The environment changes for Korean: the private locale, and the catalog checked to be there.
    static func korean() throws -> [String: String?] {
        let catalog = root.appendingPathComponent(".build/locale/ko/LC_MESSAGES/share.mo")
        let source = root.appendingPathComponent("po/ko.po")
        let built = try? catalog.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
        let edited = try source.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate
        try #require(built != nil && edited != nil && built! >= edited!, "\(catalog.path) is missing or older than po/ko.po: make locale")
        return ["LANG": "ko_KR.UTF-8", "LOCPATH": try locales.get().path]
    }

    /// A plugin with a Korean name, so that both kinds of title are seen.
    static func mustache(_ fixtures: Fixtures) throws {
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("[Activity]\nType=com.example.mustache\nName=Mustachify\nName[ko]=콧수염\nExec=/bin/true\n".utf8)
            .write(to: folder.appendingPathComponent("mustache.activity"))
    }

    @Test func machineReadableOutputIsTheSameInEveryLanguage() throws {
        let fixtures = try Fixtures()
        try Self.mustache(fixtures)
        let korean = try Self.korean()
        for arguments in [["--list"], ["--list", "--json"], ["--explain", "--json"], ["--list-types"]] {
            let full = arguments + ["--text", "PIN 4821", "https://nshipster.com", fixtures.png.path]
            let english = try fixtures.share(full)
            let translated = try fixtures.share(full, changes: korean)
            #expect(english.status == 0 && translated.status == english.status, "\(arguments): \(translated.err)")
            #expect(translated.out == english.out, "\(arguments) changed with the language:\n\(translated.out)")
            #expect(!english.out.isEmpty)
        }
        let list = try fixtures.share(["--list", "--text", "x"], changes: korean).out
        #expect(list.contains("mail\tMail") && list.contains("com.example.mustache\tMustachify"), "stdout: \(list)")
        // An error: the same exit code, the words in Korean.
        let english = try fixtures.share(["--history"])
        let translated = try fixtures.share(["--history"], changes: korean)
        #expect(translated.status == english.status)
        #expect(english.err.hasPrefix("share: the history is empty ("), "stderr: \(english.err)")
        #expect(translated.err.hasPrefix("share: 공유 기록이 비어 있습니다 ("), "stderr: \(translated.err)")
        // A usage error: exit 2 in both, the words put in where Korean puts them.
        for (arguments, words) in [(["--bogus"], "share: 알 수 없는 옵션 '--bogus'; "),
                                   (["--completions", "tcsh"], "share: --completions에는 'tcsh' 대신 bash, zsh, fish 중 하나를 주세요")] {
            let inEnglish = try fixtures.share(arguments)
            let inKorean = try fixtures.share(arguments, changes: korean)
            #expect(inEnglish.status == 2 && inKorean.status == 2, "\(arguments): \(inKorean.err)")
            #expect(inKorean.err.hasPrefix(words), "\(arguments): \(inKorean.err)")
        }
    }

    @Test func aLanguageWithoutACatalogReadsEnglishAndLANGUAGEIsHonoured() throws {
        let fixtures = try Fixtures()
        let korean = try Self.korean()
        // Japanese has no catalog; a Korean locale the system lacks (none in LOCPATH) cannot be used.
        for changes: [String: String?] in [["LANG": "C.UTF-8", "LANGUAGE": "ja"], ["LOCPATH": fixtures.root.path]] {
            let run = try fixtures.share(["--history"], changes: korean.merging(changes) { $1 })
            #expect(run.err.hasPrefix("share: the history is empty ("), "\(changes): \(run.err)")
        }
        // As in every GNU program, LANGUAGE picks the language in a UTF-8 locale.
        let chosen = try fixtures.share(["--history"], changes: korean.merging(["LANG": "C.UTF-8", "LANGUAGE": "ko"]) { $1 })
        #expect(chosen.err.hasPrefix("share: 공유 기록이 비어 있습니다 ("), "stderr: \(chosen.err)")
    }

    /// Failures reported in JSON: a plugin that exits 1, and one whose
    /// interpreter is missing (the C library's words): the same bytes in
    /// every language, with the plugin's Name, not its Name[ko].
    @Test func failuresInJSONAreTheSameInEveryLanguage() throws {
        let fixtures = try Fixtures()
        let folder = fixtures.configHome.appendingPathComponent("share/activities")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = fixtures.root.appendingPathComponent("broken.sh")
        try Data("#!/nonexistent/interpreter\n".utf8).write(to: script)
        chmod(script.path, 0o755)
        try Data("[Activity]\nType=com.example.fails\nName=Fails\nName[ko]=실패\nExec=/bin/false\n".utf8)
            .write(to: folder.appendingPathComponent("fails.activity"))
        try Data("[Activity]\nType=com.example.broken\nName=Broken\nName[ko]=고장\nExec=\(script.path)\n".utf8)
            .write(to: folder.appendingPathComponent("broken.activity"))
        let korean = try Self.korean()
        for (type, words) in [("com.example.fails", "Fails failed (exit 1)"), ("com.example.broken", "No such file or directory")] {
            let arguments = ["--activity", type, "--json", "--text", "x"]
            let english = try fixtures.share(arguments)
            let translated = try fixtures.share(arguments, changes: korean)
            #expect(english.status == 3 && translated.status == 3, "\(type): \(translated.err)")
            #expect(english.out.contains(words), "\(type): \(english.out)")
            #expect(translated.out == english.out, "\(type) in Korean:\n\(translated.out)")
            #expect(translated.err == english.err, "\(type) in Korean:\n\(translated.err)")
        }
    }

    @Test func thePickerAndTheComposeScreenSpeakKorean() throws {
        let fixtures = try Fixtures()
        try Self.mustache(fixtures)
        let korean = try Self.korean()
        let q = TmuxSession.quote
        let share = ([try Share.binary().path, "--json", "--subject", "Q4", "--text", "PIN 4821", "https://nshipster.com",
                      fixtures.png.path, fixtures.pdf.path]).map(q).joined(separator: " ")
        let command = "env LANG=ko_KR.UTF-8 LOCPATH=\(q(korean["LOCPATH"]!!)) \(share)"
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files,
                                      environment: fixtures.environment)
        let picker = try session.waitFor("메일")
        for words in ["항목 4개: 텍스트 1개, 링크 1개, 이미지 1개, 파일 1개", " 공유", " 동작", "복사", "사진에 저장", "콧수염",
                      "Enter 선택", "Esc 취소"] {
            #expect(picker.contains(words), "\(words) is not on the picker:\n\(picker.text)")
        }
        // 읽기 목록에 추가 is 16 columns, and the row has room for it whole.
        #expect(picker.contains("읽기 목록에 추가"), "screen:\n\(picker.text)")
        for english in ["Mail", "Copy", "Actions", "Mustachify", "move"] {
            #expect(!picker.contains(english), "\(english) is still in English:\n\(picker.text)")
        }
        // The filter finds a tile by its English title too.
        try session.send("/")
        try session.sendLiteral("mail")
        let filtered = try session.waitFor("/mail")
        #expect(filtered.contains("메일") && !filtered.contains("복사"), "screen:\n\(filtered.text)")
        try session.send("Escape")
        _ = try session.waitFor("Esc 취소")
        try session.send("Enter")
        let compose = try session.waitFor("받는 사람:")
        for words in ["새로운 메시지", "보낸 사람:", "참조:", "숨은 참조:", "제목:      Q4", "첨부 파일 (2)", "^X 보내기", "^O 임시 저장",
                      "Esc 취소"] {
            #expect(compose.contains(words), "\(words) is not on the compose screen:\n\(compose.text)")
        }
        // Ctrl-X with no recipient and a subject: nothing to warn of but the missing To.
        try session.send("C-u")
        try session.sendLiteral("박지성 <park@example.com>")
        try session.send("Tab", "Tab", "Tab", "C-u", "C-x")
        let warned = try session.waitFor("제목이 비어 있습니다.")
        #expect(warned.contains("보내기: 그래도 계속할까요?  y 보내기   n 돌아가기"), "screen:\n\(warned.text)")
        try session.send("n", "Escape")
        let asked = try session.waitFor("저장하지 않은 변경 사항이 있습니다.")
        #expect(asked.contains("d 버리기   Esc 계속 편집"), "screen:\n\(asked.text)")
        try session.send("d")
        #expect(try session.waitForExit() == 1)
        // The result on stdout is the same JSON as in English.
        #expect(session.stdout.contains("\"outcome\":\"cancelled\"") && session.stdout.contains("\"activityType\":\"mail\""),
                "stdout: \(session.stdout)")
    }
}
