@testable import ShareActivities
import Testing

/// Message's pure parts: what may go into a header, what a JID is, what a
/// To field holds, and how stanzas escape what they carry.
@Suite struct MessageUnitTests {
    @Test func aHeaderValueWithALineBreakIsRefusedEvenAsOneCharacter() {
        // "\r\n" is one Swift Character, equal to neither "\r" nor "\n": bytes are what count.
        #expect(!HTTPClient.isOneLine("Bearer x\r\nX-Injected: 1"))
        #expect(!HTTPClient.isOneLine("a\nb") && !HTTPClient.isOneLine("a\rb") && !HTTPClient.isOneLine("a\u{0}b"))
        #expect(HTTPClient.isOneLine("Bearer eyJhbGciOi.x-y_z"))
    }

    @Test func bareJIDs() {
        for good in ["kim@example.com", "김민수@예시.한국", "a@localhost", "x@[127.0.0.1]", "x@[::1]"] {
            #expect(XMPPAddress.isBareJID(good), "\(good)")
        }
        for bad in ["kim", "@example.com", "kim@", "kim@example.com/phone", "bob@localhost:5222", "a b@example.com", "k<m@example.com",
                    "kim@exa mple.com", "kim@example..com", "kim@ex?ample.com", "a@b@c", "kim@[not-an-ip]"] {
            #expect(!XMPPAddress.isBareJID(bad), "\(bad)")
        }
    }

    @Test func toHoldsJIDsNamesAndNamedAddresses() {
        #expect(MessageActivity.recipientList("Bob Builder <bob@localhost>, team,\ncarol@localhost, ") == ["bob@localhost", "team", "carol@localhost"])
    }

    @Test func stanzasEscapeWhatTheyCarry() {
        let xml = XMPPDelivery.chat(to: "a'b@example.com", id: "1", body: "<b>&\"\u{1}\u{7}ok", link: "https://x/?a=1&b=2")
        #expect(xml == "<message type='chat' to='a&apos;b@example.com' id='1'><body>&lt;b&gt;&amp;&quot;ok</body>"
                + "<x xmlns='jabber:x:oob'><url>https://x/?a=1&amp;b=2</url></x></message>")
    }
}
