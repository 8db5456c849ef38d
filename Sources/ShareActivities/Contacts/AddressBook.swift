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
    /// entry's name, address, nickname and name's initials, lower-cased as
    /// UTF-8 (so no match spans two of them). A lookup walks the run once.
    ///
    /// Matches rank as a person expects (fzf, a phone's contacts): at the
    /// start of the name, the nickname or the address first; then at the
    /// start of a word of the name or of the address's local part; then
    /// inside the name or the local part; last, only in the domain — so
    /// "le" finds lee@example.com before Pamela at "examp*le*.com". Hangul
    /// matches by syllable, and by initial consonants: "ㅇㅇㅎ" finds 이영희.
    struct Indexed: Sendable {
        let entries: [Entry]
        private let bytes: [UInt8]
        private let names: [Range<Int>]
        private let emails: [Range<Int>]
        private let nicknames: [Range<Int>]
        private let initials: [Range<Int>]

        init(_ entries: [Entry]) {
            self.entries = entries
            var bytes: [UInt8] = []
            var names: [Range<Int>] = [], emails: [Range<Int>] = [], nicknames: [Range<Int>] = [], initials: [Range<Int>] = []
            func add(_ text: String, to ranges: inout [Range<Int>]) {
                let start = bytes.count
                bytes += text.utf8
                ranges.append(start..<bytes.count)
            }
            for entry in entries {
                let name = entry.name.lowercased()
                add(name, to: &names)
                add(entry.email.lowercased(), to: &emails)
                add(entry.nickname?.lowercased() ?? "", to: &nicknames)
                add(Indexed.initials(of: name), to: &initials)
            }
            self.bytes = bytes
            self.names = names
            self.emails = emails
            self.nicknames = nicknames
            self.initials = initials
        }

        /// How well an entry matches: lower is better; `nil` is no match.
        enum Rank: Int, CaseIterable {
            case start = 0, wordStart, inside, domain
        }

        /// The first `limit` entries (one per address) that match `text`,
        /// the best matches first and in the book's order within a rank;
        /// all entries for "".
        func search(_ text: String, limit: Int) -> [Entry] {
            let lowered = text.lowercased()
            let needle = Array(lowered.utf8)
            // Initial consonants typed (ㅇㅇㅎ): the name's initials are searched, syllables typed with them as theirs.
            let byInitials = lowered.unicodeScalars.contains { Indexed.isConsonantJamo($0) }
            let initialsNeedle = byInitials ? Array(Indexed.initials(of: lowered).utf8) : []
            var ranked = Array(repeating: [Int](), count: Rank.allCases.count)
            bytes.withUnsafeBufferPointer { bytes in
                needle.withUnsafeBufferPointer { needle in
                    initialsNeedle.withUnsafeBufferPointer { initialsNeedle in
                        for index in entries.indices {
                            let rank = needle.isEmpty ? .start
                                : Indexed.rank(of: index, needle: needle, initialsNeedle: byInitials ? initialsNeedle : nil, in: bytes,
                                               names: names, emails: emails, nicknames: nicknames, initials: initials)
                            guard let rank else { continue }
                            ranked[rank.rawValue].append(index)
                            // Enough of the best: nothing later can come before them.
                            if rank == .start && ranked[0].count >= limit * 2 { return }
                        }
                    }
                }
            }
            var seen = Set<String>()
            var results: [Entry] = []
            for index in ranked.joined() where seen.insert(entries[index].email.lowercased()).inserted {
                results.append(entries[index])
                if results.count == limit { break }
            }
            return results
        }

        private static func rank(of index: Int, needle: UnsafeBufferPointer<UInt8>, initialsNeedle: UnsafeBufferPointer<UInt8>?,
                                 in bytes: UnsafeBufferPointer<UInt8>, names: [Range<Int>], emails: [Range<Int>],
                                 nicknames: [Range<Int>], initials: [Range<Int>]) -> Rank? {
            let nickname = nicknames[index]
            if nickname.count >= needle.count, matches(bytes, at: nickname.lowerBound, needle) { return .start }
            var best: Rank?
            func consider(_ rank: Rank?) { if let rank, rank.rawValue < (best?.rawValue ?? Int.max) { best = rank } }
            consider(rank(in: bytes, names[index], needle, words: [0x20, 0x2D, 0x2E, 0x27, 0x28, 0x2C, 0x22], limit: nil))
            let email = emails[index]
            let at = (email.lowerBound..<email.upperBound).last { bytes[$0] == 0x40 } ?? email.upperBound
            consider(rank(in: bytes, email, needle, words: [0x2E, 0x5F, 0x2D, 0x2B], limit: at))
            if let initialsNeedle, !initialsNeedle.isEmpty {
                consider(rank(in: bytes, initials[index], initialsNeedle, words: [0x20, 0x2D], limit: nil))
            }
            return best
        }

        /// The best rank of `needle` in `range`: at its start, after a byte
        /// of `words`, inside; past `limit` (an address's domain), `domain`.
        private static func rank(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ needle: UnsafeBufferPointer<UInt8>,
                                 words: [UInt8], limit: Int?) -> Rank? {
            guard let first = needle.first, needle.count <= range.count else { return nil }
            var best: Rank?
            var start = range.lowerBound
            while start <= range.upperBound - needle.count {
                if bytes[start] == first && matches(bytes, at: start, needle) {
                    let rank: Rank = start == range.lowerBound ? .start
                        : limit.map { start > $0 } == true ? .domain
                        : words.contains(bytes[start - 1]) ? .wordStart : .inside
                    if rank == .start { return rank }
                    if rank.rawValue < (best?.rawValue ?? Int.max) { best = rank }
                }
                start += 1
            }
            return best
        }

        /// Whether `needle` is at `start` of `bytes` (UTF-8 on both sides, so
        /// a byte match is a match of whole scalars; an accent written as a
        /// letter and a combining mark matches only the same).
        private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
            guard start + needle.count <= bytes.count else { return false }
            var matched = 0
            while matched < needle.count && bytes[start + matched] == needle[matched] { matched += 1 }
            return matched == needle.count
        }

        /// A consonant of Hangul compatibility jamo (ㄱ … ㅎ), as typed alone.
        static func isConsonantJamo(_ scalar: Unicode.Scalar) -> Bool { (0x3131...0x314E).contains(scalar.value) }

        /// `text` with each Hangul syllable written as its initial consonant
        /// (이영희 → ㅇㅇㅎ); anything else as it is.
        static func initials(of text: String) -> String {
            let consonants: [UInt32] = [0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
                                        0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E]
            var result = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                if (0xAC00...0xD7A3).contains(scalar.value), let initial = Unicode.Scalar(consonants[Int(scalar.value - 0xAC00) / 588]) {
                    result.append(initial)
                } else {
                    result.append(scalar)
                }
            }
            return String(result)
        }
    }

    /// Creates a book reading from these places (any may be nil).
    public init(vcardDirectory: String?, aliasFile: String?, queryCommand: String?) {
        self.vcardDirectory = vcardDirectory
        self.aliasFile = aliasFile
        self.queryCommand = queryCommand
    }

    /// Up to `limit` addresses whose name, address or nickname matches `text` (case-insensitive), best first.
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
