/// Text made safe to write to a terminal.
public enum TerminalText {
    /// `text` with every control character shown as a visible symbol.
    ///
    /// C0 controls become their Control Pictures (`\n` → `␊`, ESC → `␛`),
    /// DEL becomes `␡`, C1 controls and bidi overrides become `�`. Item text
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
            case 0x80...0x9F, 0x202A...0x202E, 0x2066...0x2069: out.append("\u{FFFD}")
            default: out.append(scalar)
            }
        }
        return String(out)
    }

    /// The first line of `text`, sanitized and cut to `columns` columns.
    public static func excerpt(_ text: String, columns: Int) -> String {
        let collapsed = text.split(whereSeparator: \.isNewline).map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            .joined(separator: " ")
        return DisplayWidth.truncate(sanitized(collapsed), to: columns)
    }
}
