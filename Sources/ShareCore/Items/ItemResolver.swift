import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// Turns command-line words into items by the rules of SPEC §1.
///
/// - an existing path is a file, or an image when its bytes say `image/*`;
/// - a word with a URL scheme is a URL, and a `file:` URL is a file;
/// - anything else is an error: a typo never turns silently into text;
/// - standard input is text when it is valid UTF-8 without NUL bytes, and
///   a file otherwise.
public struct ItemResolver: Sendable {
    /// Schemes that make a word a URL even without `//` (`mailto:a@b`).
    public static let opaqueSchemes: Set<String> = ["mailto", "tel", "sms", "urn", "data", "magnet", "geo", "xmpp", "sip", "news"]

    private let detector: any ContentTypeDetector

    /// Creates a resolver that asks `detector` for content types.
    public init(detector: any ContentTypeDetector) {
        self.detector = detector
    }

    /// An `ITEM` argument: a path, a URL, or a `file:` URL.
    public func item(forArgument word: String) throws(ItemError) -> ShareItem {
        if FileStatus.exists(word) { return try file(atPath: word) }
        if let scheme = ItemResolver.scheme(of: word),
           word.containsBytes("://") || ItemResolver.opaqueSchemes.contains(scheme) {
            return try url(word)
        }
        do {
            return try file(atPath: word)
        } catch .noSuchFile(let path) {
            throw .noSuchWord(path)
        }
    }

    /// A `--url` argument: must have a scheme; `file:` URLs become files.
    public func url(_ text: String) throws(ItemError) -> ShareItem {
        guard let scheme = ItemResolver.scheme(of: text) else {
            throw .badURL(text, reason: Localization.marked("a URL needs a scheme, such as https:"))
        }
        guard !text.unicodeScalars.contains(where: { $0.value < 0x21 || $0.value == 0x7F }),
              let url = URL(string: text) else {
            throw .badURL(text, reason: Localization.marked("spaces and control characters must be percent-encoded"))
        }
        if scheme == "file" {
            if let host = url.host, !host.isEmpty, host != "localhost" {
                throw .badURL(text, reason: Localization.marked("a file: URL must name a file on this machine"))
            }
            let path = url.path
            guard !path.isEmpty else { throw .badURL(text, reason: Localization.marked("it names no file")) }
            return try file(atPath: path)
        }
        return .url(url)
    }

    /// A `--file` argument or a path: must be a readable regular file.
    public func file(atPath path: String) throws(ItemError) -> ShareItem {
        switch FileStatus.of(path) {
        case .missing: throw FileStatus.isSymbolicLink(path) ? .brokenLink(path) : .noSuchFile(path)
        case .directory: throw .isDirectory(path)
        case .other(let what): throw .notRegularFile(path, what: what)
        case .inaccessible(let reason): throw .unreadable(path, reason: reason)
        case .regular(let size):
            if let reason = FileStatus.openFailure(path) { throw .unreadable(path, reason: reason) }
            let type = try detector.contentType(ofFileAt: path)
            let url = URL(fileURLWithPath: path)
            return .fileOrImage(FileItem(name: url.lastPathComponent, contentType: type, size: size, storage: .path(url)))
        }
    }

    /// The UTF-8 text of a readable regular file (`--body-file`).
    public func text(ofFileAt path: String) throws(ItemError) -> String {
        switch FileStatus.of(path) {
        case .missing: throw .noSuchFile(path)
        case .directory: throw .isDirectory(path)
        case .other(let what): throw .notRegularFile(path, what: what)
        case .inaccessible(let reason): throw .unreadable(path, reason: reason)
        case .regular:
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .unreadable(path, reason: FileStatus.openFailure(path) ?? "read failed")
            }
            guard !data.contains(0), let text = String(data: data, encoding: .utf8) else {
                throw .notText(path)
            }
            return text
        }
    }

    /// Standard input's bytes: text when valid UTF-8 without NUL, a file otherwise.
    public func standardInput(_ data: Data) throws(ItemError) -> ShareItem {
        guard !data.isEmpty else { throw .emptyInput }
        if !data.contains(0), let text = String(data: data, encoding: .utf8) {
            return .text(text)
        }
        let type = try detector.contentType(of: data)
        return .fileOrImage(FileItem(name: "stdin", contentType: type, size: Int64(data.count), storage: .data(data)))
    }

    /// The lower-cased scheme of `text` (`https`), or `nil` when it has none.
    public static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              scheme.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "+-.".unicodeScalars.contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }
}
