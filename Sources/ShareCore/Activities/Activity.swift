import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A thing a person can do with the shared items: one tile in the picker.
///
/// The terminal counterpart of `UIActivity`. The share sheet drives every
/// activity through the same lifecycle, on the main actor:
///
/// 1. ``canPerform(with:)`` with the placeholders of the items it supports;
/// 2. ``prepare(with:)`` with the real items it supports;
/// 3. either ``makeForm()`` returns a form, which the front end shows
///    (the compose screen), or the activity has no form;
/// 4. ``perform(_:)``, which must end by calling ``ActivitySession/finish(_:returnedItems:)``
///    or ``ActivitySession/fail(_:)`` exactly once before it returns.
///
/// Conformers guarantee that `canPerform` and `makeForm` are cheap and
/// have no side effects, and that `perform` reports exactly one outcome.
@MainActor
public protocol Activity: AnyObject {
    /// The type name (`mail`, or a reverse-DNS name for custom activities).
    var activityType: ActivityType { get }
    /// The title, the same in every language (`--list`, `--json`).
    var activityTitle: String { get }
    /// The title under the tile, in the reader's language.
    var localizedActivityTitle: String { get }
    /// The tile's icon.
    var activityImage: ActivityImage { get }
    /// The row the tile goes in.
    var activityCategory: ActivityCategory { get }
    /// The kinds of item the activity takes; it is handed only those.
    var supportedKinds: Set<ItemKind> { get }
    /// Whether the activity can run on this machine now, apart from the items.
    var availability: Availability { get }
    /// ``availability`` when it is known without asking anything slow, else
    /// `nil` (an ``AvailabilityChecking`` activity that has not asked yet).
    var settledAvailability: Availability? { get }
    /// Whether the activity can act on these items (the ones of its kinds).
    func canPerform(with items: [ShareItem]) -> Bool
    /// Why none of `items` (the placeholders of the kinds it takes) can go,
    /// in words for people; `nil` when at least one can.
    ///
    /// A system activity takes less than its row of the support table only
    /// this way, when that is the truth of the service: Facebook's share
    /// link carries one URL, a share link cannot carry a local image. The
    /// share sheet asks after the kinds are checked: when the activity
    /// refuses every item it is `unsupported-items` with these words as the
    /// detail. An activity refuses only what it cannot take at all, cheaply
    /// and without side effects, and leaves out the rest itself.
    func refusal(of items: [ShareItem]) -> String?
    /// Receives the real items before the form or `perform`; throw to fail the run.
    func prepare(with items: [ShareItem]) async throws
    /// The form to show before `perform`, or `nil` to perform at once.
    func makeForm() -> ActivityForm?
    /// Does the work and reports the outcome through `session`, exactly once.
    func perform(_ session: ActivitySession) async
}

extension Activity {
    /// By default the one title: an application translates its own.
    public var localizedActivityTitle: String { activityTitle }
    /// By default an activity shows a generic glyph.
    public var activityImage: ActivityImage { .glyph("◆") }
    /// By default an activity is an action.
    public var activityCategory: ActivityCategory { .action }
    /// By default an activity takes every kind.
    public var supportedKinds: Set<ItemKind> { Set(ItemKind.allCases) }
    /// By default an activity is available.
    public var availability: Availability { .available }
    /// By default the availability asks nothing slow.
    public var settledAvailability: Availability? { availability }
    /// By default an activity can perform when it was handed at least one item.
    public func canPerform(with items: [ShareItem]) -> Bool { !items.isEmpty }
    /// By default an activity takes every item of its kinds.
    public func refusal(of items: [ShareItem]) -> String? { nil }
    /// By default there is nothing to prepare.
    public func prepare(with items: [ShareItem]) async throws {}
    /// By default an activity has no form.
    public func makeForm() -> ActivityForm? { nil }
}

/// An activity that knows whether it can run only by asking something slow
/// (a print server: asking CUPS takes 10 ms and more). Its
/// ``Activity/settledAvailability`` is `nil` until the answer is known
/// without asking or asked. The picker paints without waiting for the
/// answer and adds the tile when it comes; `--list`,
/// `--explain` and `--activity` read ``Activity/availability``, which asks
/// and waits.
@MainActor
public protocol AvailabilityChecking: Activity {
    /// The question, to be run on another thread; its answer goes to ``settle(_:)``.
    func availabilityCheck() -> @Sendable () -> Availability
    /// Keeps the answer: ``Activity/settledAvailability`` and ``Activity/availability`` give it from now on.
    func settle(_ availability: Availability)
}

/// An activity whose form starts from the subject offered to it:
/// `--subject`, else the first item source's subject for its type.
@MainActor
public protocol SubjectReceiving: Activity {
    /// The subject offered; the share sheet sets it before ``Activity/makeForm()``.
    var offeredSubject: String? { get set }
}

/// An activity whose form starts from the item sources' link metadata
/// (a picture's alt text from its source's title).
@MainActor
public protocol MetadataReceiving: Activity {
    /// The item sources' metadata; the share sheet sets it before ``Activity/makeForm()``.
    var offeredMetadata: [LinkMetadata] { get set }
}

/// An activity that can say how it will do its work when picked
/// (Mastodon: through its API with the account, or through its share
/// link), for `--explain`.
@MainActor
public protocol ActivityExplaining: Activity {
    /// How it will do its work, in a few words.
    var explanation: String { get }
}

/// A tile's icon.
public enum ActivityImage: Sendable, Equatable {
    /// One glyph, such as `✉`.
    case glyph(String)
    /// A few lines of text art.
    case textArt([String])
    /// An encoded image (PNG, JPEG), drawn as terminal symbols.
    case image(Thumbnail)
}

/// Whether an activity can run here, independent of the items.
public enum Availability: Sendable, Equatable {
    /// It can run.
    case available
    /// It cannot run; the detail says why in words (`not built yet`,
    /// `no contacts folder`).
    case unavailable(String)

    /// Whether this is ``available``.
    public var isAvailable: Bool { self == .available }
}
