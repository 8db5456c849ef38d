#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

extension Mailer {
    /// Sends `message` over SMTP while its draft is still being written:
    /// a thread writes the draft (MIME encoding, the file, fsync, the rename
    /// into `cur/`) while libcurl sends what is on disk so far
    /// (``FollowingReader``), so that encoding, writing and sending overlap
    /// instead of following each other. Nothing can be lost by it: the end
    /// of DATA, after which the server accepts, is sent only once the draft
    /// is fsynced; a draft that fails aborts the transfer.
    ///
    /// `nil` when the message does not go this way (a signed or encrypted
    /// one is written first, in ``prepare(_:writer:)``; sendmail reads a
    /// whole file): then the caller sends it the usual way.
    func sendWhileWriting(_ message: MailMessage, writer: MIMEWriter) -> MailOutcome? {
        guard message.protection == nil, let from = message.from else { return nil }
        let account = settings.account(sending: from.addrSpec)
        guard let smtp = account.transport as? SMTPTransport else { return nil }
        let envelope = Envelope(sender: from.addrSpec, recipients: message.envelopeRecipients.map(\.addrSpec))
        guard !envelope.recipients.isEmpty else { return nil }
        tidy()
        let drafts = settings.drafts
        do { try drafts.create() } catch { return .failed(error, draft: nil) }
        let name = Maildir.uniqueName()
        let temporary = drafts.path + "/tmp/" + name
        let final = drafts.path + "/cur/" + name + ":2,D"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            return .failed(MailError(.io, "cannot write in \(drafts.path)/tmp: \(String(cString: strerror(errno)))"), draft: nil)
        }
        let progress = DraftProgress()
        let reader: FollowingReader
        do { reader = try FollowingReader(path: temporary, progress: progress) } catch {
            close(fd)
            unlink(temporary)
            return .failed(error, draft: nil)
        }
        let writing = BackgroundThread.startJoinable {
            // The descriptor is closed once, here, before the rename (a second
            // close could shut a descriptor another thread has opened since).
            var open = true
            do throws(MailError) {
                let sink = PublishingSink(fd: fd, name: temporary, progress: progress)
                try writer.write(message, to: sink, includeBcc: true)
                try sink.flush()
                guard fsync(fd) == 0 else { throw MailError(.io, "cannot save \(temporary): \(String(cString: strerror(errno)))") }
                close(fd)
                open = false
                guard rename(temporary, final) == 0 else {
                    throw MailError(.io, "cannot deliver into \(drafts.path): \(String(cString: strerror(errno)))")
                }
                Maildir.syncDirectory(final)
                progress.finish(.success(final))
            } catch {
                if open { close(fd) }
                unlink(temporary)
                progress.finish(.failure(error))
            }
        }
        guard let writing else {
            close(fd)
            unlink(temporary)
            return nil
        }
        let sent: Result<String, MailError>
        do throws(MailError) { sent = .success(try smtp.send(streaming: reader, envelope: envelope)) } catch { sent = .failure(error) }
        writing.join()
        switch progress.result {
        case .success(let path)?:
            let outcome = settle(sent, draft: path, from: drafts, account: account)
            if case .sent = outcome { _ = flushOutbox() }
            return outcome
        case .failure(let error)?:
            // The transfer was aborted before its end: nothing was sent.
            return .failed(error, draft: nil)
        case nil:
            return .failed(MailError(.io, "the draft was not written"), draft: nil)
        }
    }
}
