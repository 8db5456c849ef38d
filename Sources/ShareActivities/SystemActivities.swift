import ShareCore
import ShareMail

/// The system activities: one per row of the support table, in table order.
public enum SystemActivities {
    /// Every system activity: the built ones given here, and an
    /// ``UnbuiltActivity`` stand-in (always unavailable) for the rest.
    @MainActor
    public static func all(built: [any Activity] = []) -> [any Activity] {
        SupportTable.rows.map { row in
            built.first { $0.activityType == row.type } ?? UnbuiltActivity(row)
        }
    }
}
