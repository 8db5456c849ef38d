import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// One concrete thing to share: text, a URL, an image or a file.
///
/// This is what an activity finally receives. Items that are computed on
/// demand (item sources and providers) stand behind ``ActivityItem`` and
/// resolve to a `ShareItem` per activity type.
public enum ShareItem: Sendable, Equatable {
    /// Plain text.
    case text(String)
    /// A URL that is not a `file:` URL.
    case url(URL)
    /// A file whose detected content type is `image/*`.
    case image(FileItem)
    /// Any other file.
    case file(FileItem)

    /// The item's kind, as the support table sees it.
    public var kind: ItemKind {
        switch self {
        case .text: .string
        case .url: .url
        case .image: .image
        case .file: .file
        }
    }

    /// Whether this item counts as `kind` for eligibility: an image is also a file.
    public func satisfies(_ kind: ItemKind) -> Bool {
        kind == self.kind || (self.kind == .image && kind == .file)
    }

    /// Whether an activity that supports `kinds` can take this item.
    public func isSupported(by kinds: Set<ItemKind>) -> Bool {
        kinds.contains { satisfies($0) }
    }

    /// The file behind an image or file item, if any.
    public var fileItem: FileItem? {
        switch self {
        case .image(let file), .file(let file): file
        case .text, .url: nil
        }
    }

    /// A MIME type for the item (`text/plain`, `text/uri-list`, or the file's detected type).
    public var contentType: String {
        switch self {
        case .text: "text/plain"
        case .url: "text/uri-list"
        case .image(let file), .file(let file): file.contentType
        }
    }

    /// Makes a file or image item from a file, choosing the kind from its content type.
    public static func fileOrImage(_ file: FileItem) -> ShareItem {
        file.isImage ? .image(file) : .file(file)
    }
}

/// A file to share: its name, detected content type, size, and where its bytes live.
public struct FileItem: Sendable, Equatable {
    /// Where the bytes of a file item are.
    public enum Storage: Sendable, Equatable {
        /// A regular file on disk; read when needed, never loaded whole.
        case path(URL)
        /// Bytes in memory, such as stdin or an item provider's result.
        case data(Data)
    }

    /// The name shown to people and used for attachments (`Q4 Projections.pdf`).
    public var name: String
    /// The MIME type detected from the bytes (`image/png`, `application/pdf`).
    public var contentType: String
    /// The size in bytes.
    public var size: Int64
    /// Where the bytes are.
    public var storage: Storage

    /// Creates a file item from its parts.
    public init(name: String, contentType: String, size: Int64, storage: Storage) {
        self.name = name
        self.contentType = contentType
        self.size = size
        self.storage = storage
    }

    /// Whether the detected content type is `image/*`.
    public var isImage: Bool { contentType.lowercased().hasPrefix("image/") }

    /// The file's path, when it lives on disk.
    public var path: URL? {
        if case .path(let url) = storage { return url }
        return nil
    }
}

extension URL {
    /// Whether this is a web address (http or https, with a host): what a
    /// reading list keeps, a browser opens and a download fetches. A
    /// `mailto:` or `tel:` URL is an address, not a page.
    public var isWebAddress: Bool {
        guard let scheme = scheme?.lowercased() else { return false }
        return (scheme == "http" || scheme == "https") && host?.isEmpty == false
    }
}
