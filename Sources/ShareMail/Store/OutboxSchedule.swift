#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareSupport

/// Messages that wait in the outbox until a time (send later).
///
/// The time is a header field of the outbox copy itself,
/// `X-Share-Send-At: 2026-12-05T09:00:00+09:00`, written in the same
/// atomic delivery as the message: a message is never in the outbox
/// without its time, so a crash can never make it go early. The field is
/// left out of what is transmitted and of the sent copy. A message in the
/// outbox without it (queued for a temporary refusal, or with no
/// transport) is due at once, as before.
public enum SendAt {
    /// The header field of the outbox copy that holds its time.
    public static let header = "X-Share-Send-At"

    /// When the stored message `file` is due: `nil` when it holds no time;
    /// a time that cannot be read stops it (it never goes early), with what to do.
    public static func due(of file: MessageFile) throws(MailError) -> Date? {
        guard let value = file.header(header) else { return nil }
        guard let due = TimeExpression.instant(value.trimmingWhitespace()) else {
            throw MailError(.invalidInput, "\(file.path): its \(header) '\(value)' is not a time; correct it, or remove the line to send it at the next flush")
        }
        return due
    }

    /// Copies the message at `path` into `folder` (with `flags`), without
    /// its time when it has one: the sent copy is the message as it went.
    static func fileCopy(of path: String, in folder: Maildir, flags: String?) throws(MailError) -> String {
        guard let file = try? MessageFile(path: path), file.header(header) != nil else {
            return try folder.deliver(copyOf: path, flags: flags)
        }
        return try folder.deliver(copyOf: file, header: file.headerBytes(replacing: header, with: nil), flags: flags)
    }

    /// The header field for `due`, with its CRLF.
    static func field(_ due: Date) -> [UInt8] { Array("\(header): \(TimeExpression.iso(due))\r\n".utf8) }

    /// `due` in the words of a result or a history entry (English, local time): `2026-12-05 09:00`.
    public static func words(_ due: Date) -> String { DateText.formatted(due, "%Y-%m-%d %H:%M", utc: false) }
}

/// A message of the outbox that is not due yet, left there by a flush.
public struct WaitingMessage: Sendable, Equatable {
    /// Where it waits.
    public var path: String
    /// When it is due.
    public var due: Date
    /// Its recipients as its headers name them.
    public var recipients: [String]

    /// Creates one.
    public init(path: String, due: Date, recipients: [String]) {
        self.path = path
        self.due = due
        self.recipients = recipients
    }
}

/// What one flush of the outbox did: each message it tried, and the
/// messages it left for later.
public struct OutboxFlush: Sendable, Equatable {
    /// The messages that were due, with what became of each.
    public var flushed: [FlushedMessage] = []
    /// The messages not due yet, oldest first.
    public var waiting: [WaitingMessage] = []
    /// The sent copies kept locally for an IMAP server, stored now or not.
    public var stored: [StoredCopy] = []

    /// Creates one.
    public init(flushed: [FlushedMessage] = [], waiting: [WaitingMessage] = []) {
        self.flushed = flushed
        self.waiting = waiting
    }
}

/// What the outbox holds, for a person about to write another message.
public struct OutboxSummary: Sendable, Equatable {
    /// How many messages wait there, due or not.
    public var count: Int
    /// The first time one of them is scheduled for, when one is still to come.
    public var next: Date?
}

extension Mailer {
    /// Puts `message` in the outbox to go at `due`: written to drafts as any
    /// message is, then moved into the outbox with its time (``SendAt``) in
    /// one delivery. Its `Date:` is `due`, the time it goes. `share --flush`
    /// sends it once it is due, and nothing before.
    /// - Returns: `.queued` with the outbox copy, or `.failed` (the draft kept).
    public func schedule(_ message: MailMessage, at due: Date, writer: MIMEWriter = MIMEWriter()) -> MailOutcome {
        var message = message
        message.date = due
        guard message.from != nil else {
            return .failed(MailError(.invalidInput, MailComposer.noSenderMessage), draft: nil)
        }
        if message.envelopeRecipients.isEmpty {
            return .failed(MailError(.invalidInput, "the message has no recipient; add one with --to, --cc or --bcc"), draft: nil)
        }
        let draft: String
        switch saveDraft(message, writer: writer) {
        case .saved(let path): draft = path
        case let other: return other
        }
        do throws(MailError) {
            let file = try MessageFile(path: draft)
            let queued = try settings.outbox.deliver(copyOf: file, header: SendAt.field(due) + file.headerBytes, flags: nil)
            settings.drafts.remove(draft)
            return .queued(path: queued, reason: "the message waits in the outbox until \(SendAt.words(due)); share --flush sends it then")
        } catch {
            return .failed(error, draft: draft)
        }
    }

    /// How many messages wait in the outbox, and when the next scheduled one goes.
    public func outboxSummary() -> OutboxSummary {
        let now = settings.now()
        let paths = settings.outbox.messages()
        let times = paths.compactMap { path in (try? MessageFile(path: path)).flatMap { try? SendAt.due(of: $0) } }
        return OutboxSummary(count: paths.count, next: times.filter { $0 > now }.min())
    }

    /// Takes back the scheduled message at `path` from the outbox while it
    /// is still there, under the outbox's lock (a flush does not send it
    /// meanwhile), and only while it is the message `messageID` names: it
    /// goes back to drafts without its time, so nothing is lost.
    /// - Returns: the draft's path, or why it cannot be taken back.
    public static func unschedule(path: String, messageID: String, outbox: Maildir, drafts: Maildir,
                                  sent: Maildir) -> Result<String, MailError> {
        let outcome: Result<String, MailError>
        do {
            outcome = try OutboxLock.holding(outbox) { () -> Result<String, MailError> in
                // A mail program may have marked it read since, which renames it into cur/.
                guard let found = current(path, in: outbox) else {
                    let copy = sentCopy(of: messageID, in: sent)
                    return .failure(MailError(.invalidInput, copy.map { "the message was sent already (its copy is \($0))" }
                        ?? "the message is no longer in the outbox (\(outbox.path)): it was sent already, or removed"))
                }
                do throws(MailError) {
                    let file = try MessageFile(path: found)
                    guard Mailer.messageID(of: file) == messageID else {
                        return .failure(MailError(.invalidInput, "\(found) is another message now; it is left as it is"))
                    }
                    let draft = try drafts.deliver(copyOf: file, header: file.headerBytes(replacing: SendAt.header, with: nil), flags: "D")
                    outbox.remove(found)
                    return .success(draft)
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            return .failure(error)
        }
        return outcome
    }

    /// The `Message-ID` of a stored message, without its angle brackets.
    static func messageID(of file: MessageFile) -> String? {
        guard var value = file.header("Message-ID")?.trimmingWhitespace() else { return nil }
        if value.hasPrefix("<") && value.hasSuffix(">") { value = String(value.dropFirst().dropLast()) }
        return value
    }

    /// The message file at `path`, or the same message (its unique name)
    /// under other flags or in the other subfolder; `nil` when it is gone.
    private static func current(_ path: String, in folder: Maildir) -> String? {
        if access(path, F_OK) == 0 { return path }
        let name = PathText.lastComponent(of: path)
        let unique = name.split(separator: ":", maxSplits: 1).first.map(String.init) ?? name
        return folder.messages().first { other in
            let otherName = PathText.lastComponent(of: other)
            return otherName == unique || otherName.hasPrefix(unique + ":")
        }
    }

    /// The sent copy of the message `messageID`, looked for among the 500
    /// newest messages of `sent`.
    private static func sentCopy(of messageID: String, in sent: Maildir) -> String? {
        sent.messages().suffix(500).reversed().first { path in
            (try? MessageFile(path: path)).flatMap(Mailer.messageID) == messageID
        }
    }
}

extension Maildir {
    /// Copies the stored message `file` into this folder (atomically) with
    /// `header` in the place of its header section, the body streamed.
    @discardableResult
    func deliver(copyOf file: MessageFile, header: [UInt8], flags: String?) throws(MailError) -> String {
        let reader = try TransmissionReader(file, header: header)
        return try deliver(flags: flags) { sink throws(MailError) in
            let size = 1 << 16
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = reader.read(into: buffer)
                if count < 0 { throw MailError(.io, "cannot read \(file.path): \(String(cString: strerror(errno)))") }
                if count == 0 { return }
                try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            }
        }
    }
}
