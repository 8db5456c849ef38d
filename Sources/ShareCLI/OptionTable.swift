import ShareCore

/// One option of the command line, declared once: the parser, `--help`,
/// the man page and the shell completions are all made from ``OptionTable``.
public struct OptionSpec: Sendable, Equatable {
    /// The part of `--help` and the man page an option is listed in.
    public enum Group: String, Sendable, CaseIterable {
        case items = "Items"
        case choosing = "Choosing activities"
        case mail = "Mail (--activity mail, or --send / --save-draft alone)"
        case print = "Print (--activity print; --printer skips the form)"
        case contact = "Assign to Contact (--activity assignToContact)"
        case nearby = "Nearby (--activity airDrop)"
        case readingList = "Reading list"
        case history = "History"
        case other = "Other"
    }

    /// What a shell offers for the option's value.
    public enum Values: Sendable, Equatable {
        /// Nothing to offer (free text, a number).
        case none
        /// Paths.
        case files
        /// Activity types: the system ones and the plugins' (`share --list-types`).
        case activityTypes
        /// Addresses from the address book (`share --complete addresses PREFIX`).
        case addresses
        /// CUPS destinations (`share --complete printers`).
        case printers
        /// Contacts of the vCard folder (`share --complete contacts`).
        case contacts
        /// These words.
        case words([String])
    }

    /// `--to`.
    public var name: String
    /// `h` for `-h`, if the option has a short form.
    public var short: Character?
    /// The value's name in the help (`ADDR`); `nil` for a flag.
    public var value: String?
    /// Whether it may be given more than once.
    public var repeatable: Bool
    /// Where it is listed.
    public var group: Group
    /// The activity it belongs to (`--printer` to print); given with
    /// `--activity` of another type, or with a mode that runs none, it is a
    /// usage error naming its activity.
    public var activity: ActivityType?
    /// Other activities the option serves too (`--to` is Message's recipients as well).
    public var alsoFor: [ActivityType]
    /// One line for `--help`.
    public var help: String
    /// The man page's text, when longer than the help line.
    public var manual: String?
    /// What a shell completes its value with.
    public var values: Values

    /// Declares an option.
    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, group: Group,
                activity: ActivityType? = nil, alsoFor: [ActivityType] = [], help: String, manual: String? = nil, values: Values = .none) {
        self.name = name
        self.short = short
        self.value = value
        self.repeatable = repeatable
        self.group = group
        self.activity = activity
        self.alsoFor = alsoFor
        self.help = help
        self.manual = manual
        self.values = values
    }

    /// Whether it takes a value.
    public var takesValue: Bool { value != nil }

    /// `--to ADDR`, `-h, --help`.
    public var synopsis: String {
        (short.map { "-\($0), " } ?? "") + name + (value.map { " " + $0 } ?? "")
    }
}

/// Every option of share, in the order `--help` lists them.
public enum OptionTable {
    public static let all: [OptionSpec] = [
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
        // Mail
        OptionSpec("--to", value: "ADDR", repeatable: true, group: .mail, activity: .mail, alsoFor: [.message],
                   help: "recipients (repeatable; comma lists ok); with --activity message, JIDs",
                   values: .addresses),
        OptionSpec("--cc", value: "ADDR", repeatable: true, group: .mail, activity: .mail, help: "copy recipients (repeatable)",
                   values: .addresses),
        OptionSpec("--bcc", value: "ADDR", repeatable: true, group: .mail, activity: .mail,
                   help: "blind copies: in the envelope, never in the sent headers", values: .addresses),
        OptionSpec("--from", value: "ADDR", group: .mail, activity: .mail, help: "send as this configured identity"),
        OptionSpec("--body", value: "TEXT", group: .mail, activity: .mail, alsoFor: [.message],
                   help: "body text (an item, first in the body); with --activity message, the message"),
        OptionSpec("--body-file", value: "PATH", group: .mail, activity: .mail, help: "body text from a UTF-8 file", values: .files),
        OptionSpec("--html", group: .mail, activity: .mail, help: "the body is HTML (sent with a plain-text part first)"),
        OptionSpec("--attach", value: "PATH", repeatable: true, group: .mail, activity: .mail, help: "attach a file (repeatable)",
                   values: .files),
        OptionSpec("--send", group: .mail, activity: .mail, help: "send without the compose screen"),
        OptionSpec("--save-draft", group: .mail, activity: .mail, help: "save to drafts without sending"),
        OptionSpec("--flush", group: .mail, help: "deliver the messages waiting in the outbox"),
        OptionSpec("--resume", group: .mail,
                   help: "reopen the compose screen left unfinished (after a crash, a kill or a closed terminal)"),
        // Print
        OptionSpec("--printer", value: "NAME", group: .print, activity: .print, help: "the CUPS destination (`lpstat -e` lists them)",
                   values: .printers),
        OptionSpec("--copies", value: "N", group: .print, activity: .print, help: "copies, 1 to 999 (default 1)"),
        OptionSpec("--pages", value: "RANGE", group: .print, activity: .print, help: "pages such as 1-3,7 or 5- (default all)"),
        OptionSpec("--sides", value: "SIDES", group: .print, activity: .print,
                   help: "one, two or two-short-edge (default the printer's)", values: .words(["one", "two", "two-short-edge"])),
        // Nearby
        OptionSpec("--bind", value: "ADDR|IFACE", group: .nearby, activity: .airDrop,
                   help: "serve on this address or interface (default: the one with the default route)"),
        OptionSpec("--keep", group: .nearby, activity: .airDrop, help: "keep serving after the first download, until Esc"),
        OptionSpec("--timeout", value: "SECONDS", group: .nearby, activity: .airDrop,
                   help: "give up (failed) when nobody has downloaded within SECONDS"),
        // Assign to Contact
        OptionSpec("--contact", value: "NAME|UID", group: .contact, activity: .assignToContact,
                   help: "the contact whose photo the image becomes: a full name, an address or a UID (else chosen in a form)",
                   values: .contacts),
        // Reading list
        OptionSpec("--reading-list", group: .readingList, help: "print the reading list, newest first (with --json: JSON)"),
        // History
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
                   help: "print completions for scripts: addresses PREFIX, printers or contacts",
                   values: .words(["addresses", "printers", "contacts"])),
        OptionSpec("--config", value: "PATH", group: .other, help: "read settings from PATH instead of $XDG_CONFIG_HOME/share/config",
                   values: .files),
        OptionSpec("--no-color", group: .other, help: "draw without colours (NO_COLOR is honoured too)"),
        OptionSpec("--version", group: .other, help: "print the version"),
        OptionSpec("--help", short: "h", group: .other, help: "print this help"),
    ]

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
