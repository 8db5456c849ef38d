import ShareCore

/// The system activities: one per row of the support table, in table order.
///
/// Adding one is a new file with a ``SystemActivity`` and one line in ``built``.
@MainActor
public enum SystemActivities {
    /// The system activities that are built; the other rows are ``UnbuiltActivity`` stand-ins.
    public nonisolated static var built: [any SystemActivity.Type] {
        [
            MailActivity.self,
            CopyActivity.self,
            ReadingListActivity.self,
            SaveToPicturesActivity.self,
            AssignToContactActivity.self,
            PrintActivity.self,
            MessageActivity.self,
            NearbyActivity.self,
        ]
    }

    /// The config keys of every built activity.
    public nonisolated static var configKeys: [ConfigKeys] { built.flatMap { $0.configKeys } + SocialSettings.configKeys }

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
