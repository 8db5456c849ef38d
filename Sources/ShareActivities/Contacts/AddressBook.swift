import FoundationEssentials
import ShareCore
#if canImport(Glibc)
import Glibc
#endif

/// Address completion from the places a terminal mail user keeps contacts
/// (SPEC §8 `[contacts]`): a vCard folder (khard, vdirsyncer), a mutt alias
/// file, and a `query-command` in mutt's query format.
public final class AddressBook: @unchecked Sendable {
    /// One known address.
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var email: String
        public var nickname: String?

        /// `Name <email>`, with the name quoted when it holds specials (`"Lee, J" <lee@example.com>`).
        public var formatted: String {
            guard !name.isEmpty else { return email }
            let specials = Set("()<>[]:;@\\,.\"")
            let needsQuotes = name.contains { specials.contains($0) }
            let shown = needsQuotes
                ? "\"" + name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
                : name
            return "\(shown) <\(email)>"
        }
    }

    /// How long `query-command` may take, in seconds.
    static let queryTimeout = 5.0

    private let vcardDirectory: String?
    private let aliasFile: String?
    private let queryCommand: String?
    private var loaded: [Entry]?

    /// Creates a book reading from these places (any may be nil).
    public init(vcardDirectory: String?, aliasFile: String?, queryCommand: String?) {
        self.vcardDirectory = vcardDirectory
        self.aliasFile = aliasFile
        self.queryCommand = queryCommand
    }

    /// Up to `limit` addresses whose name, address or nickname contains `text` (case-insensitive).
    public func complete(_ text: String, limit: Int = 8) -> [String] {
        text.isEmpty ? [] : matches(text, limit: limit).map(\.formatted)
    }

    /// Up to `limit` entries whose name, address or nickname contains `text`
    /// (case-insensitive; every entry for an empty `text`), one per address.
    public func matches(_ text: String, limit: Int) -> [Entry] {
        let needle = text.lowercased()
        var seen = Set<String>()
        var results: [Entry] = []
        let candidates = entries() + query(text)
        for entry in candidates where needle.isEmpty || entry.name.lowercased().contains(needle) || entry.email.lowercased().contains(needle)
            || entry.nickname?.lowercased().hasPrefix(needle) == true {
            if seen.insert(entry.email.lowercased()).inserted { results.append(entry) }
            if results.count == limit { break }
        }
        return results
    }

    /// The vCard and alias entries, read once.
    public func entries() -> [Entry] {
        if let loaded { return loaded }
        var all: [Entry] = []
        if let directory = vcardDirectory { all += AddressBook.readVCards(in: directory) }
        if let file = aliasFile, case .success(let bytes) = LocalFiles.contents(ofFile: file, limit: 16 << 20),
           let text = String(validating: bytes, as: UTF8.self) {
            all += AddressBook.parseAliases(text)
        }
        loaded = all
        return all
    }

    // MARK: - vCard

    static func readVCards(in directory: String) -> [Entry] {
        ContactFolder(path: directory).contacts().flatMap { contact in
            contact.emails.filter { $0.contains("@") }.map { Entry(name: contact.fullName, email: $0, nickname: contact.nickname) }
        }
    }

    // MARK: - mutt aliases

    /// `alias NICK [Name] <email>` and `alias NICK email` lines.
    static func parseAliases(_ text: String) -> [Entry] {
        var entries: [Entry] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingWhitespace()
            guard trimmed.hasPrefix("alias ") || trimmed.hasPrefix("alias\t") else { continue }
            let rest = trimmed.dropFirst(6).trimmingWhitespace()
            guard let space = rest.firstIndex(where: { $0 == " " || $0 == "\t" }) else { continue }
            let nickname = String(rest[..<space])
            let target = rest[space...].trimmingWhitespace()
            if let open = target.lastIndex(of: "<"), let close = target.lastIndex(of: ">"), open < close {
                var name = target[..<open].trimmingWhitespace()
                if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
                entries.append(Entry(name: name, email: String(target[target.index(after: open)..<close]), nickname: nickname))
            } else if target.contains("@"), !target.contains(",") {
                entries.append(Entry(name: "", email: target, nickname: nickname))
            }
        }
        return entries
    }

    // MARK: - query-command

    /// Runs `query-command` with `%s` replaced by `text` as its own argument
    /// (never through a shell, so typed text cannot become a command), and
    /// reads mutt's format: `email<TAB>name[<TAB>other]` per line.
    func query(_ text: String) -> [Entry] {
        guard let command = queryCommand, text.count >= 2 else { return [] }
        var words = command.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return [] }
        if words.contains("%s") { words = words.map { $0 == "%s" ? text : $0 } } else { words.append(text) }
        // Completion must not wait long: a query still running after this is stopped, and offers nothing.
        guard let outcome = try? Subprocess.run("/usr/bin/env", arguments: words, errorLimit: 0,
                                                supervision: Subprocess.Supervision(timeout: AddressBook.queryTimeout, stopsOnInterrupt: false)),
              !outcome.timedOut else { return [] }
        return AddressBook.parseQuery(String(decoding: outcome.output, as: UTF8.self))
    }

    static func parseQuery(_ text: String) -> [Entry] {
        text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let email = fields.first, email.contains("@"), !email.contains(" ") else { return nil }
            return Entry(name: fields.count > 1 ? fields[1] : "", email: email)
        }
    }
}
