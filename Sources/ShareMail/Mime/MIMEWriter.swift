#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials

/// Writes a ``MailMessage`` as an RFC 5322 / MIME message, streaming.
///
/// - CRLF line ends; header lines folded to 78 columns where possible and
///   never over 998; non-ASCII in RFC 2047 encoded-words of at most 75
///   characters; file names that are not plain, short ASCII (or that hold
///   `"` or `\\`) as RFC 2231 `name*` and `filename*`.
/// - Text parts are 7bit when plain ASCII allows, quoted-printable when
///   mostly ASCII, base64 otherwise; attachments are base64, read from
///   disk in chunks, so memory does not grow with their size; a
///   `message/rfc822` attachment goes as it is (7bit) when it is ASCII with
///   lines of at most 998 octets, else as `application/octet-stream`; a
///   UTF-8 text attachment says `charset=utf-8`.
/// - HTML bodies become `multipart/alternative` with a generated plain
///   part first; attachments wrap everything in `multipart/mixed`.
/// - `Bcc:` is written only when `includeBcc` is true (drafts and the sent
///   copy), never into the transmitted message.
public struct MIMEWriter: Sendable {
    /// A token unique to this message, used to make boundaries.
    public var boundaryToken: String

    /// Creates a writer; `boundaryToken` is random unless given (tests fix it).
    public init(boundaryToken: String? = nil) {
        var generator = SystemRandomNumberGenerator()
        self.boundaryToken = boundaryToken ?? (0..<2).map { _ in
            String(generator.next() as UInt64, radix: 16).leftPadded(to: 16)
        }.joined()
    }

    /// Writes `message` to `sink`.
    public func write(_ message: MailMessage, to sink: any ByteSink, includeBcc: Bool) throws(MailError) {
        var head = ""
        head += "Date: " + MIMEWriter.rfc5322Date(message.date) + "\r\n"
        if let from = message.from { head += MIMEWriter.addressField("From", [.mailbox(from)]) }
        if !message.to.isEmpty { head += MIMEWriter.addressField("To", message.to) }
        if !message.cc.isEmpty { head += MIMEWriter.addressField("Cc", message.cc) }
        if includeBcc && !message.bcc.isEmpty { head += MIMEWriter.addressField("Bcc", message.bcc) }
        head += HeaderEncoding.unstructured(name: "Subject", value: message.subject)
        head += "Message-ID: <\(message.messageID)>\r\n"
        head += "MIME-Version: 1.0\r\n"
        try sink.write(head)
        if let protection = message.protection, protection.signs || protection.encrypts {
            try writeProtected(message, protection, to: sink)
        } else {
            try writeBody(message, to: sink)
        }
    }

    // MARK: - OpenPGP (RFC 3156)

    /// The body as a part of multipart/signed with its detached signature,
    /// or encrypted (and signed in the same step) in multipart/encrypted.
    /// The body is written to a scratch file first and gpg reads it from
    /// there, so memory does not grow with the attachments.
    private func writeProtected(_ message: MailMessage, _ protection: OpenPGPProtection, to sink: any ByteSink) throws(MailError) {
        let entity = try ScratchFile()
        let entitySink = FileDescriptorSink(fd: entity.descriptor, name: "the scratch file")
        try writeBody(message, to: entitySink)
        try entitySink.flush()
        try entity.rewind()
        let armored = try ScratchFile()
        let boundary = "=_\(boundaryToken)_pgp"
        var lineEnds = CRLFNormalizer()
        if protection.encrypts {
            try OpenPGP.encrypt(protection, input: entity.descriptor, output: armored.descriptor)
            try sink.write("Content-Type: multipart/encrypted; protocol=\"application/pgp-encrypted\";\r\n boundary=\"\(boundary)\"\r\n\r\n")
            try sink.write("This is an OpenPGP/MIME encrypted message (RFC 4880 and 3156).\r\n")
            try sink.write("\r\n--\(boundary)\r\nContent-Type: application/pgp-encrypted\r\n"
                           + "Content-Description: PGP/MIME version identification\r\n\r\nVersion: 1\r\n")
            try sink.write("\r\n--\(boundary)\r\nContent-Type: application/octet-stream; name=\"encrypted.asc\"\r\n"
                           + "Content-Description: OpenPGP encrypted message\r\n"
                           + "Content-Disposition: inline; filename=\"encrypted.asc\"\r\n\r\n")
        } else if let signer = protection.signer {
            let micalg = try OpenPGP.sign(signer, mayAsk: protection.mayAsk, input: entity.descriptor, output: armored.descriptor)
            try sink.write("Content-Type: multipart/signed; micalg=\(micalg);\r\n protocol=\"application/pgp-signature\";\r\n"
                           + " boundary=\"\(boundary)\"\r\n\r\n")
            try sink.write("This is an OpenPGP/MIME signed message (RFC 4880 and 3156).\r\n")
            // The signed part goes exactly as it was signed: its bytes, then the CRLF that starts the next delimiter.
            try sink.write("\r\n--\(boundary)\r\n")
            try entity.chunks { chunk throws(MailError) in try sink.write(chunk) }
            try sink.write("\r\n--\(boundary)\r\nContent-Type: application/pgp-signature; name=\"signature.asc\"\r\n"
                           + "Content-Description: OpenPGP digital signature\r\n"
                           + "Content-Disposition: attachment; filename=\"signature.asc\"\r\n\r\n")
        }
        try armored.chunks { chunk throws(MailError) in try lineEnds.write(chunk, to: sink) }
        try lineEnds.finish(to: sink)
        try sink.write("\r\n--\(boundary)--\r\n")
    }

    // MARK: - Structure

    private func writeBody(_ message: MailMessage, to sink: any ByteSink) throws(MailError) {
        if message.attachments.isEmpty {
            try writeText(message.body, to: sink, depth: 0)
            return
        }
        let boundary = self.boundary(0)
        try sink.write("Content-Type: multipart/mixed;\r\n boundary=\"\(boundary)\"\r\n\r\n")
        try sink.write("This is a message in MIME format.\r\n")
        try sink.write("\r\n--\(boundary)\r\n")
        try writeText(message.body, to: sink, depth: 1)
        for attachment in message.attachments {
            try sink.write("\r\n--\(boundary)\r\n")
            try writeAttachment(attachment, to: sink)
        }
        try sink.write("\r\n--\(boundary)--\r\n")
    }

    private func writeText(_ body: MailBody, to sink: any ByteSink, depth: Int) throws(MailError) {
        switch body {
        case .plain(let text):
            try writeTextPart(text, subtype: "plain", to: sink)
        case .html(let html):
            try writeAlternatives(plain: try HTMLText.plainText(from: html), html: html, to: sink, depth: depth)
        case .markdown(let text):
            try writeAlternatives(plain: text, html: try Markdown.document(text), to: sink, depth: depth)
        }
    }

    /// A text and its HTML as multipart/alternative, the plain one first.
    private func writeAlternatives(plain: String, html: String, to sink: any ByteSink, depth: Int) throws(MailError) {
        let boundary = self.boundary(depth)
        try sink.write("Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"\r\n\r\n")
        try sink.write("--\(boundary)\r\n")
        try writeTextPart(plain, subtype: "plain", to: sink)
        try sink.write("\r\n--\(boundary)\r\n")
        try writeTextPart(html, subtype: "html", to: sink)
        try sink.write("\r\n--\(boundary)--\r\n")
    }

    private func writeTextPart(_ text: String, subtype: String, to sink: any ByteSink) throws(MailError) {
        let normalized = MIMEWriter.crlf(text)
        let encoding = MIMEWriter.transferEncoding(for: normalized, boundaryPrefix: "--=_\(boundaryToken)")
        try sink.write("Content-Type: text/\(subtype); charset=utf-8\r\nContent-Transfer-Encoding: \(encoding.rawValue)\r\n\r\n")
        switch encoding {
        case .sevenBit:
            try sink.write(normalized)
            if !normalized.isEmpty && !normalized.hasSuffix("\r\n") { try sink.write("\r\n") }
        case .quotedPrintable:
            try sink.write(QuotedPrintable.encode(normalized))
            try sink.write("\r\n")
        case .base64:
            var encoder = Base64Encoder()
            defer { encoder.release() }
            var bytes = Array(normalized.utf8)
            try throwingMailError { try bytes.withUnsafeBytes { try encoder.encode($0, to: sink) } }
            try encoder.finish(to: sink)
            bytes.removeAll()
        }
    }

    private func writeAttachment(_ attachment: MailAttachment, to sink: any ByteSink) throws(MailError) {
        let form = try AttachmentForm.of(attachment)
        var type = HeaderLine("Content-Type")
        type.append(form.contentType + ";")
        // The name in both headers the same way: a quoted string when it is
        // plain and short, else RFC 2231 (never an encoded-word in quotes).
        let names = HeaderEncoding.parameterSegments(name: "name", value: attachment.fileName)
        for (index, segment) in names.enumerated() { type.append(segment + (index < names.count - 1 ? ";" : "")) }
        var disposition = HeaderLine("Content-Disposition")
        disposition.append("attachment;")
        let segments = HeaderEncoding.parameterSegments(name: "filename", value: attachment.fileName)
        for (index, segment) in segments.enumerated() {
            disposition.append(segment + (index < segments.count - 1 ? ";" : ""))
        }
        guard !form.asIs else {
            // message/rfc822 goes as it is, 7bit (RFC 2046 §5.2.1 forbids base64 for it), its lines ended with CRLF.
            try sink.write(type.line + disposition.line + "Content-Transfer-Encoding: 7bit\r\n\r\n")
            var lineEnds = CRLFNormalizer()
            try MIMEWriter.chunks(of: attachment.source) { chunk throws(MailError) in try lineEnds.write(chunk, to: sink) }
            try lineEnds.finish(to: sink)
            return
        }
        try sink.write(type.line + disposition.line + "Content-Transfer-Encoding: base64\r\n\r\n")
        var encoder = Base64Encoder()
        defer { encoder.release() }
        try MIMEWriter.chunks(of: attachment.source) { chunk throws(MailError) in try encoder.encode(chunk, to: sink) }
        try encoder.finish(to: sink)
    }

    // MARK: - Pieces

    private func boundary(_ depth: Int) -> String { "=_\(boundaryToken)_\(depth)" }

    /// The header field `name` holding `entries`, folded and encoded, with its CRLF.
    static func addressField(_ name: String, _ entries: [AddressListEntry]) -> String {
        var line = HeaderLine(name)
        var first = true
        func mailboxTokens(_ address: MailAddress) -> [String] {
            guard let display = address.displayName, !display.isEmpty else { return [address.addrSpec] }
            return HeaderEncoding.phraseTokens(display) + ["<\(address.addrSpec)>"]
        }
        for entry in entries {
            var tokens: [String]
            switch entry {
            case .mailbox(let address):
                tokens = mailboxTokens(address)
            case .group(let groupName, let members):
                tokens = HeaderEncoding.phraseTokens(groupName)
                tokens[tokens.count - 1] += ":"
                var memberTokens: [String] = []
                for (index, member) in members.enumerated() {
                    var own = mailboxTokens(member)
                    if index < members.count - 1 { own[own.count - 1] += "," }
                    memberTokens += own
                }
                if memberTokens.isEmpty { tokens[tokens.count - 1] += ";" } else {
                    memberTokens[memberTokens.count - 1] += ";"
                    tokens += memberTokens
                }
            }
            for (index, token) in tokens.enumerated() {
                line.append(token, glue: index == 0 && !first ? ", " : " ")
            }
            first = false
        }
        return line.line
    }

    /// Content-Transfer-Encodings the writer chooses among.
    enum TransferEncoding: String {
        case sevenBit = "7bit"
        case quotedPrintable = "quoted-printable"
        case base64
    }

    /// 7bit for short-lined plain ASCII that no transport can mangle;
    /// quoted-printable when at most a fifth of the bytes are not ASCII;
    /// base64 otherwise.
    static func transferEncoding(for text: String, boundaryPrefix: String) -> TransferEncoding {
        var nonASCII = 0
        var total = 0
        var plain = true
        for line in text.utf8.split(separator: 10, omittingEmptySubsequences: false) {
            total += line.count + 1
            if line.count > 78 { plain = false }
            if line.starts(with: "From ".utf8) || line.first == UInt8(ascii: ".") { plain = false }
            let content = line.last == 13 ? line.dropLast() : line[...]
            if let last = content.last, last == 32 || last == 9 { plain = false }
            for byte in content {
                if byte >= 0x80 { nonASCII += 1; plain = false } else if byte < 0x20 && byte != 9 || byte == 0x7F { plain = false }
            }
        }
        if plain && !text.contains(boundaryPrefix) { return .sevenBit }
        return nonASCII * 5 <= total ? .quotedPrintable : .base64
    }

    /// `text` with every line end as CRLF. By bytes: CR and LF are never
    /// part of another character's UTF-8.
    static func crlf(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + text.utf8.count / 16 + 2)
        var previousCR = false
        for byte in text.utf8 {
            if byte == 0x0A {
                if !previousCR { out.append(0x0D) }
            } else if previousCR {
                out.append(0x0A)
            }
            out.append(byte)
            previousCR = byte == 0x0D
        }
        if previousCR { out.append(0x0A) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Reads `file` in large chunks (a multiple of 57 bytes, one base64 line each).
    /// The bytes of an attachment, in memory or in its file, handed to `body` a chunk at a time.
    static func chunks(of source: MailAttachment.Source,
                       _ body: (UnsafeRawBufferPointer) throws(MailError) -> Void) throws(MailError) {
        switch source {
        case .data(let data):
            try data.withBytes(body)
        case .file(let url): try stream(file: url, body)
        }
    }

    static func stream(file url: URL, _ body: (UnsafeRawBufferPointer) throws(MailError) -> Void) throws(MailError) {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw MailError(.io, "cannot read attachment \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let size = Base64Encoder.lineInput * 4096
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            var filled = 0
            while filled < size {
                let count = read(fd, buffer.baseAddress! + filled, size - filled)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw MailError(.io, "cannot read attachment \(url.path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                filled += count
            }
            if filled == 0 { return }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<filled]))
            if filled < size { return }
        }
    }

    /// A date as RFC 5322 writes it, in English, in the local time zone
    /// (or `utcOffset` seconds east of UTC when given).
    ///
    /// Uses the C library rather than `Calendar`: ICU's data costs
    /// megabytes of memory and is not needed for one fixed format.
    public static func rfc5322Date(_ date: Date, utcOffset: Int? = nil) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        if let utcOffset {
            seconds += time_t(utcOffset)
            gmtime_r(&seconds, &parts)
            parts.tm_gmtoff = utcOffset
        } else {
            localtime_r(&seconds, &parts)
        }
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let offset = parts.tm_gmtoff / 60
        func two(_ value: Int) -> String { String(value).leftPadded(to: 2) }
        return "\(days[Int(parts.tm_wday)]), \(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(Int(parts.tm_hour))):\(two(Int(parts.tm_min))):\(two(Int(parts.tm_sec))) "
            + "\(offset < 0 ? "-" : "+")\(two(abs(offset) / 60))\(two(abs(offset) % 60))"
    }
}

/// How an attachment is written: its Content-Type with parameters, and
/// whether it goes as it is (7bit) rather than in base64.
struct AttachmentForm {
    var contentType: String
    var asIs: Bool

    /// The form for `attachment`, reading its bytes once when its type
    /// needs them judged (text, message/rfc822).
    static func of(_ attachment: MailAttachment) throws(MailError) -> AttachmentForm {
        let type = attachment.contentType.lowercased()
        guard type == "message/rfc822" || type.hasPrefix("text/") else { return AttachmentForm(contentType: attachment.contentType, asIs: false) }
        var scan = ByteScan()
        try MIMEWriter.chunks(of: attachment.source) { chunk throws(MailError) in scan.add(chunk) }
        if type == "message/rfc822" {
            return scan.isSevenBitLines ? AttachmentForm(contentType: "message/rfc822", asIs: true)
                : AttachmentForm(contentType: "application/octet-stream", asIs: false)
        }
        return AttachmentForm(contentType: attachment.contentType + (scan.isUTF8 ? "; charset=utf-8" : ""), asIs: false)
    }
}

/// What a pass over some bytes found: whether they are UTF-8, and whether
/// they are ASCII without NUL or bare CR in lines of at most 998 octets.
struct ByteScan {
    private var validator = UTF8Check()
    private(set) var ascii = true
    private(set) var longestLine = 0
    private var line = 0
    private var previous: UInt8 = 0
    private var badControl = false

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        for byte in bytes {
            validator.add(byte)
            if byte >= 0x80 { ascii = false }
            if byte == 0 { badControl = true }
            if previous == 0x0D && byte != 0x0A { badControl = true }
            if byte == 0x0A {
                longestLine = max(longestLine, line - (previous == 0x0D ? 1 : 0))
                line = 0
            } else {
                line += 1
            }
            previous = byte
        }
    }

    var isUTF8: Bool { validator.isValid }
    var isSevenBitLines: Bool { ascii && !badControl && previous != 0x0D && max(longestLine, line) <= 998 }
}

/// UTF-8 validation a byte at a time (shortest forms, no surrogates, at most U+10FFFF).
struct UTF8Check {
    private var needed = 0
    private var lower: UInt8 = 0x80
    private var upper: UInt8 = 0xBF
    private var broken = false

    mutating func add(_ byte: UInt8) {
        guard !broken else { return }
        if needed == 0 {
            switch byte {
            case 0x00...0x7F: return
            case 0xC2...0xDF: needed = 1
            case 0xE0: needed = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: needed = 2
            case 0xED: needed = 2; upper = 0x9F
            case 0xF0: needed = 3; lower = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4: needed = 3; upper = 0x8F
            default: broken = true
            }
            return
        }
        guard byte >= lower && byte <= upper else { broken = true; return }
        lower = 0x80
        upper = 0xBF
        needed -= 1
    }

    var isValid: Bool { !broken && needed == 0 }
}

/// Writes bytes with every line ended by CRLF (a lone LF becomes CRLF),
/// across chunk boundaries; the last line gets a CRLF when it has none.
struct CRLFNormalizer {
    private var lastWasCR = false
    private var atLineStart = true

    mutating func write(_ bytes: UnsafeRawBufferPointer, to sink: any ByteSink) throws(MailError) {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 32)
        for byte in bytes {
            if byte == 0x0A && !lastWasCR { output.append(0x0D) }
            output.append(byte)
            lastWasCR = byte == 0x0D
            atLineStart = byte == 0x0A
        }
        try sink.write(output)
    }

    mutating func finish(to sink: any ByteSink) throws(MailError) {
        if !atLineStart { try sink.write("\r\n") }
    }
}
