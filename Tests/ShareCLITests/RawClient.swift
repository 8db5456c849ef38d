import Foundation
import Testing

/// An HTTP client on a socket of the test's own, for what curl does not
/// do: a chosen source address, a small receive window, a request that is
/// never finished, a body read a little and then not at all.
final class RawClient {
    let descriptor: Int32
    /// The path of the URL it was made for.
    let path: String

    /// Connects to `url`'s host and port (IPv4), from `source` when given
    /// (any of 127/8 is this machine), with a receive buffer of
    /// `receiveBuffer` bytes when given; a read waits `timeout` seconds at
    /// most, then throws.
    init(_ url: String, from source: String? = nil, receiveBuffer: Int32? = nil, timeout: Int = 10) throws {
        let parts = try #require(URLComponents(string: url))
        path = parts.path.isEmpty ? "/" : parts.path
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0, "socket: errno \(errno)")
        var wait = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer { setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        if let source {
            var local = try RawClient.address(source, port: 0)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(bound == 0, "bind \(source): errno \(errno)")
        }
        var remote = try RawClient.address(parts.host ?? "", port: parts.port ?? 80)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0, "connect \(url): errno \(errno)")
    }

    deinit { close(descriptor) }

    private static func address(_ host: String, port: Int) throws -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        try #require(inet_pton(AF_INET, host, &address.sin_addr) == 1, "not an IPv4 address: \(host)")
        return address
    }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL)) }
            try #require(sent > 0, "send: errno \(errno)")
            done += sent
        }
    }

    struct TimedOut: Error {}

    /// The next bytes, up to `count`; empty once the server has closed the
    /// connection (or reset it). Throws when nothing came in time.
    func receive(_ count: Int = 1 << 16) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: count)
        let got = recv(descriptor, &buffer, count, 0)
        if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { throw TimedOut() }
        return got > 0 ? Data(buffer[..<got]) : Data()
    }

    /// Reads an answer's head, and at least `atLeast` bytes of its body
    /// (those come back with it).
    func readHead(atLeast: Int = 0) throws -> (status: Int, headers: [String: String], body: Data) {
        var received = Data()
        while true {
            if let end = received.range(of: Data("\r\n\r\n".utf8)), received.count - end.upperBound >= atLeast {
                let lines = String(decoding: received[..<end.lowerBound], as: UTF8.self).split(separator: "\r\n")
                var headers: [String: String] = [:]
                for line in lines.dropFirst() {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
                return (status, headers, Data(received[end.upperBound...]))
            }
            let more = try receive()
            try #require(!more.isEmpty, "the connection ended before the answer's head: \(String(decoding: received, as: UTF8.self))")
            received += more
        }
    }

    /// Everything until the server closes the connection.
    func readToEnd() throws -> Data {
        var received = Data()
        while true {
            let more = try receive()
            if more.isEmpty { return received }
            received += more
        }
    }

    /// Whether the server closed the connection within `seconds` (without waiting for a read's time-out).
    func closes(within seconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, seconds * 1000) == 1 else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK)) <= 0
    }
}
