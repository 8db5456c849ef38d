import ShareActivities
import ShareCore

/// Every option of share, in the order `--help` lists them: the command
/// line's own (items, choosing, history, other) around the options before
/// sharing (``SharingOptions/options``) and those the system activities
/// declare (``SystemActivities/options``), so the parser,
/// `--help`, the man page and the completions are made from one list.
public enum OptionTable {
    public static let all: [OptionSpec] = leading + SharingOptions.options + SystemActivities.options + trailing

    /// The items and how activities are chosen.
    static let leading: [OptionSpec] = [
        // Items
        OptionSpec("--text", value: "TEXT", repeatable: true, group: .items, help: "share TEXT as text (repeatable)"),
        OptionSpec("--url", value: "URL", repeatable: true, group: .items, help: "share URL as a URL (repeatable)"),
        OptionSpec("--file", value: "PATH", repeatable: true, group: .items, help: "share PATH as a file (repeatable)", values: .files),
        OptionSpec("--subject", value: "TEXT", group: .items, help: "subject offered to activities (Mail's subject line)"),
        OptionSpec("--title", value: "TEXT", group: .items, help: "title of the preview header"),
        // Choosing activities
        OptionSpec("--exclude", value: "TYPE,...", repeatable: true, group: .choosing,
                   help: "never show these activity types (repeatable)", values: .activityTypes),
        OptionSpec("--only", value: "TYPE,...", repeatable: true, group: .choosing,
                   help: "show only these activity types (repeatable)", values: .activityTypes),
        OptionSpec("--activity", value: "TYPE", group: .choosing, help: "skip the picker and start TYPE", values: .activityTypes),
        OptionSpec("--list", group: .choosing, help: "print the eligible activities: TYPE<TAB>TITLE per line"),
        OptionSpec("--explain", group: .choosing, help: "print every activity, eligible or not, and why"),
        OptionSpec("--json", group: .choosing, help: "JSON for --list, --explain and --reading-list; otherwise print the completion object on stdout when done",
                   manual: "JSON for --list and --explain (an array of {type, title, category, eligible, reason, detail}) and --reading-list; otherwise print the completion object on standard output when done"),
        OptionSpec("--list-types", group: .choosing, help: "print every activity type known here, system and plugins, one a line"),
    ]

    /// The history and the rest.
    static let trailing: [OptionSpec] = [
        OptionSpec("--history", group: .history,
                   help: "print the share history, newest first (with --json: JSON)",
                   manual: "print the share history, newest first: when, the activity, how it ended, the items (names, types and sizes, never contents), the recipients and what the activity handed back; with --json, an array of the entries as they are stored"),
        OptionSpec("--limit", value: "N", group: .history, help: "with --history: only the newest N entries"),
        OptionSpec("--undo", group: .history, help: "take back the last share (or the history entry ID after it) where the world allows",
                   manual: "take back the last share, or the history entry whose ID follows: remove a saved picture (if unchanged), put a contact's card back as it was (if unchanged since), remove a reading-list entry, cancel a print job still queued; a sent message cannot be unsent, and share says so"),
        OptionSpec("--forget", group: .history, help: "clear the share history"),
        // Other
        OptionSpec("--completions", value: "SHELL", group: .other, help: "print a completion script for bash, zsh or fish",
                   values: .words(["bash", "zsh", "fish"])),
        OptionSpec("--complete", value: "KIND", group: .other,
                   // Written out, not made from Completions.kinds, so that the catalogs have it (a test checks it names every kind).
                   help: "print completions for scripts: addresses PREFIX, printers, contacts, places or devices",
                   values: .words(Completions.kinds)),
        OptionSpec("--integration", value: "NAME", group: .other,
                   // Written out, not made from Integrations.names, so that the catalogs have it.
                   help: "print what shares from ranger, nnn, lf, vifm, vim, nvim or tmux; mailto makes share the mailto: handler",
                   manual: "print the lines (or the plugin) that share from NAME, the same as the file make install puts in PREFIX/share/share/integrations: ranger, nnn, lf, vifm, vim, nvim or tmux (see INTEGRATIONS); mailto finds share-mail.desktop (or writes it into $XDG_DATA_HOME/applications) and makes it the mailto: handler with xdg-mime",
                   values: .words(Integrations.names)),
        OptionSpec("--portal-request", value: "SOCKET", group: .other,
                   help: "open the compose screen of the Email portal request share-portal hands over on SOCKET",
                   manual: "open Mail's compose screen with the fields and attachments of the desktop's Email portal request that share-portal hands over on the Unix socket SOCKET, and answer it with the result; share-portal starts share so, in the terminal of [portal] terminal (see INTEGRATIONS)",
                   values: .files),
        OptionSpec("--config", value: "PATH", group: .other, help: "read settings from PATH instead of $XDG_CONFIG_HOME/share/config",
                   values: .files),
        OptionSpec("--no-color", group: .other, help: "draw without colours (NO_COLOR is honoured too)"),
        OptionSpec("--version", group: .other, help: "print the version"),
        OptionSpec("--help", short: "h", group: .other, help: "print this help"),
    ]

    /// The groups in the order `--help` and the man page list them.
    public static var groups: [OptionSpec.Group] {
        var seen: [OptionSpec.Group] = []
        for spec in all where !seen.contains(spec.group) { seen.append(spec.group) }
        return seen
    }

    /// The option named `name` (`--to`, or `-h`).
    public static func spec(_ name: String) -> OptionSpec? {
        if name.count == 2, name.hasPrefix("-"), let short = name.last {
            return all.first { $0.short == short }
        }
        return all.first { $0.name == name }
    }

    /// The known option nearest to a mistyped `name`, when it is near
    /// enough to be meant (at most a third of its letters off).
    public static func suggestion(for name: String) -> String? {
        let scored = all.map { ($0.name, editDistance(name, $0.name)) }.min { $0.1 < $1.1 }
        guard let (best, distance) = scored, distance <= max(1, best.count / 3) else { return nil }
        return best
    }

    /// Levenshtein distance, in characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for (i, left) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, right) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
