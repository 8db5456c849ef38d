import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// An object that stands behind an item and answers per activity type.
///
/// The terminal counterpart of `UIActivityItemSource`. The picker asks
/// for the placeholder at once (it decides eligibility and the preview),
/// and asks for the real item only after a person picked an activity.
///
/// Conformers guarantee that ``placeholderItem()`` is cheap and never
/// fails, and that the item returned for a type has the placeholder's
/// kind (or `nil`, which leaves the item out for that activity).
public protocol ActivityItemSource: AnyObject, Sendable {
    /// An item of the right kind, available at once; used for eligibility.
    func placeholderItem() -> ShareItem
    /// The item to hand to `activityType`, or `nil` to leave it out.
    func item(for activityType: ActivityType) -> ShareItem?
    /// A subject for activities that have one (Mail's subject line).
    func subject(for activityType: ActivityType) -> String
    /// The MIME type of the item given to `activityType`.
    func dataTypeIdentifier(for activityType: ActivityType) -> String
    /// A thumbnail no larger than `size`, for the preview header.
    func thumbnail(for activityType: ActivityType, size: ThumbnailSize) -> Thumbnail?
    /// Title, icon and URL for the preview header.
    func linkMetadata() -> LinkMetadata?
}

extension ActivityItemSource {
    /// By default an item source has no subject.
    public func subject(for activityType: ActivityType) -> String { "" }
    /// By default the data type is the placeholder's content type.
    public func dataTypeIdentifier(for activityType: ActivityType) -> String { placeholderItem().contentType }
    /// By default there is no thumbnail.
    public func thumbnail(for activityType: ActivityType, size: ThumbnailSize) -> Thumbnail? { nil }
    /// By default there is no link metadata.
    public func linkMetadata() -> LinkMetadata? { nil }
}
