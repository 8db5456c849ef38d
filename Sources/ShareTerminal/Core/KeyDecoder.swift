/// Turns the characters a terminal sends (what ncurses hands over as
/// characters, not as its `KEY_` codes) into input events.
///
/// After ESC comes Alt+key (ESC and the key at once), or a CSI (`ESC [`) or
/// SS3 (`ESC O`) sequence, read whole so that no digit or letter of it is
/// ever taken as a keystroke; sequences for keys nobody binds make no event.
/// Pure: the backend hands in a reader, the fuzzer hands in bytes.
public enum KeyDecoder {
    /// The event for `character`, reading what follows an ESC from `next`.
    ///
    /// `next(wait)` returns the next character, or `nil` when none came:
    /// `wait` is false for the character right after ESC (only what arrived
    /// with it) and true inside a sequence (its rest may come in the next read).
    ///
    /// A character that cannot be part of what came before it (a line feed
    /// inside `ESC [ 1`, a second ESC) is handed to `unread`, to be read
    /// again as a key of its own.
    public static func event(for character: UInt32, next: (_ wait: Bool) -> UInt32?,
                             unread: (UInt32) -> Void) -> InputEvent? {
        switch character {
        case 9: return .tab
        case 10, 13: return .enter
        case 27:
            guard let following = next(false) else { return .escape }
            guard following >= 32, let scalar = Unicode.Scalar(following) else {
                unread(following)
                return .escape
            }
            switch scalar {
            case "[": return controlSequence(next, unread)
            case "O": return singleShift(next)
            default: return .alt(Character(scalar))
            }
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(UInt8(character) + 96)))
        case 0..<32: return nil
        default: return Unicode.Scalar(character).map { .character(Character($0)) }
        }
    }

    /// Every event of `stream`, everything in it already arrived (for
    /// decoding recorded input, and for the fuzz target).
    public static func events(in stream: [UInt32]) -> [InputEvent] {
        var position = 0
        var events: [InputEvent] = []
        while position < stream.count {
            let first = stream[position]
            position += 1
            let event = KeyDecoder.event(for: first, next: { _ in
                guard position < stream.count else { return nil }
                defer { position += 1 }
                return stream[position]
            }, unread: { _ in position -= 1 })
            if let event { events.append(event) }
        }
        return events
    }

    /// The rest of `ESC [`: parameter and intermediate bytes up to the
    /// final byte; the keys people expect (Home, End, Delete, Page Up and
    /// Down, arrows with modifiers), and nothing for any other. However
    /// long, a sequence is read to its final byte; one broken by a character
    /// that cannot be in it is dropped, and that character read again.
    private static func controlSequence(_ next: (Bool) -> UInt32?, _ unread: (UInt32) -> Void) -> InputEvent? {
        var parameters: [UInt8] = []
        while true {
            guard let character = next(true) else { return nil }
            switch character {
            case 0x20...0x3F: parameters.append(UInt8(character))
            case 0x40...0x7E:
                let first = String(decoding: parameters.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                switch (UInt8(character), first) {
                case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"), (UInt8(ascii: "H"), _): return .home
                case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"), (UInt8(ascii: "F"), _): return .end
                case (UInt8(ascii: "~"), "3"): return .delete
                case (UInt8(ascii: "~"), "5"): return .pageUp
                case (UInt8(ascii: "~"), "6"): return .pageDown
                case (UInt8(ascii: "A"), _): return .up
                case (UInt8(ascii: "B"), _): return .down
                case (UInt8(ascii: "C"), _): return .right
                case (UInt8(ascii: "D"), _): return .left
                default: return nil
                }
            default:
                unread(character)
                return nil
            }
        }
    }

    /// The rest of `ESC O`: one key (arrows, Home, End in application
    /// mode); F1–F4 and the rest are nothing.
    private static func singleShift(_ next: (Bool) -> UInt32?) -> InputEvent? {
        switch next(true).flatMap({ UInt8(exactly: $0) }) {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        default: return nil
        }
    }
}
