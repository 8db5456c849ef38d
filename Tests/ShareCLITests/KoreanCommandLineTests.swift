import Foundation
@testable import ShareCLI
import ShareCore
import Testing

/// The command line's own words in Korean: `--help`, usage errors and the
/// compose form's warnings follow LANGUAGE like the screens, while what is
/// typed (option names, value names, activity types, paths) stays as it is.
@Suite struct KoreanCommandLineTests {
    /// The messages of `po/ko.po` that have a translation, by msgid.
    static func catalog() throws -> [String: String] {
        let text = try String(contentsOf: KoreanTests.root.appendingPathComponent("po/ko.po"), encoding: .utf8)
        var translations: [String: String] = [:]
        var id: String?
        var field: String?
        var value = ""
        func unquote(_ line: Substring) throws -> String {
            try JSONDecoder().decode(String.self, from: Data(line.utf8))
        }
        func finish() {
            if field == "msgstr", let id { translations[id] = value }
            if field == "msgid" { id = value }
        }
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = rawLine.drop { $0 == " " }
            if line.hasPrefix("\"") {
                value += try unquote(line)
            } else if line.hasPrefix("msgid ") || line.hasPrefix("msgstr ") {
                finish()
                field = String(line.prefix { $0 != " " })
                value = try unquote(line.drop { $0 != " " }.dropFirst())
            } else if line.isEmpty {
                finish()
                (id, field, value) = (nil, nil, "")
            }
        }
        finish()
        return translations.filter { !$0.key.isEmpty && !$0.value.isEmpty }
    }

    /// Whitespace runs as one space: a wrapped line reads as the text it wraps.
    static func collapsed(_ text: String) -> String {
        text.split { $0 == " " || $0 == "\n" }.joined(separator: " ")
    }

    // MARK: - --help

    /// A new option, group or heading without a Korean translation fails
    /// here: every option's help and every heading `--help` prints (the
    /// groups' titles and its own) is a message of the catalog.
    @Test func everyOptionHelpAndHeadingIsInTheKoreanCatalog() throws {
        let catalog = try Self.catalog()
        for spec in OptionTable.all {
            #expect(catalog[spec.help] != nil, "\(spec.name)'s help is not in po/ko.po: \(spec.help)")
        }
        for group in OptionTable.groups {
            #expect(catalog[group.title] != nil, "the group \(group.title) is not in po/ko.po")
        }
        // The headings as printed (in English here): a line of its own, not indented, ending in ':'.
        let headings = HelpText.usage(width: 80).split(separator: "\n").filter { !$0.hasPrefix(" ") && $0.hasSuffix(":") }
            .map { String($0.dropLast()) }
        #expect(headings.count == OptionTable.groups.count + 5, "\(headings)")
        for heading in headings {
            #expect(catalog[heading] != nil, "the heading \(heading) is not in po/ko.po")
        }
    }

    /// `--complete`'s help is written out (so that it can be translated):
    /// it names every kind `--complete` takes.
    @Test func theHelpOfCompleteNamesEveryKind() throws {
        let help = try #require(OptionTable.spec("--complete")).help
        for kind in Completions.kinds {
            #expect(help.contains(kind), "--complete's help does not name \(kind): \(help)")
        }
    }

    /// The environment of a Korean run as LANGUAGE chooses it, in a UTF-8 locale.
    static func language() throws -> [String: String?] {
        try KoreanTests.korean().merging(["LANG": "C.UTF-8", "LANGUAGE": "ko"]) { $1 }
    }

    @Test func helpIsKoreanWithEveryOptionAsTyped() throws {
        let fixtures = try Fixtures()
        let catalog = try Self.catalog()
        for changes in [try Self.language(), try KoreanTests.korean()] {
            let run = try fixtures.share(["--help"], changes: changes)
            #expect(run.status == 0 && run.stderr.isEmpty, "\(changes): \(run.err)")
            let help = Self.collapsed(run.out)
            #expect(run.out.hasPrefix("share — 터미널을 위한 공유 시트\n\n사용법: share [OPTIONS] [ITEM ...]\n"), "\(run.out)")
            // Each option as it is typed, its value's name, then its help in Korean.
            for spec in OptionTable.all {
                let korean = try #require(catalog[spec.help])
                #expect(help.contains(Self.collapsed(spec.synopsis + " " + korean)), "\(spec.name) is not listed in Korean:\n\(run.out)")
            }
            for words in ["항목:\n  ITEM ", "\n동작 고르기:\n", "\n공유 기록:\n", "\n메일 (--activity mail, 또는 --send / --save-draft만):\n",
                          "\n동작 종류:\n  airDrop ", "\n파일:\n  $XDG_CONFIG_HOME/share/config        설정 (INI 형식, man share 참고)\n",
                          "\n환경 변수:\n  BROWSER ", "\n종료 코드:\n  0 완료   1 완료 안 됨 (취소, 저장, 대기열)\n",
                          "\n예:\n  share --explain report.pdf https://example.com\n"] {
                #expect(run.out.contains(words), "\(words) is not in the help:\n\(run.out)")
            }
            for english in ["Usage:", "Choosing activities", "Exit codes", "repeatable", "print the version"] {
                #expect(!run.out.contains(english), "\(english) is still English:\n\(run.out)")
            }
            // Korean takes two columns a character: the lines are wrapped by what they take on screen.
            for line in run.out.split(separator: "\n") {
                #expect(Screen.columns(line) <= 80, "\(Screen.columns(line)) columns: \(line)")
            }
        }
    }

    // MARK: - Usage errors

    /// Usage errors in Korean: exit 2 as in English, nothing on standard
    /// output, the option names and the words given unchanged inside.
    @Test(arguments: [
        (["--text", "hi", "--explian"], "share: 알 수 없는 옵션 '--explian'; --explain을(를) 찾으셨나요? (모든 옵션은 share --help에 있습니다)\n"),
        (["--text", "hi", "--to"], "share: --to에는 값이 필요합니다\n"),
        (["--list", "--explain", "--text", "hi"], "share: --list와(과) --explain은(는) 함께 쓸 수 없습니다\n"),
        (["--list", "--printer", "Office", "--text", "hi"],
         "share: --printer은(는) print의 옵션이라 (--activity print) --list와(과) 함께 쓰면 아무것도 하지 않습니다\n"),
        (["--only", "Mail", "--text", "hi"], "share: --only: 알 수 없는 동작 종류 'Mail'; 쓸 수 있는 종류: "),
        (["--list"], "share: 공유할 항목이 없습니다: 경로, URL, --text TEXT 또는 표준 입력을 뜻하는 -를 주세요\n"),
        (["--list", "no-such-file"], "share: 파일이 없습니다: no-such-file (텍스트는 --text로 주세요)\n"),
        (["--activity", "mail", "--text", "hi"], "share: 메일 화면을 띄울 터미널이 없습니다. 보내려면 --send를, 임시 저장하려면 --save-draft를 주세요\n"),
        (["--resume", "--draft"], "share: 다시 열 끝내지 못한 메일도, 임시 저장한 메일도 없습니다 (끝내지 못한 메일은 "),
        (["--draft", "--text", "hi"], "share: --draft는 --resume과 함께 씁니다\n"),
    ])
    func usageErrorsAreKoreanAndStillExitTwo(arguments: [String], words: String) throws {
        let fixtures = try Fixtures()
        let english = try fixtures.share(arguments)
        let korean = try fixtures.share(arguments, changes: try Self.language())
        #expect(english.status == 2 && korean.status == 2, "\(arguments): \(english.err) / \(korean.err)")
        #expect(korean.stdout.isEmpty, "stdout: \(korean.out)")
        #expect(korean.err.hasPrefix(words), "\(arguments): \(korean.err)")
        #expect(english.err.hasPrefix("share: ") && english.err.unicodeScalars.allSatisfy(\.isASCII), "\(arguments): \(english.err)")
    }

    // MARK: - The compose form's warnings

    /// Before Send, the form refuses without a recipient and warns of an
    /// empty subject and of an attachment the text speaks of (첨부) with
    /// nothing attached, all in Korean.
    @Test func theComposeFormWarnsInKorean() throws {
        let fixtures = try Fixtures()
        let korean = try KoreanTests.korean()
        let q = TmuxSession.quote
        let share = [try Share.binary().path, "--json", "--activity", "mail", "--text", "보고서를 첨부했습니다"].map(q).joined(separator: " ")
        let command = "env LANG=ko_KR.UTF-8 LOCPATH=\(q(korean["LOCPATH"]!!)) \(share)"
        let session = try TmuxSession(command, width: 100, height: 30, workingDirectory: fixtures.files, environment: fixtures.environment)
        _ = try session.waitFor("받는 사람:")
        try session.send("C-x")
        let refused = try session.waitFor("받는 사람이 없습니다: 받는 사람, 참조 또는 숨은 참조에 추가하세요")
        #expect(!refused.contains("그래도 계속할까요?") && !refused.contains("No recipient"), "screen:\n\(refused.text)")
        try session.sendLiteral("kim@example.com")
        try session.waitUntil("the recipient typed") { $0.contains("kim@example.com") }
        try session.send("C-x")
        let warned = try session.waitFor("보내기: 그래도 계속할까요?")
        for words in ["제목이 비어 있습니다.", "본문에 첨부 파일을 언급했지만 첨부된 파일이 없습니다.", "y 보내기   n 돌아가기"] {
            #expect(warned.contains(words), "\(words) is not on the screen:\n\(warned.text)")
        }
        #expect(!warned.contains("subject is empty") && !warned.contains("anyway?"), "screen:\n\(warned.text)")
        try session.send("n", "Escape")
        _ = try session.waitFor("저장하지 않은 변경 사항이 있습니다.")
        try session.send("d")
        #expect(try session.waitForExit() == 1)
        #expect(session.stdout.contains("\"outcome\":\"cancelled\""), "stdout: \(session.stdout)")
    }
}
