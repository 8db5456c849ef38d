import ShareSupport
import Testing

/// Percent-encoding with the set each caller keeps.
struct PercentEncodingTests {
    @Test func onlyUnreservedBytesStayAsTheyAreByDefault() {
        #expect(PercentEncoding.encoded("a-Z_0.9~") == "a-Z_0.9~")
        #expect(PercentEncoding.encoded("a b+c&d#e=f%\n/") == "a%20b%2Bc%26d%23e%3Df%25%0A%2F")
        #expect(PercentEncoding.encoded("한") == "%ED%95%9C")
        #expect(PercentEncoding.encoded("Sent Messages/2026"[...]) == "Sent%20Messages%2F2026")
    }

    @Test func theKeptSetIsTheCallers() {
        // ASCII kept: only the bytes of other characters are written %XX.
        #expect(PercentEncoding.encoded("wiki/한국 a?b", keeping: { $0 < 0x80 }) == "wiki/%ED%95%9C%EA%B5%AD a?b")
        #expect(PercentEncoding.encoded("\u{1}\u{7F}", keeping: { $0 < 0x80 }) == "\u{1}\u{7F}")
        // Nothing kept: every byte.
        #expect(PercentEncoding.encoded("a\u{0}", keeping: { _ in false }) == "%61%00")
        #expect(PercentEncoding.encoded("", keeping: { _ in false }) == "")
    }
}
