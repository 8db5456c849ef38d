import Testing
@testable import ShareTerminal

struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("한", 2), ("漢", 2), ("ｱ", 1), ("Ａ", 2),
        ("😀", 2), ("❤️", 1), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇰🇷", 2), ("\u{301}", 0), ("\u{200B}", 0), ("\u{1B}", 0),
    ])
    func graphemeWidths(text: String, width: Int) {
        #expect(DisplayWidth.of(text) == width, "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
    }

    @Test func stringsSumTheirGraphemes() {
        #expect(DisplayWidth.of("Mail") == 4)
        #expect(DisplayWidth.of("메일 보내기") == 11)
        #expect(DisplayWidth.of("I ❤️ 👨‍👩‍👧") == 6)
    }

    @Test func truncationCountsColumnsAndNeverSplitsAGrapheme() {
        #expect(DisplayWidth.truncate("Add to Reading List", to: 10) == "Add to Re…")
        #expect(DisplayWidth.truncate("Mail", to: 10) == "Mail")
        #expect(DisplayWidth.truncate("Mail", to: 4) == "Mail")
        // 4 columns: "연락" is 4, so it keeps "연" (2) and the ellipsis (1), and leaves one column free.
        #expect(DisplayWidth.truncate("연락처에 지정", to: 4) == "연…")
        #expect(DisplayWidth.of(DisplayWidth.truncate("연락처에 지정", to: 4)) <= 4)
        #expect(DisplayWidth.truncate("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", to: 5) == "👨‍👩‍👧👨‍👩‍👧…")
        #expect(DisplayWidth.truncate("👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", to: 4) == "👨‍👩‍👧…")
        #expect(DisplayWidth.truncate("Cafe\u{301} au lait", to: 5) == "Cafe\u{301}…")
        #expect(DisplayWidth.truncate("anything", to: 0) == "")
    }
}

struct TerminalTextTests {
    @Test func controlCharactersBecomeVisibleSymbols() {
        let hostile = "red\u{1B}[31m\u{7}\u{9B}2J\u{202E}txt.exe\r\n"
        let safe = TerminalText.sanitized(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(safe == "red␛[31m␇�2J�txt.exe␍␊")
        // Line and paragraph separators stay in a body's line (they are not line breaks there): drawn as one cell.
        #expect(TerminalText.sanitized("a\u{2028}b\u{2029}") == "a�b�")
    }

    @Test func excerptsJoinLinesAndFitTheWidth() {
        #expect(TerminalText.excerpt("  first line\n\nsecond\tline  ", columns: 40) == "first line second␉line")
        #expect(TerminalText.excerpt("PIN 4821 is your code", columns: 8) == "PIN 482…")
        // Only a prefix is read: a long text, long lines and leading blank space give the same excerpt.
        #expect(TerminalText.excerpt("\n\n   " + String(repeating: " ", count: 500) + "hello world\n" + String(repeating: "x", count: 2_000_000),
                                     columns: 20) == "hello world xxxxxxx…")
        #expect(TerminalText.excerpt(String(repeating: "ab ", count: 1_000_000), columns: 10) == "ab ab ab…")
        #expect(TerminalText.excerpt("one\r\ntwo", columns: 20) == "one two")
    }
}
