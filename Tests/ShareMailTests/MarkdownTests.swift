import Foundation
import Testing
@testable import ShareMail

/// Markdown rendered by cmark-gfm for a mail's HTML part: GitHub's tables,
/// autolinks and strikethrough, and raw HTML shown as text.
struct MarkdownTests {
    @Test func tablesAutolinksStrikethroughAndCode() throws {
        let html = try Markdown.html("""
            # Numbers

            | quarter | total |
            |---|--:|
            | Q3 | 1,204 |

            ~~draft~~ see https://example.com/q3 and `a < b`

            ```
            let x = 1
            ```
            """)
        #expect(html.contains("<h1>Numbers</h1>"))
        #expect(html.contains("<table>") && html.contains("<th>quarter</th>") && html.contains("<td align=\"right\">1,204</td>"), "\(html)")
        #expect(html.contains("<del>draft</del>"))
        #expect(html.contains("<a href=\"https://example.com/q3\">https://example.com/q3</a>"))
        #expect(html.contains("<code>a &lt; b</code>"))
        #expect(html.contains("<pre><code>let x = 1\n</code></pre>"))
    }

    @Test func rawHTMLIsEscapedNotPassedThrough() throws {
        let html = try Markdown.html("Hi <b onclick=\"x()\">there</b> <script>alert(1)</script>\n\n<div>\n<iframe src=\"https://evil\"></iframe>\n</div>\n\n[click](javascript:alert(1))\n")
        #expect(!html.contains("<b") && !html.contains("<script") && !html.contains("<div") && !html.contains("<iframe"), "\(html)")
        #expect(html.contains("&lt;b onclick=&quot;x()&quot;&gt;there&lt;/b&gt;"), "\(html)")
        #expect(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(html.contains("&lt;iframe src=&quot;https://evil&quot;&gt;&lt;/iframe&gt;"), "\(html)")
        #expect(!html.contains("javascript:"), "a javascript: link loses its target: \(html)")
    }

    @Test func aMarkdownBodyIsTheTextAndItsHTMLAsAlternatives() throws {
        let text = "**Bold** and a list:\n\n- one\n- two\n"
        let message = try MailMessage(from: try MailAddress(parsing: "kim@example.com"), to: try AddressList.parse("lee@example.com"),
                                      subject: "md", body: .markdown(text), messageID: "md.1@example.com")
        let sink = DataSink()
        try MIMEWriter().write(message, to: sink, includeBcc: false)
        let mail = MIMEPart(parsing: Array(sink.data))
        #expect(mail.contentType == "multipart/alternative")
        let parts = mail.children()
        #expect(parts.map(\.contentType) == ["text/plain", "text/html"])
        #expect(parts.first?.text == text, "the plain part is the Markdown as typed")
        let html = try #require(parts.last?.text)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("<meta charset=\"utf-8\">"))
        #expect(html.contains("<strong>Bold</strong>") && html.contains("<li>one</li>"))
    }
}
