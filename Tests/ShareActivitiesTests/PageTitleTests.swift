@testable import ShareActivities
import Testing

/// A page's title for the reading list, as libxml2's HTML parser reads it.
struct PageTitleTests {
    @Test func theTitleIsDecodedFoldedAndReadInThePagesEncoding() {
        #expect(PageTitle.title(in: Array("<TITLE>\n  Q4 &amp;\tmore &#8211; &eacute;t&eacute; </TITLE><title>second</title>".utf8))
            == "Q4 & more – été")
        let latin1 = Array("<meta http-equiv=\"Content-Type\" content=\"text/html; charset=iso-8859-1\"><title>Caf".utf8) + [0xE9]
            + Array("</title>".utf8)
        #expect(PageTitle.title(in: latin1) == "Café")
    }

    @Test func aPageWithoutATitleOrWithAnEmptyOneHasNone() {
        #expect(PageTitle.title(in: Array("<p>no title</p>".utf8)) == nil)
        #expect(PageTitle.title(in: Array("<title> \n </title>".utf8)) == nil)
        #expect(PageTitle.title(in: []) == nil)
    }

    @Test func aTitleCutShortIsTakenAsFarAsItGoes() {
        #expect(PageTitle.title(in: Array("<html><head><title>Half a ti".utf8)) == "Half a ti")
    }
}
