import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A plain-text rendering of HTML, for the text/plain alternative.
///
/// Not a browser: it drops tags, `<script>` and `<style>` contents, turns
/// block ends and `<br>` into line breaks, and decodes the common entities
/// and numeric character references.
enum HTMLText {
    static func plainText(from html: String) -> String {
        var out = ""
        var index = html.startIndex
        var skipping: String?
        let blocks: Set<String> = ["br", "p", "/p", "div", "/div", "li", "/li", "tr", "/tr", "h1", "/h1", "h2", "/h2",
                                   "h3", "/h3", "blockquote", "/blockquote", "ul", "/ul", "ol", "/ol", "table", "/table"]
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let inner = html[html.index(after: index)..<close]
                let name = inner.split(whereSeparator: { $0 == " " || $0 == "/" && inner.first != "/" || $0 == "\n" })
                    .first.map { $0.lowercased() } ?? ""
                if let tag = skipping {
                    if name == "/" + tag { skipping = nil }
                } else if name == "script" || name == "style" {
                    skipping = name
                } else if blocks.contains(name) {
                    if name == "li" { out += "\n- " } else if !out.hasSuffix("\n") { out += "\n" }
                }
                index = html.index(after: close)
                continue
            }
            if skipping == nil {
                if character == "&", let semicolon = html[index...].prefix(10).firstIndex(of: ";") {
                    let entity = String(html[html.index(after: index)..<semicolon])
                    if let decoded = decode(entity) {
                        out += decoded
                        index = html.index(after: semicolon)
                        continue
                    }
                }
                if character.isWhitespace {
                    if !(out.last?.isWhitespace ?? true) { out += " " }
                } else {
                    out.append(character)
                }
            }
            index = html.index(after: index)
        }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        var result: [String] = []
        for line in lines where !(line.isEmpty && (result.last?.isEmpty ?? true)) { result.append(line) }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.joined(separator: "\n")
    }

    private static func decode(_ entity: String) -> String? {
        switch entity {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        case "nbsp": return " "
        default:
            if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let value = UInt32(entity.dropFirst(2), radix: 16),
               let scalar = Unicode.Scalar(value) { return String(scalar) }
            if entity.hasPrefix("#"), let value = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(value) {
                return String(scalar)
            }
            return nil
        }
    }
}
