import Dispatch
import FoundationEssentials
import ShareCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a plugin's program: argv as given (never a shell), its own process
/// group, input on stdin, stdout and stderr collected, and the whole group
/// killed when the time runs out or the run is cancelled.
struct PluginProcess {
    struct Outcome {
        var status: Int32
        var output: Data
        var errors: Data
        var timedOut: Bool
        /// The person interrupted it (Ctrl-C, a hang-up or a TERM to share).
        var cancelled: Bool
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let program: String
    let arguments: [String]
    let environment: [String: String]
    let input: Data
    let timeout: Double

    func run() throws -> Outcome {
        var stdinPipe: [Int32] = [0, 0], stdoutPipe: [Int32] = [0, 0], stderrPipe: [Int32] = [0, 0]
        guard pipe(&stdinPipe) == 0, pipe(&stdoutPipe) == 0, pipe(&stderrPipe) == 0 else {
            throw Failure(description: "cannot make pipes: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        for fd in stdinPipe + stdoutPipe + stderrPipe { posix_spawn_file_actions_addclose(&actions, fd) }
        // Its own process group (to kill it whole), an empty signal mask and default dispositions.
        var pid: pid_t = 0
        let spawned = Subprocess.spawn(&pid, program, arguments, environment, &actions, newProcessGroup: true)
        close(stdinPipe[0])
        close(stdoutPipe[1])
        close(stderrPipe[1])
        guard spawned == 0 else {
            close(stdinPipe[1]); close(stdoutPipe[0]); close(stderrPipe[0])
            throw Failure(description: "cannot start \(program): \(String(cString: strerror(spawned)))")
        }
        let flags = fcntl(stdinPipe[1], F_GETFL)
        _ = fcntl(stdinPipe[1], F_SETFL, flags | O_NONBLOCK)

        var output = Data(), errors = Data()
        var written = 0
        var inputOpen = true
        if input.isEmpty { close(stdinPipe[1]); inputOpen = false }
        var openReaders = 2
        var readers = [stdoutPipe[0], stderrPipe[0]]
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        // Ctrl-C reaches share's process group, not the plugin's: catch it (and
        // TERM, HUP) here, and stop the plugin's group instead of leaving it behind.
        let interrupted = Atomic<Bool>(false)
        let signals = [SIGINT, SIGTERM, SIGHUP]
        let previous = signals.map { signal($0, SIG_IGN) }
        let sources = signals.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { interrupted.store(true, ordering: .relaxed) }
            source.resume()
            return source
        }
        defer {
            sources.forEach { $0.cancel() }
            for (number, handler) in zip(signals, previous) { signal(number, handler) }
        }
        var cancelled = false
        var buffer = [UInt8](repeating: 0, count: 65536)
        while openReaders > 0 {
            let remaining = deadline.timeIntervalSinceNow
            if remaining <= 0 {
                timedOut = true
                break
            }
            if interrupted.load(ordering: .relaxed) {
                cancelled = true
                break
            }
            var fds = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputOpen { fds.append(pollfd(fd: stdinPipe[1], events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(min(remaining, 0.1) * 1000))
            if ready < 0 && errno != EINTR { break }
            for entry in fds where entry.revents != 0 {
                if inputOpen && entry.fd == stdinPipe[1] {
                    let count = input.withUnsafeBytes { raw in
                        write(entry.fd, raw.baseAddress! + written, raw.count - written)
                    }
                    if count > 0 { written += count }
                    if count < 0 && errno != EAGAIN || written == input.count {
                        close(stdinPipe[1])
                        inputOpen = false
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == stdoutPipe[0] { output.append(contentsOf: buffer[0..<count]) } else {
                        errors.append(contentsOf: buffer[0..<count])
                    }
                } else if count == 0 || (count < 0 && errno != EINTR && errno != EAGAIN) {
                    readers.removeAll { $0 == entry.fd }
                    openReaders -= 1
                }
            }
        }
        if inputOpen { close(stdinPipe[1]) }
        if timedOut || cancelled { PluginProcess.killGroup(pid) }
        close(stdoutPipe[0])
        close(stderrPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Outcome(status: exitStatus, output: output, errors: errors, timedOut: timedOut, cancelled: cancelled)
    }

    /// Stops the whole group at once (children included): the run has failed.
    static func killGroup(_ pid: pid_t) {
        kill(-pid, SIGKILL)
    }
}
