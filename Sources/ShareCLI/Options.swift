import ShareActivities
import ShareCore
import ShareMail

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
public struct Options: Sendable, Equatable {
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
        /// `--flush`: deliver the outbox.
        case flush
        /// `--resume`: reopen the unfinished compose screen.
        case resume
        /// `--reading-list`: print the reading list.
        case readingList
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

        /// The flag that chose the mode, for messages.
        var flag: String? {
            switch self {
            case .pick: nil
            case .list: "--list"
            case .explain: "--explain"
            case .activity: "--activity"
            case .help: "--help"
            case .version: "--version"
            case .flush: "--flush"
            case .resume: "--resume"
            case .readingList: "--reading-list"
            case .listTypes: "--list-types"
            case .history: "--history"
            case .forget: "--forget"
            case .undo: "--undo"
            case .completions: "--completions"
            case .complete: "--complete"
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
    /// Mail's options: recipients, sender, HTML, send or save.
    public var mail = MailRequest()
    /// `--contact NAME|UID`: Assign to Contact's contact.
    public var contact: String?
    /// Print's options: `--printer`, `--copies`, `--pages`, `--sides`.
    public var print = PrintRequest()
    /// Nearby's options: `--bind`, `--keep`, `--timeout`.
    public var nearby = NearbyRequest()
    /// `--limit N`: how many history entries `--history` prints.
    public var limit: Int?

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
                    do { type = try ActivityType(parsing: value) } catch { throw UsageError("--activity: \(error)") }
                    try setMode(.activity(type), name)
                case "--config": options.configPath = value
                case "--to": options.mail.to.append(value)
                case "--cc": options.mail.cc.append(value)
                case "--bcc": options.mail.bcc.append(value)
                case "--from": options.mail.from = value
                case "--body": options.items.append(.text(value))
                case "--body-file": options.items.append(.bodyFile(value))
                case "--attach": options.items.append(.file(value))
                case "--contact":
                    guard !value.trimmingWhitespace().isEmpty else { throw UsageError(Localization.text("--contact needs a name, an address or a UID")) }
                    options.contact = value
                case "--printer":
                    guard !value.isEmpty, !value.contains(where: { $0 == "/" || $0 == "#" || $0 == " " || $0.asciiValue.map { $0 < 0x20 } == true }) else {
                        throw UsageError(Localization.text("--printer: '%@' is not a printer name (no spaces, '/' or '#'); `lpstat -e` lists them", value))
                    }
                    options.print.printer = value
                case "--copies":
                    guard let copies = PrintRequest.copies(value) else {
                        throw UsageError(Localization.text("--copies takes a number from 1 to 999, not '%@'", value))
                    }
                    options.print.copies = copies
                case "--pages":
                    guard PrintRequest.isPageRange(value) else {
                        throw UsageError(Localization.text("--pages takes pages and ranges such as 1-3,7 or 5-, not '%@'", value))
                    }
                    options.print.pages = value
                case "--sides":
                    guard let sides = PrintRequest.Sides(rawValue: value) else { throw UsageError(Localization.text("--sides takes one, two or two-short-edge, not '%@'", value)) }
                    options.print.sides = sides
                case "--bind":
                    guard !value.trimmingWhitespace().isEmpty else { throw UsageError(Localization.text("--bind needs an address or an interface's name")) }
                    options.nearby.bind = value
                case "--timeout":
                    guard let seconds = NearbyRequest.timeout(value) else {
                        throw UsageError(Localization.text("--timeout takes whole seconds from 1 to 86400, not '%@'", value))
                    }
                    options.nearby.timeout = seconds
                case "--limit":
                    guard let limit = Int(value), limit > 0 else { throw UsageError(Localization.text("--limit takes a number of entries above 0, not '%@'", value)) }
                    options.limit = limit
                case "--completions":
                    guard Completions.shells.contains(value) else {
                        throw UsageError(Localization.text("--completions takes %@, not '%@'", Completions.shells.joined(separator: ", "), value))
                    }
                    try setMode(.completions(value), name)
                case "--complete":
                    guard Completions.kinds.contains(value) else {
                        throw UsageError(Localization.text("--complete takes %@, not '%@'", Completions.kinds.joined(separator: ", "), value))
                    }
                    try setMode(.complete(value), name)
                default: break
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
            case "--html": options.mail.html = true
            case "--keep": options.nearby.keep = true
            case "--send", "--save-draft":
                let mode: MailRequest.Mode = name == "--send" ? .send : .saveDraft
                if options.mail.mode != .compose && options.mail.mode != mode {
                    throw UsageError(Localization.text("--send and --save-draft cannot be used together"))
                }
                options.mail.mode = mode
            case "--flush": try setMode(.flush, name)
            case "--resume": try setMode(.resume, name)
            case "--reading-list": try setMode(.readingList, name)
            case "--history": try setMode(.history, name)
            case "--forget": try setMode(.forget, name)
            case "--undo": try setMode(.undo, name)
            case "--version": options.mode = .version; return options
            case "--help": options.mode = .help; return options
            default: break
            }
        }
        if options.mail.mode != .compose {
            switch options.mode {
            case .pick: options.mode = .activity(.mail)
            case .activity(.mail): break
            default:
                throw UsageError("--send and --save-draft go with --activity mail (or alone), not with \(modeFlag ?? "this mode")")
            }
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
                throw UsageError("\(spec.name) is an option of \(owner.rawValue) (--activity \(owner.rawValue)), not of \(type.rawValue)")
            default:
                throw UsageError("\(spec.name) is an option of \(owner.rawValue) (--activity \(owner.rawValue)); it does nothing with \(options.mode.flag ?? "this mode")")
            }
        }
        return options
    }

    /// A comma list of activity types, each checked.
    static func typeList(_ value: String, option: String) throws(UsageError) -> [ActivityType] {
        var types: [ActivityType] = []
        for word in value.split(separator: ",") {
            let trimmed = word.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            do { types.append(try ActivityType(parsing: trimmed)) } catch { throw UsageError("\(option): \(error)") }
        }
        if types.isEmpty { throw UsageError("\(option) needs at least one activity type") }
        return types
    }
}

/// Bad usage: the message names the problem; `share` exits 2.
public struct UsageError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what is valid.
    public var message: String

    /// Creates a usage error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
