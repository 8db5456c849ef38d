import CPortal
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// One request of share-portal, from the call to its answer: the
/// attachments opened at once, share started in a terminal on a socket of
/// the request's own, the request and the descriptors handed over, and the
/// compose screen's result read back.
struct PortalComposer: Sendable {
    /// `[portal] terminal`, before share's own words.
    var terminal: [String]
    var environment: [String: String]
    var log: @Sendable (String) -> Void
    /// Seconds for the terminal to start share.
    var startSeconds = 60.0

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    func compose(_ call: PortalCall) -> PortalResponse {
        do {
            return try composing(call)
        } catch {
            log("share-portal: the request of \(call.applicationName): \(error)\n")
            return .other
        }
    }

    private func composing(_ call: PortalCall) throws(PortalError) -> PortalResponse {
        let descriptors = try Self.open(call.attachments)
        defer { descriptors.forEach { _ = close($0) } }
        let folder = try Self.privateFolder(environment: environment)
        let socketPath = folder + "/request-\(getpid())-\(call.id)"
        let listening = try UnixSocket.listening(at: socketPath)
        defer {
            close(listening)
            unlink(socketPath)
        }
        guard let program = terminal.first, let executable = ProgramSearch.executable(program, environment: environment) else {
            throw PortalError("the terminal \(terminal.first ?? "") of [portal] terminal is not installed")
        }
        let share = Self.ownExecutable()
        let pid: pid_t
        do {
            pid = try Subprocess.launchDetached(executable, arguments: Array(terminal.dropFirst()) + [share, "--portal-request", socketPath])
        } catch {
            throw PortalError(error.description)
        }
        let connection = try waitForShare(listening, terminal: pid, program: program)
        defer { close(connection) }
        try call.handoff.send(on: connection, descriptors: descriptors)
        let answer = Self.readAnswer(connection)
        log("share-portal: the request of \(call.applicationName): \(answer ?? "no result (the terminal closed)")\n")
        return PortalResponse(outcome: answer)
    }

    /// Each attachment opened for reading now, while it is the file the
    /// frontend checked: a regular file, or the request fails whole.
    static func open(_ attachments: [String]) throws(PortalError) -> [Int32] {
        var descriptors: [Int32] = []
        for attachment in attachments {
            let path = PortalCall.path(attachment)
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
            var status = stat()
            guard descriptor >= 0, fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                let reason = descriptor < 0 ? FileError(code: errno).reason : "not a regular file"
                if descriptor >= 0 { close(descriptor) }
                descriptors.forEach { _ = close($0) }
                throw PortalError("cannot attach \(path): \(reason)")
            }
            // Reads block as on any file from here on.
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
            descriptors.append(descriptor)
        }
        return descriptors
    }

    /// `$XDG_RUNTIME_DIR/share-portal` (else under /tmp), the user's alone.
    static func privateFolder(environment: [String: String]) throws(PortalError) -> String {
        let base = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        let folder = base + "/share-portal-\(getuid())"
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw PortalError("cannot make \(folder): \(FileError(code: errno).reason)")
        }
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw PortalError("\(folder) is not a folder of this user's alone (mode 700)")
        }
        return folder
    }

    /// The path of the running binary (share, whatever name started it).
    static func ownExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? PortalError.text(buffer) : "share"
    }

    /// The connection of the share the terminal started: the user's own,
    /// within `startSeconds`, while the terminal has not failed.
    private func waitForShare(_ listening: Int32, terminal pid: pid_t, program: String) throws(PortalError) -> Int32 {
        let deadline = Self.now() + startSeconds
        var ended = false
        while Self.now() < deadline {
            var ready = pollfd(fd: listening, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 500) > 0 {
                let connection = accept(listening, nil, nil)
                if connection >= 0 {
                    _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
                    if share_peer_uid(connection) == Int(getuid()) { return connection }
                    close(connection)
                }
            }
            if !ended, let status = Subprocess.exitStatus(ifEnded: pid) {
                ended = true
                // A terminal that hands the command to a server of its own ends at once, and well.
                if status != 0 { throw PortalError("the terminal \(program) ended with status \(status) before share started") }
            }
        }
        throw PortalError("share did not start in the terminal \(program) within \(Int(startSeconds)) seconds")
    }

    /// The compose screen's result (`outcome` of share's `--json`), or
    /// `nil` when share ended without one (its terminal closed).
    static func readAnswer(_ connection: Int32) -> String? {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = read(connection, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer.prefix(count)
        }
        struct Result: Decodable { var outcome: String }
        return try? JSONDecoder().decode(Result.self, from: Data(bytes)).outcome
    }
}
