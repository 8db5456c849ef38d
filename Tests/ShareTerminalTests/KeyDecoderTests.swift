import ShareTerminal
import Testing

/// The decoder of what a terminal sends: sequences read whole, unknown ones
/// dropped, and nothing of a sequence ever typed.
struct KeyDecoderTests {
    /// Decodes every event of `text`, as the backend would read it.
    private func events(_ text: String) -> [InputEvent] { KeyDecoder.events(in: Array(text.utf8)) }

    @Test func theKeysPeopleExpectInEveryForm() {
        #expect(events("\u{1B}[1~\u{1B}[H\u{1B}OH\u{1B}[7~") == [.home, .home, .home, .home])
        #expect(events("\u{1B}[4~\u{1B}[F\u{1B}OF\u{1B}[8~") == [.end, .end, .end, .end])
        #expect(events("\u{1B}[3~\u{1B}[5~\u{1B}[6~") == [.delete, .pageUp, .pageDown])
        #expect(events("\u{1B}[1;5A\u{1B}[1;2B\u{1B}OC\u{1B}[D") == [.up, .down, .right, .left])
        // Shift-Tab, and the keypad's Enter and digits in application mode.
        #expect(events("\u{1B}[Z\u{1B}OM\u{1B}Op\u{1B}Oy\u{1B}Ok\u{1B}On") == [.backTab, .enter] + "09+.".map { .character($0) })
    }

    @Test func mouseReportsInBothForms() {
        // SGR: 1-based cells; a left press (Shift, Alt or Ctrl held or not) clicks, the
        // wheel scrolls; a release, motion and the other buttons do nothing.
        #expect(events("\u{1B}[<0;11;6M\u{1B}[<0;11;6m\u{1B}[<4;1;1M\u{1B}[<8;2;1M\u{1B}[<16;3;1M\u{1B}[<64;5;5M\u{1B}[<65;5;5M")
            == [.click(x: 10, y: 5), .click(x: 0, y: 0), .click(x: 1, y: 0), .click(x: 2, y: 0), .wheelUp, .wheelDown])
        #expect(events("\u{1B}[<32;3;3M\u{1B}[<2;3;3M\u{1B}[<1;3;3M\u{1B}[<0;3Mx") == [.character("x")])
        // Numbers a terminal never sends (negative, huge, cell 0) are no click, and no crash.
        #expect(events("\u{1B}[<0;-9223372036854775808;1M\u{1B}[<0;99999999999;1M\u{1B}[<0;0;0M\u{1B}[<0;;1My") == [.character("y")])
        // X10: button + 32, column + 33, row + 33 as raw bytes, 8-bit ones too (column 100).
        let x10: [UInt8] = [27, 91, 77, 32, 33 + 10, 33 + 5, 27, 91, 77, 35, 40, 40, 27, 91, 77, 96, 40, 40,
                            27, 91, 77, 32, 33 + 100, 33 + 2, UInt8(ascii: "y")]
        #expect(KeyDecoder.events(in: x10) == [.click(x: 10, y: 5), .wheelUp, .click(x: 100, y: 2), .character("y")])
    }

    @Test func utf8IsReadWholeAndBrokenBytesTypeNothing() {
        #expect(events("한글 é 🙂") == ["한", "글", " ", "é", " ", "🙂"].map { .character($0) })
        // A lone continuation byte, an overlong form, a surrogate and a cut character
        // type nothing; the byte that cut the character is a key of its own.
        let broken: [UInt8] = [0x80, UInt8(ascii: "a"), 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xED, 0x95, UInt8(ascii: "b"), 0xF8,
                               0xE0, 0x80, 0xAF, 0xF0, 0x80, 0x80, 0xAF, 0xF4, 0x90, 0x80, 0x80, UInt8(ascii: "c")]
        #expect(KeyDecoder.events(in: broken) == [.character("a"), .character("b"), .character("c")])
        // Alt with a character that is not ASCII.
        #expect(events("\u{1B}한") == [.alt("한")])
    }

    @Test func unknownSequencesAreReadWholeAndDoNothing() {
        // F13, F5, an SGR mouse release, a focus report, F1 in SS3 form, the
        // Linux console's F1, and a sequence of 100 parameter bytes: none
        // types a digit or a letter.
        let long = "\u{1B}[" + String(repeating: "1;", count: 50) + "q"
        let typed = events("a\u{1B}[25~b\u{1B}[15~c\u{1B}[<0;12;40md\u{1B}[Ie\u{1B}OPf\u{1B}[[A" + long + "g")
        #expect(typed == "abcdefg".map { .character($0) })
    }

    @Test func altControlAndPlainKeys() {
        #expect(events("\u{1B}x\u{01}\t\r\n\u{7F}\u{08}한")
            == [.alt("x"), .control("a"), .tab, .enter, .enter, .backspace, .backspace, .character("한")])
        // ESC alone (nothing after it in time) is Escape; other C0 controls type nothing.
        #expect(events("\u{1B}") == [.escape])
        #expect(events("\u{00}\u{1C}\u{1F}z") == [.character("z")])
    }

    @Test func aCharacterThatBreaksASequenceIsAKeyOfItsOwn() {
        // ESC [ 1 then Enter: the sequence is no key, and Enter is still Enter.
        #expect(events("\u{1B}[1\u{0D}x") == [.enter, .character("x")])
        // ESC then Enter or a second ESC arriving in the same read: both keys.
        #expect(events("\u{1B}\u{0D}") == [.escape, .enter])
        #expect(events("\u{1B}\u{1B}") == [.escape, .escape])
        // The same inside SS3 and the Linux console's F-keys: Enter and an arrow survive.
        #expect(events("\u{1B}O\u{0D}z\u{1B}O\u{1B}[A\u{1B}[[\u{1B}[B") == [.enter, .character("z"), .up, .down])
        // A modifier inside SS3 (Shift-F1 on some terminals) is read with it.
        #expect(events("\u{1B}O2Pq\u{1B}O5q") == [.character("q")])
    }
}
