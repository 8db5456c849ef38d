import Dispatch
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareActivities
import ShareCore
import ShareSupport
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
                    return .exit(usage(Localization.text("%@: the text '%@' is not UTF-8; give its bytes on standard input instead: share - < FILE",
                                                          spec.name, shown), console))
                }
                return .exit(usage(Localization.text("'%@' is not UTF-8; rename the file, or pass its bytes on standard input: share - < FILE", shown), console))
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

    /// The synchronous part of ``run(_:console:detector:applicationActivities:activityItems:)``:
    /// the options parsed, the config read and the activities made, then one
    /// mode run (each in its own file under `Modes/`).
    public static func start(_ arguments: [String], console: Console,
                             detector: any ContentTypeDetector = MagicContentTypeDetector(),
                             applicationActivities: [any Activity] = [], activityItems: [ActivityItem] = []) -> Continuation {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            return .exit(usage(error.message, console))
        }
        // What needs no config: help, version, completion scripts.
        switch options.mode {
        case .help: console.output(HelpText.usage(width: console.outputColumns() ?? 80) + "\n"); return .exit(ExitCode.completed)
        case .completions(let shell): console.output(Completions.script(for: shell)); return .exit(ExitCode.completed)
        case .version: console.output(HelpText.version + "\n"); return .exit(ExitCode.completed)
        case .integration(let name): return .exit(integration(name, console: console))
        case .portalRequest(let socket):
            return portalRequest(socket, options: options, console: console, detector: detector, applicationActivities: applicationActivities)
        default: break
        }
        let run: Invocation
        do {
            run = try Invocation(options: options, console: console, detector: detector, applicationActivities: applicationActivities,
                                 activityItems: activityItems)
        } catch {
            return .exit(usage(error.message, console))
        }
        switch options.mode {
        case .activityMode(let flag): return activityMode(flag, run)
        case .history: return .exit(printHistory(run.history, options: options, console: console, now: run.clock()))
        case .forget: return .exit(forget(run.history, console: console))
        case .undo: return .exit(undo(run.history, options: options, console: console))
        case .complete(let kind):
            return .exit(complete(kind, options: options, configuration: run.configuration, systemActivities: run.systemActivities,
                                  locations: run.locations, console: console))
        case .listTypes: return .exit(listTypes(run))
        case .pick, .list, .explain, .activity, .help, .version, .completions, .integration, .portalRequest: return shareMode(run)
        }
    }
}
