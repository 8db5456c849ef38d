/// One option of the command line, declared once, by the activity it
/// belongs to or by the command line itself: the parser, `--help`, the man
/// page and the shell completions are all made from these declarations.
public struct OptionSpec: Sendable, Equatable {
    /// The part of `--help` and the man page an option is listed under: a
    /// heading, in the order of the options' first appearance.
    public struct Group: Sendable, Hashable {
        /// The heading (`Print (--activity print; --printer skips the form)`).
        public var title: String
        /// A group under `title`.
        public init(_ title: String) { self.title = title }

        /// The items to share (listed without a heading in `--help`).
        public static let items = Group("Items")
        /// Which activities are shown or run.
        public static let choosing = Group("Choosing activities")
        /// The share history.
        public static let history = Group("History")
        /// Everything else.
        public static let other = Group("Other")
    }

    /// What a shell offers for the option's value.
    public enum Values: Sendable, Equatable {
        /// Nothing to offer (free text, a number).
        case none
        /// Paths.
        case files
        /// Activity types: the system ones and the plugins' (`share --list-types`).
        case activityTypes
        /// What `share --complete KIND PREFIX` lists (addresses, printers, contacts).
        case completed(String)
        /// These words.
        case words([String])
    }

    /// How the value of an option that stands for an item becomes one.
    public enum Item: Sendable, Equatable {
        /// The value is text (`--body TEXT`).
        case text
        /// The value is a path (`--attach PATH`).
        case file
        /// The value names a UTF-8 file whose text is the item (`--body-file PATH`).
        case textOfFile
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
    /// The item its value stands for, if any (`--attach PATH` is a file item).
    public var item: Item?
    /// Whether the option alone (without `--activity`) starts its activity
    /// (`--send` starts Mail without the picker).
    public var startsActivity: Bool

    /// Declares an option.
    public init(_ name: String, short: Character? = nil, value: String? = nil, repeatable: Bool = false, group: Group,
                activity: ActivityType? = nil, alsoFor: [ActivityType] = [], help: String, manual: String? = nil,
                values: Values = .none, item: Item? = nil, startsActivity: Bool = false) {
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
        self.item = item
        self.startsActivity = startsActivity
    }

    /// Whether it takes a value.
    public var takesValue: Bool { value != nil }

    /// `--to ADDR`, `-h, --help`.
    public var synopsis: String {
        (short.map { "-\($0), " } ?? "") + name + (value.map { " " + $0 } ?? "")
    }
}

/// The options of activities as given on the command line, in order, and
/// the activity `--activity` named: each activity builds its own request
/// from them.
public struct ActivityArguments: Sendable, Equatable {
    /// Each option given, with its value (`nil` for a flag).
    public var given: [(name: String, value: String?)] = []
    /// The activity `--activity` named, if any.
    public var activity: ActivityType?

    /// Nothing given.
    public init() {}

    /// Every value given to `name`, in order.
    public func values(_ name: String) -> [String] { given.compactMap { $0.name == name ? $0.value : nil } }
    /// The last value given to `name`.
    public func value(_ name: String) -> String? { values(name).last }
    /// Whether `name` was given.
    public func has(_ name: String) -> Bool { given.contains { $0.name == name } }

    public static func == (left: ActivityArguments, right: ActivityArguments) -> Bool {
        left.activity == right.activity && left.given.elementsEqual(right.given) { $0.name == $1.name && $0.value == $1.value }
    }
}

/// What an activity's command-line request is: built from the arguments
/// (a bad value is a usage error naming the option), empty when none was given.
public protocol ActivityRequest: Sendable {
    /// The request when no option was given.
    init()
    /// The request of the options given; throws a usage error naming a bad value.
    init(arguments: ActivityArguments) throws(UsageError)
}

/// The request of an activity that takes no options.
public struct NoRequest: ActivityRequest {
    public init() {}
    public init(arguments: ActivityArguments) {}
}

/// The requests of every activity, built once from the command line, by
/// activity type.
public struct ActivityRequests: Sendable {
    private var requests: [ActivityType: any ActivityRequest] = [:]
    /// The arguments they were built from.
    public private(set) var arguments = ActivityArguments()

    /// No request: every activity as without options.
    public init() {}

    /// Each activity's request from `arguments`; the first bad value is a usage error.
    public init(_ arguments: ActivityArguments, builders: [(ActivityType, any ActivityRequest.Type)]) throws(UsageError) {
        self.arguments = arguments
        for (type, builder) in builders { requests[type] = try builder.init(arguments: arguments) }
    }

    /// The request made for `type`, or one made from nothing.
    public func request<Request: ActivityRequest>(for type: ActivityType, as: Request.Type) -> Request {
        requests[type] as? Request ?? Request()
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

/// The exit codes of SPEC §3.
public enum ExitCode {
    /// The activity completed.
    public static let completed: Int32 = 0
    /// Not completed: cancelled, saved as a draft, or queued.
    public static let notCompleted: Int32 = 1
    /// Usage or bad input; nothing was done.
    public static let usage: Int32 = 2
    /// The activity failed; the error is on stderr and nothing was lost.
    public static let failed: Int32 = 3
    /// No activity is eligible for these items.
    public static let noActivity: Int32 = 4
}

/// Where a mode of an activity writes, and how it was asked.
public struct ModeOutput: Sendable {
    /// Writes to standard output.
    public var output: @Sendable (String) -> Void
    /// Writes to standard error.
    public var error: @Sendable (String) -> Void
    /// `--json` was given.
    public var json: Bool
    /// Text as it may be written to a terminal (control characters shown, not obeyed).
    public var shown: @Sendable (String) -> String
    /// Records what a mode did as a share of its own in the history (a
    /// queued message that `--flush` sent), as the front end records a run.
    public var record: @Sendable (ActivityResult) -> Void

    /// A mode's output.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void, json: Bool,
                shown: @escaping @Sendable (String) -> String, record: @escaping @Sendable (ActivityResult) -> Void = { _ in }) {
        self.output = output
        self.error = error
        self.json = json
        self.shown = shown
        self.record = record
    }
}

/// How a mode of an activity ends.
public enum ModeOutcome: Sendable, Equatable {
    /// The run is over with this exit code.
    case exit(Int32)
    /// The form left unfinished is to be opened again (`--resume`).
    case resumeForm
}

/// A mode an activity adds to the command line (`--flush`, `--reading-list`):
/// its flag, and what it does with the activity made from the context.
public struct ActivityMode: Sendable {
    /// The flag and its help (a flag without an owning activity: a mode runs no share).
    public var option: OptionSpec
    /// Runs the mode.
    public var run: @MainActor @Sendable (any Activity, ModeOutput) -> ModeOutcome

    /// A mode of the activity type `Owner`: `run` is given the activity as made for this run.
    public static func of<Owner: Activity>(_: Owner.Type, _ option: OptionSpec,
                                           run: @escaping @MainActor @Sendable (Owner, ModeOutput) -> ModeOutcome) -> ActivityMode {
        ActivityMode(option: option) { activity, output in
            guard let owner = activity as? Owner else { return .exit(ExitCode.failed) }
            return run(owner, output)
        }
    }
}

/// Values an activity lists for `share --complete KIND PREFIX` (and so for
/// the shells' completion of its options).
public struct ActivityCompletion: Sendable {
    /// The kind (`printers`).
    public var kind: String
    /// The values, for what is typed so far.
    public var values: @MainActor @Sendable (any Activity, String) -> [String]

    /// Completions of the activity type `Owner`.
    public static func of<Owner: Activity>(_: Owner.Type, _ kind: String,
                                           values: @escaping @MainActor @Sendable (Owner, String) -> [String]) -> ActivityCompletion {
        ActivityCompletion(kind: kind) { activity, prefix in (activity as? Owner).map { values($0, prefix) } ?? [] }
    }
}

/// An activity that takes recipients offered to it (a person picked in the
/// picker's people row), before its form opens.
@MainActor
public protocol RecipientsReceiving: Activity {
    /// The recipients offered, as recorded in the history (`Kim <kim@example.com>`).
    var offeredRecipients: [String] { get set }
}

/// An activity whose form can be opened again with the values an
/// unfinished run left, or with a draft it saved (`--resume`).
@MainActor
public protocol FormResuming: Activity {
    /// Reopens the form with `values` and the draft their autosave wrote.
    func resume(values: [String: String], draft: String?)
    /// The saved drafts the form can reopen, newest first, and the files
    /// among them that could not be read.
    func savedDrafts() -> (drafts: [SavedDraft], unreadable: [String])
    /// Reopens the form with the draft at `path`; files it holds are
    /// written under `folder` to be attached again.
    func resume(draft path: String, filesIn folder: String) throws(ActivityError)
}

/// An activity whose returned items are what it printed for the person
/// (a plugin): picked from the picker, they are shown on a screen of their
/// own when it ends.
@MainActor
public protocol OutputShowing: Activity {}

/// A saved draft as a chooser lists it.
public struct SavedDraft: Sendable, Equatable {
    public var path: String
    /// Its subject, or words for none.
    public var title: String
    /// Its recipients.
    public var detail: String
    /// When it was saved (seconds since 1970).
    public var saved: Double

    public init(path: String, title: String, detail: String, saved: Double) {
        self.path = path
        self.title = title
        self.detail = detail
        self.saved = saved
    }
}
