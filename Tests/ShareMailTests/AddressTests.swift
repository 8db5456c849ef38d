import Testing
@testable import ShareMail

/// Parses one mailbox, recording an issue (and returning nil) if it throws.
private func parsed(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> MailAddress? {
    do {
        return try MailAddress(parsing: text)
    } catch {
        Issue.record("\(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// The error `AddressList.parse` throws for `text`, or nil if it accepts it.
private func listError(_ text: String) -> AddressError? {
    do {
        _ = try AddressList.parse(text)
        return nil
    } catch {
        return error
    }
}

/// The error `MailAddress(parsing:)` throws for `text`, or nil if it accepts it.
private func mailboxError(_ text: String) -> AddressError? {
    do {
        _ = try MailAddress(parsing: text)
        return nil
    } catch {
        return error
    }
}

/// Asserts every field of an address.
private func expectFields(
    _ address: MailAddress?, name: String?, local: String, domain: String, ascii: String? = nil, spec: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let address else { return }
    #expect(address.displayName == name, sourceLocation: sourceLocation)
    #expect(address.localPart == local, sourceLocation: sourceLocation)
    #expect(address.domain == domain, sourceLocation: sourceLocation)
    #expect(address.asciiDomain == (ascii ?? domain), sourceLocation: sourceLocation)
    #expect(address.addrSpec == spec, sourceLocation: sourceLocation)
}

struct AddressTests {
    // MARK: - Accepted mailboxes

    /// A mailbox that parses, and every field it must have.
    struct Accepted: Sendable, CustomTestStringConvertible {
        var text: String
        var name: String?
        var local: String
        var domain: String
        var ascii: String?
        var spec: String

        init(_ text: String, name: String?, local: String, domain: String, ascii: String? = nil, spec: String) {
            (self.text, self.name, self.local, self.domain, self.ascii, self.spec) = (text, name, local, domain, ascii, spec)
        }

        var testDescription: String { text }
    }

    static let accepted: [Accepted] = [
        // A bare address.
        Accepted("kim@example.com", name: nil, local: "kim", domain: "example.com", spec: "kim@example.com"),
        // A name and an angle address.
        Accepted("Kim Minsu <kim@example.com>", name: "Kim Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // A quoted display name with a comma and escaped quotes.
        Accepted(#""Kim, Minsu" <kim@example.com>"#, name: "Kim, Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted(#""Kim \"MS\" Minsu" <kim@example.com>"#, name: #"Kim "MS" Minsu"#, local: "kim", domain: "example.com", spec: "kim@example.com"),
        // Korean display names, unquoted and quoted.
        Accepted("박지성 <park@example.com>", name: "박지성", local: "park", domain: "example.com", spec: "park@example.com"),
        Accepted(#""박지성" <park@example.com>"#, name: "박지성", local: "park", domain: "example.com", spec: "park@example.com"),
        Accepted("김 민수 <kim@example.com>", name: "김 민수", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // A quoted local part with a space stays quoted in the addr-spec.
        Accepted(#""john doe"@example.com"#, name: nil, local: "john doe", domain: "example.com", spec: #""john doe"@example.com"#),
        // Needless quotes are dropped and specials escaped.
        Accepted(#""john"@example.com"#, name: nil, local: "john", domain: "example.com", spec: "john@example.com"),
        Accepted(#""a\"b\\c"@example.com"#, name: nil, local: #"a"b\c"#, domain: "example.com", spec: #""a\"b\\c"@example.com"#),
        Accepted("first.last+tag@example.com", name: nil, local: "first.last+tag", domain: "example.com", spec: "first.last+tag@example.com"),
        // A trailing comment becomes the display name.
        Accepted("kim@example.com (Kim Minsu)", name: "Kim Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted("(Kim Minsu) kim@example.com", name: "Kim Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted("<kim@example.com> ( Kim )", name: "Kim", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // Nested comments are dropped or kept whole.
        Accepted("Kim (the (real) one) Minsu <kim@example.com>", name: "Kim Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted(#"kim@example.com (a (b) \) c)"#, name: "a (b) ) c", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // Comments wherever CFWS is allowed.
        Accepted("kim(one)@(two)example.com(three)", name: "one", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted("Kim <(x) kim@example.com (y)>", name: "Kim", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // Whitespace around tokens.
        Accepted("  Kim \t  Minsu   <  kim @ example.com  >  ", name: "Kim Minsu", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // An obsolete phrase with dots is a display name.
        Accepted("John Q. Public <jqp@example.com>", name: "John Q. Public", local: "jqp", domain: "example.com", spec: "jqp@example.com"),
        // A quoted display name that looks like an address is only a name.
        Accepted(#""alice@example.org" <bob@example.org>"#, name: "alice@example.org", local: "bob", domain: "example.org", spec: "bob@example.org"),
        // Encoded-word display names are decoded.
        Accepted("=?UTF-8?B?67CV7KeA7ISx?= <park@example.com>", name: "박지성", local: "park", domain: "example.com", spec: "park@example.com"),
        Accepted("=?utf-8?Q?Kim_Minsu?= =?UTF-8?B?6rmA66+87IiY?= <kim@example.com>", name: "Kim Minsu김민수", local: "kim", domain: "example.com", spec: "kim@example.com"),
        Accepted("=?x-unknown?Q?abc?= <kim@example.com>", name: "=?x-unknown?Q?abc?=", local: "kim", domain: "example.com", spec: "kim@example.com"),
        // Domain literals.
        Accepted("kim@[192.0.2.1]", name: nil, local: "kim", domain: "[192.0.2.1]", spec: "kim@[192.0.2.1]"),
        Accepted("Kim <kim@[IPv6:2001:db8::1]>", name: "Kim", local: "kim", domain: "[IPv6:2001:db8::1]", spec: "kim@[IPv6:2001:db8::1]"),
        // An ASCII domain is kept as written.
        Accepted("Kim@Example.COM", name: nil, local: "Kim", domain: "Example.COM", spec: "Kim@Example.COM"),
        Accepted("kim@xn--bcher-kva.example", name: nil, local: "kim", domain: "xn--bcher-kva.example", spec: "kim@xn--bcher-kva.example"),
        Accepted("root@localhost", name: nil, local: "root", domain: "localhost", spec: "root@localhost"),
        // Internationalized domains become punycode.
        Accepted("kim@bücher.example", name: nil, local: "kim", domain: "bücher.example", ascii: "xn--bcher-kva.example",
                 spec: "kim@xn--bcher-kva.example"),
        Accepted("박지성 <x@도메인.한국>", name: "박지성", local: "x", domain: "도메인.한국", ascii: "xn--hq1bm8jm9l.xn--3e0b707e",
                 spec: "x@xn--hq1bm8jm9l.xn--3e0b707e"),
        // Decomposed ü (u + U+0308) is normalized before conversion.
        Accepted("kim@bu\u{308}cher.example", name: nil, local: "kim", domain: "bu\u{308}cher.example", ascii: "xn--bcher-kva.example",
                 spec: "kim@xn--bcher-kva.example"),
    ]

    @Test(arguments: accepted) func acceptsAMailboxWithEveryField(_ mailbox: Accepted) {
        expectFields(parsed(mailbox.text), name: mailbox.name, local: mailbox.local, domain: mailbox.domain, ascii: mailbox.ascii,
                     spec: mailbox.spec)
    }

    @Test func entryTextsSplitOnlyAtTheCommasBetweenEntries() {
        #expect(AddressList.entryTexts(#""Lee, J" <lee@x.com>, kim@ , (a, comment) b@y.org"#)
            == [#""Lee, J" <lee@x.com>"#, "kim@", "(a, comment) b@y.org"])
        #expect(AddressList.entryTexts("Team: a@x.com, b@x.com;, c@x.com") == ["Team: a@x.com, b@x.com;", "c@x.com"])
        #expect(AddressList.entryTexts(#""a \" , b" <q@x.com>,<odd,local@x.com>"#) == [#""a \" , b" <q@x.com>"#, "<odd,local@x.com>"])
        #expect(AddressList.entryTexts("a@x.com,\u{0301}b@x.com") == ["a@x.com", "\u{0301}b@x.com"])
        #expect(AddressList.entryTexts(" , ,") == [])
        #expect(AddressList.entryTexts("a@[IPv6:2001:db8::1], b@x.com, kim@") == ["a@[IPv6:2001:db8::1]", "b@x.com", "kim@"])
    }

    @Test func formattedMailboxesReadBackAsThemselves() throws {
        for text in [#""Lee, J" <lee@x.com>"#, "kim@example.com <kim@example.com>", #"say "hi" <a@x.com>"#,
                     "박지성 <park@example.com>", "J. Kim <j@x.com>", "plain@x.com", #"back\slash <b@x.com>"#] {
            guard let address = try? MailAddress(parsing: text) else { continue }
            let again = try MailAddress(parsing: address.formatted)
            #expect(again.displayName == address.displayName && again.addrSpec == address.addrSpec, "\(text) → \(address.formatted)")
        }
        #expect(try MailAddress(parsing: #""Lee, J" <lee@x.com>"#).formatted == #""Lee, J" <lee@x.com>"#)
        #expect(try MailAddress(parsing: "박지성 <park@example.com>").formatted == "박지성 <park@example.com>")
    }

    @Test func quotedAtSignIsOneAddress() throws {
        let entries = try AddressList.parse(#""a@b"@example.com"#)
        #expect(entries.count == 1)
        expectFields(
            AddressList.mailboxes(entries).first, name: nil, local: "a@b", domain: "example.com",
            spec: #""a@b"@example.com"#
        )
    }

    // MARK: - Domains

    // MARK: - Lists and groups

    @Test func listWithQuotedCommasAndEmptyEntries() throws {
        let entries = try AddressList.parse(#""Kim, Minsu" <kim@example.com>, , lee@example.org,, "#)
        #expect(entries.count == 2)
        let addresses = AddressList.mailboxes(entries)
        #expect(addresses.map(\.addrSpec) == ["kim@example.com", "lee@example.org"])
        #expect(addresses.map(\.displayName) == ["Kim, Minsu", nil])
        #expect(try AddressList.parse("  ").isEmpty)
    }

    @Test func groupWithMembers() throws {
        let entries = try AddressList.parse(#"Team: a@x.com, "B" <b@y.com>;"#)
        let a = try MailAddress(displayName: nil, localPart: "a", domain: "x.com")
        let b = try MailAddress(displayName: "B", localPart: "b", domain: "y.com")
        #expect(entries == [.group(name: "Team", members: [a, b])])
    }

    @Test func emptyGroupAndFlattening() throws {
        let entries = try AddressList.parse(
            #"undisclosed-recipients:;, first@example.com, "The Team" : (lead) c@z.com, d@z.com ; (end)"#
        )
        #expect(entries.count == 3)
        #expect(entries.first == .group(name: "undisclosed-recipients", members: []))
        let addresses = AddressList.mailboxes(entries)
        #expect(addresses.map(\.addrSpec) == ["first@example.com", "c@z.com", "d@z.com"])
        #expect(addresses.map(\.displayName) == [nil, "lead", nil])
        guard case .group(let name, _) = entries.last else {
            Issue.record("expected a group last")
            return
        }
        #expect(name == "The Team")
    }

    // MARK: - Building from parts

    @Test func initFromPartsValidatesAndQuotes() throws {
        let address = try MailAddress(displayName: "Kim, Minsu", localPart: "john doe", domain: "bücher.example")
        expectFields(
            address, name: "Kim, Minsu", local: "john doe", domain: "bücher.example", ascii: "xn--bcher-kva.example",
            spec: #""john doe"@xn--bcher-kva.example"#
        )
        #expect(try MailAddress(displayName: "", localPart: "a", domain: "x.com").displayName == nil)
        #expect(address == (try MailAddress(parsing: #""Kim, Minsu" <"john doe"@bücher.example>"#)))
    }

    @Test func initFromPartsRejectsBadParts() {
        func error(_ name: String?, _ local: String, _ domain: String) -> String {
            do {
                _ = try MailAddress(displayName: name, localPart: local, domain: domain)
                return "accepted"
            } catch {
                return error.message
            }
        }
        #expect(error("Kim\r\nBcc: x@evil.com", "kim", "example.com").contains("line breaks and NUL"))
        #expect(error(nil, "kim\n", "example.com").contains("line breaks and NUL"))
        #expect(error(nil, "kim", "example.com\0").contains("line breaks and NUL"))
        #expect(error(nil, "", "example.com").contains("empty local part"))
        #expect(error(nil, "kim", "").contains("missing domain"))
        #expect(error(nil, "박", "example.com").contains("SMTPUTF8"))
        #expect(error(nil, "kim", "exa mple.com").contains("not a valid domain"))
        #expect(error(nil, "kim", "a@b.com").contains("not a valid domain"))
        #expect(error("Kim\u{1B}[31m", "kim", "example.com").contains("control character U+001B"))
    }

    // MARK: - Length limits

    @Test func lengthLimits() throws {
        let local64 = String(repeating: "l", count: 64)
        expectFields(
            parsed("\(local64)@example.com"), name: nil, local: local64, domain: "example.com",
            spec: "\(local64)@example.com"
        )
        #expect(listError(String(repeating: "l", count: 65) + "@example.com")?.message.contains("limit is 64") == true)
        // Quotes count: 63 characters that need quoting are 65 octets on the wire.
        #expect(listError("\"" + String(repeating: " ", count: 63) + "\"@example.com")?.message.contains("limit is 64") == true)

        let label = String(repeating: "d", count: 63)
        // 1 + 1 + (63 + 1) * 3 + 60 = 254 octets.
        let domain254 = "\(label).\(label).\(label).\(String(repeating: "e", count: 56)).com"
        #expect(("a@" + domain254).utf8.count == 254)
        expectFields(parsed("a@\(domain254)"), name: nil, local: "a", domain: domain254, spec: "a@\(domain254)")
        let message = listError("ab@\(domain254)")?.message ?? ""
        #expect(message.contains("255 octets long; the limit is 254"), "\(message)")

        let domain256 = Array(repeating: label, count: 4).joined(separator: ".") + ".com"
        #expect(listError("a@\(domain256)")?.message.contains("the limit is 255") == true)
        #expect(listError("a@\(label)d.com")?.message.contains("longer than 63") == true)
    }

    // MARK: - Rejections

    /// Malformed mailboxes, and what the error says.
    static let malformed: [(input: String, expected: String)] = [
        // Two '@' outside quotes: never silently the first address.
        ("a@b@c.com", "more than one '@' outside quotes in 'a@b@c.com'"),
        ("Kim <a@b@c.com>", "more than one '@'"),
        ("kim", "missing '@' in 'kim'"),
        ("Kim Minsu", "missing '@' in 'Kim Minsu'"),
        ("<kim>", "missing '@' in 'kim'"),
        ("@example.com", "empty local part"),
        ("\"\"@example.com", "empty local part"),
        ("kim@", "missing domain after '@'"),
        ("Kim <kim@>", "missing domain after '@'"),
        ("Kim <kim@example.com", "'<' has no matching '>'"),
        ("kim@example.com>", "'>' has no matching '<'"),
        (#""Kim <kim@example.com>"#, "unbalanced double quote"),
        (#""Kim\" <kim@example.com>"#, "unbalanced double quote"),
        ("Kim (x <kim@example.com>", "unbalanced parentheses"),
        ("Kim (x (y) <kim@example.com>", "unbalanced parentheses"),
        ("kim@[192.0.2.1", "unbalanced brackets"),
        ("kim]@example.com", "unbalanced brackets"),
        ("A <a@x.com> <b@y.com>", "more than one <address> in one mailbox"),
        (#""A" <a@x.com> b@y.com"#, "unexpected 'b@y.com' after '>'"),
        ("<>", "'<>' are empty"),
        ("<@a.com:b@c.com>", "source routes"),
        ("<@a.com,@b.com:c@d.com>", "source routes"),
        ("john doe@example.com", "unquoted space in 'john doe'"),
        (#""Kim Minsu" kim@example.com"#, "unquoted space"),
        (#""john".doe@example.com"#, "mixes quoted and unquoted"),
        (".kim@example.com", "starts or ends with '.' or has '..'"),
        ("kim.@example.com", "starts or ends with '.' or has '..'"),
        ("k..im@example.com", "starts or ends with '.' or has '..'"),
        (#"ki\m@example.com"#, "backslash is only allowed inside double quotes"),
        ("[bot] <bot@example.com>", "'[bot]'"),
        ("Kim; Lee <lee@example.com>", "';' is outside a group"),
        ("a@x.com; b@y.com", "outside a group"),
        ("a@x.com:b@y.com", "unexpected ':b@y.com' after 'a@x.com'"),
        (".Kim <kim@example.com>", "cannot start with '.'"),
    ]

    /// Addresses that could be read two ways, and what the error says.
    static let ambiguous: [(input: String, expected: String)] = [
        // Unquoted specials in a display name, and CVE-2023-27043-style confusions.
        ("alice@example.com <bob@evil.com>", "display name containing '@' or other special characters must be in double quotes"),
        ("a,b <x@y.com>", "missing '@' in 'a'"),
        ("Bob <bob@x.com>@evil.com", "unexpected '@evil.com' after '>'"),
        ("alice@example.org)<bob@example.org>", "unbalanced parentheses: ')' has no matching '('"),
        ("alice@example.org)@evil.com", "unbalanced parentheses"),
        ("<bob@x.com>alice@evil.com", "unexpected 'alice@evil.com' after '>'"),
        ("alice@example.com.<bob@evil.com>", "unexpected '<bob@evil.com>' after 'example.com.'"),
        ("alice@example.com<bob@evil.com>", "must be in double quotes"),
        ("alice@example.org (<bob@evil.com>", "unbalanced parentheses"),
        ("bob@evil.com\"alice@example.org\"", "unexpected '\"alice@example.org\"'"),
        ("alice@example.org <bob@evil.com>, carol@example.com", "must be in double quotes"),
        ("\"alice@example.org\"@evil.com <bob@example.org>", "must be in double quotes"),
        ("alice(@example.org)@evil.com x", "unexpected 'x'"),
    ]

    /// Domains that are not valid, and what the error says.
    static let badDomains: [(input: String, expected: String)] = [
        ("kim@exa_mple.com", "'_' is not allowed in a domain"),
        ("kim@-example.com", "starts or ends with '-'"),
        ("kim@example-.com", "starts or ends with '-'"),
        ("kim@example..com", "two dots in a row"),
        ("kim@.example.com", "starts with '.'"),
        ("kim@example.com.", "ends with '.'"),
        ("kim@example .com", "space or comment inside the domain"),
        ("kim@example.123", "top-level label '123' is all digits"),
        ("kim@192.0.2.1", "must be written in brackets, like [192.0.2.1]"),
        ("kim@[example.org]", "not an IP address"),
        ("kim@[300.0.2.1]", "not an IP address"),
        ("kim@[IPv6:2001:db8::zz]", "is not an IPv6 address"),
        ("kim@a\u{202E}b.com", "not a valid domain name (IDNA"),
        ("kim@xn--zz.com", "not a valid domain name (IDNA"),
        ("kim@도메인..한국", "two dots in a row"),
        ("kim@bücher。。example", "empty label"),
    ]

    @Test(arguments: malformed + ambiguous + badDomains)
    func rejectsNamingTheReasonAndTheInput(input: String, expected: String) {
        let error = listError(input)
        #expect(error?.message.contains(expected) == true, "\(input): \(error?.description ?? "accepted")")
        #expect(error?.input == input)
    }

    @Test func rejectsNonASCIILocalParts() {
        for input in ["박지성@example.com", #""박지성"@example.com"#, "Park <jisung.박@example.com>"] {
            let message = listError(input)?.message ?? "accepted"
            #expect(message.contains("does not send SMTPUTF8 mail; use an ASCII address"), "\(input): \(message)")
        }
    }

    @Test func rejectsGroupMistakes() {
        #expect(listError("Team: a@x.com")?.message.contains("the group 'Team' has no closing ';'") == true)
        #expect(listError("Team: Sub: a@x.com;;")?.message.contains("groups cannot be nested") == true)
        #expect(listError("Team: a@x.com; b@y.com")?.message.contains("after the ';' that ends the group 'Team'") == true)
        #expect(listError(": a@x.com;")?.message.contains("a group needs a name") == true)
        #expect(listError("Team: a@x.com;;")?.message.contains("after the ';' that ends the group") == true)
    }

    @Test func mailboxParsingWantsExactlyOne() {
        #expect(mailboxError("a@x.com, b@y.com")?.message.contains("found a list") == true)
        #expect(mailboxError("a@x.com,")?.message.contains("found a list") == true)
        #expect(mailboxError("Team: a@x.com;")?.message.contains("found the group 'Team'") == true)
        #expect(mailboxError("undisclosed-recipients:;")?.message.contains("found the group") == true)
        #expect(mailboxError(" ")?.message.contains("no address given") == true)
        #expect(mailboxError("a@b@c.com")?.message.contains("more than one '@'") == true)
    }

    // MARK: - Line breaks, NUL and control characters

    @Test(arguments: ["\r", "\n", "\r\n", "\0", "\u{2028}", "\u{85}"])
    func rejectsLineBreaksAndNULEverywhere(character: String) {
        let templates = [
            "Ki#m <kim@example.com>",  // display name
            "\"Ki#m\" <kim@example.com>",  // quoted display name
            "kim@example.com (Ki#m)",  // comment
            "Kim (a (b#) c) <kim@example.com>",  // nested comment
            "ki#m@example.com",  // local part
            "\"ki#m\"@example.com",  // quoted local part
            "kim@exam#ple.com",  // domain
            "kim@[192.0.2.1#]",  // domain literal
            "Kim <kim@example.com>#",  // after the address
            "#kim@example.com",  // before the address
            "a@x.com,# b@y.com",  // between list entries
            "Team:# a@x.com;",  // inside a group
            "\"unclosed#",  // inside an unbalanced quote
        ]
        for template in templates {
            let input = template.split(separator: "#", omittingEmptySubsequences: false).joined(separator: character)
            let error = listError(input)
            #expect(
                error?.message.contains("line breaks and NUL are not allowed in an address") == true,
                "\(template): \(error?.description ?? "accepted")"
            )
        }
    }

    @Test func encodedLineBreaksInDisplayNamesAreRejected() {
        let message = listError("=?UTF-8?B?S2ltDQpCY2M6IGV2aWxAeC5jb20=?= <kim@example.com>")?.message ?? "accepted"
        #expect(message.contains("line breaks and NUL"), "\(message)")
        let control = listError("=?UTF-8?Q?Kim=07?= <kim@example.com>")?.message ?? "accepted"
        #expect(control.contains("control character U+0007"), "\(control)")
    }

    @Test func rejectsOtherControlCharacters() {
        #expect(listError("kim@example.com\u{7}")?.message.contains("control character U+0007") == true)
        #expect(listError("\"Kim\u{7F}\" <kim@example.com>")?.message.contains("control character U+007F") == true)
        #expect(listError("Kim\u{1B} <kim@example.com>")?.message.contains("control character U+001B") == true)
        #expect(listError("Kim \u{9B}31m <kim@example.com>")?.message.contains("control character U+009B") == true)
        // A tab is whitespace, but not part of a local part.
        #expect(listError("\"a\tb\"@example.com")?.message.contains("tab is not allowed in the local part") == true)
    }

    @Test func descriptionShowsControlCharactersVisibly() {
        let error = listError("kim@example.com\r\nRCPT TO:<evil@x.com>")
        #expect(
            error?.description
                == "invalid address 'kim@example.com␍␊RCPT TO:<evil@x.com>': line breaks and NUL are not allowed in an address; put the address on one line without control characters"
        )
        #expect(error?.input == "kim@example.com\r\nRCPT TO:<evil@x.com>")
        let nul = AddressError(input: "a\0b\u{7F}c\u{2028}", message: "m")
        #expect(nul.description == "invalid address 'a␀b␡c<U+2028>': m")
    }

    @Test func parsedAddressesAreValuesThatCompareEqual() throws {
        let one = try MailAddress(parsing: "Kim <kim@example.com>")
        let two = try MailAddress(parsing: "  Kim   <kim@example.com> (comment)")
        #expect(one == two)
        #expect(Set([one, two]).count == 1)
        #expect(one != (try MailAddress(parsing: "kim@example.com")))
    }
}
