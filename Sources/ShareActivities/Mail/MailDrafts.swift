#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareMail
import ShareSupport

/// The drafts Mail can reopen (`--resume`, `--resume --draft`): those in
/// its drafts folder, Ctrl-O's and autosave's and another mail program's.
extension MailActivity {
    public func savedDrafts() -> (drafts: [SavedDraft], unreadable: [String]) {
        importNewestIMAPDraft()
        let (drafts, unreadable) = Draft.all(in: settings.drafts)
        return (drafts.map { draft in
            SavedDraft(path: draft.path, title: draft.subject.isEmpty ? Localization.text("(no subject)") : draft.subject,
                       detail: [draft.to, draft.cc].filter { !$0.isEmpty }.joined(separator: ", "), saved: draft.saved)
        }, unreadable)
    }

    /// Reopens the form with the draft at `path`. Its attachments are
    /// written to files in a folder of their own under `folder` and
    /// attached from there; the draft is the one the form saves over, and
    /// sending removes it.
    public func resume(draft path: String, filesIn folder: String) throws(ActivityError) {
        let draft: Draft
        do { draft = try Draft(reading: path) } catch {
            throw ActivityError(code: error.kind == .io ? ActivityError.Code.ioError : ActivityError.Code.invalidInput, message: error.message)
        }
        var attached: [String] = []
        if !draft.attachments.isEmpty {
            let place = folder + "/" + MailActivity.fileName(String(path.split(separator: "/").last ?? "draft"), fallback: "draft")
            if let problem = LocalFiles.createFolders(place) {
                throw ActivityError(code: ActivityError.Code.ioError, message: "cannot keep the draft's attachments in \(place): \(problem)")
            }
            var taken: Set<String> = []
            for attachment in draft.attachments {
                let name = MailActivity.unique(MailActivity.fileName(attachment.name, fallback: "attachment"), among: &taken)
                let file = place + "/" + name
                do { try LocalFiles.replace(file, with: attachment.bytes) } catch {
                    throw ActivityError(code: ActivityError.Code.ioError, message: "cannot write \(file): \(error)")
                }
                attached.append(AttachedFile.current(atPath: file)?.line ?? file)
            }
        }
        var values = ["to": draft.to, "cc": draft.cc, "bcc": draft.bcc, "subject": draft.subject, "body": draft.body,
                      "attachments": attached.joined(separator: "\n")]
        // The sender only when it is one of the identities the form offers.
        if let from = try? MailAddress(parsing: draft.from),
           let identity = settings.identities.first(where: { $0.addrSpec.lowercased() == from.addrSpec.lowercased() }) {
            values["from"] = identity.displayString
        }
        resume(values: values, draft: path)
        // A draft read from the IMAP server is the one the form's saves replace there.
        if let imported = importedDrafts[path] { imapDraft.adopt(imported.folder, uid: imported.uid) }
    }

    /// The newest draft in the default account's IMAP Drafts folder
    /// (`drafts = imap:…`), copied into the local drafts folder unless a
    /// draft of the same Message-ID is there already, so that `--resume`
    /// offers it (another device may have written it). A server that
    /// cannot be reached leaves the local drafts as they are.
    func importNewestIMAPDraft() {
        guard let folder = settings.accounts.first?.imapDrafts,
              let session = try? IMAPSession(folder), let uid = try? session.allUIDs().last else { return }
        let scratch = settings.drafts.path + "/tmp/imap-\(getpid())-\(uid)"
        guard (try? settings.drafts.create()) != nil else { return }
        defer { unlink(scratch) }
        guard (try? session.fetch(uid: uid, to: scratch)) != nil, let fetched = try? MessageFile(path: scratch) else { return }
        let id = fetched.header("Message-ID")?.trimmingWhitespace()
        // The draft of a message that went already (its deletion from the server failed
        // then) is not offered again, and goes now: the message must not go twice.
        if let id, !id.isEmpty, wasSent(messageID: id) {
            try? session.delete(uid: uid)
            return
        }
        for path in settings.drafts.messages() {
            if let local = try? MessageFile(path: path), id != nil, local.header("Message-ID")?.trimmingWhitespace() == id {
                importedDrafts[path] = (folder, uid)
                return
            }
        }
        guard let path = try? settings.drafts.deliver(copyOf: scratch, flags: "D") else { return }
        importedDrafts[path] = (folder, uid)
    }

    /// Whether the message of `messageID` was sent or queued: in the outbox,
    /// an account's local sent folder (or the copies waiting for its IMAP
    /// Sent), or its IMAP Sent folder.
    func wasSent(messageID: String) -> Bool {
        let folders = [settings.outbox] + settings.accounts.map(\.sent)
        for folder in folders {
            for path in folder.messages() where (try? MessageFile(path: path))?.header("Message-ID")?.trimmingWhitespace() == messageID {
                return true
            }
        }
        for sent in settings.accounts.compactMap(\.imapSent) {
            if let session = try? IMAPSession(sent), let found = try? session.search(messageID: messageID), !found.isEmpty { return true }
        }
        return false
    }

    /// `name` as a file name: its last path component, without control
    /// characters, never empty, `.` or `..`.
    static func fileName(_ name: String, fallback: String) -> String {
        let last = name.split(separator: "/").last.map(String.init) ?? ""
        let clean = String(String.UnicodeScalarView(last.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
            .trimmingWhitespace()
        return clean.isEmpty || clean == "." || clean == ".." ? fallback : String(clean.utf8.count > 200 ? clean.prefix(100) : clean[...])
    }

    /// `name`, or `name (2).ext`, … when taken.
    static func unique(_ name: String, among taken: inout Set<String>) -> String {
        var candidate = name
        var number = 2
        while taken.contains(candidate) {
            let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
            candidate = dot.map { "\(name[..<$0]) (\(number))\(name[$0...])" } ?? "\(name) (\(number))"
            number += 1
        }
        taken.insert(candidate)
        return candidate
    }
}
