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
        case .image(let file), .file(let file): "\(file.contentType) · \(byteCount(file.size))"
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

    /// `512 B`, `12.3 KB`, `4.0 MB` (powers of 1000, as file managers show).
    public static func byteCount(_ bytes: Int64) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        let units = ["KB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        // 999.96 would print as "1000.0": move up a unit before rounding can do that.
        while value >= 999.95 && unit < units.count - 1 { value /= 1000; unit += 1 }
        // One decimal, rounded half up as printf does for these values.
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}
