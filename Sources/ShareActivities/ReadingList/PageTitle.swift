import FoundationEssentials
import ShareSupport

/// The `<title>` of a web page, for the reading list: fetched within 3
/// seconds from the first 256 KiB, read by libxml2's HTML parser, white
/// space folded into single spaces, on one line.
enum PageTitle {
    static let timeoutSeconds = 3
    static let maximumBytes = 256 << 10

    /// The page's title, or `nil` when it cannot be had in time or has none.
    static func fetch(_ url: URL) -> String? {
        var body: [UInt8] = []
        let get = HTTPGet(timeoutSeconds: timeoutSeconds, maximumRedirects: 5, maximumBytes: maximumBytes)
        do {
            try get.fetch(url) { bytes in
                body.append(contentsOf: bytes)
                // The title is near the top: stop once it is in.
                return !PageTitle.hasClosingTitle(body)
            }
        } catch {
            // Stopped early on purpose once the title was in: that is fine.
            guard hasClosingTitle(body) else { return nil }
        }
        return title(in: body)
    }

    private static func hasClosingTitle(_ bytes: [UInt8]) -> Bool {
        find("</title", in: lowered(bytes), from: 0) != nil
    }

    /// The text of the first `<title>` element of `html`, read by libxml2's
    /// HTML parser (entities decoded, the page's own encoding); `nil`
    /// without one, or without libxml2.
    static func title(in html: [UInt8]) -> String? {
        var text: String?
        try? HTMLReader.read(html, encoding: nil) { event in
            switch event {
            case .start("title"): text = ""
            case .end("title"): return false
            case .text(let words): text? += words
            default: break
            }
            return true
        }
        let folded = (text ?? "").split { $0.isWhitespace || $0.isNewline }.joined(separator: " ")
        return folded.isEmpty ? nil : folded
    }

    /// ASCII letters in lower case, every other byte as it is (the same length).
    private static func lowered(_ bytes: [UInt8]) -> [UInt8] {
        bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    }

    /// Where `needle` (ASCII) first occurs in `bytes` at or after `start`.
    private static func find(_ needle: String, in bytes: [UInt8], from start: Int) -> Int? {
        let pattern = Array(needle.utf8)
        guard bytes.count >= pattern.count, start <= bytes.count - pattern.count else { return nil }
        for index in start...(bytes.count - pattern.count) where bytes[index] == pattern[0] {
            if bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
        }
        return nil
    }
}
