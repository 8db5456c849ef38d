/// What a script asked Mail to do on the command line (SPEC §4), apart
/// from the content: `--body`, `--body-file` and `--attach` arrive as items.
public struct MailRequest: Sendable, Equatable {
    /// Whether to send at once, save a draft, or open the compose screen.
    public enum Mode: Sendable, Equatable {
        /// Open the compose screen.
        case compose
        /// `--send`: no compose screen.
        case send
        /// `--save-draft`: save and stop.
        case saveDraft
    }

    /// `--to`, `--cc`, `--bcc` values as typed (each may be a comma list).
    public var to: [String] = []
    public var cc: [String] = []
    public var bcc: [String] = []
    /// `--from`: one of the configured identities.
    public var from: String?
    /// `--html`: the body is HTML.
    public var html = false
    /// `--markdown`: the body is Markdown.
    public var markdown = false
    /// What to do with the message.
    public var mode: Mode = .compose
    /// `--links`: the attachments go up to a Link place and the body carries their links.
    public var links = false
    /// `--place NAME`: the Link place the attachments go to.
    public var place: String?
    /// `--sign`: signed with OpenPGP.
    public var sign = false
    /// `--encrypt`: encrypted with OpenPGP to every recipient and the sender.
    public var encrypt = false
    /// `--send-at TIME`: the time the message waits in the outbox for, as typed (`in 2h`).
    public var sendAt: String?

    /// An empty request.
    public init() {}
}
