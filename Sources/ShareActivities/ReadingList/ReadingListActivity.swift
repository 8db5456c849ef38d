import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

/// Add to Reading List: URLs saved to a local reading list.
///
/// The list is a UTF-8 file of tab-separated lines, `ADDED<TAB>URL<TAB>TITLE`
/// (ADDED in ISO 8601, UTC), oldest first — easy to read with `cut`, `awk`
/// or a spreadsheet. It is rewritten atomically (temp file, fsync, rename),
/// keeping every line it had; a URL already on the list is not added twice.
@MainActor
public final class ReadingListActivity: SystemActivity {
    public nonisolated static var systemType: ActivityType { .addToReadingList }

    /// The list file.
    public let path: String
    /// The title to record (`--title`, or the items' link metadata).
    public let title: String?
    /// Whether a URL with no title is fetched for its page's `<title>` (`[reading-list] fetch-titles`).
    public var fetchesTitles = false
    private let clock: @Sendable () -> Date

    /// The keys of `[reading-list]`.
    public nonisolated static let configKeys = [ConfigKeys(section: "reading-list", keys: ["fetch-titles"])]

    /// Creates the activity for the list at `path`.
    public init(path: String, title: String?, clock: @escaping @Sendable () -> Date = Date.init) {
        self.path = path
        self.title = title
        self.clock = clock
    }

    /// The reading list in the data folder (`reading-list.tsv`), with the title asked for.
    public convenience init(context: ActivityContext) throws(ConfigurationError) {
        self.init(path: ReadingListActivity.path(in: context.locations), title: context.title, clock: context.clock)
        fetchesTitles = try context.section("reading-list").flag("fetch-titles") ?? false
    }

    /// The title recorded for `url`: `--title`, else the link metadata of
    /// that URL (or of the one item when one URL is shared), on one line.
    static func title(for url: String, given: String?, metadata: [LinkMetadata], count: Int) -> String {
        let found = given ?? metadata.first { $0.url?.absoluteString == url }?.title
            ?? (count == 1 && metadata.count == 1 ? metadata.first?.title : nil)
        return (found ?? "").replacingScalars(["\t", "\n", "\r"], with: " ")
    }

    /// Where the reading list is kept: `reading-list.tsv` in the data folder.
    public nonisolated static func path(in locations: Locations) -> String { locations.dataHome + "/reading-list.tsv" }

    /// The list at `path`: its entries, oldest first (none when there is
    /// no list yet), and the numbers of the lines that are not entries.
    public nonisolated static func read(atPath path: String) throws -> (entries: [ReadingListEntry], unreadable: [Int]) {
        parse(try file(path).lines())
    }

    /// The entries among `lines`, and the numbers of the lines that are not entries.
    private nonisolated static func parse(_ lines: [LineFile.Line]) -> (entries: [ReadingListEntry], unreadable: [Int]) {
        var entries: [ReadingListEntry] = [], unreadable: [Int] = []
        for line in lines {
            if let entry = ReadingListEntry(line: line) { entries.append(entry) } else { unreadable.append(line.number) }
        }
        return (entries, unreadable)
    }

    /// The warning for the lines of the list at `path` that are not entries, if any.
    public nonisolated static func unreadableWarning(_ numbers: [Int], path: String) -> String? {
        file(path).skipped(numbers, expected: "ADDED<TAB>URL<TAB>TITLE")
    }

    private nonisolated static func file(_ path: String) -> LineFile { LineFile(path: path, name: "the reading list") }

    public var activityImage: ActivityImage { .glyph("☰") }

    /// A `mailto:` or `tel:` URL is no page to read later.
    public func refusal(of items: [ShareItem]) -> String? {
        items.contains { if case .url(let url) = $0 { url.isWebAddress } else { false } } ? nil
            : "the reading list keeps web pages (http or https); this share has none"
    }

    /// An ISO 8601 time in UTC, to the second: 2026-12-01T07:14:38Z.
    static func timestamp(_ date: Date) -> String { DateText.formatted(date, "%Y-%m-%dT%H:%M:%SZ", utc: true) }

    public func perform(_ session: ActivitySession) async {
        let urls = session.items.compactMap { item -> URL? in if case .url(let url) = item, url.isWebAddress { url } else { nil } }
        do {
            // Titles first: a page is asked for outside the lock, for the URLs not listed yet.
            let before = try ReadingListActivity.read(atPath: path)
            let listedBefore = Set(before.entries.map(\.url))
            var labels: [String: String] = [:]
            for url in urls.map(\.absoluteString) where !listedBefore.contains(url) && labels[url] == nil {
                var label = ReadingListActivity.title(for: url, given: title, metadata: session.linkMetadata, count: urls.count)
                if label.isEmpty, fetchesTitles, let page = URL(string: url) {
                    // Off the main actor: the network is slow, and a title is worth 3 seconds at most.
                    label = await Task.detached { PageTitle.fetch(page) }.value ?? ""
                }
                labels[url] = label
            }
            let stamp = ReadingListActivity.timestamp(clock())
            let (added, unreadable) = try ReadingListActivity.add(urls.map(\.absoluteString), labels: labels, stamp: stamp, toListAt: path)
            let warnings = ReadingListActivity.unreadableWarning(unreadable, path: path).map { [$0] } ?? []
            // A URL already on the list is refused, not written twice.
            guard !added.isEmpty else {
                let listed = urls.map(\.absoluteString).joined(separator: ", ")
                session.fail(ActivityError(code: ActivityError.Code.alreadyListed,
                                           message: "\(listed) \(urls.count == 1 ? "is" : "are") already on the reading list (\(path))"))
                return
            }
            session.finish(.performed, returnedItems: urls.map { .url($0) }, warnings: warnings,
                           undo: added.map { .removeFromReadingList(path: path, url: $0, added: stamp) },
                           summary: added.count == 1 ? Localization.text("Added %@ to the reading list", added[0])
                               : Localization.plural("Added %@ page to the reading list", "Added %@ pages to the reading list",
                                                     count: added.count, String(added.count)))
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.readingList, message: ErrorText.sentence(error)))
        }
    }

    /// Appends the URLs not on the list at `path` yet, each once, under the
    /// list's lock, so that shares adding at the same time never lose one
    /// another's lines; returns the URLs added, and the numbers of the
    /// lines that are not entries (kept as they are).
    nonisolated static func add(_ urls: [String], labels: [String: String], stamp: String,
                                toListAt path: String) throws -> (added: [String], unreadable: [Int]) {
        try file(path).change { lines in
            let (entries, unreadable) = parse(lines)
            let known = Set(entries.map(\.url))
            var added: [String] = []
            for url in urls where !known.contains(url) && !added.contains(url) { added.append(url) }
            guard !added.isEmpty else { return (nil, ([], unreadable)) }
            let new = added.map { Array("\(stamp)\t\($0)\t\(labels[$0] ?? "")".utf8) }
            return (lines.map(\.bytes) + new, (added, unreadable))
        }
    }

    /// Removes the line of `url` added at `added` from the list at `path`
    /// (`share --undo`), rewriting it atomically; every other line stays.
    nonisolated static func remove(_ url: String, added: String, fromListAt path: String) -> Result<String, FileReplaceError> {
        do {
            return try file(path).change { lines in
                // Only the line this share wrote: the URL, added at that time.
                let kept = lines.filter { line in
                    guard let entry = ReadingListEntry(line: line) else { return true }
                    return !(entry.added == added && entry.url == url)
                }
                guard kept.count < lines.count else { return (nil, .failure(FileReplaceError("\(url) is not on the reading list any more"))) }
                return (kept.map(\.bytes), .success("removed \(url) from the reading list"))
            }
        } catch let error as FileReplaceError {
            return .failure(error)
        } catch {
            return .failure(FileReplaceError(ErrorText.sentence(error)))
        }
    }
}

/// One line of the reading list.
public struct ReadingListEntry: Sendable, Equatable {
    /// When it was added: ISO 8601, UTC.
    public var added: String
    /// The URL.
    public var url: String
    /// Its title, or empty.
    public var title: String

    public init(added: String, url: String, title: String) {
        self.added = added
        self.url = url
        self.title = title
    }

    /// The entry a line of the list holds: UTF-8, `ADDED<TAB>URL[<TAB>TITLE]`
    /// with a URL that has a scheme and no spaces or control characters;
    /// `nil` for any other line.
    init?(line: LineFile.Line) {
        guard var text = line.text else { return nil }
        // A list saved with CRLF line ends (a Windows sync tool) reads the same.
        if text.unicodeScalars.last == "\r" { text.unicodeScalars.removeLast() }
        let fields = text.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
        guard fields.count >= 2, !fields[0].isEmpty,
              !fields[1].unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }),
              let url = URL(string: fields[1]), url.scheme?.isEmpty == false else { return nil }
        self.init(added: fields[0], url: fields[1], title: fields.count > 2 ? fields[2] : "")
    }
}

extension ActivityError.Code {
    /// Add to Reading List: the list could not be read or saved.
    public static let readingList = "reading-list"

    /// Add to Reading List: every URL given is on the list already; nothing was written.
    public static let alreadyListed = "already-listed"
}
