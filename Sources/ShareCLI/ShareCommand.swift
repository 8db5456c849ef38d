import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareMail
import ShareTerminal

/// Everything `share` does, from argv to exit code.
///
/// Reads options, config and items, builds the share sheet, and then
/// lists, explains, or runs an activity. Every error is a message on
/// stderr and an exit code of SPEC §3; nothing here ever traps on input.
@MainActor
public enum ShareCommand {
    /// How a run goes on once its synchronous part is over.
    ///
    /// Options, configuration, items and the picker need no concurrency. An
    /// asynchronous `main` sets up the concurrency runtime (its main task and
    /// executor) before its first line on every run; here that waits until
    /// an activity is chosen, so a listing, an error or a dismissed picker
    /// never pays for it.
    public enum Continuation {
        /// The run is over with this exit code: an error, a listing, help, a
        /// dismissed picker.
        case exit(Int32)
        /// An activity was chosen; its lifecycle (prepare, form or perform,
        /// finish) is asynchronous and ends with the exit code.
        case activity(@MainActor () async -> Int32)

        /// The exit code, once the chosen activity (if any) has finished.
        @MainActor public func exitCode() async -> Int32 {
            switch self {
            case .exit(let code): code
            case .activity(let rest): await rest()
            }
        }
    }

    /// Runs `share` with the raw bytes of its arguments (without the program name).
    ///
    /// A word that is not UTF-8 is refused with its bytes shown, since paths
    /// are handled as text from here on and must not change on the way.
    public static func main(rawArguments: [[UInt8]], console: Console,
                            applicationActivities: [any Activity] = [], activityItems: [ActivityItem] = []) async -> Int32 {
        await start(rawArguments: rawArguments, console: console, applicationActivities: applicationActivities,
                    activityItems: activityItems).exitCode()
    }

    /// Runs `share` as a program's `main` does and exits with its code; the
    /// concurrency runtime starts only if an activity runs. Call it from
    /// synchronous top-level code (`MainActor.assumeIsolated`). Messages
    /// and screens follow the environment's language (`LANG`, `LC_MESSAGES`).
    public static func exitAfterRunning(rawArguments: [[UInt8]], console: Console,
                                        applicationActivities: [any Activity] = [],
                                        activityItems: [ActivityItem] = []) -> Never {
        Localization.followEnvironment()
        switch start(rawArguments: rawArguments, console: console, applicationActivities: applicationActivities,
                     activityItems: activityItems) {
        case .exit(let code):
            exit(console.exitCode(after: code))
        case .activity(let rest):
            Task { @MainActor in exit(console.exitCode(after: await rest())) }
            dispatchMain()
        }
    }

    /// The synchronous part of a run: options, configuration, items, and the
    /// picker when no activity is named.
    public static func start(rawArguments: [[UInt8]], console: Console,
                             applicationActivities: [any Activity] = [], activityItems: [ActivityItem] = []) -> Continuation {
        var arguments: [String] = []
        for bytes in rawArguments {
            guard let word = String(validating: bytes, as: UTF8.self) else {
                let shown = ItemError.shown(bytes.prefix(200).map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : "\\x" + String($0, radix: 16, uppercase: true) }
                    .joined())
                // The value of an option that takes text is text, not a file to rename.
                if let option = arguments.last, let spec = OptionTable.spec(option), spec.takesValue, spec.values != .files {
                    return .exit(usage("\(spec.name): the text '\(shown)' is not UTF-8; give its bytes on standard input instead: share - < FILE", console))
                }
                return .exit(usage("'\(shown)' is not UTF-8; rename the file, or pass its bytes on standard input: share - < FILE", console))
            }
            arguments.append(word)
        }
        return start(arguments, console: console, applicationActivities: applicationActivities, activityItems: activityItems)
    }

    /// Runs `share` with `arguments` (without the program name) and returns the exit code.
    ///
    /// `applicationActivities` are a program's own activities (the Swift API's
    /// custom activities), shown before the system ones in their row;
    /// `activityItems` are a program's own items (item sources and
    /// providers), shared after the items on the command line.
    public static func run(_ arguments: [String], console: Console,
                           detector: any ContentTypeDetector = MagicContentTypeDetector(),
                           applicationActivities: [any Activity] = [], activityItems: [ActivityItem] = []) async -> Int32 {
        await start(arguments, console: console, detector: detector, applicationActivities: applicationActivities,
                    activityItems: activityItems).exitCode()
    }

    /// The synchronous part of ``run(_:console:detector:applicationActivities:activityItems:)``.
    public static func start(_ arguments: [String], console: Console,
                             detector: any ContentTypeDetector = MagicContentTypeDetector(),
                             applicationActivities: [any Activity] = [], activityItems: [ActivityItem] = []) -> Continuation {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            return .exit(usage(error.message, console))
        }
        switch options.mode {
        case .help: console.output(HelpText.usage(width: console.outputColumns() ?? 80) + "\n"); return .exit(ExitCode.completed)
        case .completions(let shell): console.output(Completions.script(for: shell)); return .exit(ExitCode.completed)
        case .version: console.output(HelpText.version + "\n"); return .exit(ExitCode.completed)
        default: break
        }

        // The XDG locations, once for the whole run.
        let locations = Locations(environment: console.environment)
        let configuration: Configuration
        do {
            configuration = try Configuration.load(explicitPath: options.configPath, locations: locations,
                                                   environment: console.environment)
        } catch {
            return .exit(usage(error.message, console))
        }
        var context = ActivityContext(environment: console.environment, locations: locations, hasTerminal: console.hasTerminal(),
                                      detector: detector, section: configuration.section)
        context.subsections = configuration.sections(under:)
        context.title = options.title
        context.requests = options.requests
        let systemActivities: [any Activity]
        do {
            systemActivities = try SystemActivities.make(context)
        } catch {
            return .exit(usage(error.message, console))
        }
        let modeOutput = ModeOutput(output: console.output, error: console.error, json: options.json, shown: TerminalText.sanitized)
        var resuming = false
        if case .activityMode(let flag) = options.mode, let (owner, mode) = SystemActivities.mode(flag),
           let activity = systemActivities.first(where: { $0.activityType == owner }) {
            switch mode.run(activity, modeOutput) {
            case .exit(let code): return .exit(code)
            case .resumeForm: resuming = true
            }
        }
        let history = ShareHistory(stateHome: locations.stateHome, keep: configuration.historyKeep)
        if options.mode == .history { return .exit(printHistory(history, options: options, console: console)) }
        if options.mode == .undo { return .exit(undo(history, options: options, console: console)) }
        if options.mode == .forget {
            do { try history.forget() } catch {
                console.error("share: \(TerminalText.sanitized(error.description))\n")
                return .exit(ExitCode.failed)
            }
            return .exit(ExitCode.completed)
        }
        if case .complete(let kind) = options.mode {
            return .exit(complete(kind, options: options, configuration: configuration, systemActivities: systemActivities,
                                  locations: locations, console: console))
        }
        if options.mode == .listTypes {
            let plugins = PluginLoader.load(environment: console.environment, locations: locations)
            let types = (applicationActivities + plugins.activities + systemActivities).map(\.activityType.rawValue)
            console.output(types.map { $0 + "\n" }.joined())
            return .exit(ExitCode.completed)
        }
        let book = AddressBook(vcardDirectory: configuration.contacts.vcardDirectory, aliasFile: configuration.contacts.aliases,
                               queryCommand: configuration.contacts.queryCommand)
        let noColor = options.noColor || !(console.environment["NO_COLOR"] ?? "").isEmpty
        let composeState = ComposeStateFile(locations: locations)
        var pickerKeys = KeyMap.picker
        var formKeys = KeyMap.form
        KeyActions.apply(configuration.keys, picker: &pickerKeys, form: &formKeys)
        let presenter = ComposePresenter(colors: !noColor, addressBook: book, detector: detector,
                                         environment: console.environment, stateFile: composeState, keys: formKeys)
        if resuming {
            guard let saved = composeState.read(),
                  let activity = systemActivities.first(where: { $0.activityType.rawValue == saved.activity }) as? any FormResuming else {
                return .exit(usage("there is no unfinished message to resume (share keeps one in \(composeState.path))", console))
            }
            guard console.hasTerminal() else { return .exit(usage("no terminal for the compose screen", console)) }
            activity.resume(values: saved.values, draft: saved.draft)
            let sheet = ShareSheet(activityItems: [], systemActivities: systemActivities)
            return .activity {
                report(await sheet.resume(activity, presenter: presenter), options: options, console: console,
                       record: Recorder(history: history, items: []))
            }
        }

        if options.items.isEmpty && activityItems.isEmpty && options.mode != .explain {
            return .exit(usage("nothing to share: give a path, a URL, --text TEXT, or - for standard input", console))
        }
        let items: [ShareItem]
        do {
            items = try resolve(options.items, detector: detector, console: console)
        } catch {
            return .exit(usage(error.description, console))
        }

        let plugins = PluginLoader.load(environment: console.environment, locations: locations)
        let sheet = ShareSheet(activityItems: items.map(ActivityItem.item) + activityItems,
                               applicationActivities: applicationActivities + plugins.activities,
                               systemActivities: systemActivities)
        sheet.subject = options.subject
        // Pins: the config's first, then those pinned from the picker.
        let pins = PinsFile(stateHome: locations.stateHome)
        func filter(pinnedHere: [ActivityType]) -> ActivityFilter {
            ActivityFilter(excluded: Set(configuration.excluded + options.excluded), only: options.only.map(Set.init),
                           pinned: configuration.pinned + pinnedHere.filter { !configuration.pinned.contains($0) })
        }
        sheet.apply(filter(pinnedHere: pins.read()))
        let togglePin = { (type: ActivityType) -> String in
            let title = sheet.activity(ofType: type)?.localizedActivityTitle ?? type.rawValue
            if configuration.pinned.contains(type) { return Localization.text("%@ is pinned in the config ([picker] pinned)", title) }
            do {
                let now = try pins.toggle(type)
                sheet.apply(filter(pinnedHere: now))
                return now.contains(type) ? Localization.text("Pinned %@: it comes first from now on", title) : Localization.text("Unpinned %@", title)
            } catch {
                return Localization.text("Cannot pin %@: %@", title, ErrorText.sentence(error))
            }
        }

        let recorder = Recorder(history: history, items: items + activityItems.compactMap { entry in
            if case .item(let item) = entry { item } else { nil }
        })
        switch options.mode {
        case .list: return .exit(list(sheet, options: options, console: console))
        case .explain: return .exit(explain(sheet, items: items, problems: plugins.problems, options: options, console: console))
        case .activity(let type):
            return runActivity(type, sheet: sheet, options: options, console: console, presenter: presenter, record: recorder)
        case .pick, .help, .version, .activityMode, .listTypes, .completions, .complete, .history, .forget, .undo:
            // The people row: those most shared with, from the history (none before there is one).
            let people: (@Sendable () -> [SharedPerson])?
            if configuration.suggestions {
                people = { @Sendable in ShareHistory.people(in: history.entries(), now: Date()) }
            } else {
                people = nil
            }
            return pick(sheet, items: items, options: options, console: console, presenter: presenter, keys: pickerKeys,
                        record: recorder, people: people, togglePin: togglePin)
        }
    }

    // MARK: - Items

    static func resolve(_ arguments: [ItemArgument], detector: any ContentTypeDetector,
                        console: Console) throws(ItemError) -> [ShareItem] {
        let resolver = ItemResolver(detector: detector)
        var items: [ShareItem] = []
        for argument in arguments {
            switch argument {
            case .argument(let word): items.append(try resolver.item(forArgument: word))
            case .text(let text): items.append(.text(text))
            case .url(let text): items.append(try resolver.url(text))
            case .file(let path): items.append(try resolver.file(atPath: path))
            case .standardInput: items.append(try resolver.standardInput(console.readInput()))
            case .bodyFile(let path): items.append(.text(try resolver.text(ofFileAt: path)))
            }
        }
        return items
    }

    // MARK: - Modes

    static func list(_ sheet: ShareSheet, options: Options, console: Console) -> Int32 {
        let eligible = sheet.eligibleEvaluations()
        if options.json {
            console.output(JSONValue.array(eligible.map { json($0, sheet) }).serialized + "\n")
        } else {
            console.output(eligible.map { evaluation in
                let activity = evaluation.activity
                return "\(activity.activityType.rawValue)\t\(TerminalText.sanitized(activity.activityTitle))\n"
            }.joined())
        }
        if eligible.isEmpty {
            console.error("share: " + Localization.text("no activity can take these items (see share --explain)") + "\n")
            return ExitCode.noActivity
        }
        return ExitCode.completed
    }

    static func explain(_ sheet: ShareSheet, items: [ShareItem], problems: [PluginProblem], options: Options,
                        console: Console) -> Int32 {
        let evaluations = sheet.evaluations()
        // A broken plugin never stops share; --explain names the file and the problem.
        let broken = problems.map { "skipped plugin \($0.path): \($0.message)" }
        if options.json {
            console.output(JSONValue.array(evaluations.map { json($0, sheet) }).serialized + "\n")
            for line in broken { console.error("share: \(TerminalText.sanitized(line))\n") }
            return ExitCode.completed
        }
        var text = ""
        if let title = options.title { text += "Title: \(TerminalText.excerpt(title, columns: 70))\n" }
        if let subject = options.subject { text += "Subject: \(TerminalText.excerpt(subject, columns: 68))\n" }
        text += "Items (\(items.count)):\n"
        for item in items { text += "  " + describe(item) + "\n" }
        text += "Activities:\n"
        let typeWidth = evaluations.map { $0.activity.activityType.rawValue.count }.max() ?? 0
        let titles = evaluations.map { TerminalText.sanitized($0.activity.activityTitle) }
        let titleWidth = titles.map { DisplayWidth.of($0) }.max() ?? 0
        for (evaluation, title) in zip(evaluations, titles) {
            let activity = evaluation.activity
            let how = (activity as? any ActivityExplaining)?.explanation
            let status = evaluation.reason.map { "\($0.rawValue): \(evaluation.detail ?? "")" } ?? "eligible" + (how.map { " (\($0))" } ?? "")
            text += "  " + pad(activity.activityType.rawValue, typeWidth) + "  " + pad(title, titleWidth) + "  "
                + pad(sheet.category(of: activity).rawValue, 6) + "  " + status + "\n"
        }
        if !broken.isEmpty {
            text += "Broken plugins (\(broken.count)):\n"
            for problem in problems { text += "  \(TerminalText.sanitized(problem.path)): \(TerminalText.sanitized(problem.message))\n" }
        }
        console.output(text)
        return ExitCode.completed
    }

    static func runActivity(_ type: ActivityType, sheet: ShareSheet, options: Options, console: Console,
                            presenter: ComposePresenter, record: Recorder) -> Continuation {
        guard let activity = sheet.activity(ofType: type) else {
            let known = (sheet.applicationActivities + sheet.systemActivities).map(\.activityType.rawValue)
            return .exit(usage("--activity: no activity '\(type.rawValue)' is installed; known types: " + known.joined(separator: ", "), console))
        }
        let verdict = sheet.evaluate(activity)
        if verdict.isEligible && activity.makeForm() != nil && !console.hasTerminal() {
            let fix = SystemActivities.withoutTerminal(type).map { "; " + $0 } ?? ""
            return .exit(usage("no terminal for the \(activity.activityTitle) form\(fix)", console))
        }
        if let reason = verdict.reason {
            console.error("share: \(type.rawValue) cannot run: \(reason.rawValue) (\(TerminalText.sanitized(verdict.detail ?? "")))\n")
            return .exit(ExitCode.noActivity)
        }
        // Without a terminal a live activity (Nearby) runs with its news on standard error.
        if activity is any LiveActivity && !console.hasTerminal() {
            let lines = LiveStatusLines(write: console.error)
            sheet.liveStatusWithoutScreen = { lines.show($0) }
            return .activity { report(await sheet.run(activity, presenter: nil), options: options, console: console, record: record) }
        }
        return .activity { report(await sheet.run(activity, presenter: presenter), options: options, console: console, record: record) }
    }

    /// `--complete KIND [PREFIX]`: values for completion scripts, one a
    /// line: addresses (bare, for a command line) matching PREFIX, or what
    /// the activity that declares KIND lists (printers, contacts).
    static func complete(_ kind: String, options: Options, configuration: Configuration, systemActivities: [any Activity],
                         locations: Locations, console: Console) -> Int32 {
        let prefix = options.items.lazy.compactMap { item -> String? in if case .argument(let word) = item { word } else { nil } }.first ?? ""
        var words: [String] = []
        if kind == "addresses" {
            let book = AddressBook(vcardDirectory: configuration.contacts.vcardDirectory, aliasFile: configuration.contacts.aliases,
                                   queryCommand: configuration.contacts.queryCommand)
            words = book.matches(prefix, limit: 100).map(\.email)
        } else if let (owner, completion) = SystemActivities.completions.first(where: { $0.completion.kind == kind }),
                  let activity = systemActivities.first(where: { $0.activityType == owner }) {
            words = completion.values(activity, prefix)
        }
        console.output(words.map { TerminalText.sanitized($0) + "\n" }.joined())
        return ExitCode.completed
    }

    /// `--history [--limit N] [--json]`: newest first; JSON is the entries as stored.
    static func printHistory(_ history: ShareHistory, options: Options, console: Console) -> Int32 {
        var entries = Array(history.entries().reversed())
        if let limit = options.limit { entries = Array(entries.prefix(limit)) }
        if options.json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let data = (try? encoder.encode(entries)) ?? Data("[]".utf8)
            console.output(String(decoding: data, as: UTF8.self) + "\n")
            return ExitCode.completed
        }
        if entries.isEmpty {
            console.error("share: " + Localization.text("the history is empty (%@)", history.path) + "\n")
            return ExitCode.completed
        }
        var text = ""
        for entry in entries {
            let when = entry.date.map(localMinute) ?? String(entry.time.prefix(16))
            let items = entry.items.map { item -> String in
                switch item.kind {
                case "string": return "text (\(item.size ?? 0) characters)"
                case "url": return item.name ?? "a URL"
                default: return (item.name ?? "a file") + (item.size.map { " (\(ByteCount.words($0)))" } ?? "")
                }
            }
            var line = "\(when)  \(pad(entry.activity, 18)) \(pad(entry.outcome, 9)) " + items.joined(separator: ", ")
            if !entry.recipients.isEmpty { line += " → " + entry.recipients.joined(separator: ", ") }
            if !entry.returned.isEmpty { line += " ⇒ " + entry.returned.joined(separator: ", ") }
            text += TerminalText.sanitized(line) + "  [\(entry.id)]\n"
        }
        console.output(text)
        return ExitCode.completed
    }

    /// `--undo [ID]`: takes back the entry `ID`, else the newest one with
    /// something left to take back; records what was done as an entry of
    /// its own (what was refused may be tried again).
    static func undo(_ history: ShareHistory, options: Options, console: Console) -> Int32 {
        let entries = history.entries()
        let words = options.items.compactMap { item -> String? in if case .argument(let word) = item { word } else { nil } }
        guard words.count <= 1, options.items.count == words.count else {
            return usage("--undo takes at most one history entry ID (share --history lists them)", console)
        }
        let entry: HistoryEntry
        if let id = words.first {
            guard let found = entries.first(where: { $0.id == id && $0.undoes == nil }) else {
                return usage("--undo: no share \(id) in the history (share --history lists them)", console)
            }
            entry = found
        } else {
            guard let found = entries.last(where: { $0.undoes == nil && !$0.pendingUndo(in: entries).isEmpty }) else {
                console.error("share: " + Localization.text("there is no share in the history to undo") + "\n")
                return ExitCode.failed
            }
            entry = found
        }
        let pending = entry.pendingUndo(in: entries)
        guard !pending.isEmpty else {
            let undone = entries.contains { $0.undoes == entry.id }
            console.error("share: \(entry.activity) (\(entry.id), \(entry.outcome)) "
                + (undone ? "was undone already\n" : "left nothing share can take back\n"))
            return ExitCode.failed
        }
        var done: [UndoAction] = []
        var said: [String] = []
        var refused = false
        for action in pending {
            switch Undo.perform(action, environment: console.environment) {
            case .success(let what):
                done.append(action)
                said.append(what)
                console.output(TerminalText.sanitized(what) + "\n")
            case .failure(let refusal):
                refused = true
                console.error("share: cannot undo \(entry.activity) (\(entry.id)): \(TerminalText.sanitized(refusal.description))\n")
            }
        }
        if !done.isEmpty {
            do { try history.append(HistoryEntry(undoing: entry, done: done, what: said, date: Date())) } catch {
                warn(Localization.text("the share history was not written: %@", error.description), console)
            }
        }
        return refused ? ExitCode.failed : ExitCode.completed
    }

    /// `2026-12-02 15:04` in the local time zone.
    static func localMinute(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func pick(_ sheet: ShareSheet, items: [ShareItem], options: Options, console: Console,
                     presenter: ComposePresenter, keys: KeyMap<PickerAction>, record: Recorder, people: (@Sendable () -> [SharedPerson])? = nil,
                     togglePin: ((ActivityType) -> String)? = nil) -> Continuation {
        // Activities that must ask something slow (Print asks CUPS) join the
        // picker when their answer comes; with nothing else to show, it is waited for.
        var (eligible, pending) = sheet.eligibleActivitiesNotWaiting()
        if eligible.isEmpty && !pending.isEmpty {
            eligible = sheet.eligibleActivities()
            pending = []
        }
        guard !eligible.isEmpty else {
            console.error("share: " + Localization.text("no activity can take these items (see share --explain)") + "\n")
            return .exit(ExitCode.noActivity)
        }
        guard console.hasTerminal() else {
            return .exit(usage("no terminal to draw the picker on (/dev/tty); use --list, --explain or --activity TYPE", console))
        }
        let noColor = options.noColor || !(console.environment["NO_COLOR"] ?? "").isEmpty
        let picked: PickerSession.Choice?
        do {
            picked = try PickerSession.run(sheet: sheet, activities: eligible, pending: pending, items: items, title: options.title,
                                           colors: !noColor, keys: keys, people: people, togglePin: togglePin)
        } catch {
            return .exit(usage(error.message, console))
        }
        guard let picked, let activity = sheet.activity(ofType: picked.type) else {
            return .exit(report(.dismissed, options: options, console: console))
        }
        // A person of the people row goes into the activity's recipients.
        if let person = picked.person, let receiver = activity as? any RecipientsReceiving { receiver.offeredRecipients = [person] }
        return .activity { report(await sheet.run(activity, presenter: presenter), options: options, console: console, record: record) }
    }

    /// Appends finished runs to the share history.
    struct Recorder {
        let history: ShareHistory
        /// The items shared, summarised in each entry.
        let items: [ShareItem]

        /// Appends `result` when an activity ran; the reason when it could not.
        func record(_ result: ActivityResult) -> String? {
            guard let type = result.activityType else { return nil }
            do { try history.append(HistoryEntry(result: result, activity: type, items: items, date: Date())) } catch {
                return Localization.text("the share history was not written: %@", error.description)
            }
            return nil
        }
    }

    static func report(_ result: ActivityResult, options: Options, console: Console, record: Recorder? = nil) -> Int32 {
        if let problem = record?.record(result) { warn(problem, console) }
        if options.json { console.output(result.json.serialized + "\n") }
        if let error = result.error { console.error("share: \(TerminalText.sanitized(error.message))\n") }
        for warning in result.warnings { warn(warning, console) }
        return result.exitCode
    }

    // MARK: - Formatting

    /// One activity's row of `--list --json` and `--explain --json`; the
    /// category is the share sheet's (the support table's, for system types).
    static func json(_ evaluation: ActivityEvaluation, _ sheet: ShareSheet) -> JSONValue {
        let activity = evaluation.activity
        return .object([
            ("type", .string(activity.activityType.rawValue)),
            ("title", .string(activity.activityTitle)),
            ("category", .string(sheet.category(of: activity).rawValue)),
            ("eligible", .bool(evaluation.isEligible)),
            ("reason", .optional(evaluation.reason?.rawValue)),
            ("detail", .optional(evaluation.detail ?? (evaluation.isEligible ? (activity as? any ActivityExplaining)?.explanation : nil))),
        ])
    }

    static func describe(_ item: ShareItem) -> String {
        switch item {
        case .text(let text): return "string  " + TerminalText.excerpt(text, columns: 60)
        case .url(let url): return "url     " + TerminalText.excerpt(url.absoluteString, columns: 60)
        case .image(let file), .file(let file):
            return pad(item.kind.rawValue, 6) + "  " + TerminalText.excerpt(file.name, columns: 40)
                + "  " + file.contentType + "  " + ByteCount.words(file.size)
        }
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
    }

    /// `share: warning: …` on standard error, in the reader's language.
    static func warn(_ warning: String, _ console: Console) {
        console.error("share: " + TerminalText.sanitized(Localization.text("warning: %@", warning)) + "\n")
    }

    static func usage(_ message: String, _ console: Console) -> Int32 {
        console.error("share: \(TerminalText.sanitized(message))\n")
        return ExitCode.usage
    }
}
