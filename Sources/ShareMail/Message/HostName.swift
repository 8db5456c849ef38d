#if canImport(Glibc)
import Glibc
#endif

/// This machine's name from `gethostname(2)`, without a DNS lookup.
enum HostName {
    static var current: String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? "localhost" : name
    }
}

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
