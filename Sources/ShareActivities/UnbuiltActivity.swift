import ShareCore
import ShareSupport

/// A system activity whose behaviour is not built yet.
///
/// It carries its row of the support table so `--explain` can list it,
/// and it is always `unavailable` with the detail "not built yet": it never
/// shows in the picker and never pretends to work.
@MainActor
public final class UnbuiltActivity: Activity {
    /// The row of the support table this activity stands for.
    public let descriptor: SystemActivityDescriptor

    /// Creates the stand-in for one row of the support table.
    public init(_ descriptor: SystemActivityDescriptor) {
        self.descriptor = descriptor
    }

    public var activityType: ActivityType { descriptor.type }
    public var activityTitle: String { descriptor.title }
    public var localizedActivityTitle: String { Localization.text(descriptor.title) }
    public var activityCategory: ActivityCategory { descriptor.category }
    public var supportedKinds: Set<ItemKind> { descriptor.kinds }
    public var availability: Availability { .unavailable("not built yet") }

    public func perform(_ session: ActivitySession) async {
        session.fail(ActivityError(code: ActivityError.Code.unavailable, message: "\(descriptor.title) is not built yet"))
    }
}
