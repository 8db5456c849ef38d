import FoundationEssentials
import ShareCore
import ShareMail
import ShareSupport

/// Everything a system activity is made from: where share runs, the
/// config sections the activity owns, and what the command line asked of
/// it. Activities read the world only through it, so a test makes them
/// from a context of its own.
public struct ActivityContext {
    /// The environment share runs in.
    public var environment: [String: String]
    /// Where share keeps its files (XDG).
    public var locations: Locations
    /// Whether there is a terminal to draw on (`/dev/tty`).
    public var hasTerminal: Bool
    /// Tells a file's content type from its bytes.
    public var detector: any ContentTypeDetector
    /// The time now (the system clock unless set).
    public var clock: @Sendable () -> Date = Date.init
    /// The preview title (`--title`), if any.
    public var title: String?
    /// What the command line asked of each activity (`--to`, `--printer` …); nothing by default.
    public var requests = ActivityRequests()
    /// Whether an item is read from standard input (`-`): bytes that exist
    /// nowhere else once read, so nothing may be sent before they are kept.
    public var readsStandardInput = false
    private let configuration: (String) -> ConfigSection
    /// The sections named `PREFIX.NAME` (`[message.team]`), by name.
    public var subsections: (String) -> [ConfigSection] = { _ in [] }

    /// A context; `section` gives the config section of a name (empty when absent).
    public init(environment: [String: String], locations: Locations, hasTerminal: Bool, detector: any ContentTypeDetector,
                section: @escaping (String) -> ConfigSection = { ConfigSection(file: "config", name: $0) }) {
        self.environment = environment
        self.locations = locations
        self.hasTerminal = hasTerminal
        self.detector = detector
        configuration = section
    }

    /// The config section `name` (`mail`), as the activity that owns it reads it.
    public func section(_ name: String) -> ConfigSection { configuration(name) }

    /// What the command line asked of the activity `A`, built by its own ``SystemActivity/Request``.
    public func request<A: SystemActivity>(for _: A.Type) -> A.Request {
        requests.request(for: A.systemType, as: A.Request.self)
    }
}

/// A system activity: one row of the support table, made from an
/// ``ActivityContext``. Its type, title, category and kinds come from
/// that row, never restated.
///
/// Everything a user can touch of it is declared here, beside the code
/// that reads it: its config keys, its options and the request they
/// build, its modes, its completions, its words for running without a
/// terminal, its error codes and how its shares are undone. The command
/// line, `--help`, the man page, the completions and README's error table
/// are the union of these declarations.
@MainActor
public protocol SystemActivity: Activity {
    /// What the command line asks of it, built from its ``options``.
    associatedtype Request: ActivityRequest = NoRequest
    /// The row of the support table it implements.
    nonisolated static var systemType: ActivityType { get }
    /// The config keys it reads (none by default); the config check
    /// accepts exactly these and those of the command line.
    nonisolated static var configKeys: [ConfigKeys] { get }
    /// Its options, in the order `--help` lists them (none by default).
    nonisolated static var options: [OptionSpec] { get }
    /// The modes it adds to the command line (`--flush`); none by default.
    nonisolated static var modes: [ActivityMode] { get }
    /// What `share --complete KIND` lists for its options (`printers`); none by default.
    nonisolated static var completions: [ActivityCompletion] { get }
    /// How to run it without a terminal when its form would be shown
    /// ("add --printer NAME to print without it"), if there is a way.
    nonisolated static var withoutTerminal: String? { get }
    /// The `error.code`s its results may carry beyond the share sheet's own
    /// (``ActivityError/Code/sheet``), each documented in README's table.
    nonisolated static var errorCodes: [String] { get }
    /// How the undo steps its shares record are carried out (`share --undo`).
    nonisolated static var undoSteps: [UndoStep] { get }
    /// Makes the activity; a config value it cannot use is an error naming file and line.
    init(context: ActivityContext) throws(ConfigurationError)
}

extension SystemActivity {
    public nonisolated static var configKeys: [ConfigKeys] { [] }
    public nonisolated static var options: [OptionSpec] { [] }
    public nonisolated static var modes: [ActivityMode] { [] }
    public nonisolated static var completions: [ActivityCompletion] { [] }
    public nonisolated static var withoutTerminal: String? { nil }
    public nonisolated static var errorCodes: [String] { [] }
    public nonisolated static var undoSteps: [UndoStep] { [] }
    /// The type its request is built by, for the command line to build it once.
    public nonisolated static var requestType: any ActivityRequest.Type { Request.self }
    /// The support table's row for this activity.
    public static var row: SystemActivityDescriptor { SupportTable.row(systemType) }
    public var activityType: ActivityType { Self.systemType }
    public var activityTitle: String { Self.row.title }
    /// The support table's title in the reader's language (`po/*.po`).
    public var localizedActivityTitle: String { Localization.text(Self.row.title) }
    public var activityCategory: ActivityCategory { Self.row.category }
    public var supportedKinds: Set<ItemKind> { Self.row.kinds }
}
