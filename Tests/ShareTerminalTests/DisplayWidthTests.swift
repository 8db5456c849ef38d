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

    /// The UTF-8 walk decodes every scalar as the standard library does:
    /// each scalar of one to four bytes, alone and after a run of simple
    /// ones, is passed on with its offset and width when simple, and
    /// stops the walk at its offset when not.
    @Test func theSimpleScalarWalkDecodesAsTheStandardLibrary() {
        let run = "aé가─→"
        for value in stride(from: UInt32(0), through: 0x10FFFF, by: 1) {
            // Every scalar of up to three bytes; of four, one in 251 (all take the same branch).
            guard value < 0x10000 || value % 251 == 0, let scalar = Unicode.Scalar(value) else { continue }
            let text = run + String(scalar)
            var seen: [(offset: Int, value: UInt32, width: Int)] = []
            let stop = DisplayWidth.walkSimpleScalars(text) { offset, value, width in
                seen.append((offset, value, width))
                return true
            }
            var expected: [(offset: Int, value: UInt32, width: Int)] = []
            var offset = 0
            for scalar in text.unicodeScalars {
                guard let width = DisplayWidth.simpleWidth(of: scalar) else { break }
                expected.append((offset, scalar.value, width))
                offset += String(scalar).utf8.count
            }
            #expect(stop == offset && seen.elementsEqual(expected, by: ==), "U+\(String(value, radix: 16))")
        }
        // Stopped by its caller, the walk ends at the scalar it was given last.
        var count = 0
        #expect(DisplayWidth.walkSimpleScalars("가나다라") { _, _, _ in count += 1; return count < 3 } == 6)
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
