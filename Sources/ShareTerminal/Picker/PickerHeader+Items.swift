import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport

extension PickerHeader {
    /// The header for `items`: an explicit title, else the link metadata's,
    /// else the first item's name, host or text; the subtitle says what and
    /// how much.
    public static func describing(_ items: [ShareItem], title: String? = nil, metadata: LinkMetadata? = nil) -> PickerHeader {
        let first = items.first
        let heading = title ?? metadata?.title ?? first.map(name) ?? Localization.text("Nothing to share")
        let subtitle: String
        if let url = metadata?.url {
            // Link metadata describes the shared thing: show where it lives.
            subtitle = (url.host.map { $0 + (url.path == "/" ? "" : url.path) } ?? url.absoluteString)
                + (items.count > 1 ? " · " + Localization.plural("%@ item", "%@ items", count: items.count, String(items.count)) : "")
        } else if items.isEmpty {
            subtitle = ""
        } else if items.count == 1, let item = first {
            subtitle = detail(item)
        } else {
            var counts: [(ItemKind, Int)] = []
            for item in items {
                if let index = counts.firstIndex(where: { $0.0 == item.kind }) { counts[index].1 += 1 } else { counts.append((item.kind, 1)) }
            }
            subtitle = Localization.plural("%@ item: %@", "%@ items: %@", count: items.count, String(items.count),
                                           counts.map { count($0.1, of: $0.0) }.joined(separator: ", "))
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
        case .text(let text): Localization.plural("Text · %@ character", "Text · %@ characters", count: text.count, String(text.count))
        case .url(let url): url.absoluteString
        case .image(let file), .file(let file): "\(file.contentType) · \(ByteCount.words(file.size))"
        }
    }

    /// "2 images", "1 link".
    static func count(_ count: Int, of kind: ItemKind) -> String {
        let number = String(count)
        return switch kind {
        case .string: Localization.plural("%@ text", "%@ texts", count: count, number)
        case .url: Localization.plural("%@ link", "%@ links", count: count, number)
        case .image: Localization.plural("%@ image", "%@ images", count: count, number)
        case .file: Localization.plural("%@ file", "%@ files", count: count, number)
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
