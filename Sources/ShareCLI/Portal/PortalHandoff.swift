import CPortal
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// What share-portal hands the share that composes, over a Unix socket of
/// its own: the request's fields as JSON, and each attachment's open
/// descriptor beside it (SCM_RIGHTS), so that the composer reads what the
/// application passed and never opens a path of its own. The composer's
/// answer comes back on the same socket: its `--json` result.
struct PortalHandoff: Codable, Equatable, Sendable {
    var to: [String] = []
    var cc: [String] = []
    var bcc: [String] = []
    var subject: String?
    var body: String?
    /// The attachments' names, in the order of the descriptors.
    var attachments: [String] = []

    /// The most a request may hold (a body of text, the names).
    static let limit = 16 << 20

    /// The share arguments that open Mail's compose screen with these
    /// fields; the attachments follow as items of their own.
    var arguments: [String] {
        var words = ["--activity", "mail", "--json"]
        for (option, addresses) in [("--to", to), ("--cc", cc), ("--bcc", bcc)] {
            for address in addresses { words += [option, address] }
        }
        if let subject { words += ["--subject", subject] }
        // The body is an item: with nothing else to share, an empty one.
        if body != nil || attachments.isEmpty { words += ["--body", body ?? ""] }
        return words
    }

    /// Sends the request with `descriptors` on `socket`, then ends the
    /// sending side, so the composer reads to the end.
    func send(on socket: Int32, descriptors: [Int32]) throws(PortalError) {
        let bytes: [UInt8]
        do { bytes = Array(try JSONEncoder().encode(self)) } catch { throw PortalError("\(error)") }
        let sent = bytes.withUnsafeBytes { buffer in
            descriptors.withUnsafeBufferPointer { share_send_descriptors(socket, buffer.baseAddress, buffer.count, $0.baseAddress, $0.count) }
        }
        guard sent == 0 else { throw PortalError(FileError(code: errno).reason) }
        shutdown(socket, Int32(SHUT_WR))
    }

    /// Reads a request and its descriptors from `socket`, to the end of what
    /// share-portal sends.
    static func receive(from socket: Int32) throws(PortalError) -> (PortalHandoff, [Int32]) {
        var bytes: [UInt8] = []
        var descriptors: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var passed = [Int32](repeating: -1, count: 253)
        while true {
            var count = 0
            let read = buffer.withUnsafeMutableBytes { space in
                passed.withUnsafeMutableBufferPointer {
                    share_receive_descriptors(socket, space.baseAddress, space.count, $0.baseAddress, $0.count, &count)
                }
            }
            if read < 0 {
                let code = errno
                descriptors.forEach { _ = close($0) }
                throw PortalError(code == EMSGSIZE ? "more than 253 attachments" : FileError(code: code).reason)
            }
            descriptors += passed.prefix(count)
            if read == 0 { break }
            bytes += buffer.prefix(read)
            if bytes.count > limit {
                descriptors.forEach { _ = close($0) }
                throw PortalError("the request is larger than 16 MiB")
            }
        }
        do {
            let handoff = try JSONDecoder().decode(PortalHandoff.self, from: Data(bytes))
            guard handoff.attachments.count == descriptors.count else {
                throw PortalError("\(handoff.attachments.count) attachments named, \(descriptors.count) passed")
            }
            return (handoff, descriptors)
        } catch {
            descriptors.forEach { _ = close($0) }
            throw (error as? PortalError) ?? PortalError("the request is not share-portal's: \(error)")
        }
    }
}

/// Why a request could not be handed over or served, in words.
struct PortalError: Error, Sendable, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }

    /// The text a C function wrote into `buffer`, to its first NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// A Unix stream socket at `path`: bound and listening, or connected.
enum UnixSocket {
    static func listening(at path: String) throws(PortalError) -> Int32 {
        try open(path) { descriptor, address, length in
            unlink(path)
            return bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0
        }
    }

    static func connected(to path: String) throws(PortalError) -> Int32 {
        try open(path) { descriptor, address, length in connect(descriptor, address, length) == 0 }
    }

    private static func open(_ path: String,
                             _ use: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Bool) throws(PortalError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw PortalError("the socket path \(path) is too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { space in
            for (index, byte) in bytes.enumerated() { space[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw PortalError("cannot make a socket: \(FileError(code: errno).reason)") }
        let done = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { use(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard done else {
            let reason = FileError(code: errno).reason
            close(descriptor)
            throw PortalError("\(path): \(reason)")
        }
        return descriptor
    }
}
