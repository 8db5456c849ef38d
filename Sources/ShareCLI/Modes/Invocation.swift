import FoundationEssentials
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// One run of `share` once its options are parsed: the config read, the
/// system activities made, and what every mode may use of them.
@MainActor
struct Invocation {
    let options: Options
    let console: Console
    let detector: any ContentTypeDetector
    /// A program's own activities and items (the Swift API).
    let applicationActivities: [any Activity]
    let activityItems: [ActivityItem]
    /// The XDG locations, once for the whole run.
    let locations: Locations
    let configuration: Configuration
    /// The system activities, made from the config and the options.
    let systemActivities: [any Activity]
    /// The options before sharing: the command line's over the config's `[options]`.
    let sharing: SharingOptions
    /// What the system activities were made from.
    let context: ActivityContext

    /// Reads the config and makes the system activities; a config the
    /// activities cannot use is an error naming file and line.
    init(options: Options, console: Console, detector: any ContentTypeDetector, applicationActivities: [any Activity],
         activityItems: [ActivityItem]) throws(ConfigurationError) {
        self.options = options
        self.console = console
        self.detector = detector
        self.applicationActivities = applicationActivities
        self.activityItems = activityItems
        locations = Locations(environment: console.environment)
        composeState = ComposeStateFile(locations: locations)
        configuration = try Configuration.load(explicitPath: options.configPath, locations: locations, environment: console.environment)
        clock = Invocation.clock(console.environment)
        var sharing = options.sharing
        try sharing.apply(configuration.section("options"), commandLine: options.arguments)
        self.sharing = sharing
        var context = ActivityContext(environment: console.environment, locations: locations, hasTerminal: console.hasTerminal(),
                                      detector: detector, section: configuration.section)
        context.clock = clock
        context.subsections = configuration.sections(under:)
        context.title = options.title
        context.requests = options.requests
        context.readsStandardInput = options.items.contains(.standardInput)
        self.context = context
        systemActivities = try SystemActivities.make(context)
        var picker = KeyMap.picker
        var form = KeyMap.form
        KeyActions.apply(configuration.keys, picker: &picker, form: &form)
        keys = (picker, form)
    }

    /// The time now, for every activity and mode of the run.
    let clock: @Sendable () -> Date

    /// The system clock; for tests, `SHARE_NOW` stops it at a time of its
    /// own (seconds since 1970, or an ISO 8601 time such as
    /// `2026-12-05T09:00:00+09:00`), so that what is due (send later) can
    /// be tested without waiting. The one place the variable is read.
    static func clock(_ environment: [String: String]) -> @Sendable () -> Date {
        guard let text = environment["SHARE_NOW"], !text.isEmpty else { return { Date() } }
        let fixed = Double(text).map { Date(timeIntervalSince1970: $0) } ?? TimeExpression.instant(text)
        guard let fixed else { return { Date() } }
        return { fixed }
    }

    /// The share history, kept as the config says.
    var history: ShareHistory { ShareHistory(stateHome: locations.stateHome, keep: configuration.historyKeep) }

    /// The system activity of `type`.
    func systemActivity(_ type: ActivityType) -> (any Activity)? {
        systemActivities.first { $0.activityType == type }
    }

    /// Whether to draw without colours (`--no-color`, `NO_COLOR`).
    var noColor: Bool { options.noColor || !(console.environment["NO_COLOR"] ?? "").isEmpty }

    /// The config's keys applied to the picker's and the form's key maps, once.
    let keys: (picker: KeyMap<PickerAction>, form: KeyMap<FormCommand>)

    /// Where this run's unfinished form is kept (`--resume`).
    let composeState: ComposeStateFile

    /// The screens that show forms, live activities and preparation; the
    /// form keeps what is typed in `stateFile` (this run's own, by default).
    func presenter(stateFile: ComposeStateFile? = nil) -> ScreenPresenter {
        let book = AddressBook(vcardDirectory: configuration.contacts.vcardDirectory, aliasFile: configuration.contacts.aliases,
                               queryCommand: configuration.contacts.queryCommand)
        return ScreenPresenter(colors: !noColor, addressBook: book, detector: detector, environment: console.environment,
                                stateFile: stateFile ?? composeState, keys: keys.form)
    }
}
