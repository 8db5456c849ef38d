import ShareSupport

/// One mail account: the addresses it sends as, how it sends, and where
/// its sent copies go (`[mail]`, or a `[mail.NAME]` section).
public struct MailAccount: Sendable {
    /// The account's name (`work` for `[mail.work]`; `mail` for `[mail]` itself).
    public var name: String
    /// The addresses it sends as, the first being its own.
    public var identities: [MailAddress]
    /// How it delivers; `nil` puts its messages in the outbox.
    public var transport: (any MailTransport)?
    /// Its sent copies, in a local Maildir; with ``imapSent``, the copies
    /// the server has not stored yet (`share --flush` stores them).
    public var sent: Maildir
    /// The IMAP folder its sent copies go to (`sent = imap:Sent`), if any.
    public var imapSent: IMAPFolder?
    /// The IMAP folder its drafts go to too (`drafts = imap:Drafts`), if any.
    public var imapDrafts: IMAPFolder?
    /// The file holding the signature a new message from it starts with
    /// (`signature-file`), read by ``readSignature()``.
    public var signatureFile: String?

    /// An account.
    public init(name: String, identities: [MailAddress], transport: (any MailTransport)?, sent: Maildir,
                imapSent: IMAPFolder? = nil, imapDrafts: IMAPFolder? = nil) {
        self.name = name
        self.identities = identities
        self.transport = transport
        self.sent = sent
        self.imapSent = imapSent
        self.imapDrafts = imapDrafts
    }

    /// The text of ``signatureFile``, if set and readable as UTF-8 (up to
    /// 1 MiB); `nil` otherwise, silently. Read anew at each call, when a
    /// message is composed: making the account (at start-up) reads nothing.
    public func readSignature() -> String? {
        guard let signatureFile, case .success(let bytes) = LocalFiles.contents(ofFile: signatureFile) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// Whether `addrSpec` is one of its addresses (case aside).
    public func sends(as addrSpec: String) -> Bool {
        let wanted = addrSpec.lowercased()
        return identities.contains { $0.addrSpec.lowercased() == wanted }
    }
}

extension MailSettings {
    /// The settings of one account: its identities, transport and sent
    /// folder, with the drafts and the outbox every account shares.
    public init(account: MailAccount, drafts: Maildir, outbox: Maildir) {
        self.init(identities: account.identities, transport: account.transport, drafts: drafts, sent: account.sent, outbox: outbox)
        accounts = [account]
    }

    /// The account a message from `sender` goes through: the one whose
    /// identities hold it, else the default one.
    public func account(sending sender: String) -> MailAccount {
        accounts.first { $0.sends(as: sender) }
            ?? accounts.first
            ?? MailAccount(name: "mail", identities: identities, transport: transport, sent: sent)
    }

    /// The account named `name`, if there is one.
    public func account(named name: String) -> MailAccount? {
        accounts.first { $0.name == name }
    }
}
