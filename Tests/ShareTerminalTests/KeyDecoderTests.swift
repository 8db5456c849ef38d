import ShareTerminal
import Testing

/// The decoder of what a terminal sends: sequences read whole, unknown ones
/// dropped, and nothing of a sequence ever typed.
struct KeyDecoderTests {
    /// Decodes every event of `text`, as the backend would read it.
    private func events(_ text: String) -> [InputEvent] { KeyDecoder.events(in: text.unicodeScalars.map(\.value)) }

    @Test func theKeysPeopleExpectInEveryForm() {
        #expect(events("\u{1B}[1~\u{1B}[H\u{1B}OH\u{1B}[7~") == [.home, .home, .home, .home])
        #expect(events("\u{1B}[4~\u{1B}[F\u{1B}OF\u{1B}[8~") == [.end, .end, .end, .end])
        #expect(events("\u{1B}[3~\u{1B}[5~\u{1B}[6~") == [.delete, .pageUp, .pageDown])
        #expect(events("\u{1B}[1;5A\u{1B}[1;2B\u{1B}OC\u{1B}[D") == [.up, .down, .right, .left])
    }

    @Test func unknownSequencesAreReadWholeAndDoNothing() {
        // F13, F5, an SGR mouse report, a focus report, F1 in SS3 form, and
        // a sequence of 100 parameter bytes: none types a digit or a letter.
        let long = "\u{1B}[" + String(repeating: "1;", count: 50) + "q"
        let typed = events("a\u{1B}[25~b\u{1B}[15~c\u{1B}[<0;12;40Md\u{1B}[Ie\u{1B}OPf" + long + "g")
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
    }
}
