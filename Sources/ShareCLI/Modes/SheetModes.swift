import FoundationEssentials
import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// The modes that share items: the items resolved and the share sheet made
/// (plugins, exclusions, pins), then `--list`, `--explain`, `--activity`
/// or the picker.
extension ShareCommand {
    static func shareMode(_ run: Invocation) -> Continuation {
        let options = run.options, console = run.console, configuration = run.configuration
        if options.items.isEmpty && run.activityItems.isEmpty && options.mode != .explain {
            return .exit(usage(Localization.text("nothing to share: give a path, a URL, --text TEXT, or - for standard input"), console))
        }
        let items: [ShareItem]
        do {
            items = try resolve(options.items, detector: run.detector, console: console)
        } catch {
            return .exit(usage(error.localizedMessage, console))
        }

        let plugins = PluginLoader.load(environment: console.environment, locations: run.locations)
        let sheet = ShareSheet(activityItems: items.map(ActivityItem.item) + run.activityItems,
                               applicationActivities: run.applicationActivities + plugins.activities,
                               systemActivities: run.systemActivities)
        sheet.subject = options.subject
        // The options before sharing, applied to the items of whichever activity runs.
        let sharing = SharingAdjuster(options: run.sharing, context: run.context)
        sheet.itemAdjuster = sharing
        // Pins: the config's first, then those pinned from the picker.
        let pins = PinsFile(stateHome: run.locations.stateHome)
        func filter(pinnedHere: [ActivityType]) -> ActivityFilter {
            ActivityFilter(excluded: Set(configuration.excluded + options.excluded), only: options.only.map(Set.init),
                           pinned: configuration.pinned + pinnedHere.filter { !configuration.pinned.contains($0) })
        }
        let pinned = pins.read()
        if let warning = pins.unreadableWarning(pinned.unreadable) { warn(warning, console) }
        sheet.apply(filter(pinnedHere: pinned.types))

        let history = run.history
        let recorder = Recorder(history: history, items: items + run.activityItems.compactMap { entry in
            if case .item(let item) = entry { item } else { nil }
        })
        switch options.mode {
        case .list: return .exit(list(sheet, options: options, console: console))
        case .explain: return .exit(explain(sheet, items: items, problems: plugins.problems, options: options, console: console))
        case .activity(let type):
            return runActivity(type, sheet: sheet, options: options, console: console, presenter: run.presenter(), record: recorder,
                               sharing: sharing)
        default:
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
            // The people row: those most shared with, from the history (none before there is one).
            let people: (@Sendable () -> [SharedPerson])?
            if configuration.suggestions {
                people = { @Sendable in ShareHistory.people(in: history.entries(), now: Date()) }
            } else {
                people = nil
            }
            return pick(sheet, items: items, options: options, console: console, presenter: run.presenter(), keys: run.keys.picker,
                        record: recorder, sharing: sharing, people: people, togglePin: togglePin)
        }
    }

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
}
