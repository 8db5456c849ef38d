import ShareSupport

extension MailAddress {
    /// The address as a person reads it: `Name <local@domain>` or `local@domain`.
    public var displayString: String {
        guard let name = displayName, !name.isEmpty else { return addrSpec }
        return "\(name) <\(addrSpec)>"
    }

    /// `user@host` for the local user, as mutt makes it when no address is set.
    public static func localUser(_ user: String) -> MailAddress? {
        let host = HostName.current
        // From its parts: the address parser's first run showed in the picker's first paint (bench/tui).
        return try? MailAddress(displayName: nil, localPart: user, domain: host.contains(".") ? host : host + ".localdomain")
    }
}
