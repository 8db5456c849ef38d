/// One mailbox: an optional display name and an address (RFC 5322 §3.4).
///
/// Every `MailAddress` has been validated: no line breaks or control
/// characters anywhere, an ASCII local part of at most 64 octets (share
/// does not send SMTPUTF8), a host name or IP literal as domain, and an
/// ``addrSpec`` of at most 254 octets. The fields are read-only so the
/// checks cannot be bypassed; make a new value with
/// ``init(displayName:localPart:domain:)`` to change one.
public struct MailAddress: Sendable, Hashable {
    /// RFC 5321 §4.5.3.1.1: the longest local part, in octets.
    public static let maximumLocalPartLength = 64
    /// RFC 5321 §4.5.3.1.3 (a 256-octet path less the angle brackets).
    public static let maximumAddressLength = 254

    /// The display name, unquoted and unescaped (may be non-ASCII, may hold
    /// commas); `nil` when there is none. A mailbox written without one
    /// takes the text of its first comment (`kim@example.com (Kim Minsu)`).
    public private(set) var displayName: String?
    /// The local part's content, unquoted: `john doe` for `"john doe"@example.com`.
    public private(set) var localPart: String
    /// The domain as written: a host name (possibly Unicode, `bücher.example`)
    /// or a domain literal such as `[192.0.2.1]`.
    public private(set) var domain: String
    /// The domain's ASCII form (IDNA 2008 via libidn2), e.g.
    /// `xn--bcher-kva.example`; equal to ``domain`` when that is ASCII.
    public private(set) var asciiDomain: String
    /// The address for the envelope and headers: the local part (quoted
    /// only when it needs quoting) + `@` + ``asciiDomain``.
    public private(set) var addrSpec: String

    /// Creates an address from its parts, checking them as the parser does.
    ///
    /// `localPart` is the unquoted content (`john doe`, not `"john doe"`);
    /// an empty `displayName` means none.
    /// - Throws: ``AddressError`` for control characters, a non-ASCII or
    ///   empty local part, an invalid domain, or a part that is too long.
    public init(displayName: String?, localPart: String, domain: String) throws(AddressError) {
        let input = (displayName.map { "\($0) " } ?? "") + "<\(localPart)@\(domain)>"
        if let displayName {
            try AddressCharacters.rejectControls(in: displayName, what: "a display name", input: input)
        }
        try AddressCharacters.rejectControls(in: localPart, what: "an address", input: input)
        try AddressCharacters.rejectControls(in: domain, what: "an address", input: input)
        self = try MailAddress(checkedName: displayName, localPart: localPart, domain: domain, input: input)
    }

    /// Parses exactly one mailbox: `kim@example.com`, `Kim Minsu <kim@example.com>`,
    /// `"Kim, Minsu" <kim@example.com>`, `kim@example.com (Kim Minsu)`.
    ///
    /// - Throws: ``AddressError`` for anything ``AddressList/parse(_:)``
    ///   rejects, and for empty text, a list of addresses, or a group.
    public init(parsing text: String) throws(AddressError) {
        var parser = try AddressParser(text)
        let entries = try parser.parseList()
        guard !parser.sawListSeparator, entries.count <= 1 else {
            throw AddressError(
                input: text,
                message: "expected one address but found a list (a ',' outside quotes); give a single address, or quote a name that contains ','"
            )
        }
        switch entries.first {
        case nil:
            throw AddressError(input: text, message: "no address given; write one like name@example.com")
        case .group(let name, _):
            throw AddressError(
                input: text,
                message: "expected one address but found the group '\(AddressError.excerpt(name))' (a ':' outside quotes); give a single address"
            )
        case .mailbox(let address):
            self = address
        }
    }

    /// Creates an address from parts whose characters have already been
    /// screened for line breaks and controls; checks everything else.
    init(checkedName displayName: String?, localPart: String, domain: String, input: String) throws(AddressError) {
        guard !localPart.isEmpty else {
            throw AddressError(input: input, message: "empty local part before '@'; an address looks like name@example.com")
        }
        guard localPart.unicodeScalars.allSatisfy(\.isASCII) else {
            throw AddressError(
                input: input,
                message: "the local part '\(AddressError.excerpt(localPart))' has non-ASCII characters, and share does not send SMTPUTF8 mail; use an ASCII address"
            )
        }
        guard !localPart.unicodeScalars.contains("\t") else {
            throw AddressError(input: input, message: "a tab is not allowed in the local part of an address; remove it")
        }
        let local = MailAddress.encodedLocalPart(localPart)
        guard local.utf8.count <= MailAddress.maximumLocalPartLength else {
            throw AddressError(
                input: input,
                message: "the local part is \(local.utf8.count) octets long; the limit is \(MailAddress.maximumLocalPartLength) (RFC 5321)"
            )
        }
        let ascii = try AddressDomain.asciiForm(of: domain, input: input)
        let spec = local + "@" + ascii
        guard spec.utf8.count <= MailAddress.maximumAddressLength else {
            throw AddressError(
                input: input,
                message: "the address is \(spec.utf8.count) octets long; the limit is \(MailAddress.maximumAddressLength) (RFC 5321)"
            )
        }
        self.displayName = displayName.flatMap { $0.isEmpty ? nil : $0 }
        self.localPart = localPart
        self.domain = domain
        self.asciiDomain = ascii
        self.addrSpec = spec
    }

    /// `localPart` as written in an addr-spec: as is when it is a dot-atom,
    /// otherwise in double quotes with `"` and `\` escaped by a backslash.
    static func encodedLocalPart(_ localPart: String) -> String {
        let isDotAtom = localPart.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { atom in
            !atom.isEmpty && atom.unicodeScalars.allSatisfy(AddressCharacters.isASCIIAtext)
        }
        if isDotAtom { return localPart }
        return HeaderEncoding.quoted(localPart)
    }
}

extension MailAddress {
    /// The mailbox as a person writes it and the address parser reads it
    /// back: `Kim Minsu <kim@example.com>`, the name quoted when it holds
    /// a special character (`"Lee, J" <lee@example.com>`), or the bare
    /// address when there is no name.
    public var formatted: String {
        guard let name = displayName, !name.isEmpty else { return addrSpec }
        let specials = Set("()<>[]:;@\\,.\"".unicodeScalars)
        let plain = !name.unicodeScalars.contains { specials.contains($0) || $0.value < 0x20 }
            && !name.hasPrefix(" ") && !name.hasSuffix(" ")
        if plain { return "\(name) <\(addrSpec)>" }
        var quoted = "\""
        for scalar in name.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { quoted += "\\" }
            quoted.unicodeScalars.append(scalar)
        }
        return quoted + "\" <\(addrSpec)>"
    }
}
