import ShareCore
import ShareSupport

/// The system activities: one per row of the support table, in table order.
///
/// Adding one is a folder with its ``SystemActivity`` and one line in
/// ``built``. Their declarations make the command line: the unions below
/// are what the parser, `--help`, the man page, the completions, the
/// config check, README's error table and `--undo` read.
@MainActor
public enum SystemActivities {
    /// The system activities that are built; the other rows are
    /// ``UnbuiltActivity`` stand-ins. Their options are listed in this order.
    public nonisolated static var built: [any SystemActivity.Type] {
        [
            MailActivity.self,
            PrintActivity.self,
            AssignToContactActivity.self,
            NearbyActivity.self,
            ReadingListActivity.self,
            CopyActivity.self,
            SaveToPicturesActivity.self,
            MessageActivity.self,
            LinkActivity.self,
        ]
    }

    /// The config keys of every built activity.
    public nonisolated static var configKeys: [ConfigKeys] { built.flatMap { $0.configKeys } + SocialSettings.configKeys }

    /// The options and mode flags of every built activity, in ``built``'s order.
    public nonisolated static var options: [OptionSpec] { built.flatMap { $0.options + $0.modes.map(\.option) } }

    /// Each activity's request from the arguments given; the first bad value is a usage error.
    public nonisolated static func requests(_ arguments: ActivityArguments) throws(UsageError) -> ActivityRequests {
        try ActivityRequests(arguments, builders: built.map { ($0.systemType, $0.requestType) })
    }

    /// The mode whose flag is `flag` (`--flush`), and the activity it runs with.
    public nonisolated static func mode(_ flag: String) -> (owner: ActivityType, mode: ActivityMode)? {
        for type in built { if let mode = type.modes.first(where: { $0.option.name == flag }) { return (type.systemType, mode) } }
        return nil
    }

    /// What `share --complete KIND` lists, and whose it is, for every kind an activity declares.
    public nonisolated static var completions: [(owner: ActivityType, completion: ActivityCompletion)] {
        built.flatMap { type in type.completions.map { (type.systemType, $0) } }
    }

    /// How to run the activity of `type` without a terminal, if it says.
    public nonisolated static func withoutTerminal(_ type: ActivityType) -> String? {
        built.first { $0.systemType == type }?.withoutTerminal
    }

    /// Every error code a result may carry: the share sheet's, then each activity's.
    public nonisolated static var errorCodes: [String] {
        ActivityError.Code.sheet + built.flatMap { $0.errorCodes } + SocialPostActivity.errorCodes + PluginActivity.errorCodes
    }

    /// How each kind of undo step the activities record is carried out.
    public nonisolated static var undoSteps: [UndoStep] { built.flatMap { $0.undoSteps } }

    /// Every system activity, made from `context`, in table order.
    public static func make(_ context: ActivityContext) throws(ConfigurationError) -> [any Activity] {
        var made: [any Activity] = []
        for type in built { made.append(try type.init(context: context)) }
        // One activity per service, all alike but for the service.
        made += try SocialPostActivity.all(context: context)
        return all(built: made)
    }

    /// Every system activity: the built ones given here, and an
    /// ``UnbuiltActivity`` stand-in (always unavailable) for the rest.
    public static func all(built: [any Activity] = []) -> [any Activity] {
        SupportTable.rows.map { row in
            built.first { $0.activityType == row.type } ?? UnbuiltActivity(row)
        }
    }
}
