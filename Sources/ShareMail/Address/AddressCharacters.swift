/// Character classes of RFC 5322 §3.2 and the checks every address part shares.
enum AddressCharacters {
    /// Message for CR, LF, NUL and Unicode line separators anywhere in an address.
    static let lineBreakMessage =
        "line breaks and NUL are not allowed in an address; put the address on one line without control characters"

    /// Whether `scalar` is `atext`: an ASCII letter, digit or one of
    /// ``!#$%&'*+-/=?^_`{|}~``, or any non-ASCII character (RFC 6532).
    static func isAtext(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...:
            return true
        default:
            return "!#$%&'*+-/=?^_`{|}~".unicodeScalars.contains(scalar)
        }
    }

    /// Whether `scalar` is ASCII `atext` (the characters of an unquoted local part).
    static func isASCIIAtext(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && isAtext(scalar)
    }

    /// Whether `scalar` ends a line or is NUL: CR, LF, NUL, NEL, U+2028, U+2029.
    static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00, 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Whether `scalar` is a C0 control other than tab, DEL, or a C1 control.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09: return false
        case 0x00...0x1F, 0x7F...0x9F: return true
        default: return false
        }
    }

    /// Throws for any line break, NUL or control character in `text`; line
    /// breaks are reported first wherever they are, so the message does not
    /// depend on which comes earlier.
    static func rejectControls(in text: String, what: String, input: String) throws(AddressError) {
        if text.unicodeScalars.contains(where: isLineBreak) {
            throw AddressError(input: input, message: lineBreakMessage)
        }
        if let control = text.unicodeScalars.first(where: isControl) {
            throw AddressError(
                input: input,
                message: "control character \(AddressError.codePoint(control)) is not allowed in \(what); remove it"
            )
        }
    }
}
