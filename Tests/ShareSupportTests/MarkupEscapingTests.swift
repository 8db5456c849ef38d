import ShareSupport
import Testing

/// HTML and XML escaping: the five characters as references, and what XML
/// cannot carry dropped (HTML keeps it).
struct MarkupEscapingTests {
    @Test func htmlEscapesTheFiveAndKeepsTheRest() {
        #expect(MarkupEscaping.html("<a href=\"x\">Tom & Jerry's</a>\u{1}é")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;\u{1}é")
        // An ampersand with a combining mark is still an ampersand.
        #expect(MarkupEscaping.html("&\u{301}") == "&amp;\u{301}")
    }

    @Test func xmlEscapesTheFiveAndDropsWhatXMLCannotCarry() {
        #expect(MarkupEscaping.xml("a'b\"<&>\t\n\r\u{0}\u{7}\u{FFFE}\u{FFFF}ok") == "a&apos;b&quot;&lt;&amp;&gt;\t\n\rok")
        #expect(MarkupEscaping.xml("안녕 🙂") == "안녕 🙂")
    }
}
