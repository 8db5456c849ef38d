import FoundationEssentials

/// The `<title>` of a web page, for the reading list: fetched within 3
/// seconds from the first 256 KiB, entities decoded, white space folded
/// into single spaces, on one line.
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

    /// The text of the first `<title>` element of `html`, decoded.
    static func title(in html: [UInt8]) -> String? {
        let lower = lowered(html)
        guard let open = find("<title", in: lower, from: 0),
              let end = lower[open...].firstIndex(of: UInt8(ascii: ">")),
              let close = find("</title", in: lower, from: end + 1) else { return nil }
        let raw = String(decoding: html[(end + 1)..<close], as: UTF8.self)
        let folded = decodeEntities(raw).split { $0.isWhitespace || $0.isNewline }.joined(separator: " ")
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

    /// `&amp;` `&lt;` `&gt;` `&quot;` `&apos;` `&#39;` `&#x27;` and other numeric references.
    static func decodeEntities(_ text: String) -> String {
        var out = ""
        var rest = text[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(12).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = String(after[..<semicolon])
            let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " "]
            var decoded = named[name]
            if decoded == nil, name.hasPrefix("#") {
                let digits = name.dropFirst()
                let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
                decoded = value.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            }
            if let decoded {
                out += decoded
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}
