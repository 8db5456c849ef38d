import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// What the preview header shows for an item: a title, an icon and a URL.
///
/// The terminal counterpart of `LPLinkMetadata`.
public struct LinkMetadata: Sendable, Equatable {
    /// The title of the shared thing (a page title, a document name).
    public var title: String?
    /// The URL the metadata describes.
    public var url: URL?
    /// A small image for the header.
    public var icon: Thumbnail?

    /// Creates link metadata.
    public init(title: String? = nil, url: URL? = nil, icon: Thumbnail? = nil) {
        self.title = title
        self.url = url
        self.icon = icon
    }
}

/// An encoded image (PNG, JPEG …) used as a thumbnail or an icon.
public struct Thumbnail: Sendable, Equatable {
    /// The encoded bytes.
    public var data: Data
    /// The MIME type of `data`, such as `image/png`.
    public var contentType: String

    /// Creates a thumbnail from encoded image bytes.
    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }
}

/// The largest size, in pixels, that a thumbnail is asked to fit.
public struct ThumbnailSize: Sendable, Equatable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size in pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
