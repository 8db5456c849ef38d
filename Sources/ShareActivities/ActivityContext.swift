import FoundationEssentials
import ShareCore
import ShareMail

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
    /// What the command line asked of Mail (`--to`, `--send` …); nothing by default.
    public var mailRequest = MailRequest()
    /// `--to` given with `--activity message`: Message's recipients (JIDs), the form skipped.
    public var messageRecipients: [String] = []
    /// `--contact NAME|UID`: Assign to Contact's contact, chosen in its form when absent.
    public var contact: String?
    /// What the command line asked of Print (`--printer`, `--copies` …); nothing by default.
    public var printRequest = PrintRequest()
    /// What the command line asked of Nearby (`--bind`, `--keep`, `--timeout`); nothing by default.
    public var nearbyRequest = NearbyRequest()
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
}

/// A system activity: one row of the support table, made from an
/// ``ActivityContext``. Its type, title, category and kinds come from
/// that row, never restated.
@MainActor
public protocol SystemActivity: Activity {
    /// The row of the support table it implements.
    static var systemType: ActivityType { get }
    /// The config keys it reads (none by default); the config check
    /// accepts exactly these and those of the command line.
    nonisolated static var configKeys: [ConfigKeys] { get }
    /// Makes the activity; a config value it cannot use is an error naming file and line.
    init(context: ActivityContext) throws(ConfigurationError)
}

extension SystemActivity {
    public nonisolated static var configKeys: [ConfigKeys] { [] }
    /// The support table's row for this activity.
    public static var row: SystemActivityDescriptor { SupportTable.row(systemType) }
    public var activityType: ActivityType { Self.systemType }
    public var activityTitle: String { Self.row.title }
    /// The support table's title in the reader's language (`po/*.po`).
    public var localizedActivityTitle: String { Localization.text(Self.row.title) }
    public var activityCategory: ActivityCategory { Self.row.category }
    public var supportedKinds: Set<ItemKind> { Self.row.kinds }
}
