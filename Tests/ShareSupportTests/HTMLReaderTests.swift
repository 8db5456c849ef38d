import ShareSupport
import Testing

struct HTMLReaderTests {
    private func events(_ html: String) throws -> [HTMLReader.Event] {
        var events: [HTMLReader.Event] = []
        try HTMLReader.read(html) { events.append($0); return true }
        return events
    }

    @Test func elementsAreImpliedAndClosedAndEntitiesDecoded() throws {
        #expect(try events("<P>a &amp; b<br>c&#x2013;d &eacute;") == [
            .start("html"), .start("body"), .start("p"), .text("a & b"), .start("br"), .end("br"), .text("c–d é"),
            .end("p"), .end("body"), .end("html"),
        ])
        #expect(try events("").isEmpty)
    }

    @Test func theVisitorStopsTheReading() throws {
        var seen = 0
        try HTMLReader.read("<p>a</p><p>b</p>") { _ in
            seen += 1
            return seen < 3
        }
        #expect(seen == 3)
    }

    @Test func aDocumentWithoutAnEncodingGivenIsReadInTheOneItDeclares() throws {
        // "é" in ISO-8859-1 is one byte, 0xE9: read as the page's <meta> says.
        let bytes = Array("<html><head><meta charset=\"iso-8859-1\"><title>Caf".utf8) + [0xE9] + Array("</title></head></html>".utf8)
        var texts: [String] = []
        try HTMLReader.read(bytes, encoding: nil) { event in
            if case .text(let text) = event { texts.append(text) }
            return true
        }
        #expect(texts == ["Café"])
        // Without a declaration, UTF-8.
        var utf8: [String] = []
        try HTMLReader.read(Array("<title>분기</title>".utf8), encoding: nil) { event in
            if case .text(let text) = event { utf8.append(text) }
            return true
        }
        #expect(utf8 == ["분기"])
    }
}
