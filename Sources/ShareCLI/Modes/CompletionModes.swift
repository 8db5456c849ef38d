import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

/// `--complete KIND` and `--list-types`: what the shells' completions ask share.
extension ShareCommand {
    /// `--list-types`: every activity type known here, one a line.
    static func listTypes(_ run: Invocation) -> Int32 {
        let plugins = PluginLoader.load(environment: run.console.environment, locations: run.locations)
        let types = (run.applicationActivities + plugins.activities + run.systemActivities).map(\.activityType.rawValue)
        run.console.output(types.map { $0 + "\n" }.joined())
        return ExitCode.completed
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
}
