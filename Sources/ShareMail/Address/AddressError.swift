/// Why a mail address or address list could not be used.
///
/// The parser never "fixes" an address: any doubt about which mailbox the
/// text names is an error, and ``message`` says what to change. The
/// ``description`` shows control characters visibly (`\r` as `␍`), so the
/// error can be printed to a terminal or a log as-is.
public struct AddressError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The text that was being parsed (the whole list for a list).
    public var input: String
    /// What is wrong and how to fix it, without the input.
    public var message: String

    /// Creates an error for `input` with a message that says how to fix it.
    public init(input: String, message: String) {
        self.input = input
        self.message = message
    }

    /// `invalid address '<input>': <message>`, with control characters shown visibly.
    public var description: String {
        "invalid address '\(AddressError.visible(input))': \(message)"
    }

    /// The longest input, in Unicode scalars, shown in a description.
    private static let shownLength = 200

    /// `text` with control, line-separator and bidirectional-formatting
    /// characters replaced by visible stand-ins, cut at ``shownLength``.
    static func visible(_ text: String) -> String {
        var shown = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count == shownLength {
                shown += "…"
                break
            }
            count += 1
            switch scalar.value {
            case 0x00...0x1F:
                // U+2400 CONTROL PICTURES: ␀ … ␟ (␍ for CR, ␊ for LF).
                shown.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F:
                shown += "␡"
            case 0x80...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
                shown += "<\(AddressError.codePoint(scalar))>"
            default:
                shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// `text` cut to 80 Unicode scalars (with `…`), for quoting input in a message.
    static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > 80 else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(80))) + "…"
    }

    /// `U+000D`-style name of a scalar, for messages.
    static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
