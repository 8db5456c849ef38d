#if canImport(Glibc)
import Glibc
#endif
import CMarkdown

/// Markdown rendered as HTML for a mail's HTML alternative (cmark-gfm, with
/// GitHub's tables, autolinks and strikethrough). Raw HTML in the text is
/// shown as the text it is: a mail written in Markdown never carries
/// markup its writer did not see.
public enum Markdown {
    /// The HTML of `text`, a fragment (no `<html>` around it).
    public static func html(_ text: String) throws(MailError) -> String {
        var error = [CChar](repeating: 0, count: 256)
        let rendered = text.utf8CString.withUnsafeBufferPointer { buffer in
            share_markdown_html(buffer.baseAddress, buffer.count - 1, &error, error.count)
        }
        guard let rendered else {
            throw MailError(.configuration, "cannot render Markdown: " + String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// A whole HTML document of `text`'s rendering, in UTF-8.
    public static func document(_ text: String) throws(MailError) -> String {
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n" + (try html(text)) + "</body></html>\n"
    }
}
