/// A sent copy the IMAP server had not stored when its message went
/// (the server was down, or share was killed before the APPEND), and
/// what became of it when `share --flush` tried again.
public struct StoredCopy: Sendable, Equatable {
    /// The local copy it was kept as.
    public var path: String
    /// Where the server keeps it now (`imaps://host/Sent;UID=7`), when stored.
    public var location: String?
    /// Why it is still not stored.
    public var error: MailError?

    public init(path: String, location: String?, error: MailError?) {
        self.path = path
        self.location = location
        self.error = error
    }
}

extension Mailer {
    /// Stores on their IMAP servers the sent copies kept locally, each
    /// exactly once: a copy the folder already holds (the APPEND went
    /// through, but share was killed before it removed its own) is found
    /// by its Message-ID and not appended again. Run under the outbox's
    /// lock by ``flushOutbox()``.
    func storeSentCopies() -> [StoredCopy] {
        var results: [StoredCopy] = []
        var sessions: [String: IMAPSession] = [:]
        var seen = Set<String>()
        for account in settings.accounts where account.imapSent != nil && seen.insert(account.sent.path).inserted {
            for path in account.sent.messages() {
                let file: MessageFile
                do { file = try MessageFile(path: path) } catch {
                    results.append(StoredCopy(path: path, location: nil, error: error))
                    continue
                }
                let sender = (file.header("From").flatMap { try? AddressList.parse($0) }).flatMap { AddressList.mailboxes($0).first }
                let owner = sender.map { settings.account(sending: $0.addrSpec) } ?? account
                guard let folder = owner.imapSent else { continue }
                do throws(MailError) {
                    let session: IMAPSession
                    if let open = sessions[owner.name] { session = open } else {
                        session = try IMAPSession(folder)
                        sessions[owner.name] = session
                    }
                    let name = try session.folderName()
                    if let id = file.header("Message-ID")?.trimmingWhitespace(), !id.isEmpty,
                       let uid = try session.search(messageID: id).first {
                        account.sent.remove(path)
                        results.append(StoredCopy(path: path, location: "\(folder.serverURL)/\(name);UID=\(uid)", error: nil))
                        continue
                    }
                    let stored = try session.append(file: path)
                    account.sent.remove(path)
                    results.append(StoredCopy(path: path, location: stored.location, error: nil))
                } catch {
                    results.append(StoredCopy(path: path, location: nil, error: error))
                }
            }
        }
        return results
    }
}
