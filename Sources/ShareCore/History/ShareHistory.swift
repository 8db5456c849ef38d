#if canImport(Glibc)
import Glibc
#endif
import FoundationEssentials
import ShareSupport

/// One finished share, as the history keeps it: what was shared (names,
/// types and sizes, never contents or message bodies), with what, to whom,
/// how it ended, and what the activity handed back (a job id, a path).
public struct HistoryEntry: Codable, Sendable, Equatable {
    /// An item, summarised.
    public struct Item: Codable, Sendable, Equatable {
        /// `string`, `url`, `file` or `image`.
        public var kind: String
        /// A file's name, or a URL; `nil` for text.
        public var name: String?
        /// A file's MIME type.
        public var type: String?
        /// A file's size in bytes, or a text's length in characters.
        public var size: Int64?
    }

    /// Unique within the history: the time and a random suffix (`20261202T061500Z-3f9a`).
    public var id: String
    /// When the share finished, ISO 8601 in UTC.
    public var time: String
    /// The activity type that ran.
    public var activity: String
    /// `performed`, `sent`, `saved`, `queued`, `cancelled` or `failed`.
    public var outcome: String
    public var items: [Item]
    /// Who it went to (`Kim Minsu <kim@example.com>`), for Mail and Message.
    public var recipients: [String]
    /// What the activity handed back, each cut to 200 characters.
    public var returned: [String]
    /// The error code of a failure.
    public var error: String?
    /// The failure in words, cut to 200 characters.
    public var reason: String?
    /// How to take the share back; empty when there is nothing to undo.
    public var undo: [UndoAction]?
    /// For an entry that records an undo: the id of the entry undone.
    public var undoes: String?
    /// For an entry that records an undo: the actions of that entry done
    /// (the rest, refused, may be tried again).
    public var undid: [UndoAction]?
    /// For a share that waits (a message scheduled for later): when it is
    /// due, ISO 8601 in UTC.
    public var due: String?

    /// The entry for `result` of sharing `items`, finished at `date`.
    public init(result: ActivityResult, activity: ActivityType, items: [ShareItem], date: Date) {
        (id, time) = HistoryEntry.stamp(date)
        self.activity = activity.rawValue
        outcome = result.outcome.rawValue
        self.items = items.map(Item.init)
        recipients = result.recipients
        returned = result.returnedItems.map { item in
            let text: String
            switch item {
            case .text(let value): text = value
            case .url(let url): text = url.absoluteString
            case .image(let file), .file(let file): text = file.path?.path ?? file.name
            }
            return HistoryEntry.cut(text)
        }
        error = result.error?.code
        reason = result.error.map { HistoryEntry.cut($0.message) }
        undo = result.undo.isEmpty ? nil : result.undo
        due = result.waitsUntil?.formatted(.iso8601)
    }

    /// `text`, cut to 200 characters.
    private static func cut(_ text: String) -> String { text.count > 200 ? String(text.prefix(199)) + "…" : text }

    /// The entry that records taking back `entry`: `what` says what was done.
    public init(undoing entry: HistoryEntry, done actions: [UndoAction], what: [String], date: Date) {
        (id, time) = HistoryEntry.stamp(date)
        activity = entry.activity
        outcome = "undone"
        items = []
        recipients = []
        returned = what
        undoes = entry.id
        undid = actions
    }

    /// When the share finished.
    public var date: Date? { try? Date(time, strategy: .iso8601) }

    /// When a share that waits is due, if it is one.
    public var dueDate: Date? { due.flatMap { try? Date($0, strategy: .iso8601) } }

    /// The undo actions of this entry not done yet, given every entry of the history.
    public func pendingUndo(in entries: [HistoryEntry]) -> [UndoAction] {
        let done = entries.filter { $0.undoes == id }.flatMap { $0.undid ?? [] }
        return (undo ?? []).filter { !done.contains($0) }
    }

    /// A new entry's id (the time and a random suffix) and its time.
    private static func stamp(_ date: Date) -> (id: String, time: String) {
        var generator = SystemRandomNumberGenerator()
        let time = date.formatted(.iso8601)
        return (time.filter { $0 != "-" && $0 != ":" } + "-" + String(generator.next() as UInt16, radix: 16), time)
    }
}

extension HistoryEntry.Item {
    init(_ item: ShareItem) {
        switch item {
        case .text(let text): self.init(kind: "string", name: nil, type: nil, size: Int64(text.count))
        case .url(let url): self.init(kind: "url", name: url.absoluteString, type: nil, size: nil)
        case .image(let file): self.init(kind: "image", name: file.name, type: file.contentType, size: file.size)
        case .file(let file): self.init(kind: "file", name: file.name, type: file.contentType, size: file.size)
        }
    }
}

/// The share history: `$XDG_STATE_HOME/share/history.jsonl`, one JSON
/// object a line.
///
/// Each entry is one `write` to a file opened for appending, so runs that
/// finish at once never interleave; a run killed in the middle of its
/// write leaves a torn last line, which reading skips. Entries older than
/// `keep` are dropped when one is appended (the file rewritten atomically).
public struct ShareHistory: Sendable {
    /// How long entries are kept.
    public enum Keep: Sendable, Equatable {
        /// No history is written.
        case off
        /// Entries older than this many days are dropped.
        case days(Int)

        /// Reads `90d`, `12w`, `6m`, `1y` or `off`.
        public init?(_ text: String) {
            let text = text.trimmingWhitespace().lowercased()
            if text == "off" { self = .off; return }
            guard let unit = text.last, let number = Int(text.dropLast()), number > 0, number < 100_000 else { return nil }
            switch unit {
            case "d": self = .days(number)
            case "w": self = .days(number * 7)
            case "m": self = .days(number * 30)
            case "y": self = .days(number * 365)
            default: return nil
            }
        }
    }

    /// The file.
    public let path: String
    public let keep: Keep

    /// The history in `stateHome` (`$XDG_STATE_HOME/share`).
    public init(stateHome: String, keep: Keep = .days(90)) {
        path = stateHome + "/history.jsonl"
        self.keep = keep
    }

    /// Appends `entry`, then drops entries past `keep`. With the history
    /// off nothing is written, and the copies an undo would have needed
    /// are removed at once.
    ///
    /// Appends and prunes hold a lock (`history.lock` beside the file):
    /// a prune replaces the file, and a line appended meanwhile to the old
    /// one would be lost. Appending, not rewriting, keeps every line as it
    /// was, readable or not.
    public func append(_ entry: HistoryEntry, now: Date = Date()) throws(FileReplaceError) {
        guard case .days = keep, let line = ShareHistory.line(entry) else {
            ShareHistory.removeBackups(of: entry)
            return
        }
        if let failure = LocalFiles.createFolders(PathText.parent(of: path)) {
            throw FileReplaceError("cannot write \(path): \(failure.reason)")
        }
        do throws(FileLockError<FileReplaceError>) {
            try FileLock.holding(path + ".lock") { () throws(FileReplaceError) in
                let descriptor = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
                guard descriptor >= 0 else { throw FileReplaceError("cannot write \(path): \(FileError(code: errno).reason)") }
                defer { close(descriptor) }
                // After a torn last line (a run killed while writing), start on a line of its own.
                var last: UInt8 = 0x0A
                let size = lseek(descriptor, 0, SEEK_END)
                if size > 0 { _ = pread(descriptor, &last, 1, size - 1) }
                do throws(FileError) { try LocalFiles.writeAll(last == 0x0A ? line : [0x0A] + line, to: descriptor) } catch {
                    throw FileReplaceError("cannot write \(path): \(error.reason)")
                }
                // The entry is written; a prune that fails is tried again at the next append.
                prune(now: now)
            }
        } catch {
            switch error {
            case .unlocked(let failure): throw FileReplaceError("cannot lock \(path).lock: \(failure.reason)")
            case .body(let failure): throw failure
            }
        }
    }

    /// Removes the copies kept for undoing `entry` (a contact's card as it was).
    static func removeBackups(of entry: HistoryEntry) {
        for action in entry.undo ?? [] {
            if let backup = action.backup { unlink(backup) }
        }
    }

    /// An entry as one line of JSON.
    private static func line(_ entry: HistoryEntry) -> [UInt8]? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(entry)).map { Array($0) + [0x0A] }
    }

    /// Every readable entry, oldest first; torn or foreign lines are skipped.
    public func entries() -> [HistoryEntry] { (try? read())?.entries ?? [] }

    /// Every readable entry, oldest first, and the numbers of the lines
    /// that are not entries (torn, foreign or damaged: kept in the file).
    public func read() throws(FileReplaceError) -> (entries: [HistoryEntry], unreadable: [Int]) {
        let decoder = JSONDecoder()
        var entries: [HistoryEntry] = [], unreadable: [Int] = []
        for line in try file.lines() {
            if let entry = try? decoder.decode(HistoryEntry.self, from: Data(line.bytes)) { entries.append(entry) } else { unreadable.append(line.number) }
        }
        return (entries, unreadable)
    }

    /// The warning for the lines that are not entries, if any.
    public func unreadableWarning(_ numbers: [Int]) -> String? { file.skipped(numbers, expected: "a history entry") }

    private var file: LineFile { LineFile(path: path, name: "the history") }

    /// Removes the history, and the copies kept for its undos.
    public func forget() throws(FileReplaceError) {
        for entry in entries() { ShareHistory.removeBackups(of: entry) }
        if unlink(path) != 0 && errno != ENOENT { throw FileReplaceError("cannot remove \(path): \(FileError(code: errno).reason)") }
    }

    /// Drops entries older than `keep`, when the oldest is, and the copies
    /// kept for their undos. Lines that are not entries of this version
    /// (a newer share's, or foreign) are kept as they are; only lines whose
    /// time says they are old go.
    private func prune(now: Date) {
        guard case .days(let days) = keep,
              case .success(let bytes) = LocalFiles.contents(ofFile: path, limit: 64 << 20) else { return }
        struct Stamp: Decodable { var time: String }
        let cutoff = now.addingTimeInterval(-Double(days) * 86_400)
        let decoder = JSONDecoder()
        func isOld(_ line: ArraySlice<UInt8>) -> Bool {
            guard let stamp = try? decoder.decode(Stamp.self, from: Data(line)),
                  let date = try? Date(stamp.time, strategy: .iso8601) else { return false }
            return date < cutoff
        }
        let lines = bytes.split(separator: 0x0A)
        guard lines.contains(where: isOld) else { return }
        var kept: [UInt8] = []
        for line in lines {
            if isOld(line) {
                if let entry = try? decoder.decode(HistoryEntry.self, from: Data(line)) { ShareHistory.removeBackups(of: entry) }
            } else {
                kept += line + [0x0A]
            }
        }
        try? LocalFiles.replace(path, with: kept)
    }
}
