import ShareCore

/// The system activities: one per row of the support table, in table order.
public enum SystemActivities {
    /// Every system activity. Rows whose behaviour is not built yet are
    /// ``UnbuiltActivity`` stand-ins, which are always unavailable.
    @MainActor
    public static func all() -> [any Activity] {
        SupportTable.rows.map { UnbuiltActivity($0) }
    }
}
