import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where Nearby's server listens: an address of this machine and the
/// interface that has it (`wlan0`), for the screen to name.
public struct NetworkAddress: Sendable, Equatable {
    /// The address as text (`192.168.1.23`, `fe80::1`).
    public var address: String
    /// The interface that has it, if known.
    public var interface: String?
    /// Whether it is an IPv6 address (written in brackets in a URL).
    public var isIPv6: Bool

    /// The host part of a URL to it.
    public var urlHost: String { isIPv6 ? "[\(address)]" : address }

    /// Why no address could be found.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The address to listen on: `bind` (an address, or an interface's
    /// name) when given, else the IPv4 address of the interface the default
    /// route goes through (`/proc/net/route`).
    public static func choose(bind: String?, routes: String? = nil) throws(Failure) -> NetworkAddress {
        let interfaces = Self.interfaces()
        if let bind = bind?.trimmingWhitespace(), !bind.isEmpty {
            if let literal = literal(bind) {
                guard literal.address != "0.0.0.0" && literal.address != "::" else {
                    throw Failure(description: "--bind \(bind) listens on every address, which one link cannot name: give an interface or one of its addresses")
                }
                let owner = interfaces.first { $0.address == literal.address }?.interface
                guard owner != nil else {
                    throw Failure(description: "no interface of this machine has the address \(bind)")
                }
                return NetworkAddress(address: literal.address, interface: owner, isIPv6: literal.isIPv6)
            }
            let named = interfaces.filter { $0.interface == bind }
            guard let chosen = named.first(where: { !$0.isIPv6 }) ?? named.first else {
                let known = Set(interfaces.compactMap(\.interface)).sorted().joined(separator: ", ")
                throw Failure(description: "no interface or address '\(bind)' with an address (this machine has: \(known.isEmpty ? "none" : known))")
            }
            return chosen
        }
        let table = routes ?? ((try? String(contentsOfFile: "/proc/net/route", encoding: .utf8)) ?? "")
        guard let name = defaultRouteInterface(table) else {
            throw Failure(description: "no network with a default route: connect to one, or choose an address with --bind ADDR|IFACE")
        }
        guard let chosen = interfaces.first(where: { $0.interface == name && !$0.isIPv6 }) else {
            throw Failure(description: "the default route goes through \(name), which has no IPv4 address: choose one with --bind ADDR|IFACE")
        }
        return chosen
    }

    /// The interface of the default route in a `/proc/net/route` table: the
    /// first route that is up with destination and mask 0.
    static func defaultRouteInterface(_ table: String) -> String? {
        for line in table.split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == "\t" || $0 == " " })
            guard fields.count >= 8, fields[1] == "00000000", fields[7] == "00000000",
                  let flags = Int(fields[3], radix: 16), flags & 1 != 0 else { continue }
            return String(fields[0])
        }
        return nil
    }

    /// `text` as an IP address, written back in its canonical form.
    static func literal(_ text: String) -> (address: String, isIPv6: Bool)? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return (text, false) }
        var v6 = in6_addr()
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &v6, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), true)
    }

    /// The IPv4 and IPv6 addresses of this machine's interfaces that are up.
    static func interfaces() -> [NetworkAddress] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [NetworkAddress] = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(address.pointee.sa_family)
            guard family == AF_INET || family == AF_INET6 else { continue }
            var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            let length = socklen_t(family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size)
            guard getnameinfo(address, length, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
            var text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            // A link-local address carries its zone (`fe80::1%wlan0`); the address alone is what a URL can hold.
            if let zone = text.firstIndex(of: "%") { text = String(text[..<zone]) }
            found.append(NetworkAddress(address: text, interface: String(cString: entry.pointee.ifa_name), isIPv6: family == AF_INET6))
        }
        return found
    }

    /// A socket address for `self` with `port`, in `body`.
    func withSocketAddress<T>(port: UInt16, _ body: (UnsafePointer<sockaddr>) -> T) -> T {
        if isIPv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = port.bigEndian
            _ = inet_pton(AF_INET6, self.address, &address.sin6_addr)
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        _ = inet_pton(AF_INET, self.address, &address.sin_addr)
        return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
