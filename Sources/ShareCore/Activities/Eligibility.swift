/// Why an activity is hidden, in the order they are checked (SPEC §2).
public enum HiddenReason: String, Sendable, Equatable, CaseIterable {
    /// `--exclude`, `--only` or the config's `exclude` list removed it.
    case excluded
    /// None of the items is of a kind it takes (or `canPerform` said no).
    case unsupportedItems = "unsupported-items"
    /// It cannot run on this machine now; the detail says why.
    case unavailable
}

/// The verdict on one activity for the current items.
public struct ActivityEvaluation {
    /// The activity judged.
    public let activity: any Activity
    /// The reason it is hidden, or `nil` when it is eligible.
    public let reason: HiddenReason?
    /// Words for people: why it is hidden (or `nil`).
    public let detail: String?

    /// Whether the activity shows in the picker.
    public var isEligible: Bool { reason == nil }
}

/// The rules that narrow the activities: exclusion, `--only`, and pins.
public struct ActivityFilter: Sendable, Equatable {
    /// Types that never show (`--exclude`, config `exclude`).
    public var excluded: Set<ActivityType>
    /// When set, only these types may show (`--only`).
    public var only: Set<ActivityType>?
    /// Types that come before all others, in this order (config `pinned`).
    public var pinned: [ActivityType]

    /// Creates a filter.
    public init(excluded: Set<ActivityType> = [], only: Set<ActivityType>? = nil, pinned: [ActivityType] = []) {
        self.excluded = excluded
        self.only = only
        self.pinned = pinned
    }
}
