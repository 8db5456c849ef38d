/// A strict recursive-descent parser for RFC 5322 §3.4 address lists.
///
/// The grammar it accepts, over the tokens of ``AddressLexer``:
///
/// ```
/// list      = [entry] *("," [entry])
/// entry     = mailbox / group
/// group     = phrase ":" [mailbox] *("," [mailbox]) ";"
/// mailbox   = [phrase] "<" addr-spec ">"  /  addr-spec
/// addr-spec = (dot-atom / quoted-string) "@" (dot-atom / domain-literal)
/// phrase    = word *(word / ".")
/// ```
///
/// Anything else is an error, never a repair: a second `@`, text after
/// `>`, a special character in an unquoted display name, a stray bracket
/// or parenthesis. So the address the parser picks is always the one a
/// careful reader of the text sees.
struct AddressParser {
    /// The text being parsed, for error messages.
    private let input: String
    /// The input's Unicode scalars, for quoting parts of it in messages.
    private let scalars: [Unicode.Scalar]
    /// The input's tokens; the last one is always ``AddressToken/Kind/end``.
    private let tokens: [AddressToken]
    /// The current token; never past the end token.
    private var index = 0
    /// Whether a `,` separated entries at the top level (outside groups).
    private(set) var sawListSeparator = false

    /// Tokenizes `input`.
    init(_ input: String) throws(AddressError) {
        self.input = input
        self.scalars = Array(input.unicodeScalars)
        self.tokens = try AddressLexer.tokens(of: input)
    }

    /// Parses the whole input as an address list; empty entries are skipped.
    mutating func parseList() throws(AddressError) -> [AddressListEntry] {
        var entries: [AddressListEntry] = []
        while true {
            switch current.kind {
            case .end:
                return entries
            case .special(","):
                sawListSeparator = true
                advance()
            default:
                entries.append(try parseEntry())
            }
        }
    }

    // MARK: - Entries

    private var current: AddressToken { tokens[index] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    /// Parses a mailbox or a group; leaves the parser at the `,` or the end after it.
    private mutating func parseEntry() throws(AddressError) -> AddressListEntry {
        let start = index
        let phrase = collectWords()
        if current.isSpecial(":") {
            return try parseGroup(named: phrase)
        }
        return .mailbox(try parseMailbox(from: start, phrase: phrase, inGroup: false))
    }

    /// Parses `phrase ":" [mailbox-list] ";"` with the parser at the `:`.
    private mutating func parseGroup(named phrase: Range<Int>) throws(AddressError) -> AddressListEntry {
        guard let fullName = try displayName(phrase) else {
            throw fail(
                "a group needs a name before ':' (like Team: a@example.com;); put a display name containing ':' in double quotes"
            )
        }
        let name = AddressError.excerpt(fullName)
        advance()
        var members: [MailAddress] = []
        members: while true {
            switch current.kind {
            case .special(";"):
                advance()
                break members
            case .special(","):
                advance()
            case .end:
                throw fail("the group '\(name)' has no closing ';'; end it like \(name): a@example.com;")
            default:
                let start = index
                let words = collectWords()
                if current.isSpecial(":") {
                    throw fail(
                        "groups cannot be nested: '\(source(words))' inside the group '\(name)'; put a display name containing ':' in double quotes"
                    )
                }
                members.append(try parseMailbox(from: start, phrase: words, inGroup: true))
            }
        }
        switch current.kind {
        case .end, .special(","):
            return .group(name: fullName, members: members)
        default:
            throw fail("unexpected '\(rest(inGroup: false))' after the ';' that ends the group '\(name)'; separate list entries with ','")
        }
    }

    /// Parses one mailbox whose leading words (`phrase`, possibly empty)
    /// have been read; `start` is the index of its first token.
    private mutating func parseMailbox(
        from start: Int, phrase: Range<Int>, inGroup: Bool
    ) throws(AddressError) -> MailAddress {
        switch current.kind {
        case .special("<"):
            let name = try displayName(phrase)
            let angleStart = current.start
            let (local, domain) = try parseAngleAddress()
            let written = source(scalarsFrom: angleStart, to: tokens[index - 1].end)
            try expectMailboxEnd(inGroup: inGroup, after: written, angle: true)
            return try MailAddress(
                checkedName: name ?? firstComment(from: start), localPart: local, domain: domain, input: input
            )
        case .special("@"):
            let local = try localPart(phrase)
            advance()
            let domain = try parseDomain()
            let written = source(scalarsFrom: tokens[phrase.lowerBound].start, to: tokens[index - 1].end)
            if current.isSpecial("@") { throw secondAt(from: phrase.lowerBound, inGroup: inGroup) }
            try expectMailboxEnd(inGroup: inGroup, after: written, angle: false)
            return try MailAddress(
                checkedName: firstComment(from: start), localPart: local, domain: domain, input: input
            )
        default:
            throw notAMailbox(phrase: phrase, inGroup: inGroup)
        }
    }

    /// Parses `"<" addr-spec ">"` with the parser at the `<`.
    private mutating func parseAngleAddress() throws(AddressError) -> (localPart: String, domain: String) {
        advance()
        if current.isSpecial("@") {
            throw fail("source routes like <@relay.example:user@example.com> are not supported; write just <user@example.com>")
        }
        if current.isSpecial(">") {
            throw fail("the angle brackets '<>' are empty; put an address between them, like <name@example.com>")
        }
        let words = collectWords()
        guard current.isSpecial("@") else {
            if words.isEmpty {
                throw fail("unexpected '\(current.text.isEmpty ? "end" : current.text)' after '<'; write an address like <name@example.com>")
            }
            throw fail("missing '@' in '\(source(words))'; an address looks like name@example.com")
        }
        let local = try localPart(words)
        advance()
        let domain = try parseDomain()
        if current.isSpecial("@") { throw secondAt(from: words.lowerBound, inGroup: true) }
        guard current.isSpecial(">") else {
            if current.kind == .end || current.isSpecial(",") {
                throw fail("'<' has no matching '>'; close the address with '>'")
            }
            throw fail(
                "unexpected '\(current.text)' inside <…> after '\(source(words.lowerBound..<index))'; angle brackets hold exactly one address"
            )
        }
        advance()
        return (local, domain)
    }

    /// Checks that a mailbox ends here: at `,`, the end, or `;` in a group.
    private func expectMailboxEnd(inGroup: Bool, after written: String, angle: Bool) throws(AddressError) {
        switch current.kind {
        case .end, .special(","):
            return
        case .special(";"):
            if inGroup { return }
            throw fail(
                "';' after '\(written)' is outside a group; separate addresses with ',' (a group looks like Team: a@example.com;)"
            )
        case .special(">"):
            throw fail("'>' has no matching '<' (after '\(written)'); write an address like <name@example.com>")
        case .special("<") where angle:
            throw fail("more than one <address> in one mailbox; separate addresses with ','")
        case .special("<"):
            throw fail(
                "unexpected '<' after '\(written)'; a display name containing '@' or other special characters must be in double quotes, like \"\(written)\" <name@example.com>"
            )
        default:
            let what = angle ? "'>'" : "'\(written)'"
            throw fail("unexpected '\(rest(inGroup: inGroup))' after \(what); separate addresses with ','")
        }
    }

    // MARK: - Parts

    /// Reads atoms, quoted strings and dots; returns their token range.
    private mutating func collectWords() -> Range<Int> {
        let start = index
        while current.isWordOrDot { advance() }
        return start..<index
    }

    /// The local part written as the tokens `words`: one quoted string,
    /// or a dot-atom with no spaces or comments inside.
    private func localPart(_ words: Range<Int>) throws(AddressError) -> String {
        guard !words.isEmpty else {
            throw fail("empty local part before '@'; an address looks like name@example.com")
        }
        let written = source(words)
        let parts = tokens[words]
        if parts.dropFirst().contains(where: \.spaceBefore) {
            throw fail(
                "unquoted space in '\(written)' before '@'; quote a local part that has spaces (\"john doe\"@example.com), or write a name as Name <name@example.com>"
            )
        }
        if parts.count == 1, let only = parts.first, only.kind == .quoted {
            return only.text
        }
        if parts.contains(where: { $0.kind == .quoted }) {
            throw fail("the local part '\(written)' mixes quoted and unquoted text; quote the whole local part")
        }
        // A dot-atom alternates atom and '.', starting and ending with an atom.
        let isDotAtom = parts.count % 2 == 1
            && parts.enumerated().allSatisfy { offset, part in (offset % 2 == 0) == (part.kind == .atom) }
        guard isDotAtom else {
            throw fail(
                "the local part '\(written)' starts or ends with '.' or has '..'; remove the extra dot, or quote the local part"
            )
        }
        return parts.map(\.text).joined()
    }

    /// Parses the domain after `@`: a domain literal or a dot-atom with no
    /// spaces or comments inside.
    private mutating func parseDomain() throws(AddressError) -> String {
        let first = current
        switch first.kind {
        case .literal:
            advance()
            return first.text
        case .atom:
            break
        case .special("."):
            throw fail("the domain starts with '.'; remove the dot")
        default:
            throw fail("missing domain after '@'; an address looks like name@example.com")
        }
        var domain = first.text
        advance()
        while current.isSpecial(".") {
            let dot = current
            advance()
            guard current.kind == .atom, !dot.spaceBefore, !current.spaceBefore else {
                let shown = AddressError.excerpt(domain)
                if dot.spaceBefore || (current.kind == .atom && current.spaceBefore) {
                    throw fail("space or comment inside the domain '\(shown).'; remove it")
                }
                if current.isSpecial(".") {
                    throw fail("the domain '\(shown)..' has two dots in a row; remove one")
                }
                if current.kind == .end || current.isSpecial(",") || current.isSpecial(";") || current.isSpecial(">") {
                    throw fail("the domain '\(shown).' ends with '.'; remove the trailing dot")
                }
                throw fail("unexpected '\(rest(inGroup: false))' after '\(shown).'; the domain ends before it")
            }
            domain += "." + current.text
            advance()
        }
        return domain
    }

    /// The display name written as the tokens `phrase`: words joined by
    /// single spaces where the input had whitespace or comments, quoted
    /// strings unquoted, RFC 2047 encoded-words decoded. `nil` when empty.
    private func displayName(_ phrase: Range<Int>) throws(AddressError) -> String? {
        guard let first = phrase.first else { return nil }
        if tokens[first].isSpecial(".") {
            throw fail("a display name cannot start with '.'; put the name in double quotes")
        }
        var name = ""
        var previousWasEncoded = false
        for position in phrase {
            let token = tokens[position]
            let decoded = token.kind == .atom ? AddressEncodedWord.decode(token.text) : nil
            // RFC 2047 §6.2: whitespace between two encoded-words is not displayed.
            if position != first, token.spaceBefore, !(previousWasEncoded && decoded != nil) {
                name += " "
            }
            name += decoded ?? token.text
            previousWasEncoded = decoded != nil
        }
        try AddressCharacters.rejectControls(in: name, what: "a display name", input: input)
        return name.unicodeScalars.allSatisfy({ $0 == " " || $0 == "\t" }) ? nil : name
    }

    /// The first non-empty comment from token `start` to the current token,
    /// trimmed: the display name of a mailbox written without one.
    private func firstComment(from start: Int) -> String? {
        for token in tokens[start...index] {
            for comment in token.comments {
                let scalars = comment.unicodeScalars
                guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
                      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
                else { continue }
                return String(scalars[first...last])
            }
        }
        return nil
    }

    // MARK: - Errors

    private func fail(_ message: String) -> AddressError {
        AddressError(input: input, message: message)
    }

    /// The error for a second `@` outside quotes; `start` is the address's first token.
    private func secondAt(from start: Int, inGroup: Bool) -> AddressError {
        let end = entryEnd(inGroup: inGroup)
        let written = source(scalarsFrom: tokens[start].start, to: max(tokens[start].start, tokens[end - 1].end))
        return fail(
            "more than one '@' outside quotes in '\(written)'; an address has exactly one '@' (quote a local part that contains '@', like \"a@b\"@example.com)"
        )
    }

    /// The error for words (or nothing) followed by something that starts
    /// neither an address (`@`, `<`) nor a group (`:`).
    private func notAMailbox(phrase: Range<Int>, inGroup: Bool) -> AddressError {
        switch current.kind {
        case .special(">"):
            return fail("'>' has no matching '<'; write an address like <name@example.com>")
        case .special(";"):
            return fail("';' is outside a group; separate addresses with ',' (a group looks like Team: a@example.com;)")
        case .special(":"):
            return fail("groups cannot be nested; put a display name containing ':' in double quotes")
        case .literal:
            return fail(
                "unexpected '\(current.text)'; put a display name containing '[' or ']' in double quotes, or write an IP domain as name@\(current.text)"
            )
        case .end, .special(","):
            guard !phrase.isEmpty else {
                return fail("no address given; write one like name@example.com")
            }
            return fail("missing '@' in '\(source(phrase))'; an address looks like name@example.com")
        default:
            return fail("unexpected '\(current.text)'; write an address like name@example.com or Name <name@example.com>")
        }
    }

    /// The index of the token that ends the current entry: the next `,`,
    /// `;` (in a group), or the end.
    private func entryEnd(inGroup: Bool) -> Int {
        var end = index
        while true {
            switch tokens[end].kind {
            case .end, .special(","): return end
            case .special(";") where inGroup: return end
            default: end += 1
            }
        }
    }

    /// The input from the current token to the end of its entry, for messages.
    private func rest(inGroup: Bool) -> String {
        let end = entryEnd(inGroup: inGroup)
        guard end > index else { return current.text }
        return source(scalarsFrom: current.start, to: tokens[end - 1].end)
    }

    /// The input covered by the tokens `range`.
    private func source(_ range: Range<Int>) -> String {
        guard let first = range.first, let last = range.last else { return "" }
        return source(scalarsFrom: tokens[first].start, to: tokens[last].end)
    }

    /// The input between two scalar offsets, cut short for a message.
    private func source(scalarsFrom start: Int, to end: Int) -> String {
        AddressError.excerpt(String(String.UnicodeScalarView(scalars[start..<max(start, end)])))
    }
}
