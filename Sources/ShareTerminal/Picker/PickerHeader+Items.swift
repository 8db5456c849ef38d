import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore

extension PickerHeader {
    /// The header for `items`: an explicit title, else the link metadata's,
    /// else the first item's name, host or text; the subtitle says what and
    /// how much.
    public static func describing(_ items: [ShareItem], title: String? = nil, metadata: LinkMetadata? = nil) -> PickerHeader {
        let first = items.first
        let heading = title ?? metadata?.title ?? first.map(name) ?? "Nothing to share"
        let subtitle: String
        if let url = metadata?.url {
            // Link metadata describes the shared thing: show where it lives.
            subtitle = (url.host.map { $0 + (url.path == "/" ? "" : url.path) } ?? url.absoluteString)
                + (items.count > 1 ? " · \(items.count) items" : "")
        } else if items.isEmpty {
            subtitle = ""
        } else if items.count == 1, let item = first {
            subtitle = detail(item)
        } else {
            var counts: [(String, Int)] = []
            for item in items {
                let word = noun(item)
                if let index = counts.firstIndex(where: { $0.0 == word }) { counts[index].1 += 1 } else { counts.append((word, 1)) }
            }
            subtitle = "\(items.count) items: " + counts.map { "\($0.1) \($0.0)\($0.1 == 1 ? "" : "s")" }.joined(separator: ", ")
        }
        return PickerHeader(title: heading, subtitle: subtitle, icon: first.map(icon) ?? "◆")
    }

    static func name(_ item: ShareItem) -> String {
        switch item {
        case .text(let text): "“" + TerminalText.excerpt(text, columns: 60) + "”"
        case .url(let url): url.host.map { $0 + url.path } ?? url.absoluteString
        case .image(let file), .file(let file): file.name
        }
    }

    static func detail(_ item: ShareItem) -> String {
        switch item {
        case .text(let text): "Text · \(text.count) character\(text.count == 1 ? "" : "s")"
        case .url(let url): url.absoluteString
        case .image(let file), .file(let file): "\(file.contentType) · \(ByteCount.words(file.size))"
        }
    }

    static func noun(_ item: ShareItem) -> String {
        switch item {
        case .text: "text"
        case .url: "link"
        case .image: "image"
        case .file: "file"
        }
    }

    static func icon(_ item: ShareItem) -> String {
        switch item {
        case .text: "¶"
        case .url: "↗"
        case .image: "▣"
        case .file: "▤"
        }
    }
}
