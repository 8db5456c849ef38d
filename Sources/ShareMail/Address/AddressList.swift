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
