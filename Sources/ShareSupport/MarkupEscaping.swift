/// Text made safe inside HTML and XML, in one place: every page, stanza
/// and document share builds goes through here (JSON has its own writer,
/// ``JSONValue``).
public enum MarkupEscaping {
    /// `text` safe in HTML text and in quoted attribute values: `&`, `<`,
    /// `>`, `"` and `'` as references.
    public static func html(_ text: String) -> String {
        escaped(text, apostrophe: "&#39;", keepsEveryScalar: true)
    }

    /// `text` safe in XML 1.0 text and quoted attribute values: the same
    /// five characters as references (`&apos;`), and the characters XML
    /// cannot carry at all (most C0 controls, U+FFFE, U+FFFF) dropped.
    public static func xml(_ text: String) -> String {
        escaped(text, apostrophe: "&apos;", keepsEveryScalar: false)
    }

    private static func escaped(_ text: String, apostrophe: String, keepsEveryScalar: Bool) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += apostrophe
            default:
                if !keepsEveryScalar && !isXMLCharacter(scalar) { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether XML 1.0 can carry `scalar` (tab, newline and carriage return
    /// are the only controls below U+0020 it allows).
    private static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x20 { return scalar == "\t" || scalar == "\n" || scalar == "\r" }
        return scalar.value != 0xFFFE && scalar.value != 0xFFFF
    }
}
