import FoundationEssentials
import ShareCore
#if canImport(Glibc)
import Glibc
import ShareSupport
#endif

/// Where mail goes and how: identities, the transport, and the three Maildirs.
public struct MailSettings: Sendable {
    /// Sending identities, the first being the default.
    public var identities: [MailAddress]
    /// How to deliver; `nil` puts sent messages in the outbox.
    public var transport: (any MailTransport)?
    /// Unsent drafts; a failed send stays here.
    public var drafts: Maildir
    /// Copies of sent messages (with Bcc), written after the server accepted.
    public var sent: Maildir
    /// Messages waiting for delivery (no transport, or a temporary refusal).
    public var outbox: Maildir
    /// The address share makes up for this account when none is set
    /// (`user@host.localdomain`, as mutt does). A queued message sent from
    /// it goes from the first identity configured since, never from it.
    public var madeUpSender: MailAddress?
    /// The time now, which says what in the outbox is due (the system clock unless set).
    public var now: @Sendable () -> Date = { Date() }
    /// The accounts (`[mail]`, `[mail.NAME]`), the default first: a message
    /// goes through the one whose identity is its From. Empty: the settings
    /// above are the only account.
    public var accounts: [MailAccount] = []

    /// Creates settings.
    public init(identities: [MailAddress], transport: (any MailTransport)?, drafts: Maildir, sent: Maildir, outbox: Maildir) {
        self.identities = identities
        self.transport = transport
        self.drafts = drafts
        self.sent = sent
        self.outbox = outbox
    }
}

/// What became of a message.
/// A message the outbox held, and what became of it when it was flushed.
public struct FlushedMessage: Sendable, Equatable {
    public var outcome: MailOutcome
    /// Its recipients as its headers name them (`Kim Minsu <kim@example.com>`);
    /// none when it could not be read.
    public var recipients: [String]

    public init(outcome: MailOutcome, recipients: [String]) {
        self.outcome = outcome
        self.recipients = recipients
    }
}

public enum MailOutcome: Sendable, Equatable {
    /// The server (or sendmail) accepted it; the sent copy is at
    /// `sentCopy`, or, when it could not be written, `warning` says so and
    /// where the message is kept (it went out all the same: sending it
    /// again would deliver it twice).
    case sent(sentCopy: String?, reply: String, warning: String?)
    /// It waits in the outbox at `path`, for the reason given.
    case queued(path: String, reason: String)
    /// It was saved as a draft at `path`.
    case saved(path: String)
    /// Sending failed; the message stays in drafts at `draft`.
    case failed(MailError, draft: String?)
}

/// The mail engine: saves drafts, sends through the transport, files the
/// sent copy, queues what cannot go now, and flushes the outbox.
///
/// Nothing is lost: a message is on disk in drafts before the first byte is
/// sent, moves to sent only after the server accepted it, and to the outbox
/// on a temporary refusal.
public struct Mailer: Sendable {
    /// The settings in force.
    public let settings: MailSettings

    /// Creates a mailer.
    public init(settings: MailSettings) {
        self.settings = settings
    }

    /// Saves `message` (with Bcc) as a draft.
    public func saveDraft(_ message: MailMessage, writer: MIMEWriter = MIMEWriter()) -> MailOutcome {
        tidy()
        do {
            let path = try settings.drafts.deliver(flags: "D") { sink throws(MailError) in
                try writer.write(message, to: sink, includeBcc: true)
            }
            return .saved(path: path)
        } catch {
            return .failed(error, draft: nil)
        }
    }

    /// Sends `message`: draft first, then the transport, then the sent copy.
    ///
    /// After a message went out, what waits in the outbox is delivered too
    /// (SPEC §5: "the next send with a transport delivers it"); those
    /// outcomes are returned by ``flushOutbox()`` and do not change this one.
    ///
    /// With `overlapping`, an SMTP message is sent while its draft is
    /// written (``sendWhileWriting(_:writer:)``): only for a message whose
    /// every part exists elsewhere until the draft is whole (files on disk,
    /// the command line), since a kill during the send leaves no draft.
    public func send(_ message: MailMessage, writer: MIMEWriter = MIMEWriter(), overlapping: Bool = false) -> MailOutcome {
        if overlapping, let streamed = sendWhileWriting(message, writer: writer) { return streamed }
        return switch prepare(message, writer: writer) {
        case .ready(let prepared): send(prepared)
        case .done(let outcome): outcome
        }
    }

    /// A message written to drafts, ready to go: where it is, and its envelope.
    public struct PreparedMessage: Sendable {
        public let draft: String
        let envelope: Envelope
    }

    /// What ``prepare(_:writer:)`` made: a message ready to go, or the outcome that stopped it.
    public enum Preparation: Sendable {
        case ready(PreparedMessage)
        case done(MailOutcome)
    }

    /// The first half of ``send(_:writer:)``: the message checked and
    /// written to drafts (signed and encrypted there, when it is), so that
    /// the writing can happen where gpg-agent may ask for a passphrase and
    /// the sending where the screen stays live.
    public func prepare(_ message: MailMessage, writer: MIMEWriter = MIMEWriter()) -> Preparation {
        guard let from = message.from else {
            return .done(.failed(MailError(.invalidInput, MailComposer.noSenderMessage), draft: nil))
        }
        let envelope = Envelope(sender: from.addrSpec, recipients: message.envelopeRecipients.map(\.addrSpec))
        if envelope.recipients.isEmpty {
            return .done(.failed(MailError(.invalidInput, "the message has no recipient; add one with --to, --cc or --bcc"), draft: nil))
        }
        switch saveDraft(message, writer: writer) {
        case .saved(let path): return .ready(PreparedMessage(draft: path, envelope: envelope))
        case let other: return .done(other)
        }
    }

    /// The second half of ``send(_:writer:)``: the prepared draft to the
    /// transport, then the sent copy; the outbox after a message went out.
    public func send(_ prepared: PreparedMessage) -> MailOutcome {
        let outcome = deliver(draft: prepared.draft, envelope: prepared.envelope, removeFrom: settings.drafts)
        if case .sent = outcome { _ = flushOutbox() }
        return outcome
    }

    /// Delivers every message in the outbox that is due, oldest first, each
    /// exactly once however many flushes run at the same time: a flush holds
    /// the outbox's lock (`.share-flush.lock`, flock) from listing to the
    /// last delivery, so a second one waits and then finds only what is
    /// left. A message scheduled for later (``SendAt``) stays, untouched.
    /// - Returns: one outcome per message tried, with its recipients, and
    ///   the messages left waiting.
    public func flushOutbox() -> OutboxFlush {
        tidy()
        let now = settings.now()
        do {
            return try OutboxLock.holding(settings.outbox) {
                var flush = OutboxFlush()
                for path in settings.outbox.messages() {
                    do throws(MailError) {
                        var file = try MessageFile(path: path)
                        if let due = try SendAt.due(of: file), due > now {
                            flush.waiting.append(WaitingMessage(path: path, due: due, recipients: Mailer.recipients(of: file)))
                            continue
                        }
                        if let configured = try replacingMadeUpSender(in: file) { file = configured }
                        let envelope = try Mailer.envelope(of: file)
                        flush.flushed.append(FlushedMessage(outcome: deliver(draft: path, envelope: envelope, removeFrom: settings.outbox),
                                                            recipients: Mailer.recipients(of: file)))
                    } catch {
                        flush.flushed.append(FlushedMessage(outcome: .failed(error, draft: path), recipients: []))
                    }
                }
                flush.stored = storeSentCopies()
                return flush
            }
        } catch {
            return OutboxFlush(flushed: [FlushedMessage(outcome: .failed(error, draft: nil), recipients: [])])
        }
    }

    /// The message at `file` rewritten to come from the first identity
    /// configured, when it was queued from the made-up sender and the
    /// config now names one; `nil` when it stays as it is.
    func replacingMadeUpSender(in file: MessageFile) throws(MailError) -> MessageFile? {
        guard let madeUp = settings.madeUpSender, let identity = settings.identities.first,
              identity.addrSpec.lowercased() != madeUp.addrSpec.lowercased(),
              let value = file.header("From"), let sender = try? AddressList.mailboxes(AddressList.parse(value)).first,
              sender.addrSpec.lowercased() == madeUp.addrSpec.lowercased() else { return nil }
        let bytes: [UInt8]
        switch LocalFiles.contents(ofFile: file.path, limit: 1 << 30) {
        case .success(let read): bytes = read
        case .failure(let failure): throw MailError(.io, "cannot read \(file.path): \(failure.reason)")
        }
        let rewritten = file.replacingHeader("From", with: Array(MIMEWriter.addressField("From", [.mailbox(identity)]).utf8), in: bytes)
        do { try LocalFiles.replace(file.path, with: rewritten) } catch {
            throw MailError(.io, "cannot rewrite \(file.path): \(error.description)")
        }
        return try MessageFile(path: file.path)
    }

    /// The recipients a stored message's To, Cc and Bcc name, as written
    /// there (`Kim Minsu <kim@example.com>`), each address once.
    static func recipients(of file: MessageFile) -> [String] {
        var seen = Set<String>()
        var recipients: [String] = []
        for name in ["To", "Cc", "Bcc"] {
            for value in file.headerValues(name) {
                for address in AddressList.mailboxes((try? AddressList.parse(value)) ?? []) where seen.insert(address.addrSpec).inserted {
                    recipients.append(address.formatted)
                }
            }
        }
        return recipients
    }

    /// Clears what killed writers left in the three folders' `tmp/` (older
    /// than 36 hours), before share writes there itself.
    public func tidy() {
        var seen = Set<String>()
        for folder in [settings.drafts, settings.sent, settings.outbox] + settings.accounts.map(\.sent) where seen.insert(folder.path).inserted {
            folder.removeStaleTemporaryFiles()
        }
    }

    /// The envelope of a stored message, from its From, To, Cc and Bcc headers.
    public static func envelope(of file: MessageFile) throws(MailError) -> Envelope {
        do {
            guard let fromValue = file.header("From"),
                  let from = AddressList.mailboxes(try AddressList.parse(fromValue)).first else {
                throw MailError(.invalidInput, "\(file.path) has no From header")
            }
            var recipients: [String] = []
            for name in ["To", "Cc", "Bcc"] {
                for value in file.headerValues(name) {
                    for address in AddressList.mailboxes(try AddressList.parse(value))
                    where !recipients.contains(address.addrSpec) {
                        recipients.append(address.addrSpec)
                    }
                }
            }
            guard !recipients.isEmpty else { throw MailError(.invalidInput, "\(file.path) has no recipient") }
            return Envelope(sender: from.addrSpec, recipients: recipients)
        } catch let error as AddressError {
            throw MailError(.invalidInput, "\(file.path): \(error.description)")
        } catch let error as MailError {
            throw error
        } catch {
            throw MailError(.invalidInput, "\(file.path): \(ErrorText.sentence(error))")
        }
    }

    /// Sends the stored message at `path`; on success files the sent copy
    /// and removes `path` from `folder`; on a temporary refusal moves it to
    /// the outbox; on failure leaves it where it is.
    private func deliver(draft path: String, envelope: Envelope, removeFrom folder: Maildir) -> MailOutcome {
        let account = settings.account(sending: envelope.sender)
        guard let transport = account.transport else {
            if folder == settings.outbox { return .queued(path: path, reason: "no transport is configured") }
            return moveToOutbox(path, from: folder, reason: "no transport or sendmail is configured; the message waits in the outbox (share --flush sends it)")
        }
        let sent: Result<String, MailError>
        do throws(MailError) {
            let file = try MessageFile(path: path)
            sent = .success(try transport.send(file, envelope: envelope))
        } catch {
            sent = .failure(error)
        }
        return settle(sent, draft: path, from: folder, account: account)
    }

    /// What became of a message the transport was given, stored at `path`
    /// in `folder`: accepted → the sent copy (and its APPEND); refused for
    /// now → the outbox; else it stays where it is.
    func settle(_ sent: Result<String, MailError>, draft path: String, from folder: Maildir, account: MailAccount) -> MailOutcome {
        let reply: String
        switch sent {
        case .success(let words): reply = words
        case .failure(let error) where error.kind == .temporary:
            if folder == settings.outbox { return .queued(path: path, reason: error.message) }
            return moveToOutbox(path, from: folder, reason: error.message)
        case .failure(let error): return .failed(error, draft: path)
        }
        // Accepted means sent, whatever happens to the copy: never "failed" for a
        // message that went out, or a retry would deliver it twice.
        do throws(MailError) {
            let copy = try Mailer.file(path, from: folder, into: account.sent)
            guard let imap = account.imapSent else { return .sent(sentCopy: copy, reply: reply, warning: nil) }
            // The copy is on disk before the APPEND: killed now, share --flush stores it.
            do throws(MailError) {
                let stored = try IMAPSession(imap).append(file: copy)
                account.sent.remove(copy)
                return .sent(sentCopy: stored.location, reply: reply, warning: nil)
            } catch {
                return .sent(sentCopy: copy, reply: reply, warning: "the message was sent, but its copy could not be stored in "
                    + "\(imap.summary): \(error.message); it is kept in \(copy), and share --flush stores it")
            }
        } catch {
            return .sent(sentCopy: nil, reply: reply, warning: keepUnfiled(path, from: folder, in: account.sent, because: error))
        }
    }

    /// Files the accepted message at `path` (of `folder`) as the sent copy
    /// in `sent`: moved in one rename where it can be (the same file system,
    /// no outbox time to take out), so that no moment after the server's
    /// accept finds it still in drafts, nor a large message copied; else
    /// copied, then removed from `folder`.
    static func file(_ path: String, from folder: Maildir, into sent: Maildir) throws(MailError) -> String {
        if let file = try? MessageFile(path: path), file.header(SendAt.header) == nil, let moved = try sent.take(path, flags: "S") {
            return moved
        }
        let copy = try SendAt.fileCopy(of: path, in: sent, flags: "S")
        folder.remove(path)
        return copy
    }

    /// A sent message whose copy could not be filed stays on disk, out of
    /// the outbox (which would send it again): in drafts, marked seen.
    private func keepUnfiled(_ path: String, from folder: Maildir, in sent: Maildir, because error: MailError) -> String {
        let problem = "the message was sent, but its copy could not be saved in \(sent.path): \(error.message)"
        guard folder == settings.outbox else { return problem + "; it is kept in drafts: \(path)" }
        do {
            let kept = try settings.drafts.deliver(copyOf: path, flags: "S")
            folder.remove(path)
            return problem + "; it is kept in drafts: \(kept)"
        } catch {
            return problem + "; it is still in the outbox (\(path)): remove it there, or the next flush sends it again"
        }
    }

    private func moveToOutbox(_ path: String, from folder: Maildir, reason: String) -> MailOutcome {
        do {
            let queued = try settings.outbox.deliver(copyOf: path, flags: nil)
            folder.remove(path)
            return .queued(path: queued, reason: reason)
        } catch {
            return .failed(error, draft: path)
        }
    }
}

/// The outbox's lock: `flock` on `.share-flush.lock` in the outbox folder,
/// held while a flush delivers. The kernel drops it when the process ends,
/// however it ends, so a crash never leaves the outbox locked.
enum OutboxLock {
    /// Runs `body` holding the lock of `outbox`, waiting for it first
    /// (the folder and the lock file are made when missing).
    static func holding<T>(_ outbox: Maildir, _ body: () -> T) throws(MailError) -> T {
        try outbox.create()
        let path = outbox.path + "/.share-flush.lock"
        do {
            return try FileLock.holding(path) { body() }
        } catch {
            switch error {
            case .unlocked(let failure): throw MailError(.io, "cannot lock the outbox (\(path)): \(failure.reason)")
            case .body(let never): switch never {}
            }
        }
    }
}
