import FoundationEssentials
import ShareCore
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport
import Synchronization

/// Address completion from the places a terminal mail user keeps contacts
/// (SPEC §8 `[contacts]`): a vCard folder (khard, vdirsyncer), a mutt alias
/// file, and a `query-command` in mutt's query format.
///
/// The vCards and aliases are read once, on whichever thread asks first
/// (the compose screen asks on a thread of its own as it opens), and kept
/// with their lower-cased text, so that a keystroke's lookup is a byte
/// search through them.
public final class AddressBook: Sendable {
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
    private let loaded = Mutex<Indexed?>(nil)

    /// The entries with what a lookup searches, in one run of bytes: each
    /// entry's name and address lower-cased as UTF-8 (with 0xFF between
    /// them, a byte no UTF-8 text holds, so no match spans both), and its
    /// nickname. A lookup walks the run once,
    /// touching no entry until one matches.
    struct Indexed: Sendable {
        let entries: [Entry]
        private let bytes: [UInt8]
        private let texts: [Range<Int>]
        private let nicknames: [Range<Int>]

        init(_ entries: [Entry]) {
            self.entries = entries
            var bytes: [UInt8] = []
            var texts: [Range<Int>] = [], nicknames: [Range<Int>] = []
            for entry in entries {
                let start = bytes.count
                bytes += entry.name.lowercased().utf8
                bytes.append(0xFF)
                bytes += entry.email.lowercased().utf8
                texts.append(start..<bytes.count)
                let nickname = bytes.count
                bytes += (entry.nickname?.lowercased() ?? "").utf8
                nicknames.append(nickname..<bytes.count)
            }
            self.bytes = bytes
            self.texts = texts
            self.nicknames = nicknames
        }

        /// The first `limit` entries (one per address) whose name or address
        /// contains `text`, or whose nickname starts with it; all for "".
        func search(_ text: String, limit: Int) -> [Entry] {
            let needle = Array(text.lowercased().utf8)
            var seen = Set<String>()
            var results: [Entry] = []
            bytes.withUnsafeBufferPointer { bytes in
                needle.withUnsafeBufferPointer { needle in
                    for index in texts.indices {
                        let nickname = nicknames[index]
                        let matches = needle.isEmpty
                            || (nickname.count >= needle.count
                                && Indexed.contains(bytes, nickname.lowerBound..<(nickname.lowerBound + needle.count), needle))
                            || Indexed.contains(bytes, texts[index], needle)
                        guard matches else { continue }
                        if seen.insert(entries[index].email.lowercased()).inserted { results.append(entries[index]) }
                        if results.count == limit { return }
                    }
                }
            }
            return results
        }

        /// Whether `needle` occurs in `range` of `bytes` (UTF-8 on both
        /// sides, so a byte match is a match of whole scalars; an accent
        /// written as a letter and a combining mark matches only the same).
        static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                             _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let first = needle.first, needle.count <= range.count else { return needle.isEmpty }
            var start = range.lowerBound
            while start <= range.upperBound - needle.count {
                if bytes[start] == first {
                    var matched = 1
                    while matched < needle.count && bytes[start + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return true }
                }
                start += 1
            }
            return false
        }
    }

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

    /// Up to `limit` entries, one per address: those of the vCards and
    /// aliases (read now if they are not yet) whose name or address
    /// contains `text` or whose nickname starts with it (case-insensitive;
    /// every entry for an empty `text`), then what `query-command` answers
    /// for it, as it answers (it does its own matching, as in mutt).
    public func matches(_ text: String, limit: Int) -> [Entry] {
        AddressBook.merge(indexed().search(text, limit: limit), query(text), limit: limit)
    }

    /// Whether the vCards and aliases are read.
    public var isLoaded: Bool { loaded.withLock { $0 != nil } }

    /// Whether lookups also ask `query-command` (which takes a process each time).
    public var hasQueryCommand: Bool { queryCommand != nil }

    /// Reads the vCards and aliases, if not yet read.
    public func load() { _ = indexed() }

    /// Up to `limit` matches among the vCards and aliases, or nil while
    /// they are not read yet: never waits, never runs `query-command`.
    public func loadedMatches(_ text: String, limit: Int = 8) -> [Entry]? {
        loaded.withLock { $0 }?.search(text, limit: limit)
    }

    /// `first`, then those of `then` with another address, at most `limit`.
    public static func merge(_ first: [Entry], _ then: [Entry], limit: Int = 8) -> [Entry] {
        var seen = Set<String>()
        var results: [Entry] = []
        for entry in first + then where seen.insert(entry.email.lowercased()).inserted {
            results.append(entry)
            if results.count == limit { break }
        }
        return results
    }

    /// The vCard and alias entries, read once.
    public func entries() -> [Entry] { indexed().entries }

    private func indexed() -> Indexed {
        if let ready = loaded.withLock({ $0 }) { return ready }
        var all: [Entry] = []
        if let directory = vcardDirectory { all += AddressBook.readVCards(in: directory) }
        if let file = aliasFile, case .success(let bytes) = LocalFiles.contents(ofFile: file, limit: 16 << 20),
           let text = String(validating: bytes, as: UTF8.self) {
            all += AddressBook.parseAliases(text)
        }
        let indexed = Indexed(all)
        // Two first lookups at once read twice; the first to finish is kept.
        return loaded.withLock { stored in
            if stored == nil { stored = indexed }
            return stored ?? indexed
        }
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
    public func query(_ text: String) -> [Entry] {
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
