import Testing
@testable import ShareMail

struct MailtoURLTests {
    @Test func addressesSubjectAndBodyAreRead() throws {
        let mailto = try MailtoURL(parsing:
            "mailto:kim@example.com,lee@example.com?cc=park@example.com&bcc=boss@example.com&subject=Q4%20%EC%88%AB%EC%9E%90&body=line%201%0D%0Aline+2")
        #expect(mailto.to == ["kim@example.com", "lee@example.com"])
        #expect(mailto.cc == ["park@example.com"])
        #expect(mailto.bcc == ["boss@example.com"])
        #expect(mailto.subject == "Q4 숫자")
        #expect(mailto.body == "line 1\r\nline+2")
    }

    @Test func headerNamesAreCaseInsensitiveAndToFieldsAdd() throws {
        let mailto = try MailtoURL(parsing: "MAILTO:?To=a@example.com&TO=b@example.com&SUBJECT=hi")
        #expect(mailto.to == ["a@example.com", "b@example.com"])
        #expect(mailto.subject == "hi")
    }

    @Test func delimitersBeforeACombiningMarkStillDelimit() throws {
        // ",\u{0301}" and "&\u{0301}" are one character each: the split is on bytes (found by the mailto fuzz target).
        let mailto = try MailtoURL(parsing: "mailto:a@example.com,\u{0301}b@example.com?subject=hi&\u{05BA}x=1&body=yes")
        #expect(mailto.to == ["a@example.com", "\u{0301}b@example.com"])
        #expect(mailto.subject == "hi")
        #expect(mailto.body == "yes")
        let joined = try MailtoURL(parsing: "mailto:?to=%EF%BF%BD&to=%D6%BA,c@example.com")
        #expect(joined.to == ["\u{FFFD}", "\u{05BA}", "c@example.com"])
    }

    @Test func otherHeadersAndAttachmentsAreIgnored() throws {
        let mailto = try MailtoURL(parsing: "mailto:a@example.com?attach=/etc/passwd&attachment=%2Fetc%2Fshadow&in-reply-to=x&X-Mailer=y")
        #expect(mailto == (try MailtoURL(parsing: "mailto:a@example.com")))
    }

    @Test(arguments: ["mailto:a@example.com?subject=%E", "mailto:a@example.com?subject=%ZZ", "mailto:%FF@example.com"])
    func badPercentEncodingIsAnError(text: String) {
        #expect(throws: MailtoError.badEncoding(text)) { try MailtoURL(parsing: text) }
    }

    @Test func anotherSchemeIsAnError() {
        #expect(throws: MailtoError.notMailto("https://example.com")) { try MailtoURL(parsing: "https://example.com") }
    }
}
