import ShareSupport

/// Header values as RFC 5322 / 2047 / 2231 want them: folded to 78
/// columns where possible, never over 998, non-ASCII text in encoded-words
/// of at most 75 characters that never split a UTF-8 sequence.
enum HeaderEncoding {
    static let softLimit = 78

    /// Rejects CR, LF and NUL, which would start a new header or end the headers.
    static func checkValue(_ value: String, field: String) throws(MailError) {
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw MailError(.invalidInput, "the \(field) contains a line break or NUL; a header value must be one line")
        }
    }

    /// Whether `text` can go into a header as it is: printable ASCII (and
    /// spaces), no word long enough to break the line limit, and nothing a
    /// decoder could take for an encoded-word.
    static func isPlain(_ text: String) -> Bool {
        guard text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) else { return false }
        if text.contains("=?") { return false }
        return text.split(separator: " ").allSatisfy { $0.utf8.count <= 70 }
    }

    /// `text` as B encoded-words (`=?UTF-8?B?…?=`), each at most 75
    /// characters and cut only between Unicode scalars. `firstColumn` is
    /// where the first word starts, so it can be shorter to fit the line;
    /// words after the first start a new folded line.
    static func encodedWords(_ text: String, firstColumn: Int) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        var column = firstColumn
        func capacity() -> Int {
            // 12 characters of "=?UTF-8?B?" and "?=", at most 75 in all, and the line's room.
            let room = min(75, softLimit - column) - 12
            return max(room / 4, 1) * 3
        }
        for scalar in text.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > capacity() && !chunk.isEmpty {
                words.append("=?UTF-8?B?" + Base64Encoder.encodeLine(chunk) + "?=")
                chunk.removeAll()
                column = 1
            }
            chunk.append(contentsOf: bytes)
        }
        if !chunk.isEmpty || words.isEmpty {
            words.append("=?UTF-8?B?" + Base64Encoder.encodeLine(chunk) + "?=")
        }
        return words
    }

    /// A whole unstructured header (`Subject: …`) as folded lines joined by CRLF, ending in CRLF.
    static func unstructured(name: String, value: String) -> String {
        let prefix = name + ": "
        // Readers drop white space at either end of a plain value; inside an
        // encoded-word it stays ("Hello " keeps its space).
        let padded = value.hasPrefix(" ") || value.hasSuffix(" ") || value.hasPrefix("\t") || value.hasSuffix("\t")
        if isPlain(value) && !padded {
            return fold(prefix: prefix, tokens: value.split(separator: " ", omittingEmptySubsequences: false).map(String.init),
                        separator: " ")
        }
        let words = encodedWords(value, firstColumn: prefix.utf8.count)
        return prefix + words.joined(separator: "\r\n ") + "\r\n"
    }

    /// Joins `tokens` after `prefix`, folding before a token that would pass
    /// 78 columns; ends in CRLF.
    static func fold(prefix: String, tokens: [String], separator: String) -> String {
        var out = prefix
        var column = prefix.utf8.count
        for (index, token) in tokens.enumerated() {
            let piece = index == 0 ? token : separator + token
            if index > 0 && column + piece.utf8.count > softLimit {
                let trimmed = separator.hasSuffix(" ") ? String(separator.dropLast()) : separator
                out += trimmed + "\r\n " + token
                column = 1 + token.utf8.count
            } else {
                out += piece
                column += piece.utf8.count
            }
        }
        return out + "\r\n"
    }

    /// A display name as an RFC 5322 phrase: an atom sequence, a quoted
    /// string, or encoded-words when it is not ASCII.
    static func phrase(_ name: String, column: Int) -> String {
        let atext = Set("!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        let isAtomic = name.unicodeScalars.allSatisfy {
            $0 == " " || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || atext.contains($0)))
        }
        if isAtomic && isPlain(name) && !name.hasPrefix(" ") && !name.hasSuffix(" ") && !name.contains("  ") {
            return name
        }
        if isPlain(name) {
            var quoted = "\""
            for scalar in name.unicodeScalars {
                if scalar == "\"" || scalar == "\\" { quoted += "\\" }
                quoted.unicodeScalars.append(scalar)
            }
            return quoted + "\""
        }
        return encodedWords(name, firstColumn: column).joined(separator: " ")
    }

    /// A display name as the tokens of a phrase, each of which a fold may
    /// separate from the next: atoms at their spaces, a quoted string while
    /// it fits well within a line (a long one, having nowhere to fold, would
    /// pass the 998-octet limit), else encoded-words.
    static func phraseTokens(_ name: String) -> [String] {
        let written = phrase(name, column: 1)
        if written.hasPrefix("\"") { return written.utf8.count > 900 ? encodedWords(name, firstColumn: 1) : [written] }
        return written.split(separator: " ").map(String.init)
    }

    /// A MIME parameter (`; filename="…"`) as one or more segments. ASCII
    /// values that fit are quoted; others use RFC 2231 `name*0*=UTF-8''…`
    /// continuations, each fitting a line and never splitting a UTF-8 sequence.
    static func parameterSegments(name: String, value: String) -> [String] {
        if isPlain(value) && value.utf8.count + name.utf8.count < 60 && !value.contains(where: { $0 == "\"" || $0 == "\\" }) {
            return [name + "=" + quoted(value)]
        }
        // Each segment goes on its own folded line: " " + prefix + value + ";" within 78 columns.
        func prefix(_ index: Int) -> String { index == 0 ? "\(name)*0*=UTF-8''" : "\(name)*\(index)*=" }
        var segments: [String] = []
        var current = ""
        for scalar in value.unicodeScalars {
            let encoded = PercentEncoding.encoded(String(scalar), keeping: \.isAttributeChar)
            let limit = softLimit - 2 - prefix(segments.count).utf8.count
            if current.utf8.count + encoded.utf8.count > limit && !current.isEmpty {
                segments.append(current)
                current = ""
            }
            current += encoded
        }
        segments.append(current)
        if segments.count == 1 {
            return ["\(name)*=UTF-8''\(segments[0])"]
        }
        return segments.enumerated().map { index, text in prefix(index) + text }
    }

    /// `value` as a quoted string.
    static func quoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}

extension UInt8 {
    /// The value of a hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`), for %XX and =XX escapes.
    static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// RFC 2231 attribute-char: printable ASCII except specials, space, `*`, `'`, `%`.
    var isAttributeChar: Bool {
        guard self > 0x20 && self < 0x7F else { return false }
        return !"()<>@,;:\\\"/[]?=*'%".utf8.contains(self)
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
