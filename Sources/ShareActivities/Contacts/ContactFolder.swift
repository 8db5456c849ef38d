import FoundationEssentials
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

    /// The folder.
    let path: String

    /// Every contact, sorted by name; files that cannot be read are skipped.
    func contacts() -> [Contact] {
        var found: [Contact] = []
        for relative in LocalFiles.filesBelow(path) where relative.lowercased().hasSuffix(".vcf") {
            let file = path + "/" + relative
            guard case .success(let bytes) = LocalFiles.contents(ofFile: file) else { continue }
            found += ContactFolder.contacts(in: VCardFile(bytes: bytes), path: file)
        }
        // Each name lower-cased once, not at every comparison.
        return found.map { ($0.name.lowercased(), $0) }
            .sorted { ($0.0, $0.1.path, $0.1.index) < ($1.0, $1.1.path, $1.1.index) }
            .map(\.1)
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
            return Contact(path: path, index: index, fullName: name, emails: emails, jids: jids, nickname: card.value("NICKNAME"),
                           uid: card.value("UID")?.trimmingWhitespace(), hasPhoto: card.properties.contains { $0.name == "PHOTO" },
                           fingerprint: file.bytes[card.range].hashValue)
        }
    }
}
