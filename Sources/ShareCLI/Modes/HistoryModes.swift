import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// `--history`, `--forget` and `--undo`: the share history read, cleared
/// and taken back.
extension ShareCommand {
    /// `--forget`: the history cleared.
    static func forget(_ history: ShareHistory, console: Console) -> Int32 {
        do { try history.forget() } catch {
            console.error("share: \(TerminalText.sanitized(error.description))\n")
            return ExitCode.failed
        }
        return ExitCode.completed
    }

    /// `--history [--limit N] [--json]`: newest first; JSON is the entries as
    /// stored. A share that waits until a time still to come (a message
    /// scheduled) and not undone shows as `waiting`, with its time.
    static func printHistory(_ history: ShareHistory, options: Options, console: Console, now: Date) -> Int32 {
        let read: (entries: [HistoryEntry], unreadable: [Int])
        do { read = try history.read() } catch {
            console.error("share: \(TerminalText.sanitized(error.description))\n")
            return ExitCode.failed
        }
        if let warning = history.unreadableWarning(read.unreadable) { warn(warning, console) }
        var entries = Array(read.entries.reversed())
        if let limit = options.limit { entries = Array(entries.prefix(limit)) }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(entries)) ?? Data("[]".utf8)
            console.output(String(decoding: data, as: UTF8.self) + "\n")
            return ExitCode.completed
        }
        if entries.isEmpty {
            console.error("share: " + Localization.text("the history is empty (%@)", history.path) + "\n")
            return ExitCode.completed
        }
        var text = ""
        let undone = Set(read.entries.compactMap(\.undoes))
        for entry in entries {
            let when = entry.date.map(localMinute) ?? String(entry.time.prefix(16))
            let items = entry.items.map { item -> String in
                switch item.kind {
                case "string": return "text (\(item.size ?? 0) characters)"
                case "url": return item.name ?? "a URL"
                default: return (item.name ?? "a file") + (item.size.map { " (\(ByteCount.words($0)))" } ?? "")
                }
            }
            let waiting = entry.dueDate.flatMap { $0 > now && !undone.contains(entry.id) ? $0 : nil }
            var line = "\(when)  \(pad(entry.activity, 18)) \(pad(waiting == nil ? entry.outcome : "waiting", 9)) " + items.joined(separator: ", ")
            if !entry.recipients.isEmpty { line += " → " + entry.recipients.joined(separator: ", ") }
            if !entry.returned.isEmpty { line += " ⇒ " + entry.returned.joined(separator: ", ") }
            if let waiting {
                line += " ⏳ until " + localMinute(waiting)
            } else if let error = entry.error {
                line += " ✗ " + error + (entry.reason.map { ": " + $0 } ?? "")
            }
            text += TerminalText.sanitized(line) + "  [\(entry.id)]\n"
        }
        console.output(text)
        return ExitCode.completed
    }

    /// `--undo [ID]`: takes back the entry `ID`, else the newest one with
    /// something left that can be taken back (passing over, and naming,
    /// newer shares that never can: a sent message); records what was done
    /// as an entry of its own (what was refused may be tried again).
    static func undo(_ history: ShareHistory, options: Options, console: Console) -> Int32 {
        let entries = history.entries()
        let words = options.items.compactMap { item -> String? in if case .argument(let word) = item { word } else { nil } }
        guard words.count <= 1, options.items.count == words.count else {
            return usage(Localization.text("--undo takes at most one history entry ID (share --history lists them)"), console)
        }
        let entry: HistoryEntry
        if let id = words.first {
            guard let found = entries.first(where: { $0.id == id && $0.undoes == nil }) else {
                return usage(Localization.text("--undo: no share %@ in the history (share --history lists them)", id), console)
            }
            entry = found
        } else {
            // The newest share with a step that may work; newer ones that
            // cannot be taken back at all (a sent message) are passed over, and named.
            let shares = entries.filter { $0.undoes == nil && !$0.pendingUndo(in: entries).isEmpty }
            let index = shares.lastIndex { share in share.pendingUndo(in: entries).contains { !$0.isImpossible } }
            let found = index.map { shares[$0] }
            for share in shares[(index.map { $0 + 1 } ?? 0)...].suffix(3).reversed() {
                let reason = share.pendingUndo(in: entries).compactMap(\.impossibleReason).first ?? ""
                console.error("share: " + TerminalText.sanitized(Localization.text("passed over %@ of %@ [%@]: %@", share.activity,
                    share.date.map(localMinute) ?? share.time, share.id, reason)) + "\n")
            }
            guard let found else {
                console.error("share: " + Localization.text("there is no share in the history to undo") + "\n")
                return ExitCode.failed
            }
            entry = found
            console.error("share: " + TerminalText.sanitized(Localization.text("undoing %@ of %@ [%@]", entry.activity,
                entry.date.map(localMinute) ?? entry.time, entry.id)) + "\n")
        }
        let pending = entry.pendingUndo(in: entries)
        guard !pending.isEmpty else {
            let undone = entries.contains { $0.undoes == entry.id }
            console.error("share: \(entry.activity) (\(entry.id), \(entry.outcome)) "
                + (undone ? "was undone already\n" : "left nothing share can take back\n"))
            return ExitCode.failed
        }
        var done: [UndoAction] = []
        var said: [String] = []
        var refused = false
        for action in pending {
            switch Undo.perform(action, environment: console.environment) {
            case .success(let what):
                done.append(action)
                said.append(what)
                console.output(TerminalText.sanitized(what) + "\n")
            case .failure(let refusal):
                refused = true
                console.error("share: cannot undo \(entry.activity) (\(entry.id)): \(TerminalText.sanitized(refusal.description))\n")
            }
        }
        if !done.isEmpty {
            do { try history.append(HistoryEntry(undoing: entry, done: done, what: said, date: Date())) } catch {
                warn(Localization.text("the share history was not written: %@", error.description), console)
            }
        }
        return refused ? ExitCode.failed : ExitCode.completed
    }

    /// `2026-12-02 15:04` in the local time zone.
    static func localMinute(_ date: Date) -> String { DateText.formatted(date, "%Y-%m-%d %H:%M", utc: false) }
}
