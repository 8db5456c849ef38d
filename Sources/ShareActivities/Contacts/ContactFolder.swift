import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// The contacts of a vCard folder (a vdir, as khard and vdirsyncer keep
/// it: `*.vcf` files, one card or more each, in the folder and the folders
/// below it).
struct ContactFolder {
    /// One card.
    struct Contact: Sendable, Equatable {
        /// The file it is in.
        var path: String
        /// Its place among the file's cards.
        var index: Int
        /// `FN`, else `N` put together; may be empty.
        var fullName: String
        /// Its `EMAIL` values.
        var emails: [String]
        /// Its XMPP addresses: `IMPP:xmpp:…` and `X-JABBER` values.
        var jids: [String] = []
        /// Its Matrix IDs: `IMPP:matrix:@lee:example.org` (or `matrix:u/lee:example.org`).
        var matrixIDs: [String] = []
        /// Its `NICKNAME`, if any.
        var nickname: String?
        /// Its `UID`, if any.
        var uid: String?
        /// Whether it has a `PHOTO`.
        var hasPhoto: Bool
        /// A hash of the card's bytes: two readings of a card are the same card when these agree.
        var fingerprint: Int

        /// The full name, else the first address, else the file's name.
        var name: String { fullName.isEmpty ? emails.first ?? PathText.lastComponent(of: path) : fullName }

        /// What the chooser lists: name, first address, and whether it has a photo.
        var label: String {
            var parts = [name]
            if let email = emails.first, email != name { parts.append("<\(email)>") }
            parts.append(hasPhoto ? "· photo" : "· no photo")
            return parts.joined(separator: " ")
        }
    }

    /// A file of the folder that was not read, and why.
    struct Unread: Sendable, Equatable {
        var path: String
        /// What follows the path: "is over 64 MiB, the limit for a vCard file", "cannot be read: permission denied".
        var reason: String
    }

    /// The largest `.vcf` file read or written: far above what address
    /// books export (a few MiB for thousands of cards with photos).
    static let largestFile = 64 << 20

    /// A limit in words: "64 MiB", or bytes when it is no whole number of MiB.
    static func words(_ limit: Int) -> String {
        limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
    }

    /// The folder.
    let path: String

    /// Every contact, sorted by name.
    func contacts() -> [Contact] { read().contacts }

    /// Every contact, sorted by name, and the files that could not be read
    /// (too large, unreadable): never left out without a word.
    func read() -> (contacts: [Contact], unread: [Unread]) {
        var found: [Contact] = []
        var unread: [Unread] = []
        for relative in LocalFiles.filesBelow(path) where relative.lowercased().hasSuffix(".vcf") {
            let file = path + "/" + relative
            switch LocalFiles.contents(ofFile: file, limit: ContactFolder.largestFile) {
            case .success(let bytes):
                found += ContactFolder.contacts(in: VCardFile(bytes: bytes), path: file)
            case .failure(let failure):
                unread.append(Unread(path: file, reason: failure.code == EFBIG
                    ? "is over \(ContactFolder.words(ContactFolder.largestFile)), the limit for a vCard file"
                    : "cannot be read: \(failure.reason)"))
            }
        }
        // Each name lower-cased once, not at every comparison.
        let sorted = found.map { ($0.name.lowercased(), $0) }
            .sorted { ($0.0, $0.1.path, $0.1.index) < ($1.0, $1.1.path, $1.1.index) }
            .map(\.1)
        return (sorted, unread)
    }

    /// The contacts of one file.
    static func contacts(in file: VCardFile, path: String) -> [Contact] {
        file.cards.enumerated().map { index, card in
            let emails = card.values("EMAIL").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            var name = card.value("FN")?.trimmingWhitespace() ?? ""
            if name.isEmpty, let structured = card.properties.first(where: { $0.name == "N" }) {
                // N is family;given;additional;prefixes;suffixes.
                let parts = structured.value.split(separator: ";", omittingEmptySubsequences: false).map { VCardFile.unescape(String($0)) }
                name = [parts.count > 1 ? parts[1] : "", parts[0]].filter { !$0.isEmpty }.joined(separator: " ")
            }
            // IMPP:xmpp:kim@example.com (vCard 4, RFC 4770), X-JABBER:kim@example.com (older clients).
            let impp = card.values("IMPP").map { $0.trimmingWhitespace() }.filter { $0.lowercased().hasPrefix("xmpp:") }
                .map { String($0.dropFirst(5).prefix { $0 != "?" }) }
            let jids = (impp + card.values("X-JABBER").map { $0.trimmingWhitespace() }).filter { !$0.isEmpty }
            let matrix = card.values("IMPP").map { $0.trimmingWhitespace() }.filter { $0.lowercased().hasPrefix("matrix:") }
                .map { value -> String in
                    let rest = String(value.dropFirst("matrix:".count).prefix { $0 != "?" })
                    return rest.hasPrefix("u/") ? "@" + rest.dropFirst(2) : rest
                }.filter(MatrixAccount.isUserID)
            return Contact(path: path, index: index, fullName: name, emails: emails, jids: jids, matrixIDs: matrix, nickname: card.value("NICKNAME"),
                           uid: card.value("UID")?.trimmingWhitespace(), hasPhoto: card.properties.contains { $0.name == "PHOTO" },
                           fingerprint: file.bytes[card.range].hashValue)
        }
    }
}
