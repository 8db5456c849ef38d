import ShareActivities
import ShareCore
import ShareSupport

/// One item as given on the command line, in the order given.
public enum ItemArgument: Sendable, Equatable {
    /// A positional `ITEM`: path, URL or `file:` URL.
    case argument(String)
    /// `--text TEXT`.
    case text(String)
    /// `--url URL`.
    case url(String)
    /// `--file PATH`.
    case file(String)
    /// `-`: standard input.
    case standardInput
    /// `--body-file PATH`: the file's UTF-8 text, as a text item.
    case bodyFile(String)
}

/// What `share` was asked to do, parsed from argv (SPEC §4).
public struct Options: Sendable {
    /// What to do once the items are known.
    public enum Mode: Sendable, Equatable {
        /// Show the picker (the default).
        case pick
        /// `--list`: print eligible activities.
        case list
        /// `--explain`: print every activity and why it is hidden.
        case explain
        /// `--activity TYPE`: run one activity without the picker.
        case activity(ActivityType)
        /// `--help`.
        case help
        /// `--version`.
        case version
        /// A mode an activity declares (`--flush`, `--resume`, `--reading-list`), by its flag.
        case activityMode(String)
        /// `--list-types`: every activity type known here, one a line.
        case listTypes
        /// `--history`: print the share history.
        case history
        /// `--forget`: clear the share history.
        case forget
        /// `--undo [ID]`: take back a share.
        case undo
        /// `--completions SHELL`: the completion script for a shell.
        case completions(String)
        /// `--complete KIND [PREFIX]`: completions for scripts.
        case complete(String)
        /// `--integration NAME`: what shares from a file manager, an editor, tmux or mail links.
        case integration(String)
        /// `--portal-request SOCKET`: the compose screen of a share-portal request.
        case portalRequest(String)

        /// The flag that chose the mode, for messages.
        var flag: String? {
            switch self {
            case .pick: nil
            case .list: "--list"
            case .explain: "--explain"
            case .activity: "--activity"
            case .help: "--help"
            case .version: "--version"
            case .activityMode(let flag): flag
            case .listTypes: "--list-types"
            case .history: "--history"
            case .forget: "--forget"
            case .undo: "--undo"
            case .completions: "--completions"
            case .complete: "--complete"
            case .integration: "--integration"
            case .portalRequest: "--portal-request"
            }
        }
    }

    public var mode: Mode = .pick
    public var items: [ItemArgument] = []
    public var subject: String?
    public var title: String?
    public var excluded: [ActivityType] = []
    public var only: [ActivityType]?
    public var json = false
    public var noColor = false
    public var configPath: String?
    /// The activities' options as given, and `--activity`'s type.
    public var arguments = ActivityArguments()
    /// What each activity makes of its options (``SystemActivities/requests(_:)``).
    public var requests = ActivityRequests()
    /// `--limit N`: how many history entries `--history` prints.
    public var limit: Int?
    /// The options before sharing (`--no-location`, `--resize` …), before the config's `[options]`.
    public var sharing = SharingOptions()

    public init() {}

    /// The options that take a value (`--to ADDR`), from ``OptionTable``.
    public static var valueOptions: [String] { OptionTable.all.filter(\.takesValue).map(\.name) }
    /// The options without a value, from ``OptionTable``.
    public static var flagOptions: [String] { OptionTable.all.filter { !$0.takesValue }.map(\.name) }

    /// Parses the arguments after the program name.
    /// - Throws: ``UsageError`` naming the bad word and listing the valid ones.
    public static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var modeFlag: String?
        var index = 0
        var onlyItems = false

        func setMode(_ mode: Mode, _ flag: String) throws(UsageError) {
            if let modeFlag, modeFlag != flag {
                throw UsageError(Localization.text("%@ and %@ cannot be used together", modeFlag, flag))
            }
            if case .activity = options.mode, flag == "--activity" {
                throw UsageError(Localization.text("--activity can be given only once"))
            }
            modeFlag = flag
            options.mode = mode
        }

        var given: [OptionSpec] = []
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyItems || word == "-" || !word.hasPrefix("-") {
                if word == "-" {
                    if options.items.contains(.standardInput) { throw UsageError(Localization.text("'-' (standard input) can be given only once")) }
                    options.items.append(.standardInput)
                } else {
                    options.items.append(.argument(word))
                }
                continue
            }
            if word == "--" { onlyItems = true; continue }

            var name = word
            var inlineValue: String?
            if let equals = word.firstIndex(of: "="), word.hasPrefix("--") {
                name = String(word[..<equals])
                inlineValue = String(word[word.index(after: equals)...])
            }
            guard let spec = OptionTable.spec(name) else {
                let hint = OptionTable.suggestion(for: name).map { Localization.text("did you mean %@? (share --help lists every option)", $0) }
                    ?? Localization.text("valid options: %@", OptionTable.all.map(\.name).sorted().joined(separator: ", ") + ", -h")
                throw UsageError(Localization.text("unknown option '%@'; %@", name, hint))
            }
            name = spec.name
            given.append(spec)

            if spec.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(Localization.text("%@ needs a value", name)) }
                    value = arguments[index]
                    index += 1
                }
                switch name {
                case "--text": options.items.append(.text(value))
                case "--url": options.items.append(.url(value))
                case "--file": options.items.append(.file(value))
                case "--subject": options.subject = value
                case "--title": options.title = value
                case "--exclude": options.excluded += try typeList(value, option: name)
                case "--only": options.only = (options.only ?? []) + (try typeList(value, option: name))
                case "--activity":
                    let type: ActivityType
                    do { type = try ActivityType(parsing: value) } catch { throw unknownType(error, option: name) }
                    try setMode(.activity(type), name)
                case "--config": options.configPath = value
                case "--limit":
                    guard let limit = Int(value), limit > 0 else { throw UsageError(Localization.text("--limit takes a number of entries above 0, not '%@'", value)) }
                    options.limit = limit
                case "--completions":
                    guard Completions.shells.contains(value) else {
                        throw UsageError(Localization.text("--completions takes %@, not '%@'", Completions.shells.joined(separator: ", "), value))
                    }
                    try setMode(.completions(value), name)
                case "--integration":
                    guard Integrations.names.contains(value) else {
                        throw UsageError(Localization.text("--integration takes %@, not '%@'", Integrations.names.joined(separator: ", "), value))
                    }
                    try setMode(.integration(value), name)
                case "--portal-request":
                    try setMode(.portalRequest(value), name)
                case "--complete":
                    guard Completions.kinds.contains(value) else {
                        throw UsageError(Localization.text("--complete takes %@, not '%@'", Completions.kinds.joined(separator: ", "), value))
                    }
                    try setMode(.complete(value), name)
                default:
                    // An activity's option: its value kept for the activity's request, an item where it stands for one.
                    switch spec.item {
                    case .text?: options.items.append(.text(value))
                    case .file?: options.items.append(.file(value))
                    case .textOfFile?: options.items.append(.bodyFile(value))
                    case nil: break
                    }
                    options.arguments.given.append((name, value))
                }
                continue
            }
            if inlineValue != nil {
                throw UsageError(Localization.text("%@ takes no value", name))
            }
            switch name {
            case "--list": try setMode(.list, name)
            case "--explain": try setMode(.explain, name)
            case "--list-types": try setMode(.listTypes, name)
            case "--json": options.json = true
            case "--no-color": options.noColor = true
            case "--history": try setMode(.history, name)
            case "--forget": try setMode(.forget, name)
            case "--undo": try setMode(.undo, name)
            case "--version": options.mode = .version; return options
            case "--help": options.mode = .help; return options
            default:
                if SystemActivities.mode(name) != nil {
                    try setMode(.activityMode(name), name)
                } else {
                    options.arguments.given.append((name, nil))
                }
            }
        }
        // An option that starts its activity (`--send`) does so without --activity.
        if options.mode == .pick, let starter = given.first(where: \.startsActivity), let owner = starter.activity {
            options.mode = .activity(owner)
        }
        if given.contains(where: { $0.name == "--draft" }) && options.mode != .activityMode("--resume") {
            throw UsageError(Localization.text("--draft goes with --resume"))
        }
        if options.limit != nil && options.mode != .history {
            throw UsageError(Localization.text("--limit goes with --history"))
        }
        // An activity's option goes with that activity, or with the picker.
        for spec in given {
            guard let owner = spec.activity else { continue }
            switch options.mode {
            case .pick: continue
            case .activity(let type) where type == owner || spec.alsoFor.contains(type): continue
            case .activity(let type):
                throw UsageError(Localization.text("%@ is an option of %@ (--activity %@), not of %@", spec.name, owner.rawValue, owner.rawValue,
                                                   type.rawValue))
            default:
                throw UsageError(Localization.text("%@ is an option of %@ (--activity %@); it does nothing with %@", spec.name, owner.rawValue,
                                                   owner.rawValue, options.mode.flag ?? ""))
            }
        }
        // The options before sharing go with a share: the picker, --activity, or --list and --explain (which ignore them).
        if let sharing = given.first(where: { SharingOptions.options.contains($0) }) {
            switch options.mode {
            case .pick, .activity, .list, .explain: break
            default:
                throw UsageError(Localization.text("%@ changes what is shared; it does nothing with %@", sharing.name, options.mode.flag ?? ""))
            }
        }
        options.sharing = try SharingOptions(arguments: options.arguments)
        if case .activity(let type) = options.mode { options.arguments.activity = type }
        options.requests = try SystemActivities.requests(options.arguments)
        return options
    }

    /// A comma list of activity types, each checked.
    static func typeList(_ value: String, option: String) throws(UsageError) -> [ActivityType] {
        var types: [ActivityType] = []
        for word in value.split(separator: ",") {
            let trimmed = word.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            do { types.append(try ActivityType(parsing: trimmed)) } catch { throw unknownType(error, option: option) }
        }
        if types.isEmpty { throw UsageError(Localization.text("%@ needs at least one activity type", option)) }
        return types
    }

    /// `--only: unknown activity type 'Mail'; valid types: …`, in the reader's
    /// language (the types as they are typed).
    static func unknownType(_ error: ActivityTypeError, option: String) -> UsageError {
        UsageError(Localization.text("%@: unknown activity type '%@'; valid types: %@, or a reverse-DNS name such as com.example.upload", option,
                                     error.word, ActivityType.system.map(\.rawValue).joined(separator: ", ")))
    }
}
