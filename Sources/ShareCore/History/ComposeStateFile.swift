import FoundationEssentials
import ShareSupport

/// `$XDG_STATE_HOME/share/compose.json`: the compose screens left
/// unfinished, one JSON object a line, the one saved last at the end.
///
/// Each run's screen keeps its own line (by `owner`), so that two share
/// processes composing at once keep both: a send or a discard removes only
/// its own line, and `--resume` reopens the one saved last, which then
/// belongs to the screen that reopened it. Changes hold the file's lock
/// (``LineFile``); a line that is not a saved screen is kept as it is.
public struct ComposeStateFile: Sendable {
    public let path: String
    /// Whose line this process writes: new for each run, or the one `--resume` reopened.
    public let owner: String

    public init(locations: Locations, owner: String = ComposeStateFile.newOwner()) {
        path = locations.stateHome + "/compose.json"
        self.owner = owner
    }

    private init(path: String, owner: String) {
        self.path = path
        self.owner = owner
    }

    /// A screen left unfinished: what was typed, and its autosaved draft.
    public struct Saved: Codable, Equatable, Sendable {
        public var owner: String?
        public var activity: String
        public var values: [String: String]
        public var draft: String?
    }

    /// Saves this run's screen, last, in place of what it saved before.
    public func write(activity: ActivityType, values: [String: String], draft: String?) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(Saved(owner: owner, activity: activity.rawValue, values: values, draft: draft)) else { return }
        _ = try? file.change { lines in
            (lines.filter { ComposeStateFile.saved($0)?.owner != owner }.map(\.bytes) + [Array(data)], ())
        }
    }

    /// The screen saved last, by any run (what `--resume` reopens).
    public func latest() -> Saved? {
        ((try? file.lines()) ?? []).reversed().lazy.compactMap(ComposeStateFile.saved).first
    }

    /// Every screen saved, the one saved last at the end.
    public func all() -> [Saved] {
        ((try? file.lines()) ?? []).compactMap(ComposeStateFile.saved)
    }

    /// Whether this run's screen is saved.
    public var holdsOwn: Bool {
        ((try? file.lines()) ?? []).contains { ComposeStateFile.saved($0)?.owner == owner }
    }

    /// The same file, writing as the run that saved `saved` (a screen reopened by `--resume`).
    public func adopting(_ saved: Saved) -> ComposeStateFile {
        ComposeStateFile(path: path, owner: saved.owner ?? "")
    }

    /// Removes this run's screen; the others' stay.
    public func clear() {
        _ = try? file.change { lines in
            let kept = lines.filter { ComposeStateFile.saved($0)?.owner != owner }
            return (kept.count == lines.count ? nil : kept.map(\.bytes), ())
        }
    }

    private var file: LineFile { LineFile(path: path, name: "the unfinished compose screens", limit: 16 << 20) }

    /// The saved screen on `line` (a file of an older version holds one, without an owner).
    private static func saved(_ line: LineFile.Line) -> Saved? {
        try? JSONDecoder().decode(Saved.self, from: Data(line.bytes))
    }

    /// An owner no other run has: 64 random bits.
    public static func newOwner() -> String {
        String(UInt64.random(in: .min ... .max), radix: 16)
    }
}
