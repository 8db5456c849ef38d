import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A mail being put together: the terminal counterpart of
/// `MFMailComposeViewController`'s setters.
///
/// Fields hold what a person or a script typed; ``makeMessage(identities:)``
/// checks all of it at once (addresses, header values, attachments) and
/// throws an error naming the field, so nothing half-valid is ever sent.
public struct MailComposer: Sendable, Equatable {
    /// The subject line.
    public var subject = ""
    /// To, Cc and Bcc as typed: each string may hold a comma list.
    public var toRecipients: [String] = []
    public var ccRecipients: [String] = []
    public var bccRecipients: [String] = []
    /// The body text.
    public var body = ""
    /// Whether ``body`` is HTML.
    public var isHTML = false
    /// Whether ``body`` is Markdown, sent as written and as its HTML.
    public var isMarkdown = false
    /// Attachments, in order.
    public var attachments: [MailAttachment] = []
    /// The identity to send from, chosen among the configured ones.
    public var preferredSendingAddress: String?

    /// An empty composer.
    public init() {}

    /// Sets the body and whether it is HTML.
    public mutating func setMessageBody(_ body: String, isHTML: Bool) {
        self.body = body
        self.isHTML = isHTML
        isMarkdown = false
    }

    /// Sets the body in `format`.
    public mutating func setMessageBody(_ body: String, format: MailBodyFormat) {
        self.body = body
        isHTML = format == .html
        isMarkdown = format == .markdown
    }

    /// Attaches bytes with a MIME type and a file name.
    public mutating func addAttachmentData(_ data: Data, mimeType: String, fileName: String) throws(MailError) {
        attachments.append(try MailAttachment(fileName: fileName, contentType: mimeType, source: .data(data)))
    }

    /// Attaches a file, streamed from disk when the message is written.
    public mutating func addAttachment(file url: URL, mimeType: String, fileName: String? = nil) throws(MailError) {
        attachments.append(try .file(url, contentType: mimeType, fileName: fileName))
    }

    /// Whether mail can be sent with these settings: there is an identity to send from.
    ///
    /// Without a transport, Send still works: the message waits in the outbox.
    public static func canSendMail(_ settings: MailSettings) -> Bool { !settings.identities.isEmpty }

    /// What is said when there is no address to send from.
    public static let noSenderMessage = "no sending address: set [mail] from = Name <you@example.com> in the config"

    /// The checked message.
    ///
    /// With `requireSender` false (a draft), a message with no identity to
    /// send from is made without a From; a From that was typed is still checked.
    /// - Throws: ``MailError`` of kind `.invalidInput` naming the bad field.
    public func makeMessage(identities: [MailAddress], requireSender: Bool = true,
                            date: Date = Date()) throws(MailError) -> MailMessage {
        let from = try sender(identities, required: requireSender)
        return try MailMessage(from: from, to: try parse(toRecipients, field: "To"), cc: try parse(ccRecipients, field: "Cc"),
                               bcc: try parse(bccRecipients, field: "Bcc"), subject: subject,
                               body: MailBody(body, format: isHTML ? .html : isMarkdown ? .markdown : .plain), attachments: attachments, date: date)
    }

    private func sender(_ identities: [MailAddress], required: Bool) throws(MailError) -> MailAddress? {
        guard let preferred = preferredSendingAddress, !preferred.isEmpty else {
            guard let first = identities.first else {
                if required { throw MailError(.invalidInput, MailComposer.noSenderMessage) }
                return nil
            }
            return first
        }
        let wanted: MailAddress
        do { wanted = try MailAddress(parsing: preferred) } catch {
            throw MailError(.invalidInput, "From: \(error.description)")
        }
        if let match = identities.first(where: { $0.addrSpec.lowercased() == wanted.addrSpec.lowercased() }) {
            return wanted.displayName == nil ? match : wanted
        }
        let known = identities.map(\.addrSpec).joined(separator: ", ")
        throw MailError(.invalidInput, "From: \(wanted.addrSpec) is not a configured identity"
            + (known.isEmpty ? "; add it as [mail] from in the config" : "; configured: \(known)"))
    }

    private func parse(_ inputs: [String], field: String) throws(MailError) -> [AddressListEntry] {
        var entries: [AddressListEntry] = []
        for input in inputs {
            do { entries += try AddressList.parse(input) } catch {
                throw MailError(.invalidInput, "\(field): \(error.description)")
            }
        }
        return entries
    }
}
