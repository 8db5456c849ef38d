import FoundationEssentials
import ShareSupport

/// One MIME entity read back: its header fields and its body. Reads what
/// the MIME writer writes and what mail programs keep in a Maildir (lines
/// ending in CRLF or in LF alone).
public struct MIMEPart: Sendable {
    /// The header fields, unfolded, in order.
    public var headers: [(name: String, value: String)]
    /// The body as stored, its transfer encoding not undone.
    public var body: [UInt8]

    public init(headers: [(name: String, value: String)], body: [UInt8]) {
        self.headers = headers
        self.body = body
    }

    /// A whole message or part: its header section parsed, and the rest.
    public init(parsing bytes: [UInt8]) {
        let (head, rest) = MIMEPart.split(bytes)
        self.init(headers: MessageFile.parseHeaders(head), body: rest)
    }

    /// The header section (with its blank line) and the rest.
    public static func split(_ bytes: [UInt8]) -> (head: [UInt8], body: [UInt8]) {
        var index = 0
        // A body may start at once: a blank first line ends an empty header section.
        if bytes.starts(with: [13, 10]) { return ([13, 10], Array(bytes.dropFirst(2))) }
        if bytes.first == 10 { return ([10], Array(bytes.dropFirst())) }
        while index + 1 < bytes.count {
            if bytes[index] == 10 {
                if bytes[index + 1] == 10 { return (Array(bytes[...(index + 1)]), Array(bytes[(index + 2)...])) }
                if bytes[index + 1] == 13, index + 2 < bytes.count, bytes[index + 2] == 10 {
                    return (Array(bytes[...(index + 2)]), Array(bytes[(index + 3)...]))
                }
            }
            index += 1
        }
        return (bytes, [])
    }

    /// The first value of the field `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    /// The type without parameters, lower-cased (`text/plain` when not given).
    public var contentType: String {
        (header("Content-Type") ?? "text/plain").split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    }

    /// Whether the part is an attachment: said so, or given a file name.
    public var isAttachment: Bool {
        let disposition = header("Content-Disposition")?.split(separator: ";").first?.trimmingWhitespace().lowercased()
        return disposition == "attachment" || parameter("Content-Disposition", "filename") != nil
            || (disposition != "inline" && parameter("Content-Type", "name") != nil)
    }

    /// The file name the part is given, if any: from its disposition, else its type.
    public var fileName: String? {
        (parameter("Content-Disposition", "filename") ?? parameter("Content-Type", "name")).map(HeaderText.decoded)
    }

    /// A parameter of a header: quoted, or RFC 2231 (`name*=`, `name*0*=`…), decoded.
    public func parameter(_ field: String, _ name: String) -> String? {
        guard let value = header(field) else { return nil }
        var plain: String?
        var segments: [Int: String] = [:]
        var rest = Substring(value)
        let wanted = name.lowercased()
        while let semicolon = rest.firstIndex(of: ";") {
            rest = rest[rest.index(after: semicolon)...].drop { $0 == " " || $0 == "\t" }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let key = String(rest[..<equals]).trimmingWhitespace().lowercased()
            rest = rest[rest.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            var text = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let character = rest.first, character != "\"" {
                    if character == "\\", rest.count > 1 { rest = rest.dropFirst() }
                    if let next = rest.first { text.append(next) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                text = String(rest[..<end]).trimmingWhitespace()
                rest = rest[end...]
            }
            if key == wanted { plain = text }
            if key == wanted + "*" { segments[0] = text }
            if key.hasPrefix(wanted + "*"), key.hasSuffix("*"), let number = Int(key.dropFirst(wanted.count + 1).dropLast()) {
                segments[number] = text
            }
            if key.hasPrefix(wanted + "*"), !key.hasSuffix("*"), let number = Int(key.dropFirst(wanted.count + 1)) {
                segments[number] = text
            }
        }
        if let plain { return plain }
        guard !segments.isEmpty else { return nil }
        var encoded = Substring((0..<segments.count).compactMap { segments[$0] }.joined())
        // charset'language'value: UTF-8 (or US-ASCII) is decoded; the value is kept as written otherwise.
        let pieces = encoded.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return String(encoded) }
        guard ["utf-8", "utf8", "us-ascii"].contains(pieces[0].lowercased()) else { return String(encoded) }
        encoded = pieces[2]
        var bytes: [UInt8] = []
        var iterator = Array(encoded.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard let high = iterator.next().flatMap(UInt8.hexDigitValue),
                  let low = iterator.next().flatMap(UInt8.hexDigitValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The parts of a multipart body, split at its boundary.
    public func children() -> [MIMEPart] {
        guard contentType.hasPrefix("multipart/"), let boundary = parameter("Content-Type", "boundary") else { return [] }
        let delimiter = Array("--\(boundary)".utf8)
        var parts: [MIMEPart] = []
        var start: Int?
        var lineStart = 0
        var index = 0
        while index <= body.count {
            if index == body.count || body[index] == 10 {
                var line = body[lineStart..<index]
                if line.last == 13 { line = line.dropLast() }
                if line.starts(with: delimiter) {
                    if let start {
                        // The line end before the delimiter belongs to it.
                        var end = max(start, lineStart - 1)
                        if end > start, body[end - 1] == 13 { end -= 1 }
                        parts.append(MIMEPart(parsing: Array(body[start..<end])))
                    }
                    if line.dropFirst(delimiter.count).starts(with: Array("--".utf8)) { return parts }
                    start = index + 1
                }
                lineStart = index + 1
            }
            index += 1
        }
        return parts
    }

    /// The body with its transfer encoding undone.
    public var decodedBody: [UInt8] {
        switch header("Content-Transfer-Encoding")?.trimmingWhitespace().lowercased() {
        case "base64":
            let text = String(decoding: body.filter { $0 != 13 && $0 != 10 && $0 != 32 && $0 != 9 }, as: UTF8.self)
            return Data(base64Encoded: text, options: .ignoreUnknownCharacters).map(Array.init) ?? []
        case "quoted-printable":
            var out: [UInt8] = []
            var index = 0
            while index < body.count {
                let byte = body[index]
                if byte == UInt8(ascii: "=") {
                    // A soft line break: "=" at a line's end (CRLF or LF).
                    if index + 1 < body.count, body[index + 1] == 10 { index += 2; continue }
                    if index + 2 < body.count, body[index + 1] == 13, body[index + 2] == 10 { index += 3; continue }
                    if index + 2 < body.count, let high = UInt8.hexDigitValue(body[index + 1]),
                       let low = UInt8.hexDigitValue(body[index + 2]) {
                        out.append(high << 4 | low)
                        index += 3
                        continue
                    }
                }
                out.append(byte)
                index += 1
            }
            return out
        default:
            return body
        }
    }

    /// `text` with every line end LF: a CRLF and a CR alone alike (a CR
    /// left alone could meet the LF after it and make a CRLF again).
    static func lineFeeds(_ text: String) -> String {
        guard text.utf8.contains(13) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        var afterCR = false
        for byte in text.utf8 {
            if byte == 10 && afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 13
            out.append(byte == 13 ? 10 : byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The body as text: its transfer encoding undone, read in its charset
    /// (UTF-8, US-ASCII or ISO-8859-1; anything else as UTF-8, bad bytes
    /// replaced), its line ends LF.
    public var text: String {
        let bytes = decodedBody
        let charset = parameter("Content-Type", "charset")?.lowercased() ?? "us-ascii"
        let text: String
        switch charset {
        case "iso-8859-1", "latin1", "iso8859-1":
            var scalars = String.UnicodeScalarView()
            scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
            text = String(scalars)
        default:
            text = String(decoding: bytes, as: UTF8.self)
        }
        return MIMEPart.lineFeeds(text)
    }
}

/// Header values as a person reads them.
public enum HeaderText {
    /// An unstructured value (a subject, a file name), unfolded, with
    /// encoded-words decoded (white space between two encoded-words is
    /// dropped, RFC 2047 §6.2); a word that does not decode is kept as written.
    public static func decoded(_ value: String) -> String {
        guard value.contains("=?") else { return value }
        var out = ""
        var previousWasEncoded = false
        var pendingSpace = ""
        for piece in value.split(separator: " ", omittingEmptySubsequences: false) {
            let word = String(piece)
            if let decoded = AddressEncodedWord.decode(word) {
                if !previousWasEncoded { out += pendingSpace }
                out += decoded
                previousWasEncoded = true
            } else {
                out += pendingSpace + word
                previousWasEncoded = false
            }
            pendingSpace = " "
        }
        return out
    }
}
