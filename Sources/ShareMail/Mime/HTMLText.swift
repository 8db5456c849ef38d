import ShareSupport

/// A plain-text rendering of HTML, for the text/plain alternative.
///
/// Not a browser: libxml2's HTML parser reads the markup (entities and
/// character references decoded, unclosed elements closed); the text is
/// kept without `<script>` and `<style>` contents, block ends and `<br>`
/// become line breaks, list items "- ", and white space is folded.
enum HTMLText {
    static func plainText(from html: String) throws(MailError) -> String {
        var out = ""
        var skipping: String?
        let blocks: Set<String> = ["br", "p", "/p", "div", "/div", "li", "/li", "tr", "/tr", "h1", "/h1", "h2", "/h2",
                                   "h3", "/h3", "blockquote", "/blockquote", "ul", "/ul", "ol", "/ol", "table", "/table"]
        do {
            try HTMLReader.read(html) { event in
                switch event {
                case .start(let name), .end(let name):
                    let tag = if case .end = event { "/" + name } else { name }
                    if let skipped = skipping {
                        if tag == "/" + skipped { skipping = nil }
                    } else if tag == "script" || tag == "style" {
                        skipping = tag
                    } else if blocks.contains(tag) {
                        if tag == "li" { out += "\n- " } else if !out.hasSuffix("\n") { out += "\n" }
                    }
                case .text(let text) where skipping == nil:
                    // White space folded into one space, none at a line's start.
                    var spaced = out.unicodeScalars.last?.properties.isWhitespace ?? true
                    for scalar in text.unicodeScalars {
                        if scalar == "\u{A0}" {
                            // A no-break space stays, one for one.
                            out.unicodeScalars.append(" ")
                            spaced = true
                        } else if scalar.properties.isWhitespace {
                            if !spaced { out.unicodeScalars.append(" ") }
                            spaced = true
                        } else {
                            out.unicodeScalars.append(scalar)
                            spaced = false
                        }
                    }
                case .text: break
                }
                return true
            }
        } catch {
            throw MailError(.configuration, "cannot write the plain-text part of the HTML body: \(error)")
        }
        let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in String(line.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
        var result: [String] = []
        for line in lines where !(line.isEmpty && (result.last?.isEmpty ?? true)) { result.append(line) }
        while result.last?.isEmpty == true { result.removeLast() }
        return result.joined(separator: "\n")
    }
}
