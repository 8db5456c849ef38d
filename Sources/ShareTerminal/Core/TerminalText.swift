/// Text made safe to write to a terminal.
public enum TerminalText {
    /// Whether `text` is printable ASCII only: each byte one grapheme one
    /// column wide, with nothing to sanitize (the fast path of measuring and drawing).
    @inline(__always)
    public static func isPrintableASCII<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    /// `text` with every control character shown as a visible symbol.
    ///
    /// C0 controls become their Control Pictures (`\n` → `␊`, ESC → `␛`),
    /// DEL becomes `␡`, C1 controls, the line and paragraph separators
    /// (U+2028, U+2029: no width a terminal agrees on) and bidi overrides
    /// become `�`. Item text
    /// and titles go through this before reaching a terminal, so a shared
    /// string can never move the cursor, change colours or set the title.
    public static func sanitized(_ text: String) -> String {
        // Nothing to replace unless a byte is a C0 control or DEL, or starts
        // the UTF-8 of a C1 control (C2 xx) or of a bidi control (E2 80/81 xx).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0xE2 }) { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
            case 0x7F: out.append("\u{2421}")
            case 0x80...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The text's lines, trimmed and joined by spaces, sanitized and cut to
    /// `columns` columns. Only as much of `text` is read as the excerpt
    /// needs, so a 200 MB item costs no more than a short one.
    public static func excerpt(_ text: String, columns: Int) -> String {
        // Enough characters to fill the columns and show that more follow.
        let enough = columns + 2
        var collapsed = ""
        var rest = text[...]
        var midLine = false
        while collapsed.count < enough, !rest.isEmpty {
            // A window of the next line at a time, however long the line is.
            let window = rest.prefix(enough * 4)
            let newline = window.firstIndex(where: \.isNewline)
            let end = newline ?? window.endIndex
            var piece = rest[..<end]
            // A line's own leading and trailing white space goes; inside a line it stays.
            if !midLine || collapsed.isEmpty { piece = piece.drop(while: \.isWhitespace) }
            if newline != nil || end == rest.endIndex { while piece.last?.isWhitespace == true { piece = piece.dropLast() } }
            if !piece.isEmpty { collapsed += (collapsed.isEmpty || midLine ? "" : " ") + piece }
            midLine = newline == nil
            rest = newline.map { rest[rest.index(after: $0)...] } ?? rest[end...]
        }
        return DisplayWidth.truncate(sanitized(collapsed), to: columns)
    }
}
