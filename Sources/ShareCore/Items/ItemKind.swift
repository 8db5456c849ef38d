/// The four kinds of thing that can be shared (SPEC §1).
///
/// The kind of an item decides which activities may take it. An image is
/// also a file: ``ShareItem/satisfies(_:)`` answers true for both `.image`
/// and `.file` when the item is an image.
public enum ItemKind: String, CaseIterable, Sendable, Hashable, Codable {
    /// Plain text.
    case string
    /// A URL with a scheme (`https:`, `mailto:` …); `file:` URLs are files.
    case url
    /// A file whose content type, detected from its bytes, is `image/*`.
    case image
    /// Any other regular file, or bytes that are not UTF-8 text.
    case file

    /// The column heading of the support table (`String`, `URL`, `Image`, `Files`).
    public var columnTitle: String {
        switch self {
        case .string: "String"
        case .url: "URL"
        case .image: "Image"
        case .file: "Files"
        }
    }
}
