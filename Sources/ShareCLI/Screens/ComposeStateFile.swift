import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareMail
import ShareSupport
import ShareTerminal
import Synchronization

/// `$XDG_STATE_HOME/share/compose.json`, written atomically on every autosave.
struct ComposeStateFile: Sendable {
    let path: String

    init(locations: Locations) {
        path = locations.stateHome + "/compose.json"
    }

    func write(activity: ActivityType, values: [String: String], draft: String?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Saved(activity: activity.rawValue, values: values, draft: draft)) else { return }
        let directory = PathText.parent(of: path)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        try? LocalFiles.replace(path, with: Array(data))
    }

    /// The saved values and autosave draft, if a compose screen was left unfinished.
    func read() -> (activity: String, values: [String: String], draft: String?)? {
        guard let data = FileManager.default.contents(atPath: path),
              let saved = try? JSONDecoder().decode(Saved.self, from: data) else { return nil }
        return (saved.activity, saved.values, saved.draft)
    }

    /// What the file holds: {"activity": …, "values": {…}, "draft": …}.
    private struct Saved: Codable {
        var activity: String
        var values: [String: String]
        var draft: String?
    }

    func clear() { unlink(path) }
}
