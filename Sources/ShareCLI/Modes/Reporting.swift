import FoundationEssentials
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// How a run ends: its result recorded in the history, the completion
/// object, warnings and errors on standard error.
extension ShareCommand {
    /// Appends finished runs to the share history.
    struct Recorder: Sendable {
        let history: ShareHistory
        /// The items shared, summarised in each entry.
        let items: [ShareItem]

        /// Appends `result` when an activity ran; the reason when it could not.
        func record(_ result: ActivityResult) -> String? {
            guard let type = result.activityType else { return nil }
            do { try history.append(HistoryEntry(result: result, activity: type, items: items, date: Date())) } catch {
                return Localization.text("the share history was not written: %@", error.description)
            }
            return nil
        }
    }

    static func report(_ result: ActivityResult, options: Options, console: Console, record: Recorder? = nil,
                       sharing: SharingAdjuster? = nil) -> Int32 {
        // The changed copies are not needed once the activity has ended.
        defer { sharing?.removeCopies() }
        if let problem = record?.record(result) { warn(problem, console) }
        if options.json { console.output(result.json.serialized + "\n") }
        if let error = result.error { console.error("share: \(TerminalText.sanitized(error.message))\n") }
        for warning in result.warnings { warn(warning, console) }
        // What was done, in a line for the person: never on stdout (scripts), never with --json.
        if !options.json, result.completed, let summary = result.summary
            ?? (result.recipients.isEmpty ? nil : Localization.text("Sent to %@", result.recipientNames)) {
            console.error(TerminalText.sanitized(summary) + "\n")
        }
        // What the options before sharing changed ("Location removed from 2 photos"), once something went out.
        if !options.json, result.outcome != .cancelled, result.outcome != .failed, let changed = sharing?.summary {
            console.error(TerminalText.sanitized(changed) + "\n")
        }
        return result.exitCode
    }

    /// `share: warning: …` on standard error, in the reader's language.
    nonisolated static func warn(_ warning: String, _ console: Console) {
        console.error("share: " + TerminalText.sanitized(Localization.text("warning: %@", warning)) + "\n")
    }

    static func usage(_ message: String, _ console: Console) -> Int32 {
        console.error("share: \(TerminalText.sanitized(message))\n")
        return ExitCode.usage
    }
}
