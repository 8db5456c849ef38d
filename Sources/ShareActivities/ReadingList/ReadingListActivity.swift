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

    /// The entries of the list at `path`, oldest first (none when there is no list yet).
    public nonisolated static func entries(atPath path: String) throws -> [ReadingListEntry] {
        try lines(atPath: path).map { line in
            let parts = line.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            return ReadingListEntry(added: parts[0], url: parts.count > 1 ? parts[1] : "", title: parts.count > 2 ? parts[2] : "")
        }
    }

    public var activityImage: ActivityImage { .glyph("☰") }

    /// An ISO 8601 time in UTC, to the second: 2026-12-01T07:14:38Z.
    static func timestamp(_ date: Date) -> String { DateText.formatted(date, "%Y-%m-%dT%H:%M:%SZ", utc: true) }

    public func perform(_ session: ActivitySession) async {
        let urls = session.items.compactMap { item -> URL? in if case .url(let url) = item { url } else { nil } }
        do {
            // Titles first: a page is asked for outside the lock, for the URLs not listed yet.
            let listedBefore = ReadingListActivity.urls(in: try ReadingListActivity.lines(atPath: path))
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
            let added = try ReadingListActivity.add(urls.map(\.absoluteString), labels: labels, stamp: stamp, toListAt: path)
            // A URL already on the list is refused, not written twice.
            guard !added.isEmpty else {
                let listed = urls.map(\.absoluteString).joined(separator: ", ")
                session.fail(ActivityError(code: ActivityError.Code.alreadyListed,
                                           message: "\(listed) \(urls.count == 1 ? "is" : "are") already on the reading list (\(path))"))
                return
            }
            session.finish(.performed, returnedItems: urls.map { .url($0) },
                           undo: added.map { .removeFromReadingList(path: path, url: $0, added: stamp) })
        } catch {
            session.fail(ActivityError(code: ActivityError.Code.readingList, message: ErrorText.sentence(error)))
        }
    }

    /// Appends the URLs not on the list at `path` yet, each once, under the
    /// list's lock, so that shares adding at the same time never lose one
    /// another's lines; returns the URLs added.
    nonisolated static func add(_ urls: [String], labels: [String: String], stamp: String, toListAt path: String) throws -> [String] {
        let folder = PathText.parent(of: path)
        if let failure = LocalFiles.createFolders(folder) { throw FileReplaceError("cannot create \(folder): \(failure.reason)") }
        return try locked(path) { () throws -> [String] in
            let existing = try lines(atPath: path)
            let known = ReadingListActivity.urls(in: existing)
            var added: [String] = []
            for url in urls where !known.contains(url) && !added.contains(url) { added.append(url) }
            guard !added.isEmpty else { return [] }
            let lines = existing + added.map { "\(stamp)\t\($0)\t\(labels[$0] ?? "")" }
            try LocalFiles.replace(path, with: Array((lines.joined(separator: "\n") + "\n").utf8))
            return added
        }
    }

    /// The URLs of the list's lines.
    private nonisolated static func urls(in lines: [String]) -> Set<String> {
        Set(lines.compactMap { $0.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().first.map(String.init) })
    }

    /// Runs `body` holding the lock of the list at `path` (`PATH.lock` beside it).
    private nonisolated static func locked<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try FileLock.holding(path + ".lock", body)
        } catch {
            switch error {
            case .unlocked(let failure): throw FileReplaceError("cannot lock the reading list (\(path).lock): \(failure.reason)")
            case .body(let failure): throw failure
            }
        }
    }

    /// Removes the line of `url` added at `added` from the list at `path`
    /// (`share --undo`), rewriting it atomically.
    nonisolated static func remove(_ url: String, added: String, fromListAt path: String) -> Result<String, FileReplaceError> {
        do {
            return try locked(path) { removeUnlocked(url, added: added, fromListAt: path) }
        } catch let error as FileReplaceError {
            return .failure(error)
        } catch {
            return .failure(FileReplaceError(ErrorText.sentence(error)))
        }
    }

    private nonisolated static func removeUnlocked(_ url: String, added: String, fromListAt path: String) -> Result<String, FileReplaceError> {
        do {
            let existing = try lines(atPath: path)
            // Only the line this share wrote: the URL, added at that time.
            let kept = existing.filter { line in
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
                return !(fields.count > 1 && fields[0] == Substring(added) && fields[1] == Substring(url))
            }
            guard kept.count < existing.count else { return .failure(FileReplaceError("\(url) is not on the reading list any more")) }
            try LocalFiles.replace(path, with: Array(kept.map { $0 + "\n" }.joined().utf8))
            return .success("removed \(url) from the reading list")
        } catch let error as FileReplaceError {
            return .failure(error)
        } catch {
            return .failure(FileReplaceError(ErrorText.sentence(error)))
        }
    }

    /// The list's lines at `path` (none when there is no list yet).
    private nonisolated static func lines(atPath path: String) throws -> [String] {
        switch LocalFiles.contents(ofFile: path, limit: 64 << 20) {
        case .failure(let failure) where failure.code == ENOENT: return []
        case .failure(let failure): throw FileReplaceError("cannot read the reading list \(path): \(failure.reason)")
        case .success(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw FileReplaceError("cannot read the reading list \(path): it is not UTF-8 text")
            }
            return text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
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
}

extension ActivityError.Code {
    /// Add to Reading List: the list could not be read or saved.
    public static let readingList = "reading-list"

    /// Add to Reading List: every URL given is on the list already; nothing was written.
    public static let alreadyListed = "already-listed"
}
