/// One entry of an address list: a mailbox or a named group of mailboxes.
public enum AddressListEntry: Sendable, Hashable {
    /// A single mailbox: `Kim Minsu <kim@example.com>`.
    case mailbox(MailAddress)
    /// A group: `Friends: a@x.com, b@y.com;`, or `undisclosed-recipients:;` with no members.
    case group(name: String, members: [MailAddress])
}

/// Address lists: the value of To, Cc, Bcc, From and Reply-To, or a `--to` argument.
public enum AddressList {
    /// Parses a comma-separated address list (a header value or a --to argument).
    ///
    /// Entries are mailboxes or groups (RFC 5322 §3.4); empty entries
    /// (`a@x.com, , b@y.com`) are skipped, so blank text gives an empty list.
    /// Comments are dropped, except that a mailbox without a display name
    /// takes its first comment as one.
    /// - Throws: ``AddressError`` naming the problem for any entry that is
    ///   not exactly one well-formed mailbox or group; nothing is "fixed".
    public static func parse(_ text: String) throws(AddressError) -> [AddressListEntry] {
        var parser = try AddressParser(text)
        return try parser.parseList()
    }

    /// The entries of a list as written, split at the commas that separate
    /// them: not those inside a quoted string, a comment, angle brackets or
    /// a group. For reading what is valid of a list that does not parse
    /// whole (`"Lee, J" <lee@example.com>, kim@` keeps Lee).
    public static func entryTexts(_ text: String) -> [String] {
        var pieces: [String] = []
        var current: [UInt8] = []
        var quoted = false, escaped = false, comment = 0, angle = false, group = false, literal = false
        for byte in text.utf8 {
            defer { escaped = !escaped && byte == UInt8(ascii: "\\") && (quoted || comment > 0) }
            if !escaped {
                switch byte {
                case UInt8(ascii: "[") where !quoted && comment == 0: literal = true
                case UInt8(ascii: "]") where !quoted && comment == 0: literal = false
                case _ where literal: break
                case UInt8(ascii: "\"") where comment == 0: quoted.toggle()
                case UInt8(ascii: "(") where !quoted: comment += 1
                case UInt8(ascii: ")") where !quoted && comment > 0: comment -= 1
                case UInt8(ascii: "<") where !quoted && comment == 0: angle = true
                case UInt8(ascii: ">") where !quoted && comment == 0: angle = false
                case UInt8(ascii: ":") where !quoted && comment == 0 && !angle: group = true
                case UInt8(ascii: ";") where !quoted && comment == 0 && !angle: group = false
                case UInt8(ascii: ",") where !quoted && comment == 0 && !angle && !group:
                    pieces.append(String(decoding: current, as: UTF8.self))
                    current = []
                    continue
                default: break
                }
            }
            current.append(byte)
        }
        pieces.append(String(decoding: current, as: UTF8.self))
        return pieces.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    /// Every mailbox of a list, groups flattened (the envelope recipients).
    ///
    /// Keeps the order of the list; does not remove duplicates.
    public static func mailboxes(_ entries: [AddressListEntry]) -> [MailAddress] {
        entries.flatMap { entry -> [MailAddress] in
            switch entry {
            case .mailbox(let address): [address]
            case .group(_, let members): members
            }
        }
    }
}
