import CMicrohttpd
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport
import Synchronization

/// Finds the LocalSend devices around, as the protocol's discovery goes:
/// share announces itself by multicast (UDP 224.0.0.167:53317, `announce:
/// true`), and hears the answers both ways: a `POST
/// /api/localsend/v2/register` on its own small HTTPS listener (whose
/// certificate's digest is the fingerprint it announced) and a multicast
/// reply (`announce: false`). The announcements of others are answered
/// with a register of ours, and are devices too. With `scan`, the /24 of
/// the address is also asked with `register`, for devices that only
/// answer the legacy way.
///
/// Each device is reported once (by fingerprint) on a thread of the
/// discovery's; share's own announcements, which come back by loopback,
/// are not devices.
final class LocalSendDiscovery: @unchecked Sendable {
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static let group = "224.0.0.167"

    private let identity: LocalSendIdentity
    private let address: NetworkAddress
    private let scan: Bool
    private let found: @Sendable (LocalSendDevice) -> Void
    private struct State {
        var seen: Set<String> = []
        var stopped = false
        var daemon: Int?
        var socket: Int32 = -1
        var threads: [BackgroundThread.Joinable] = []
    }
    private let state = Mutex(State())
    /// The register listener's port once started.
    private(set) var listenerPort = 0
    /// The listener's handler's context, kept as long as the daemon runs.
    private var context: Unmanaged<LocalSendDiscovery>?

    init(identity: LocalSendIdentity, address: NetworkAddress, scan: Bool, found: @escaping @Sendable (LocalSendDevice) -> Void) {
        self.identity = identity
        self.address = address
        self.scan = scan
        self.found = found
    }

    deinit { stop() }

    /// Starts listening and announcing; throws when neither the listener
    /// nor the multicast socket can start.
    func start() throws(Failure) {
        guard !address.isIPv6 else { throw Failure(description: "LocalSend needs an IPv4 address; \(address.address) is IPv6") }
        try startListener()
        let socket = openMulticast()
        state.withLock { $0.socket = socket }
        var threads: [BackgroundThread.Joinable] = []
        if let thread = BackgroundThread.startJoinable({ [self] in listen(on: socket) }) { threads.append(thread) }
        if scan, let thread = BackgroundThread.startJoinable({ [self] in scanSubnet() }) { threads.append(thread) }
        state.withLock { $0.threads += threads }
    }

    /// Stops listening (the threads end within a fraction of a second).
    func stop() {
        let (daemon, socket, threads) = state.withLock { state -> (Int?, Int32, [BackgroundThread.Joinable]) in
            guard !state.stopped else { return (nil, -1, []) }
            state.stopped = true
            defer { state.daemon = nil; state.threads = [] }
            return (state.daemon, state.socket, state.threads)
        }
        if let daemon, let mhd = LocalSendDiscovery.mhd, let pointer = OpaquePointer(bitPattern: daemon) { mhd.pointee.MHD_stop_daemon(pointer) }
        for thread in threads { thread.join() }
        // Closed under the lock that every send takes: a late reply never writes to a descriptor reused since.
        if socket >= 0 { state.withLock { _ in _ = close(socket) } }
        context?.release()
        context = nil
    }

    private var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: - The register listener

    private nonisolated(unsafe) static let mhd: UnsafePointer<share_mhd>? = {
        var error = [CChar](repeating: 0, count: 256)
        return share_mhd_load(&error, error.count)
    }()

    private func startListener() throws(Failure) {
        guard let mhd = LocalSendDiscovery.mhd else {
            throw Failure(description: "cannot load libmicrohttpd: apt install libmicrohttpd12")
        }
        let retained = Unmanaged.passRetained(self)
        context = retained
        // The protocol's port when it is free (a receiver on this machine may hold it), else any.
        for port in [UInt16(LocalSendDevice.defaultPort), 0] {
            let daemon = address.withSocketAddress(port: port) { socketAddress in
                share_mhd_start_json(mhd, socketAddress, identity.key, identity.certificate, { context, method, url, client, body, length, answer, size, written in
                    guard let context, let method, let url, let answer, let written else { return 500 }
                    let discovery = Unmanaged<LocalSendDiscovery>.fromOpaque(context).takeUnretainedValue()
                    let bytes = body.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []
                    let (status, reply) = discovery.answer(method: String(cString: method), url: String(cString: url),
                                                           client: client.map { String(cString: $0) } ?? "", body: bytes)
                    guard reply.count <= size else { written.pointee = 0; return 500 }
                    reply.withUnsafeBytes { UnsafeMutableRawPointer(answer).copyMemory(from: $0.baseAddress!, byteCount: reply.count) }
                    written.pointee = reply.count
                    return UInt32(status)
                }, retained.toOpaque())
            }
            if let daemon {
                listenerPort = Int(share_mhd_port(mhd, daemon))
                state.withLock { $0.daemon = Int(bitPattern: UnsafeMutableRawPointer(daemon)) }
                return
            }
        }
        throw Failure(description: "cannot listen on \(address.address): \(String(cString: strerror(errno)))")
    }

    /// The listener's answer: our info to a register (whose sender is a
    /// device), and to the info a debugging peer asks for.
    private func answer(method: String, url: String, client: String, body: [UInt8]) -> (Int, [UInt8]) {
        let path = url.prefix { $0 != "?" }
        switch (method, path) {
        case ("POST", "/api/localsend/v2/register"):
            guard let info = LocalSendInfo.decoded(body) else { return (400, Array(#"{"message":"Invalid body"}"#.utf8)) }
            if let device = LocalSendDevice.from(info, host: client) { report(device) }
            return (200, Array(identity.info(port: listenerPort).serialized.utf8))
        case ("GET", "/api/localsend/v2/info"):
            return (200, Array(identity.info(port: listenerPort).serialized.utf8))
        default:
            return (404, [])
        }
    }

    /// Tells of `device` once; whether it was new.
    @discardableResult
    private func report(_ device: LocalSendDevice) -> Bool {
        guard device.fingerprint != identity.fingerprint else { return false }
        let new = state.withLock { state in !state.stopped && state.seen.insert(device.fingerprint).inserted }
        if new { found(device) }
        return new
    }

    // MARK: - Multicast

    /// The UDP socket on the protocol's port in the group (or, when the
    /// port is held without sharing, on any port: our announcements still
    /// go out, and answers come by register); -1 when none opens.
    private func openMulticast() -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return -1 }
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        setsockopt(socket, SOL_SOCKET, SO_REUSEPORT, &one, socklen_t(MemoryLayout<Int32>.size))
        var any = sockaddr_in()
        any.sin_family = sa_family_t(AF_INET)
        any.sin_port = UInt16(LocalSendDevice.defaultPort).bigEndian
        let bound = withUnsafePointer(to: &any) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        } }
        if !bound {
            any.sin_port = 0
            _ = withUnsafePointer(to: &any) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            } }
        }
        var interface = in_addr()
        inet_pton(AF_INET, address.address, &interface)
        var membership = ip_mreq()
        inet_pton(AF_INET, LocalSendDiscovery.group, &membership.imr_multiaddr)
        membership.imr_interface = interface
        setsockopt(socket, Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, &membership, socklen_t(MemoryLayout<ip_mreq>.size))
        setsockopt(socket, Int32(IPPROTO_IP), IP_MULTICAST_IF, &interface, socklen_t(MemoryLayout<in_addr>.size))
        var ttl: UInt8 = 1
        setsockopt(socket, Int32(IPPROTO_IP), IP_MULTICAST_TTL, &ttl, socklen_t(MemoryLayout<UInt8>.size))
        return socket
    }

    /// Sends `info` to the group, unless discovery has stopped (and its socket closed).
    private func sendMulticast(_ socket: Int32, _ info: JSONValue) {
        var group = sockaddr_in()
        group.sin_family = sa_family_t(AF_INET)
        group.sin_port = UInt16(LocalSendDevice.defaultPort).bigEndian
        inet_pton(AF_INET, LocalSendDiscovery.group, &group.sin_addr)
        let bytes = Array(info.serialized.utf8)
        state.withLock { state in
            guard !state.stopped else { return }
            _ = withUnsafePointer(to: &group) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(socket, bytes, bytes.count, Int32(MSG_DONTWAIT), $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            } }
        }
    }

    /// Announces at once, again after 0.5 s and 1.5 s (a datagram may be
    /// lost), then every 10 s; hears announcements and replies until stopped.
    private func listen(on socket: Int32) {
        guard socket >= 0 else { return }
        let announcement = identity.info(port: listenerPort, announce: true)
        var announceAt = [0.0, 0.5, 1.5]
        let start = LocalSendDiscovery.now()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !isStopped {
            let elapsed = LocalSendDiscovery.now() - start
            if let next = announceAt.first, elapsed >= next {
                sendMulticast(socket, announcement)
                announceAt.removeFirst()
                if announceAt.isEmpty { announceAt = [elapsed + 10] }
            }
            var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            var sender = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let count = withUnsafeMutablePointer(to: &sender) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                recvfrom(socket, &buffer, buffer.count, 0, $0, &length)
            } }
            guard count > 0, let info = LocalSendInfo.decoded(buffer[0..<count]) else { continue }
            var host = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            inet_ntop(AF_INET, &sender.sin_addr, &host, socklen_t(host.count))
            guard let device = LocalSendDevice.from(info, host: String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)), device.fingerprint != identity.fingerprint else { continue }
            // A device's first announcement is answered as the protocol asks: by register, else by a
            // multicast reply; its repeats are not (each answer is a thread and a request).
            if report(device) && info.announce == true {
                BackgroundThread.start { [self] in
                    if register(with: device) == nil { sendMulticast(socket, identity.info(port: listenerPort, announce: false)) }
                }
            }
        }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: - Register, and the legacy scan

    /// Registers with the device at `device`'s address and returns the
    /// device as it answers (its certificate checked against the
    /// fingerprint it announced, when it announced one); `nil` when it
    /// does not answer as a LocalSend device.
    func register(with device: LocalSendDevice) -> LocalSendDevice? {
        LocalSendDiscovery.register(host: device.host, port: device.port, https: device.isHTTPS,
                                    digest: device.certificateDigest, identity: identity, listenerPort: listenerPort, seconds: 3)
    }

    /// `POST /api/localsend/v2/register` to `host:port` with share's
    /// info; the device its answer describes. `digest` pins the
    /// certificate; without one any certificate is taken, as nothing but
    /// share's public info is sent, and the answer's fingerprint is then
    /// what a send checks the certificate against.
    static func register(host: String, port: Int, https: Bool, digest: [UInt8]?, identity: LocalSendIdentity, listenerPort: Int,
                         seconds: Int) -> LocalSendDevice? {
        var client = HTTPClient()
        client.protocols = "http,https"
        client.connectSeconds = min(seconds, 2)
        client.totalSeconds = seconds
        client.maximumAnswer = 64 << 10
        client.certificate = digest.map { .pinned($0) } ?? .any
        let address = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let url = (https ? "https://" : "http://") + address + "/api/localsend/v2/register"
        guard let response = try? client.perform("POST", url, body: .json(identity.info(port: listenerPort))), response.isSuccess,
              let info = LocalSendInfo.decoded(response.body) else { return nil }
        return LocalSendDevice.from(info, host: host, port: port, https: https)
    }

    /// Asks every other address of the /24 with `register` (HTTPS, then
    /// HTTP), sixteen at a time.
    private func scanSubnet() {
        let parts = address.address.split(separator: ".")
        guard parts.count == 4 else { return }
        let prefix = parts.prefix(3).joined(separator: ".") + "."
        let hosts = (1...254).map { prefix + String($0) }.filter { $0 != address.address }
        let next = Mutex(0)
        let workers = (0..<16).compactMap { _ in
            BackgroundThread.startJoinable { [self] in
                while !isStopped {
                    let index = next.withLock { value -> Int in defer { value += 1 }; return value }
                    guard index < hosts.count else { return }
                    for https in [true, false] {
                        if let device = LocalSendDiscovery.register(host: hosts[index], port: LocalSendDevice.defaultPort, https: https, digest: nil,
                                                                    identity: identity, listenerPort: listenerPort, seconds: 2) {
                            report(device)
                            break
                        }
                    }
                }
            }
        }
        for worker in workers { worker.join() }
    }
}
