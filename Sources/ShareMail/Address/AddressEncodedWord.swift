/// Decoding of RFC 2047 encoded-words (`=?UTF-8?B?…?=`) in display names
/// read from headers.
///
/// Only UTF-8, US-ASCII and ISO-8859-1 are decoded; a word in another
/// charset, or one that does not decode cleanly, is kept as written.
enum AddressEncodedWord {
    /// The decoded text of `word`, or `nil` if it is not a decodable encoded-word.
    static func decode(_ word: String) -> String? {
        guard word.hasPrefix("=?"), word.hasSuffix("?="), word.utf8.count >= 8 else { return nil }
        let parts = word.dropFirst(2).dropLast(2).split(separator: "?", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        // RFC 2231 §5: a language may follow the charset after '*'.
        let charset = parts[0].split(separator: "*", maxSplits: 1).first.map { $0.lowercased() } ?? ""
        let bytes: [UInt8]?
        switch parts[1] {
        case "B", "b": bytes = base64(parts[2])
        case "Q", "q": bytes = quotedPrintable(parts[2])
        default: bytes = nil
        }
        guard let bytes else { return nil }
        switch charset {
        case "utf-8", "utf8":
            return String(validating: bytes, as: UTF8.self)
        case "us-ascii":
            return bytes.allSatisfy { $0 < 0x80 } ? String(decoding: bytes, as: UTF8.self) : nil
        case "iso-8859-1", "latin1":
            var text = String.UnicodeScalarView()
            text.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            return String(text)
        default:
            return nil
        }
    }

    /// Base64 ("B") decoding; `nil` for characters outside the alphabet.
    private static func base64(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        var bits: UInt32 = 0
        var count = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") { break }
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"): value = 62
            case UInt8(ascii: "/"): value = 63
            default: return nil
            }
            bits = bits << 6 | UInt32(value)
            count += 6
            if count >= 8 {
                count -= 8
                output.append(UInt8(truncatingIfNeeded: bits >> UInt32(count)))
                bits &= (1 << UInt32(count)) - 1
            }
        }
        return output
    }

    /// "Q" decoding: `_` is a space, `=XX` a byte; `nil` for a bad escape.
    private static func quotedPrintable(_ text: Substring) -> [UInt8]? {
        var output: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "_"):
                output.append(0x20)
            case UInt8(ascii: "="):
                guard let high = iterator.next().flatMap(UInt8.hexDigitValue), let low = iterator.next().flatMap(UInt8.hexDigitValue) else {
                    return nil
                }
                output.append(high << 4 | low)
            default:
                output.append(byte)
            }
        }
        return output
    }
}
