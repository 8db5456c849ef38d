import CIdn2

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Validation of the domain of an address and its ASCII (IDNA 2008) form.
///
/// A domain is either a host name — written in Unicode or ASCII, converted
/// with libidn2 (non-transitional UTS #46 processing) and then checked as an
/// RFC 1123 host name — or a domain literal holding an IPv4 or IPv6 address.
enum AddressDomain {
    /// RFC 5321 §4.5.3.1.2: the longest domain, in octets.
    static let maximumLength = 255
    /// RFC 1035: the longest label, in octets.
    static let maximumLabelLength = 63

    /// The ASCII form of `domain` (punycode for Unicode labels; a literal or
    /// an ASCII name is returned as written), or an error saying what is wrong.
    static func asciiForm(of domain: String, input: String) throws(AddressError) -> String {
        guard !domain.isEmpty else {
            throw AddressError(input: input, message: "missing domain after '@'; an address looks like name@example.com")
        }
        if domain.hasPrefix("[") {
            try checkLiteral(domain, input: input)
            return domain
        }
        let ascii: String
        if domain.unicodeScalars.allSatisfy(\.isASCII) {
            ascii = domain
            // Let libidn2 check labels that claim to be punycode.
            if domain.lowercased().split(separator: ".").contains(where: { $0.hasPrefix("xn--") }) {
                _ = try idnaASCII(domain, input: input)
            }
        } else {
            ascii = try idnaASCII(domain, input: input)
        }
        try checkHostName(ascii, as: domain, input: input)
        return ascii
    }

    /// Runs `idn2_to_ascii_8z` with non-transitional processing.
    private static func idnaASCII(_ domain: String, input: String) throws(AddressError) -> String {
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(bitPattern: IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let status = domain.withCString { share_idn2_to_ascii_8z($0, &output, flags) }
        defer { share_idn2_free(output) }
        guard status == Int32(IDN2_OK.rawValue), let output else {
            let reason = share_idn2_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw AddressError(
                input: input,
                message: "'\(AddressError.excerpt(domain))' is not a valid domain name (IDNA: \(reason)); check its spelling"
            )
        }
        return String(cString: output)
    }

    /// Checks that `ascii` is a host name: labels of letters, digits and
    /// hyphens, none empty or longer than 63, none starting or ending with
    /// a hyphen, a top-level label that is not all digits, 255 octets at most.
    private static func checkHostName(_ ascii: String, as written: String, input: String) throws(AddressError) {
        func fail(_ reason: String) -> AddressError {
            AddressError(input: input, message: "'\(AddressError.excerpt(written))' is not a valid domain: \(reason)")
        }
        guard ascii.utf8.count <= maximumLength else {
            throw fail("it is \(ascii.utf8.count) octets long, and the limit is \(maximumLength)")
        }
        let labels = ascii.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            guard !label.isEmpty else {
                throw fail("it has an empty label (a leading, trailing or doubled dot); remove the extra dot")
            }
            guard label.utf8.count <= maximumLabelLength else {
                throw fail("the label '\(AddressError.excerpt(String(label)))' is longer than \(maximumLabelLength) characters")
            }
            if let bad = label.unicodeScalars.first(where: { !isLetterDigitHyphen($0) }) {
                throw fail("'\(bad)' is not allowed in a domain; use only letters, digits, '-' and '.'")
            }
            guard label.first != "-", label.last != "-" else {
                throw fail("the label '\(label)' starts or ends with '-'")
            }
        }
        if let top = labels.last, top.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
            if labels.count == 4, labels.allSatisfy({ $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) {
                throw fail("an IP address must be written in brackets, like [\(ascii)]")
            }
            throw fail("the top-level label '\(top)' is all digits")
        }
    }

    /// Whether `scalar` is an ASCII letter, digit or hyphen.
    private static func isLetterDigitHyphen(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D: return true
        default: return false
        }
    }

    /// Checks a domain literal: `[` IPv4 address `]` or `[IPv6:` IPv6 address `]`.
    private static func checkLiteral(_ literal: String, input: String) throws(AddressError) {
        let usage = "write an IP address as [192.0.2.1] or [IPv6:2001:db8::1]"
        let shown = AddressError.excerpt(literal)
        guard literal.hasSuffix("]"), literal.count >= 2 else {
            throw AddressError(input: input, message: "unbalanced brackets in the domain '\(shown)'; \(usage)")
        }
        let inner = String(literal.dropFirst().dropLast())
        if inner.lowercased().hasPrefix("ipv6:") {
            let address = String(inner.dropFirst(5))
            guard isIPv6(address) else {
                throw AddressError(input: input, message: "'\(AddressError.excerpt(address))' in \(shown) is not an IPv6 address; \(usage)")
            }
            return
        }
        guard isIPv4(inner) else {
            throw AddressError(input: input, message: "the domain literal \(shown) is not an IP address; \(usage)")
        }
    }

    /// Whether `text` is a dotted-quad IPv4 address (no leading zeros).
    private static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let value = Int(part), value <= 255
            else { return false }
            return part.utf8.count == 1 || part.first != "0"
        }
    }

    /// Whether `text` is an IPv6 address, as `inet_pton` reads one.
    private static func isIPv6(_ text: String) -> Bool {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.isASCII }) else { return false }
        var buffer = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &buffer) { bytes in
            text.withCString { inet_pton(AF_INET6, $0, bytes.baseAddress) == 1 }
        }
    }
}
