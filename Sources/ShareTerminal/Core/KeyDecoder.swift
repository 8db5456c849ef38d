/// Turns the bytes a terminal sends into input events: UTF-8 characters,
/// control keys, escape sequences and mouse reports.
///
/// After ESC comes Alt+key (ESC and the key at once), or a CSI (`ESC [`) or
/// SS3 (`ESC O`) sequence, read whole so that no digit or letter of it is
/// ever taken as a keystroke; sequences for keys nobody binds make no event.
/// Mouse reports come in either of the forms a terminal sends for the
/// reporting ncurses turns on: SGR (`ESC [ < b ; x ; y M`) and the older
/// X10 form (`ESC [ M` and three raw bytes).
/// Pure: the backend hands in a reader, the fuzzer hands in bytes.
public enum KeyDecoder {
    /// The event for `byte`, reading the rest of a character or a sequence
    /// from `next`.
    ///
    /// `next()` returns the next byte, or `nil` when none came in time (the
    /// backend waits the escape delay for it: after an ESC, inside a
    /// sequence or a character, the rest may come in the next read).
    ///
    /// A byte that cannot be part of what came before it (a line feed
    /// inside `ESC [ 1`, a second ESC, a letter inside a broken UTF-8
    /// character) is handed to `unread`, to be read again as a key of its own.
    public static func event(for byte: UInt8, next: () -> UInt8?, unread: (UInt8) -> Void) -> InputEvent? {
        switch byte {
        case 9: return .tab
        case 10, 13: return .enter
        case 27:
            guard let following = next() else { return .escape }
            switch following {
            case UInt8(ascii: "["): return controlSequence(next, unread)
            case UInt8(ascii: "O"): return singleShift(next, unread)
            case 0x20..<0x80: return .alt(Character(Unicode.Scalar(following)))
            case 0x80...: return character(from: following, next, unread).map { .alt($0) }
            default:
                unread(following)
                return .escape
            }
        case 8, 127: return .backspace
        case 1...26: return .control(Character(Unicode.Scalar(byte + 96)))
        case 0..<32: return nil
        case 0x80...: return character(from: byte, next, unread).map { .character($0) }
        default: return .character(Character(Unicode.Scalar(byte)))
        }
    }

    /// Every event of `stream`, everything in it already arrived (for
    /// decoding recorded input, and for the fuzz target).
    public static func events(in stream: [UInt8]) -> [InputEvent] {
        var position = 0
        var events: [InputEvent] = []
        while position < stream.count {
            let first = stream[position]
            position += 1
            let event = KeyDecoder.event(for: first, next: {
                guard position < stream.count else { return nil }
                defer { position += 1 }
                return stream[position]
            }, unread: { _ in position -= 1 })
            if let event { events.append(event) }
        }
        return events
    }

    /// The character whose UTF-8 form starts with `lead`; `nil` for a byte
    /// that starts none, an overlong form, a surrogate, or a character cut
    /// short (the byte that cut it is read again).
    private static func character(from lead: UInt8, _ next: () -> UInt8?, _ unread: (UInt8) -> Void) -> Character? {
        let (count, smallest): (Int, UInt32) = switch lead {
        case 0xC2...0xDF: (1, 0x80)
        case 0xE0...0xEF: (2, 0x800)
        case 0xF0...0xF4: (3, 0x10000)
        default: (0, 0)
        }
        guard count > 0 else { return nil }
        var value = UInt32(lead) & (0x3F >> count)
        for _ in 0..<count {
            guard let byte = next() else { return nil }
            guard byte & 0xC0 == 0x80 else {
                unread(byte)
                return nil
            }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard value >= smallest, let scalar = Unicode.Scalar(value) else { return nil }
        return Character(scalar)
    }

    /// The rest of `ESC [`: parameter and intermediate bytes up to the
    /// final byte; the keys people expect (Home, End, Delete, Page Up and
    /// Down, arrows with modifiers, Shift-Tab), mouse reports, and nothing
    /// for any other. However long, a sequence is read to its final byte;
    /// one broken by a byte that cannot be in it is dropped, and that byte
    /// read again.
    private static func controlSequence(_ next: () -> UInt8?, _ unread: (UInt8) -> Void) -> InputEvent? {
        var parameters: [UInt8] = []
        while true {
            guard let byte = next() else { return nil }
            switch byte {
            case 0x20...0x3F: parameters.append(byte)
            case 0x40...0x7E:
                if parameters.first == UInt8(ascii: "<"), byte == UInt8(ascii: "M") || byte == UInt8(ascii: "m") {
                    let numbers = parameters.dropFirst().split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
                        .map(number)
                    guard numbers.count == 3, let button = numbers[0], let x = numbers[1], let y = numbers[2] else { return nil }
                    return mouse(button: button, x: x - 1, y: y - 1, pressed: byte == UInt8(ascii: "M"))
                }
                if parameters.isEmpty, byte == UInt8(ascii: "M") {
                    // X10: button + 32, column + 33, row + 33, each one raw byte.
                    guard let button = next(), let x = next(), let y = next(), button >= 32, x >= 33, y >= 33 else { return nil }
                    return mouse(button: Int(button) - 32, x: Int(x) - 33, y: Int(y) - 33, pressed: button & 3 != 3)
                }
                // The Linux console's F1–F5 are ESC [ [ A … E.
                // Its last byte is read with it; a byte that cannot be one is a key of its own.
                if parameters.isEmpty, byte == UInt8(ascii: "[") {
                    if let last = next(), !(0x40...0x7E).contains(last) { unread(last) }
                    return nil
                }
                let first = String(decoding: parameters.prefix { $0 != UInt8(ascii: ";") }, as: UTF8.self)
                switch (byte, first) {
                case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"), (UInt8(ascii: "H"), _): return .home
                case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"), (UInt8(ascii: "F"), _): return .end
                case (UInt8(ascii: "~"), "3"): return .delete
                case (UInt8(ascii: "~"), "5"): return .pageUp
                case (UInt8(ascii: "~"), "6"): return .pageDown
                case (UInt8(ascii: "A"), _): return .up
                case (UInt8(ascii: "B"), _): return .down
                case (UInt8(ascii: "C"), _): return .right
                case (UInt8(ascii: "D"), _): return .left
                case (UInt8(ascii: "Z"), _): return .backTab
                default: return nil
                }
            default:
                unread(byte)
                return nil
            }
        }
    }

    /// A number of one to five ASCII digits (a terminal's cell or button),
    /// else `nil`.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard (1...5).contains(digits.count) else { return nil }
        var value = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return value
    }

    /// A mouse report: a press of the left button (with or without Shift,
    /// Alt or Ctrl) is a click at the 0-based cell, a wheel notch scrolls;
    /// releases, motion and the other buttons make no event.
    private static func mouse(button: Int, x: Int, y: Int, pressed: Bool) -> InputEvent? {
        guard pressed, x >= 0, y >= 0 else { return nil }
        switch button & ~(4 | 8 | 16) {
        case 0: return .click(x: x, y: y)
        case 64: return .wheelUp
        case 65: return .wheelDown
        default: return nil
        }
    }

    /// The rest of `ESC O`: arrows, Home, End and the keypad's Enter in
    /// application mode, the keypad's digits and signs in application
    /// keypad mode; F1–F4 and the rest are nothing. Some terminals put a
    /// modifier before the final byte (`ESC O 2 P`, Shift-F1): it is read
    /// with the sequence, and a byte that cannot be in it is read again.
    private static func singleShift(_ next: () -> UInt8?, _ unread: (UInt8) -> Void) -> InputEvent? {
        var modified = false
        while true {
            guard let byte = next() else { return nil }
            switch byte {
            case 0x20...0x3F: modified = true
            case UInt8(ascii: "A"): return .up
            case UInt8(ascii: "B"): return .down
            case UInt8(ascii: "C"): return .right
            case UInt8(ascii: "D"): return .left
            case UInt8(ascii: "H"): return .home
            case UInt8(ascii: "F"): return .end
            case UInt8(ascii: "M"): return .enter
            // p … y are 0 … 9; j * k + l , m - n . o /
            case UInt8(ascii: "j")...UInt8(ascii: "y"): return modified ? nil : .character(Character(Unicode.Scalar(byte - 0x40)))
            case 0x40...0x7E: return nil
            default:
                unread(byte)
                return nil
            }
        }
    }
}
