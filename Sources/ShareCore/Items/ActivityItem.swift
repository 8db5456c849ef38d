import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One entry of the items handed to the share sheet: a concrete item, an
/// item source, or an item provider.
///
/// The terminal counterpart of the `activityItems: [Any]` array. The
/// placeholder of each entry decides eligibility; the real item is resolved
/// per activity type after a person picked one.
public enum ActivityItem: Sendable {
    /// An item known now.
    case item(ShareItem)
    /// An object that answers per activity type.
    case source(any ActivityItemSource)
    /// A lazily computed item.
    case provider(ItemProvider)

    /// The item that stands for this entry until the real one is resolved.
    public var placeholder: ShareItem {
        switch self {
        case .item(let item): item
        case .source(let source): source.placeholderItem()
        case .provider(let provider): provider.placeholder
        }
    }

    /// The subject this entry offers to `activityType` (empty when it has none).
    public func subject(for activityType: ActivityType) -> String {
        switch self {
        case .item: ""
        case .source(let source): source.subject(for: activityType)
        case .provider(let provider): provider.subject
        }
    }

    /// Link metadata for the preview header, if the entry has any.
    public var linkMetadata: LinkMetadata? {
        switch self {
        case .item: nil
        case .source(let source): source.linkMetadata()
        case .provider(let provider): provider.metadata
        }
    }

    /// The real item for `activityType`, or `nil` when the entry leaves itself out.
    ///
    /// Providers compute off the caller's thread; their errors propagate.
    public func resolve(for activityType: ActivityType) async throws -> ShareItem? {
        switch self {
        case .item(let item): item
        case .source(let source): source.item(for: activityType)
        case .provider(let provider): try await provider.item(for: activityType)
        }
    }

    /// Shorthand for a text item.
    public static func text(_ text: String) -> ActivityItem { .item(.text(text)) }
    /// Shorthand for a URL item.
    public static func url(_ url: URL) -> ActivityItem { .item(.url(url)) }
}
