import FoundationEssentials
import ShareCore
import ShareSupport
#if canImport(Glibc)
import Glibc
#endif

extension LinkUploader {
    /// `termbin`: the fiche protocol. The text goes over TCP to
    /// `host:port`, read from disk as it is sent; the write side is then
    /// closed, and the server answers the paste's link on the same
    /// connection. Every wait is a `poll` of a tenth of a second, so that
    /// Esc and the place's `timeout` are heard.
    func termbin(_ upload: LinkUpload) throws(LinkFailure) -> URL {
        let host = place.host ?? "", port = place.port ?? 9999
        show(Localization.text("Uploading %@ to %@…", upload.name, place.name), progress: 0)
        let socket = try connect(host, port)
        defer { close(socket) }
        let file = open(upload.path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(upload.path): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        let progress = watch(upload)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var sent = 0
        while true {
            let count = read(file, &buffer, buffer.count)
            guard count >= 0 else { throw LinkFailure(code: ActivityError.Code.ioError, "cannot read \(upload.path): \(String(cString: strerror(errno)))") }
            if count == 0 { break }
            var offset = 0
            while offset < count {
                try wait(socket, for: Int16(POLLOUT), doing: "take the text")
                let written = buffer.withUnsafeBytes { send(socket, $0.baseAddress! + offset, count - offset, Int32(MSG_NOSIGNAL)) }
                guard written >= 0 else {
                    if errno == EAGAIN || errno == EINTR { continue }
                    throw LinkFailure(code: ActivityError.Code.uploadFailed, "\(place.name) dropped the connection while the text was sent: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            sent += count
            guard progress(sent, upload.size) else { throw .stop }
        }
        shutdown(socket, Int32(SHUT_WR))
        var answer: [UInt8] = []
        while answer.count < 4096 {
            try wait(socket, for: Int16(POLLIN), doing: "answer with the link")
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress!, min($0.count, 4096), 0) }
            if count == 0 { break }
            guard count > 0 else {
                if errno == EAGAIN || errno == EINTR { continue }
                throw LinkFailure(code: ActivityError.Code.uploadFailed, "\(place.name) dropped the connection before its answer: \(String(cString: strerror(errno)))")
            }
            answer += buffer[0..<count]
            if answer.contains(10) { break }
        }
        return try link(in: String(decoding: answer, as: UTF8.self), answering: upload.name)
    }

    /// A non-blocking TCP connection to `host:port`, the first address that answers.
    private func connect(_ host: String, _ port: Int) throws(LinkFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let found else {
            throw LinkFailure(code: ActivityError.Code.placeUnreachable, "\(place.name) cannot be reached: could not find the server \(host) (\(String(cString: gai_strerror(status))))")
        }
        defer { freeaddrinfo(found) }
        var reason = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = found
        while let address = entry {
            entry = address.pointee.ai_next
            let socket = Glibc.socket(address.pointee.ai_family, address.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue),
                                      address.pointee.ai_protocol)
            guard socket >= 0 else { continue }
            if Glibc.connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 { return socket }
            if errno == EINPROGRESS {
                do throws(LinkFailure) {
                    try wait(socket, for: Int16(POLLOUT), doing: "accept the connection")
                } catch {
                    close(socket)
                    throw error
                }
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &problem, &length)
                if problem == 0 { return socket }
                reason = String(cString: strerror(problem))
            } else {
                reason = String(cString: strerror(errno))
            }
            close(socket)
        }
        throw LinkFailure(code: ActivityError.Code.placeUnreachable, "\(place.name) cannot be reached: could not connect to \(host):\(port): \(reason)")
    }

    /// Waits until `socket` is ready for `events`, a tenth of a second at a
    /// time: a stop throws ``LinkFailure/stop``, the place's `timeout` a timeout.
    private func wait(_ socket: Int32, for events: Int16, doing what: String) throws(LinkFailure) {
        let deadline = ContinuousClock.now + .milliseconds(Int(place.timeout * 1000))
        while true {
            if display.isCancelled { throw .stop }
            var watched = pollfd(fd: socket, events: events, revents: 0)
            let ready = poll(&watched, 1, 100)
            if ready > 0 { return }
            if ready < 0 && errno != EINTR {
                throw LinkFailure(code: ActivityError.Code.uploadFailed, "\(place.name): \(String(cString: strerror(errno)))")
            }
            if ContinuousClock.now >= deadline {
                throw LinkFailure(code: ActivityError.Code.timeout,
                                  "\(place.name) did not \(what) within \(LinkUploader.seconds(place.timeout)) ([link.\(place.name)] timeout)")
            }
        }
    }
}
