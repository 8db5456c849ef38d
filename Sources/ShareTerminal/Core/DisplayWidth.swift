/// How many terminal columns text takes, measured per grapheme.
///
/// `wcwidth` is right for most single scalars but wrong for emoji
/// presentation sequences (❤️ is one column by `wcwidth`, two on screen)
/// and ZWJ sequences (👨‍👩‍👧 sums to six). Measuring by `Character`
/// with these rules matches what terminals draw:
///
/// - a control character or a lone combining mark takes 0 columns;
/// - a ZWJ sequence or a skin-tone sequence takes 2 (the backend draws its
///   first emoji, which is wide: terminals differ on the width of the rest);
/// - a base with emoji presentation, or East Asian Wide or Fullwidth
///   (Hangul, CJK, kana), takes 2;
/// - anything else takes 1 — including a text symbol with VS16 (❤️),
///   which ncurses' `wcwidth` and tmux count as 1.
public enum DisplayWidth {
    /// The columns `character` takes.
    public static func of(_ character: Character) -> Int {
        // Printable ASCII, most of any screen, without a Unicode property lookup.
        if let ascii = character.asciiValue, ascii >= 0x20 && ascii < 0x7F { return 1 }
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        if let width = simpleWidth(of: first), scalars.index(after: scalars.startIndex) == scalars.endIndex { return width }
        if first.value < 0x20 || (0x7F...0x9F).contains(first.value) { return 0 }
        if scalars.count == 1 && isZeroWidth(first) { return 0 }
        if scalars.contains(where: { $0.value == 0x200D || (0x1F3FB...0x1F3FF).contains($0.value) }) {
            return 2
        }
        if (0x1F1E6...0x1F1FF).contains(first.value) { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        return isWide(first) ? 2 : 1
    }

    /// The width of a scalar that is always a grapheme of its own and needs
    /// no Unicode property lookup: printable ASCII, Latin-1 and the Latin
    /// extensions (no combining marks), general punctuation without format
    /// characters, arrows, box drawing and blocks (1), Hangul syllables (2).
    /// `nil` for anything else, which takes the general path. `wcwidth`
    /// agrees on all of these, so the backend may draw them as runs.
    @inline(__always)
    public static func simpleWidth(of scalar: Unicode.Scalar) -> Int? {
        simpleWidth(ofValue: scalar.value)
    }

    /// ``simpleWidth(of:)`` for a scalar's value (a frame's stored cell),
    /// without making the scalar first.
    @inline(__always)
    static func simpleWidth(ofValue value: UInt32) -> Int? {
        switch value {
        case 0x20...0x7E, 0xA0...0xAC, 0xAE...0x2FF, 0x2010...0x2027, 0x2030...0x205E, 0x2190...0x21FF, 0x2500...0x259F: 1
        case 0xAC00...0xD7A3: 2
        default: nil
        }
    }

    /// The scalar whose first byte is `bytes[offset]` when it is simple
    /// (``simpleWidth(of:)``): its value, its length in bytes and its
    /// width; `nil` when it is not. `bytes` is a String's UTF-8, valid, so
    /// a lead byte is followed by its continuation bytes: one branch per
    /// scalar, for the lines measured at every keystroke.
    @inline(__always)
    static func simpleScalar(in bytes: UnsafeBufferPointer<UInt8>, at offset: Int) -> (value: UInt32, length: Int, width: Int)? {
        let lead = bytes[offset]
        let value: UInt32, length: Int
        if lead < 0x80 {
            (value, length) = (UInt32(lead), 1)
        } else if lead < 0xE0 {
            (value, length) = (UInt32(lead & 0x1F) << 6 | UInt32(bytes[offset + 1] & 0x3F), 2)
        } else if lead < 0xF0 {
            value = UInt32(lead & 0x0F) << 12 | UInt32(bytes[offset + 1] & 0x3F) << 6 | UInt32(bytes[offset + 2] & 0x3F)
            length = 3
        } else {
            // Four bytes: beyond the Basic Multilingual Plane, where no scalar is simple.
            return nil
        }
        guard let width = simpleWidth(ofValue: value) else { return nil }
        return (value, length, width)
    }

    /// Walks the scalars of `text` from its start while each is simple,
    /// calling `body` with its first byte's offset in the UTF-8, its value
    /// and its width, until `body` returns false. Returns the UTF-8 offset
    /// it stopped at: the text's length when it walked through.
    @inline(__always)
    static func walkSimpleScalars(_ text: String, _ body: (_ offset: Int, _ value: UInt32, _ width: Int) -> Bool) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count, let scalar = simpleScalar(in: bytes, at: offset), body(offset, scalar.value, scalar.width) {
                offset += scalar.length
            }
            return offset
        }
    }

    /// The columns `text` takes.
    public static func of<S: StringProtocol>(_ text: S) -> Int {
        var simple = 0
        for scalar in text.unicodeScalars {
            guard let width = simpleWidth(of: scalar) else { return text.reduce(0) { $0 + of($1) } }
            simple += width
        }
        return simple
    }

    /// `text` cut to at most `columns` columns, ending in "…" when cut.
    ///
    /// Never splits a grapheme; a wide character that would straddle the
    /// limit is dropped whole.
    public static func truncate(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        if of(text) <= columns { return text }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > columns - 1 { break }
            result.append(character)
            used += width
        }
        // "Assign to…", not "Assign to …".
        while result.last?.isWhitespace == true { result.removeLast() }
        return result + "…"
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: true
        default: scalar.value == 0x200B || (0x1160...0x11FF).contains(scalar.value)
        }
    }

    /// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0...0x23F0,
        0x23F3...0x23F3, 0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F...0x267F,
        0x2693...0x2693, 0x26A1...0x26A1, 0x26AA...0x26AB, 0x26BD...0x26BE, 0x26C4...0x26C5,
        0x26CE...0x26CE, 0x26D4...0x26D4, 0x26EA...0x26EA, 0x26F2...0x26F3, 0x26F5...0x26F5,
        0x26FA...0x26FA, 0x26FD...0x26FD, 0x2705...0x2705, 0x270A...0x270B, 0x2728...0x2728,
        0x274C...0x274C, 0x274E...0x274E, 0x2753...0x2755, 0x2757...0x2757, 0x2795...0x2797,
        0x27B0...0x27B0, 0x27BF...0x27BF, 0x2B1B...0x2B1C, 0x2B50...0x2B50, 0x2B55...0x2B55,
        0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
        0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
        0x1F004...0x1F004, 0x1F0CF...0x1F0CF, 0x1F18E...0x1F18E, 0x1F191...0x1F19A,
        0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
        0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        guard value >= 0x1100 else { return false }
        var low = 0
        var high = wideRanges.count - 1
        while low <= high {
            let mid = (low + high) / 2
            let range = wideRanges[mid]
            if value < range.lowerBound { high = mid - 1 } else if value > range.upperBound { low = mid + 1 } else { return true }
        }
        return false
    }
}
