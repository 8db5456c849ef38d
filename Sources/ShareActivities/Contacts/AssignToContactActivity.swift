import CThumbnail
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Assign to Contact: one image becomes a contact's photo, in the vCard
/// folder that address completion reads (`[contacts] vcard-dir`, else
/// `~/.contacts`).
///
/// The contact is `--contact NAME|UID`, or chosen in a form (type to
/// filter). Only the card's `PHOTO` changes: every other line of the card
/// and every other card of its file is written back byte for byte. An
/// image larger than 512×512 is scaled down first (decoded and encoded
/// again by libpng or libjpeg-turbo); the file shared is never changed. The
/// file is replaced atomically, and not at all when the card changed on
/// disk since it was read.
@MainActor
public final class AssignToContactActivity: SystemActivity {
    public nonisolated static var systemType: ActivityType { .assignToContact }

    /// The longest side a photo is written with.
    public nonisolated static let largestSide = 512

    /// The vCard folder.
    let folder: String
    /// Whether the folder is the default (no `vcard-dir` set): `--explain` says how to set one.
    private let isDefaultFolder: Bool
    /// `--contact`, if given.
    private let requested: String?
    private let home: String
    /// Where the cards as they were before are kept, for `share --undo`.
    private let undoFolder: String
    private var contacts: [ContactFolder.Contact]?
    /// The folder's files that could not be read, named when a contact is not found.
    private var unread: [ContactFolder.Unread] = []
    private var judged: Availability?
    private var items: [ShareItem] = []

    /// The activity for the context's `[contacts] vcard-dir` and `--contact`.
    public init(context: ActivityContext) throws(ConfigurationError) {
        let configured = try context.section("contacts").path("vcard-dir", environment: context.environment)
        folder = configured ?? context.locations.home + "/.contacts"
        isDefaultFolder = configured == nil
        requested = context.request(for: AssignToContactActivity.self).contact
        home = context.locations.home
        undoFolder = context.locations.stateHome + "/undo"
    }

    public var activityImage: ActivityImage { .glyph("☺") }

    /// Available when the folder holds at least one `.vcf` file (looked
    /// for once a run, and only until the first is found).
    public var availability: Availability {
        if let judged { return judged }
        let shown = PathText.abbreviating(folder, home: home)
        let verdict: Availability
        if !LocalFiles.isFolder(folder) {
            verdict = .unavailable("no contacts folder: \(shown) does not exist"
                + (isDefaultFolder ? " (set [contacts] vcard-dir to your vCard folder)" : ""))
        } else if LocalFiles.firstFile(below: folder, where: { $0.lowercased().hasSuffix(".vcf") }) == nil {
            verdict = .unavailable("no contacts in \(shown): it holds no .vcf file")
        } else {
            verdict = .available
        }
        judged = verdict
        return verdict
    }

    /// The contacts' names, for completion scripts (`share --complete contacts`).
    public func contactNames() -> [String] {
        var seen = Set<String>()
        return allContacts().map(\.name).filter { seen.insert($0).inserted }
    }

    /// The contacts, read once.
    func allContacts() -> [ContactFolder.Contact] {
        if let contacts { return contacts }
        let read = ContactFolder(path: folder).read()
        contacts = read.contacts
        unread = read.unread
        return read.contacts
    }

    public func prepare(with items: [ShareItem]) async throws {
        self.items = items
    }

    // MARK: - The form

    /// A chooser of contacts, unless `--contact` named one.
    public func makeForm() -> ActivityForm? {
        guard requested == nil else { return nil }
        let labels = AssignToContactActivity.labels(allContacts())
        let image = items.lazy.compactMap(\.fileItem).first
        let shown = image.map { "\($0.name) · \(ByteCount.words($0.size))" } ?? ""
        return ActivityForm(title: localizedActivityTitle, fields: [
            FormField(id: "photo", label: Localization.text("Photo"), kind: .preview, initialValue: shown),
            FormField(id: "contact", label: Localization.text("Contact"), kind: .choice(labels), initialValue: labels.first ?? ""),
        ], actions: [FormAction(id: "assign", label: Localization.text("Assign"), progress: Localization.text("Saving the photo…"))])
    }

    /// One label per contact, made distinct (a file name is added where two read the same).
    static func labels(_ contacts: [ContactFolder.Contact]) -> [String] {
        let plain = contacts.map(\.label)
        var counts: [String: Int] = [:]
        for label in plain { counts[label, default: 0] += 1 }
        return zip(contacts, plain).map { contact, label in
            counts[label, default: 0] > 1 ? label + " (\(PathText.lastComponent(of: contact.path)) #\(contact.index + 1))" : label
        }
    }

    // MARK: - Performing

    public func perform(_ session: ActivitySession) async {
        guard let image = session.items.lazy.compactMap(\.fileItem).first else {
            session.fail(ActivityError(code: ActivityError.Code.noItems, message: "no image to assign"))
            return
        }
        let contact: ContactFolder.Contact
        do { contact = try chosenContact(session.formValues["contact"]) } catch {
            session.fail(error)
            return
        }
        guard let path = image.path?.path ?? MailActivity.materialize(image) else {
            session.fail(ActivityError(code: ActivityError.Code.contactFailed, message: "cannot read \(image.name)"))
            return
        }
        // Decoding and scaling a large photo takes a moment: off the main actor, so the screen stays responsive.
        let undoFolder = self.undoFolder
        let outcome = await Task.detached { () -> Result<(String, UndoAction?), ActivityError> in
            Result { () throws(ActivityError) in try AssignToContactActivity.assign(imageAt: path, to: contact, undoFolder: undoFolder) }
        }.value
        contacts = nil
        switch outcome {
        case .success(let (summary, undo)):
            session.finish(.performed, returnedItems: [.text(summary)], undo: undo.map { [$0] } ?? [], summary: summary)
        case .failure(let error):
            session.fail(error)
        }
    }

    /// The contact the form chose, or `--contact` names: a UID, a full
    /// name or an address, compared without case; exactly one must match.
    func chosenContact(_ label: String?) throws(ActivityError) -> ContactFolder.Contact {
        let contacts = allContacts()
        if let label {
            guard let index = AssignToContactActivity.labels(contacts).firstIndex(of: label) else {
                throw ActivityError(code: ActivityError.Code.noSuchContact, message: "no contact is listed as \(label)" + notRead)
            }
            return contacts[index]
        }
        let wanted = (requested ?? "").trimmingWhitespace()
        let lowered = wanted.lowercased()
        var matches = contacts.filter { $0.uid == wanted }
        if matches.isEmpty { matches = contacts.filter { $0.fullName.lowercased() == lowered } }
        if matches.isEmpty { matches = contacts.filter { $0.emails.contains { $0.lowercased() == lowered } } }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            throw ActivityError(code: ActivityError.Code.noSuchContact,
                                message: "no contact in \(PathText.abbreviating(folder, home: home)) has the name, address or UID '\(wanted)'"
                                    + notRead)
        default:
            let listed = matches.prefix(5).map { "\($0.name) (UID \($0.uid ?? "none"), \(PathText.lastComponent(of: $0.path)))" }
            throw ActivityError(code: ActivityError.Code.noSuchContact,
                                message: "\(matches.count) contacts match '\(wanted)': \(listed.joined(separator: "; ")); give --contact a UID")
        }
    }

    /// The files not read, for a message: "; not read: ~/.contacts/all.vcf is over 64 MiB, …".
    private var notRead: String {
        unread.isEmpty ? "" : "; not read: " + unread.map { "\(PathText.abbreviating($0.path, home: home)) \($0.reason)" }
            .joined(separator: "; ")
    }

    /// Gives `contact` the image at `path` as its photo: a summary, and
    /// how to put the card back (its old bytes kept in `undoFolder`).
    /// A file that would grow past `largestFile` is not written: the
    /// folder's reader would then leave it out.
    nonisolated static func assign(imageAt path: String, to contact: ContactFolder.Contact, undoFolder: String,
                                   largestFile: Int = ContactFolder.largestFile) throws(ActivityError) -> (String, UndoAction?) {
        let photo = try fittedImage(path)
        // The card as it is now, which must still be the card that was listed.
        let before: [UInt8]
        switch LocalFiles.contents(ofFile: contact.path, limit: largestFile) {
        case .success(let bytes): before = bytes
        case .failure(let failure):
            throw ActivityError(code: ActivityError.Code.contactFailed, message: "cannot read \(contact.path): \(failure.reason)")
        }
        let file = VCardFile(bytes: before)
        guard contact.index < file.cards.count,
              ContactFolder.contacts(in: file, path: contact.path)[contact.index] == contact else {
            throw ActivityError(code: ActivityError.Code.contactChanged,
                                message: "\(contact.name)'s card changed since it was read; nothing was written (\(contact.path))")
        }
        let after: [UInt8]
        do { after = try file.settingPhoto(ofCard: contact.index, to: photo.bytes, type: photo.type) } catch {
            throw ActivityError(code: ActivityError.Code.contactFailed, message: "\(contact.name): \(error.description)")
        }
        guard after.count <= largestFile else {
            throw ActivityError(code: ActivityError.Code.contactFailed,
                                message: "\(contact.name): the photo would take \(contact.path) to \(after.count) bytes, past "
                                    + "\(ContactFolder.words(largestFile)), the limit for a vCard file; the card is unchanged")
        }
        var info = stat()
        let mode = stat(contact.path, &info) == 0 ? info.st_mode & 0o7777 : 0o600
        var changedMeanwhile = false
        do {
            try LocalFiles.replace(contact.path, with: after, mode: mode) { () throws(FileReplaceError) in
                // Written meanwhile (a sync, an editor)? Then keep theirs.
                guard case .success(let now) = LocalFiles.contents(ofFile: contact.path, limit: largestFile), now == before else {
                    changedMeanwhile = true
                    throw FileReplaceError("\(contact.name)'s card changed while it was being written; nothing was written (\(contact.path))")
                }
            }
        } catch {
            throw ActivityError(code: changedMeanwhile ? ActivityError.Code.contactChanged : ActivityError.Code.contactFailed,
                                message: error.description + (changedMeanwhile ? "" : "; the card is unchanged"))
        }
        let summary = "\(contact.name): photo \(photo.width)×\(photo.height) \(photo.type == .png ? "PNG" : "JPEG") in \(contact.path)"
        // The card as it was, for `share --undo`; without it the photo still stands, only the undo is lost.
        var generator = SystemRandomNumberGenerator()
        let backup = undoFolder + "/card-\(String(generator.next() as UInt64, radix: 36)).vcf"
        guard LocalFiles.createFolders(undoFolder) == nil, (try? LocalFiles.replace(backup, with: before)) != nil else {
            return (summary, nil)
        }
        return (summary, .restoreFile(path: contact.path, backup: backup, digest: SHA256.hex(after)))
    }

    /// The image at `path` as the photo: its bytes as they are when they
    /// fit in 512×512, else scaled down (PNG stays PNG, JPEG stays JPEG).
    nonisolated static func fittedImage(_ path: String) throws(ActivityError)
        -> (bytes: [UInt8], type: VCardImageType, width: Int, height: Int) {
        switch LocalFiles.contents(ofFile: path, limit: 64 << 20) {
        case .success(let bytes): return try fittedImage(bytes, name: PathText.lastComponent(of: path))
        case .failure(let failure):
            throw ActivityError(code: ActivityError.Code.contactFailed, message: "cannot read \(path): \(failure.reason)")
        }
    }

    /// `bytes` (the image called `name`) as the photo. Decoded whole first,
    /// whatever their size: a picture that does not decode to its last row
    /// (cut short, corrupt) is refused with `not-an-image`, never written.
    nonisolated static func fittedImage(_ bytes: [UInt8], name: String) throws(ActivityError)
        -> (bytes: [UInt8], type: VCardImageType, width: Int, height: Int) {
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        var format: Int32 = 0
        var width: Int32 = 0
        var height: Int32 = 0
        var reason = [CChar](repeating: 0, count: 256)
        let status = share_image_fit(bytes, bytes.count, Int32(largestSide), &output, &size, &format, &width, &height, &reason, reason.count)
        defer { free(output) }
        guard status == SHARE_IMAGE_OK else {
            let words = String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if status == SHARE_IMAGE_UNDECODABLE {
                throw ActivityError(code: ActivityError.Code.notAnImage,
                                    message: "\(name) is not a whole \(format == 1 ? "PNG" : "JPEG") image (\(words)); the card is unchanged")
            }
            throw ActivityError(code: ActivityError.Code.contactFailed, message: "\(name): \(words)")
        }
        let photo = output.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? bytes
        return (photo, format == 1 ? .png : .jpeg, Int(width), Int(height))
    }
}
