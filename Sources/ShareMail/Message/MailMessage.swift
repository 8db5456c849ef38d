import FoundationEssentials
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

/// A file or bytes to attach, with its MIME type and file name.
public struct MailAttachment: Sendable, Equatable {
    /// Where the attachment's bytes are.
    public enum Source: Sendable, Equatable {
        /// Bytes in memory.
        case data(Data)
        /// A file, read in chunks while the message is written (never loaded whole).
        case file(URL)
    }

    /// The name the recipient sees (may be non-ASCII: `보고서.pdf`).
    public var fileName: String
    /// The MIME type, `type/subtype`.
    public var contentType: String
    /// The bytes.
    public var source: Source

    /// Creates an attachment, checking the name and the type.
    /// - Throws: ``MailError`` when the name has a line break or NUL, or the type is not `type/subtype`.
    public init(fileName: String, contentType: String, source: Source) throws(MailError) {
        try HeaderEncoding.checkValue(fileName, field: "attachment name '\(fileName.visible)'")
        guard !fileName.isEmpty else { throw MailError(.invalidInput, "an attachment needs a file name") }
        let token = "!#$%&'*+-.^_`{|}~"
        let parts = contentType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ part in
            !part.isEmpty && part.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || token.unicodeScalars.contains($0))
            }
        }) else {
            throw MailError(.invalidInput, "'\(contentType.visible)' is not a MIME type such as application/pdf")
        }
        self.fileName = fileName
        self.contentType = contentType.lowercased()
        self.source = source
    }

    /// An attachment from a file on disk, named after it.
    public static func file(_ url: URL, contentType: String, fileName: String? = nil) throws(MailError) -> MailAttachment {
        try MailAttachment(fileName: fileName ?? url.lastPathComponent, contentType: contentType, source: .file(url))
    }
}

/// A mail body: plain text, or HTML (sent with a generated plain-text part first).
public enum MailBody: Sendable, Equatable {
    /// Plain text.
    case plain(String)
    /// HTML; the plain-text alternative is derived from it.
    case html(String)
    /// Markdown: sent as written (text/plain) and rendered (text/html).
    case markdown(String)

    /// The text as written.
    public var text: String {
        switch self {
        case .plain(let text), .html(let text), .markdown(let text): text
        }
    }

    /// `text` in `format`.
    public init(_ text: String, format: MailBodyFormat) {
        switch format {
        case .plain: self = .plain(text)
        case .html: self = .html(text)
        case .markdown: self = .markdown(text)
        }
    }
}

/// What a body is written in.
public enum MailBodyFormat: String, Sendable, Equatable {
    case plain, html, markdown
}

/// One message: the terminal counterpart of what `MFMailComposeViewController` sends.
public struct MailMessage: Sendable, Equatable {
    /// The sender; `nil` only in a draft saved before a sending address is known.
    public var from: MailAddress?
    /// Recipients, as address list entries (groups allowed).
    public var to: [AddressListEntry]
    public var cc: [AddressListEntry]
    /// Blind copies: in the envelope and the sent copy, never in the transmitted message.
    public var bcc: [AddressListEntry]
    /// The subject line (may be empty).
    public var subject: String
    /// The body.
    public var body: MailBody
    /// Attachments, in order.
    public var attachments: [MailAttachment]
    /// OpenPGP signing and encryption, if any (RFC 3156).
    public var protection: OpenPGPProtection?
    /// The `Date:` of the message.
    public var date: Date
    /// The `Message-ID:` without angle brackets.
    public var messageID: String

    /// Creates a message, checking the subject for line breaks and NUL.
    public init(from: MailAddress?, to: [AddressListEntry] = [], cc: [AddressListEntry] = [], bcc: [AddressListEntry] = [],
                subject: String = "", body: MailBody = .plain(""), attachments: [MailAttachment] = [],
                date: Date = Date(), messageID: String? = nil) throws(MailError) {
        try HeaderEncoding.checkValue(subject, field: "subject")
        self.from = from
        self.to = to
        self.cc = cc
        self.bcc = bcc
        self.subject = subject
        self.body = body
        self.attachments = attachments
        self.date = date
        self.messageID = messageID ?? MailMessage.makeMessageID(domain: from?.asciiDomain ?? HostName.current, date: date)
    }

    /// Every envelope recipient: To, Cc and Bcc, groups flattened, duplicates removed.
    public var envelopeRecipients: [MailAddress] {
        var seen = Set<String>()
        return AddressList.mailboxes(to + cc + bcc).filter { seen.insert($0.addrSpec.lowercased()).inserted }
    }

    /// A unique id such as `1796000000.3f9a…@example.com`.
    public static func makeMessageID(domain: String, date: Date) -> String {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<2).map { _ in String(generator.next() as UInt64, radix: 36) }.joined(separator: ".")
        let host = domain.hasPrefix("[") || domain.isEmpty ? "share.localhost" : domain
        return "\(Int(date.timeIntervalSince1970)).\(random)@\(host)"
    }
}

extension String {
    /// The text with control characters shown visibly, for error messages.
    var visible: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x00...0x1F: out.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "?")
            case 0x7F: out += "␡"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
