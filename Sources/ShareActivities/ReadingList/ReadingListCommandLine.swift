import ShareCore
import ShareSupport

/// What a user can touch of the reading list from the command line:
/// `--reading-list`, its error codes and how an add is undone.
extension ReadingListActivity {
    public nonisolated static var modes: [ActivityMode] {
        [.of(ReadingListActivity.self, OptionSpec("--reading-list", group: OptionSpec.Group("Reading list"),
                                                  help: "print the reading list, newest first (with --json: JSON)")) { list, output in
            .exit(ReadingListActivity.print(atPath: list.path, output: output))
        }]
    }

    public nonisolated static var errorCodes: [String] { [ActivityError.Code.readingList, ActivityError.Code.alreadyListed] }

    public nonisolated static var undoSteps: [UndoStep] {
        [UndoStep("removeFromReadingList") { action, _ in
            guard let path = action["path"], let url = action["url"], let added = action["added"] else { return .failure(Undo.incomplete(action)) }
            return remove(url, added: added, fromListAt: path).mapError { UndoRefusal($0.description) }
        }]
    }

    /// `--reading-list`: newest first, `ADDED<TAB>TITLE<TAB>URL` a line, or
    /// JSON; a line that is not an entry is a warning on standard error.
    nonisolated static func print(atPath path: String, output: ModeOutput) -> Int32 {
        let entries: [ReadingListEntry]
        do {
            let list = try ReadingListActivity.read(atPath: path)
            entries = list.entries.reversed()
            if let warning = unreadableWarning(list.unreadable, path: path) { output.error("share: warning: \(output.shown(warning))\n") }
        } catch {
            output.error("share: \(output.shown(ErrorText.sentence(error)))\n")
            return ExitCode.failed
        }
        if output.json {
            output.output(JSONValue.array(entries.map { entry in
                .object([("added", .string(entry.added)), ("title", .string(entry.title)), ("url", .string(entry.url))])
            }).serialized + "\n")
        } else {
            output.output(entries.map { "\(output.shown($0.added))\t\(output.shown($0.title))\t\(output.shown($0.url))\n" }.joined())
        }
        return ExitCode.completed
    }
}

extension UndoAction {
    /// Remove the line of `url` added at `added` from the reading list at `path`.
    static func removeFromReadingList(path: String, url: String, added: String) -> UndoAction {
        UndoAction("removeFromReadingList", ["path": path, "url": url, "added": added])
    }
}
