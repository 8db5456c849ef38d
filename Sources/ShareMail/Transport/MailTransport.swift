/// Who a message goes to and from, as the SMTP envelope says.
public struct Envelope: Sendable, Equatable {
    /// The envelope sender (`MAIL FROM`), an addr-spec.
    public var sender: String
    /// The envelope recipients (`RCPT TO`), addr-specs, Bcc included.
    public var recipients: [String]

    /// Creates an envelope.
    public init(sender: String, recipients: [String]) {
        self.sender = sender
        self.recipients = recipients
    }
}

/// Something that delivers a stored message: SMTP or a sendmail command.
///
/// Conformers stream the message (never load it whole), never log a
/// password, and throw ``MailError`` with kind `.temporary` for a 4xx-style
/// refusal and `.rejected` for a permanent refusal or a broken connection.
public protocol MailTransport: Sendable {
    /// Delivers `file` (without its Bcc header) to the envelope's recipients.
    /// - Returns: the server's or command's last words, for the record.
    func send(_ file: MessageFile, envelope: Envelope) throws(MailError) -> String
    /// A short description for messages (`smtp://mail.example.com:587`).
    var summary: String { get }
}
