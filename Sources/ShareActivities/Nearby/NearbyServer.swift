import CMicrohttpd
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import Synchronization

/// Nearby's one-shot HTTP server: libmicrohttpd on a free port of one
/// address, serving a share's content under an unguessable token and
/// nothing else, and telling who fetched what as it goes.
///
/// Only `GET` and `HEAD`, only the exact paths of the content (so no
/// traversal, listing or other file can be reached whatever the request
/// says), byte ranges on files so a phone can resume. A request for any
/// other token is a 404; after ``wrongTokenLimit`` of them the server
/// refuses everything and says so (``Event/stopped(_:)``).
///
/// No one client can hold the link: each address may have
/// ``connectionsPerAddress`` connections, all of them ``connectionLimit``;
/// a request's head must come whole within ``headTimeout`` of its
/// connection (or of the answer before it), and a connection silent for
/// ``idleTimeout`` seconds is closed.
final class NearbyServer: @unchecked Sendable {
    /// What happens on the server, from its threads.
    enum Event: Sendable, Equatable {
        /// A client asked for a path and is being answered (`total` bytes, if known).
        case started(id: Int, client: String, path: String, name: String, total: Int64?)
        /// Bytes of that answer sent so far.
        case progress(id: Int, sent: Int64, total: Int64?)
        /// The answer ended: sent to its end (`complete`), or cut short.
        case ended(id: Int, client: String, path: String, complete: Bool)
        /// The answer could not go on (a file got shorter, a read failed), and why: it is ended, incomplete.
        case failed(id: Int, why: String)
        /// A request for another token, answered 404.
        case wrongToken(client: String)
        /// The server refuses everything from now on, and why.
        case stopped(String)
    }

    /// Requests for a wrong token before the server gives up.
    static let wrongTokenLimit = 20
    /// Connections one client address may hold at once: browsers open up
    /// to six to one server, a phone's download manager a few more.
    static let connectionsPerAddress: UInt32 = 8
    /// Connections in all (a thread each).
    static let connectionLimit: UInt32 = 64
    /// Seconds of silence (no byte read or sent) before a connection is closed.
    static let idleTimeout: UInt32 = 30
    /// Time a client has to send a request's head whole: from its
    /// connection, and from the end of the answer before on a kept-alive one.
    static let headTimeout: Duration = .seconds(10)

    let token: String
    let content: NearbyContent
    private let events: @Sendable (Event) -> Void
    private struct State {
        /// The daemon, by its address (a pointer is not Sendable).
        var daemon: Int?
        var wrongTokens = 0
        var refusing = false
        var nextID = 1
        /// Files from disk being sent, whose progress the watcher reads from their sockets.
        var watched: [Int: Watched] = [:]
        /// The open connections, by their address (a pointer is not Sendable).
        var connections: [Int: Connection] = [:]
        /// How far from its first byte each client has received each file
        /// (parts sent whole, one after another: a resumed download).
        var covered: [String: Int64] = [:]
    }
    /// An open connection: its socket, and by when its request's head must have come (none while it is answered).
    private struct Connection {
        var socket: Int32
        var headDeadline: ContinuousClock.Instant?
    }
    /// A file being sent on `socket`: `base` bytes were acknowledged on it before (an earlier answer on the same connection).
    fileprivate struct Watched: @unchecked Sendable {
        var download: Download
        var socket: Int32
        var base: Int64
    }
    private let state = Mutex(State())
    /// libmicrohttpd's functions: loaded once, never changed (hence unchecked Sendable).
    private let library: UnsafePointer<share_mhd>

    init(content: NearbyContent, token: String = NearbyServer.newToken(), events: @escaping @Sendable (Event) -> Void) throws(NearbyFailure) {
        var problem = [CChar](repeating: 0, count: 256)
        guard let library = share_mhd_load(&problem, problem.count) else {
            throw NearbyFailure(description: "cannot load libmicrohttpd: " + String(decoding: problem.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        self.library = library
        self.content = content
        self.token = token
        self.events = events
    }

    deinit { stop() }

    /// A token of 132 random bits from the kernel (`getrandom`, which the
    /// system generator reads), as 22 characters of base64url: 10 fewer
    /// than hex, which keeps the link's QR code a version smaller (29
    /// modules a side, not 33) and the link shorter to type.
    static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        return String((0..<22).map { _ in alphabet[Int(generator.next() & 0x3F)] })
    }

    /// Listens on `address` (a free port); returns the port.
    func start(on address: NetworkAddress) throws(NearbyFailure) -> UInt16 {
        let context = Unmanaged.passUnretained(self).toOpaque()
        let daemon = address.withSocketAddress(port: 0) { socket in
            share_mhd_start(library, socket, NearbyServer.connectionLimit, NearbyServer.connectionsPerAddress, NearbyServer.idleTimeout,
                            { context, connection, url, method, _, _, _, request in
                guard let context, let connection, let url, let method, let request else { return share_mhd_no() }
                let server = Unmanaged<NearbyServer>.fromOpaque(context).takeUnretainedValue()
                server.headArrived(connection)
                return server.answer(connection, path: String(cString: url), method: String(cString: method), request: request)
            }, context, { context, connection, request, termination in
                if let context, let connection {
                    Unmanaged<NearbyServer>.fromOpaque(context).takeUnretainedValue().awaitHead(connection)
                }
                guard let request, let pointer = request.pointee else { return }
                request.pointee = nil
                let download = Unmanaged<Download>.fromOpaque(pointer).takeRetainedValue()
                download.end(completed: share_mhd_completed_ok(termination) != 0)
            }, context, { context, connection, _, code in
                guard let context, let connection else { return }
                let server = Unmanaged<NearbyServer>.fromOpaque(context).takeUnretainedValue()
                if share_mhd_connection_opened(code) != 0 { server.opened(connection) } else { server.closed(connection) }
            }, context)
        }
        guard let daemon else {
            let reason = errno == EADDRINUSE ? "the address is in use" : String(cString: strerror(errno))
            throw NearbyFailure(description: "cannot listen on \(address.address): \(reason)")
        }
        let handle = Int(bitPattern: daemon)
        state.withLock { $0.daemon = handle }
        watchProgress()
        return share_mhd_port(library, daemon)
    }

    /// Stops listening and ends every connection; nothing is served after.
    func stop() {
        let handle = state.withLock { state -> Int? in
            defer { state.daemon = nil }
            return state.daemon
        }
        if let handle, let daemon = OpaquePointer(bitPattern: handle) { library.pointee.MHD_stop_daemon(daemon) }
    }

    // MARK: - Answering

    /// Paths browsers ask for by themselves, which are no guess at a token.
    private static let browserPaths: Set<String> = ["/favicon.ico", "/robots.txt", "/apple-touch-icon.png", "/apple-touch-icon-precomposed.png"]

    private func answer(_ connection: OpaquePointer, path: String, method: String,
                        request: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let client = clientAddress(connection)
        guard method == "GET" || method == "HEAD" else {
            return send(connection, status: 405, text: "Only GET and HEAD.", headers: [("Allow", "GET, HEAD")])
        }
        if let length = header(connection, "Content-Length"), length != "0" {
            return send(connection, status: 400, text: "A request here has no body.")
        }
        if header(connection, "Transfer-Encoding") != nil { return send(connection, status: 400, text: "A request here has no body.") }
        if state.withLock({ $0.refusing }) { return send(connection, status: 503, text: "This share has ended.") }
        let segments = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        // "/TOKEN/REST": segments are "", "TOKEN/REST"
        let rest = segments.count > 1 ? segments[1] : ""
        let tokenEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        guard NearbyServer.sameToken(rest[..<tokenEnd], token) else {
            if !NearbyServer.browserPaths.contains(path) { countWrongToken(client) }
            return send(connection, status: 404, text: "Not found.")
        }
        // The link ends in a slash, so that the page's links to "1" and "all.zip" stay under the token.
        guard tokenEnd != rest.endIndex else {
            return send(connection, status: 308, text: "Moved.", headers: [("Location", "/" + token + "/")])
        }
        let key = String(rest[rest.index(after: tokenEnd)...])
        guard let resource = content.resources[key] else { return send(connection, status: 404, text: "Not found.") }
        switch resource {
        case .page(let bytes):
            let download = Download(server: self, id: nextID(), client: client, path: key, name: "the page",
                                    isHead: method == "HEAD", total: Int64(bytes.count), source: .none)
            request.pointee = Unmanaged.passRetained(download).toOpaque()
            download.begin()
            let response = bytes.withUnsafeBytes {
                library.pointee.MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), share_mhd_must_copy())
            }
            return queue(connection, response, status: 200, headers: NearbyServer.pageHeaders)
        case .file(let file):
            return serve(file, key: key, connection: connection, client: client, isHead: method == "HEAD", request: request)
        case .zip(let files):
            let stream: ZipStream
            do { stream = try ZipStream(files: files) } catch {
                return send(connection, status: 500, text: "The zip could not be made: \(error.description)")
            }
            let download = Download(server: self, id: nextID(), client: client, path: key, name: "all.zip",
                                    isHead: method == "HEAD", total: nil, source: .zip(stream))
            request.pointee = Unmanaged.passRetained(download).toOpaque()
            download.begin()
            let response = pulled(from: download, length: share_mhd_size_unknown(), block: 1 << 16)
            return queue(connection, response, status: 200, headers: [
                ("Content-Type", "application/zip"), ("Content-Disposition", NearbyServer.disposition("share.zip")),
                ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
            ])
        }
    }

    // MARK: - Connections

    /// Bytes a connection's socket may hold that are not sent yet: a file
    /// is read from disk little ahead of the network, so what goes is what
    /// the file holds then, and a file that got shorter is noticed while
    /// its client still waits for bytes (the socket's own buffer grows to
    /// megabytes). What is in flight is not limited: nor is the speed.
    static let unsentLimit: Int32 = 128 << 10

    /// A connection came: its request's head is awaited.
    private func opened(_ connection: OpaquePointer) {
        let socket = share_mhd_socket(library, connection)
        guard socket >= 0 else { return }
        _ = share_socket_limit_unsent(socket, NearbyServer.unsentLimit)
        let deadline = ContinuousClock.now + NearbyServer.headTimeout
        state.withLock { $0.connections[Int(bitPattern: connection)] = Connection(socket: socket, headDeadline: deadline) }
    }

    /// A connection ends; libmicrohttpd closes its socket after this.
    private func closed(_ connection: OpaquePointer) {
        _ = state.withLock { $0.connections.removeValue(forKey: Int(bitPattern: connection)) }
    }

    /// A request's head came whole: it is answered, however long that takes.
    private func headArrived(_ connection: OpaquePointer) {
        state.withLock { $0.connections[Int(bitPattern: connection)]?.headDeadline = nil }
    }

    /// An answer ended: the next request on the connection must come in time.
    private func awaitHead(_ connection: OpaquePointer) {
        let deadline = ContinuousClock.now + NearbyServer.headTimeout
        state.withLock { $0.connections[Int(bitPattern: connection)]?.headDeadline = deadline }
    }

    /// Reports how far the files from disk have got, four times a second,
    /// from what their clients acknowledged, and ends connections whose
    /// request is late, while the server runs.
    private func watchProgress() {
        _ = BackgroundThread.start { [weak self] in
            while self?.readProgress() == true {
                var pause = timespec(tv_sec: 0, tv_nsec: 250_000_000)
                nanosleep(&pause, nil)
            }
        }
    }

    /// One look at the sockets of the files being sent and of the
    /// connections whose request is awaited; false once the server has
    /// stopped. The sockets are read under the lock that their downloads'
    /// and connections' ends take (libmicrohttpd closes a socket only
    /// after the end of its request and connection), so a socket is never
    /// another's. A late connection is shut down: its thread sees the end
    /// and closes it.
    private func readProgress() -> Bool {
        let now = ContinuousClock.now
        let news = state.withLock { state -> [(Download, Int64)]? in
            guard state.daemon != nil else { return nil }
            for (key, connection) in state.connections {
                guard let deadline = connection.headDeadline, deadline <= now else { continue }
                shutdown(connection.socket, Int32(SHUT_RDWR))
                state.connections[key]?.headDeadline = nil
            }
            return state.watched.values.compactMap { entry in
                let acked = share_socket_bytes_acked(entry.socket)
                return acked >= 0 ? (entry.download, acked - entry.base) : nil
            }
        }
        guard let news else { return false }
        for (download, acked) in news { download.acknowledged(acked) }
        return true
    }

    /// Whether `client` now has all of the file at `path`, after a part
    /// from `start` of `length` bytes of its `total` was sent whole: parts
    /// count from the first byte on, one joining the next.
    fileprivate func cover(client: String, path: String, start: Int64, length: Int64, total: Int64) -> Bool {
        state.withLock { state in
            let key = client + "\u{0}" + path
            let reached = state.covered[key] ?? 0
            if start <= reached { state.covered[key] = max(reached, start + length) }
            return (state.covered[key] ?? 0) >= total
        }
    }

    fileprivate func unwatch(_ id: Int) {
        state.withLock { _ = $0.watched.removeValue(forKey: id) }
    }

    /// A file, whole or the one byte range asked for.
    private func serve(_ file: NearbyContent.File, key: String, connection: OpaquePointer, client: String, isHead: Bool,
                       request: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        var range: ClosedRange<Int64>?
        if let asked = header(connection, "Range") {
            switch NearbyServer.byteRange(asked, size: file.size) {
            case .whole: break
            case .part(let part): range = part
            case .unsatisfiable:
                return send(connection, status: 416, text: "Range not satisfiable.", headers: [("Content-Range", "bytes */\(file.size)")])
            }
        }
        let start = range?.lowerBound ?? 0
        let length = range.map { $0.upperBound - $0.lowerBound + 1 } ?? file.size
        let id = nextID()
        let source: Download.Source
        switch file.source {
        case .path(let path):
            // Read as it is sent, so that a file that got shorter ends the answer (never bytes that are not the file's).
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return send(connection, status: 500, text: "The file could not be opened.") }
            source = .file(descriptor)
        case .bytes(let bytes):
            source = .bytes(bytes)
        }
        let download = Download(server: self, id: id, client: client, path: key, name: file.name, isHead: isHead,
                                total: file.size, source: source, start: start, length: length)
        request.pointee = Unmanaged.passRetained(download).toOpaque()
        download.begin()
        // Progress of a file from disk: what the client acknowledged, from the socket.
        let socket = share_mhd_socket(library, connection)
        if case .file = source, !isHead, socket >= 0 {
            let base = max(0, share_socket_bytes_acked(socket))
            state.withLock { $0.watched[id] = Watched(download: download, socket: socket, base: base) }
        }
        let response = pulled(from: download, length: UInt64(length), block: 1 << 18)
        var headers = [
            ("Content-Type", file.type), ("Content-Disposition", NearbyServer.disposition(file.name)),
            ("Accept-Ranges", "bytes"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
        ]
        if let range { headers.append(("Content-Range", "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)")) }
        return queue(connection, response, status: range == nil ? 200 : 206, headers: headers)
    }

    /// A response whose body libmicrohttpd pulls from `download`'s reader, `block` bytes at most at a time.
    private func pulled(from download: Download, length: UInt64, block: Int) -> OpaquePointer? {
        let reader = Unmanaged.passRetained(download)
        let response = library.pointee.MHD_create_response_from_callback(length, block, Download.reader, reader.toOpaque(), Download.release)
        // Without a response libmicrohttpd never calls the release: it is done here.
        if response == nil { reader.release() }
        return response
    }

    static let pageHeaders = [
        ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
        // Only the page's own script runs (by its hash): no inline handler, no javascript: link.
        ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; script-src '\(NearbyPage.scriptHash)'; "
            + "base-uri 'none'; form-action 'none'"),
    ]

    private func send(_ connection: OpaquePointer, status: UInt32, text: String, headers: [(String, String)] = []) -> MHD_Result {
        let bytes = Array((text + "\n").utf8)
        let response = bytes.withUnsafeBytes {
            library.pointee.MHD_create_response_from_buffer($0.count, UnsafeMutableRawPointer(mutating: $0.baseAddress), share_mhd_must_copy())
        }
        return queue(connection, response, status: status, headers: [("Content-Type", "text/plain; charset=utf-8")] + headers)
    }

    private func queue(_ connection: OpaquePointer, _ response: OpaquePointer?, status: UInt32, headers: [(String, String)]) -> MHD_Result {
        guard let response else { return share_mhd_no() }
        for (name, value) in headers { _ = library.pointee.MHD_add_response_header(response, name, value) }
        let queued = library.pointee.MHD_queue_response(connection, status, response)
        library.pointee.MHD_destroy_response(response)
        return queued
    }

    private func header(_ connection: OpaquePointer, _ name: String) -> String? {
        library.pointee.MHD_lookup_connection_value(connection, share_mhd_header_kind(), name).map { String(cString: $0) }
    }

    private func clientAddress(_ connection: OpaquePointer) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard share_mhd_client(library, connection, &buffer, buffer.count) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func nextID() -> Int {
        state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
    }

    private func countWrongToken(_ client: String) {
        let stopsNow = state.withLock { state -> Bool in
            state.wrongTokens += 1
            guard state.wrongTokens >= NearbyServer.wrongTokenLimit, !state.refusing else { return false }
            state.refusing = true
            return true
        }
        report(.wrongToken(client: client))
        if stopsNow {
            report(.stopped("\(NearbyServer.wrongTokenLimit) requests for a wrong link (the last from \(client)): someone may be guessing"))
        }
    }

    fileprivate func report(_ event: Event) { events(event) }

    // MARK: - Request words

    /// The two tokens are the same, in a time that does not depend on where they differ.
    static func sameToken(_ given: Substring, _ token: String) -> Bool {
        let given = Array(given.utf8), expected = Array(token.utf8)
        var difference = given.count ^ expected.count
        for index in expected.indices { difference |= Int((index < given.count ? given[index] : 0) ^ expected[index]) }
        return difference == 0
    }

    enum ByteRange: Equatable {
        case whole
        case part(ClosedRange<Int64>)
        case unsatisfiable
    }

    /// A `Range` header's one byte range in a file of `size` bytes (RFC
    /// 9110 §14.1.2): `bytes=S-E`, `bytes=S-`, `bytes=-N`. Several ranges,
    /// another unit or a malformed value are answered with the whole file,
    /// as the RFC allows; a range that starts past the end is unsatisfiable.
    static func byteRange(_ header: String, size: Int64) -> ByteRange {
        let value = header.trimmingWhitespace()
        guard value.lowercased().hasPrefix("bytes="), !value.contains(",") else { return .whole }
        let spec = value.dropFirst(6).trimmingWhitespace()
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        let first = parts[0].trimmingWhitespace(), last = parts[1].trimmingWhitespace()
        func number(_ text: String) -> Int64? { text.allSatisfy { $0.isASCII && $0.isNumber } && !text.isEmpty && text.count < 19 ? Int64(text) : nil }
        if first.isEmpty {
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .part(max(0, size - suffix)...(size - 1))
        }
        guard let start = number(first) else { return .whole }
        guard start < size else { return .unsatisfiable }
        if last.isEmpty { return .part(start...(size - 1)) }
        guard let end = number(last), end >= start else { return .whole }
        return .part(start...min(end, size - 1))
    }

    /// `Content-Disposition` for a download of `name`: an ASCII name for
    /// old clients, and the name itself in UTF-8 (`filename*`, RFC 6266).
    static func disposition(_ name: String) -> String {
        let ascii = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\" && scalar.value != 0x7F ? Character(scalar) : "_"
        })
        return "attachment; filename=\"\(ascii)\"; filename*=UTF-8''\(ShareLink.encoded(name))"
    }
}

/// One answer being sent: what it is, how far it got; the reader MHD pulls
/// the body from.
private final class Download: @unchecked Sendable {
    enum Source {
        /// A page, sent whole from a buffer.
        case none
        /// A file from disk, by its descriptor (closed with the download); progress from the socket.
        case file(Int32)
        case bytes([UInt8])
        case zip(ZipStream)
    }

    unowned let server: NearbyServer
    let id: Int
    let client: String
    let path: String
    let name: String
    let isHead: Bool
    /// The file's (or page's) size; `nil` for a zip.
    let total: Int64?
    private let source: Source
    private let start: Int64
    private let length: Int64?
    // Touched by the one thread of the connection only.
    var sent: Int64 = 0
    private var reachedEnd = false
    /// The body could not go on (a short read): the answer was ended with an error.
    private var failed = false
    private var reportedPercent = -1
    /// Touched by the progress watcher's thread only.
    private var lastAcknowledged: Int64 = -1

    init(server: NearbyServer, id: Int, client: String, path: String, name: String, isHead: Bool, total: Int64?,
         source: Source, start: Int64 = 0, length: Int64? = nil) {
        self.server = server
        self.id = id
        self.client = client
        self.path = path
        self.name = name
        self.isHead = isHead
        self.total = total
        self.source = source
        self.start = start
        self.length = length
    }

    deinit {
        if case .file(let descriptor) = source { close(descriptor) }
    }

    func begin() {
        guard !isHead else { return }
        server.report(.started(id: id, client: client, path: path, name: name, total: total))
    }

    func end(completed: Bool) {
        server.unwatch(id)
        guard !isHead else { return }
        let whole: Bool = switch source {
        case .none: completed
        case .zip: completed && reachedEnd
        case .file, .bytes: completed && !failed && sent == (length ?? 0)
            && server.cover(client: client, path: path, start: start, length: length ?? 0, total: total ?? 0)
        }
        server.report(.ended(id: id, client: client, path: path, complete: whole))
    }

    /// What the client acknowledged of a file from disk (its answer's
    /// head included, hence the cap), from the watcher's thread.
    func acknowledged(_ bytes: Int64) {
        let sent = min(max(0, bytes), length ?? 0)
        guard sent != lastAcknowledged else { return }
        lastAcknowledged = sent
        server.report(.progress(id: id, sent: start + sent, total: total))
    }

    /// The next bytes of the body at `position`, as MHD asks for them; an
    /// error (which ends the connection, so the client sees the body
    /// short) when a file is now shorter than its promised length or a
    /// read fails.
    func read(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var count: Int
        switch source {
        case .none:
            return share_mhd_end_of_stream()
        case .file(let descriptor):
            let wanted = min(Int64(buffer.count), (length ?? 0) - Int64(position))
            guard wanted > 0 else { return share_mhd_end_of_stream() }
            repeat { count = pread(descriptor, buffer.baseAddress, Int(wanted), off_t(start + Int64(position))) } while count < 0 && errno == EINTR
            guard count > 0 else {
                return fail(count == 0 ? "the file is shorter than when the share began" : String(cString: strerror(errno)))
            }
            // Progress comes from the socket (what the client has, not what was read).
            sent = Int64(position) + Int64(count)
            return count
        case .bytes(let bytes):
            let from = Int(start) + Int(position)
            count = min(buffer.count, Int(start + (length ?? 0)) - from)
            guard count > 0 else { return share_mhd_end_of_stream() }
            bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress! + from, byteCount: count) }
        case .zip(let stream):
            do { count = try stream.read(into: buffer) } catch { return fail(error.description) }
            if count == 0 {
                reachedEnd = true
                return share_mhd_end_of_stream()
            }
        }
        sent = Int64(position) + Int64(count)
        // News at each whole percent (a zip: each MiB), not at every block.
        let mark = total.map { $0 > 0 ? Int((start + sent) * 100 / $0) : 100 } ?? Int(sent >> 20)
        if mark != reportedPercent {
            reportedPercent = mark
            server.report(.progress(id: id, sent: start + sent, total: total))
        }
        return count
    }

    /// Ends the body with an error, and says why.
    private func fail(_ why: String) -> Int {
        failed = true
        server.report(.failed(id: id, why: why))
        return share_mhd_end_with_error()
    }

    static let reader: MHD_ContentReaderCallback = { context, position, buffer, size in
        guard let context, let buffer else { return share_mhd_end_with_error() }
        let download = Unmanaged<Download>.fromOpaque(context).takeUnretainedValue()
        return download.read(at: position, into: UnsafeMutableRawBufferPointer(start: buffer, count: size))
    }

    static let release: MHD_ContentReaderFreeCallback = { context in
        guard let context else { return }
        Unmanaged<Download>.fromOpaque(context).release()
    }
}
