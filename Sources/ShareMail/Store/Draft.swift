#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareSupport

/// A message in the drafts folder read back for the compose screen: its
/// header fields as a person writes them, its text, and its attachments.
/// Reads what the MIME writer saves and what other mail programs postpone
/// there (CRLF or LF lines, a plain or HTML body, attachments in base64
/// or quoted-printable, names in RFC 2231 or encoded-words).
public struct Draft: Sendable {
    /// An attached file as the draft holds it.
    public struct Attachment: Sendable, Equatable {
        public var name: String
        public var contentType: String
        public var bytes: [UInt8]
    }

    /// The most a draft read back may take (its attachments are read whole).
    public static let sizeLimit = 256 << 20

    public let path: String
    public var from = "", to = "", cc = "", bcc = "", subject = ""
    /// The text of the message, LF line ends.
    public var body = ""
    public var attachments: [Attachment] = []
    /// When the file was last written (seconds since 1970).
    public var saved: Double = 0

    /// Reads the draft at `path`.
    public init(reading path: String) throws(MailError) {
        let bytes: [UInt8]
        switch LocalFiles.contents(ofFile: path, limit: Draft.sizeLimit) {
        case .success(let read): bytes = read
        case .failure(let error): throw MailError(.io, "cannot read the draft \(path): \(error)")
        }
        try self.init(bytes: bytes, path: path)
        var info = stat()
        if stat(path, &info) == 0 { saved = Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9 }
    }

    /// Reads a draft from its bytes (`path` names it in messages).
    init(bytes: [UInt8], path: String) throws(MailError) {
        self.path = path
        let message = MIMEPart(parsing: bytes)
        guard !message.headers.isEmpty else { throw MailError(.invalidInput, "\(path) is not a mail message: it has no header fields") }
        from = Draft.oneLine(Draft.addresses(message.header("From")))
        to = Draft.oneLine(Draft.addresses(message.header("To")))
        cc = Draft.oneLine(Draft.addresses(message.header("Cc")))
        bcc = Draft.oneLine(Draft.addresses(message.header("Bcc")))
        subject = Draft.oneLine(HeaderText.decoded(message.header("Subject") ?? "")).trimmingWhitespace()
        take(message)
    }

    /// Takes the body and attachments of `part`: the first text that is
    /// not an attachment is the body (the plain one of alternatives, the
    /// HTML one read as text when it is alone); every other leaf with a
    /// name or not text is an attachment.
    private mutating func take(_ part: MIMEPart) {
        let type = part.contentType
        if type == "multipart/alternative" {
            let children = part.children()
            if let plain = children.first(where: { $0.contentType == "text/plain" && !$0.isAttachment }), body.isEmpty {
                body = plain.text
            } else if let rich = children.first(where: { !$0.isAttachment }) {
                take(rich)
            }
            return
        }
        if type.hasPrefix("multipart/") {
            for child in part.children() { take(child) }
            return
        }
        if !part.isAttachment, body.isEmpty, type == "text/plain" {
            body = part.text
            return
        }
        if !part.isAttachment, body.isEmpty, type == "text/html" {
            // An entity (`&#13;`) can put a CR back: line ends are made LF again.
            body = MIMEPart.lineFeeds((try? HTMLText.plainText(from: part.text)) ?? part.text)
            return
        }
        // Inline text after the body (a signature part, a second text) joins the body.
        if !part.isAttachment, type == "text/plain" {
            body += (body.hasSuffix("\n") ? "" : "\n") + part.text
            return
        }
        let given = part.fileName?.trimmingWhitespace()
        let name = given.flatMap { $0.isEmpty ? nil : $0 } ?? Draft.unnamed(type, number: attachments.count + 1)
        attachments.append(Attachment(name: name, contentType: type, bytes: part.decodedBody))
    }

    /// An address field as the compose screen shows it: each mailbox with
    /// its name decoded (`박지성 <park@example.com>`), or the field's text
    /// decoded when it does not parse.
    static func addresses(_ value: String?) -> String {
        guard let value, !value.trimmingWhitespace().isEmpty else { return "" }
        guard let entries = try? AddressList.parse(value) else { return HeaderText.decoded(value).trimmingWhitespace() }
        return entries.map { entry in
            switch entry {
            case .mailbox(let address): address.formatted
            case .group(let name, let members): "\(name): " + members.map(\.formatted).joined(separator: ", ") + ";"
            }
        }.joined(separator: ", ")
    }

    /// A header field's text on one line, as the form's field holds it: an
    /// encoded-word may decode to a line break, which becomes a space.
    static func oneLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : $0 }))
    }

    /// A name for an attachment that has none: `attachment-2.pdf`.
    static func unnamed(_ type: String, number: Int) -> String {
        let extensions = ["application/pdf": "pdf", "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif",
                          "text/plain": "txt", "text/html": "html", "message/rfc822": "eml", "text/calendar": "ics"]
        return "attachment-\(number)" + (extensions[type].map { "." + $0 } ?? "")
    }

    /// The drafts of `folder`, newest first, each read (those that do not
    /// read are left out, named in `unreadable`).
    public static func all(in folder: Maildir) -> (drafts: [Draft], unreadable: [String]) {
        var drafts: [Draft] = []
        var unreadable: [String] = []
        for path in folder.messages().reversed() {
            do { drafts.append(try Draft(reading: path)) } catch { unreadable.append(path) }
        }
        return (drafts, unreadable)
    }
}
