#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and waits for it: `posix_spawn`, pipes, `poll`.
///
/// Standard input is fed while standard output and error are drained, so a
/// chatty child never blocks on a full pipe. The child starts with default
/// signal dispositions and an empty signal mask (share ignores SIGPIPE;
/// its children must not inherit that). Nothing passes through a shell
/// unless the caller runs one.
public enum Subprocess {
    /// How a run ended.
    public struct Outcome: Sendable {
        /// The exit status, or 128 + the signal that ended it.
        public var status: Int32
        /// Standard output, when kept.
        public var output: [UInt8]
        /// Standard error, when kept (at most `errorLimit` bytes).
        public var errors: [UInt8]
        /// Whether all of standard input was written (false when the program
        /// exited before reading it all).
        public var inputComplete: Bool
        /// Whether feeding stopped because `input` reported a read error; the
        /// program was killed first, so it never saw a truncated input end.
        public var inputFailed: Bool
    }

    /// The program could not be started; `reason` is the C library's words.
    public struct LaunchError: Error, Sendable, CustomStringConvertible {
        public var program: String
        public var reason: String
        public var description: String { "cannot start \(program): \(reason)" }
    }

    /// Runs `executable` (a path) with `arguments` (without the program name).
    ///
    /// - Parameters:
    ///   - environment: the child's environment; `nil` passes share's own.
    ///   - input: fills a buffer with the next bytes of standard input and
    ///     returns how many (0 at the end, a negative count on a read error);
    ///     `nil` gives the child `/dev/null`.
    ///   - keepOutput: collect standard output (else it goes to `/dev/null`).
    ///   - errorLimit: how much of standard error to keep.
    public static func run(_ executable: String, arguments: [String], environment: [String: String]? = nil,
                           input: ((UnsafeMutableRawBufferPointer) -> Int)? = nil, keepOutput: Bool = true,
                           errorLimit: Int = 1 << 16) throws(LaunchError) -> Outcome {
        var stdinPipe: [Int32] = [-1, -1], stdoutPipe: [Int32] = [-1, -1], stderrPipe: [Int32] = [-1, -1]
        func closeAll() { for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) } }
        // Close-on-exec, so that the child keeps only the ends it is given.
        func makePipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            return true
        }
        guard (input == nil || makePipe(&stdinPipe)), (!keepOutput || makePipe(&stdoutPipe)), makePipe(&stderrPipe) else {
            let reason = String(cString: strerror(errno))
            closeAll()
            throw LaunchError(program: executable, reason: "cannot make pipes: \(reason)")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if keepOutput {
            posix_spawn_file_actions_adddup2(&actions, stdoutPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stderrPipe[1], 2)
        var pid: pid_t = 0
        let spawned = spawn(&pid, executable, arguments, environment, &actions)
        for fd in [stdinPipe[0], stdoutPipe[1], stderrPipe[1]] where fd >= 0 { close(fd) }
        stdinPipe[0] = -1; stdoutPipe[1] = -1; stderrPipe[1] = -1
        guard spawned == 0 else {
            closeAll()
            throw LaunchError(program: executable, reason: String(cString: strerror(spawned)))
        }

        // A program that exits before reading all its input makes the next
        // write raise SIGPIPE: held back on this thread (and discarded) so it
        // cannot end a host program that does not ignore it, as share does.
        var pipeSignal = sigset_t(), previousMask = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, &previousMask)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec()
                _ = sigtimedwait(&pipeSignal, nil, &none)
            }
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
        }
        var outcome = Outcome(status: 0, output: [], errors: [], inputComplete: input == nil, inputFailed: false)
        var inputFD = stdinPipe[1]
        if inputFD >= 0 { _ = fcntl(inputFD, F_SETFL, fcntl(inputFD, F_GETFL) | O_NONBLOCK) }
        var readers = [stdoutPipe[0], stderrPipe[0]].filter { $0 >= 0 }
        let pending = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { pending.deallocate() }
        var pendingStart = 0, pendingEnd = 0
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func finishInput() {
            if inputFD >= 0 { close(inputFD) }
            inputFD = -1
        }
        while !readers.isEmpty || inputFD >= 0 {
            var fds = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), -1)
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            for entry in fds where entry.revents != 0 {
                if entry.fd == inputFD {
                    if entry.revents & Int16(POLLOUT) == 0 { finishInput(); continue }  // the reader is gone
                    if pendingStart == pendingEnd, let input {
                        let count = input(pending)
                        if count < 0 {
                            // Never let the program see a shortened input end as a whole one.
                            kill(pid, SIGKILL)
                            outcome.inputFailed = true
                            finishInput()
                            continue
                        }
                        if count == 0 { outcome.inputComplete = true; finishInput(); continue }
                        pendingStart = 0
                        pendingEnd = count
                    }
                    let written = write(inputFD, pending.baseAddress! + pendingStart, pendingEnd - pendingStart)
                    if written < 0 {
                        if errno == EAGAIN || errno == EINTR { continue }
                        finishInput()  // EPIPE: it exited without reading everything
                        continue
                    }
                    pendingStart += written
                    continue
                }
                let count = chunk.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 {
                    close(entry.fd)
                    readers.removeAll { $0 == entry.fd }
                    continue
                }
                if entry.fd == stdoutPipe[0] {
                    outcome.output += chunk[0..<count]
                } else if outcome.errors.count < errorLimit {
                    outcome.errors += chunk[0..<min(count, errorLimit - outcome.errors.count)]
                }
            }
        }
        finishInput()
        for fd in readers { close(fd) }
        outcome.status = wait(for: pid)
        return outcome
    }

    /// Runs `executable` on the terminal `terminal` (its standard input,
    /// output and error), as an editor runs, and returns its exit status.
    public static func runOnTerminal(_ executable: String, arguments: [String],
                                     terminal: Int32) throws(LaunchError) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for target in Int32(0)...2 { posix_spawn_file_actions_adddup2(&actions, terminal, target) }
        var pid: pid_t = 0
        let spawned = spawn(&pid, executable, arguments, nil, &actions)
        guard spawned == 0 else { throw LaunchError(program: executable, reason: String(cString: strerror(spawned))) }
        return wait(for: pid)
    }

    /// `posix_spawn` of `executable` with `arguments` and `actions`: an empty
    /// signal mask and default dispositions, and with `newProcessGroup` a
    /// process group of its own (so that it can be stopped whole).
    /// Returns 0 or the error number.
    public static func spawn(_ pid: inout pid_t, _ executable: String, _ arguments: [String], _ environment: [String: String]?,
                             _ actions: inout posix_spawn_file_actions_t, newProcessGroup: Bool = false) -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        guard let environment else { return posix_spawn(&pid, executable, &actions, &attributes, argv, environ) }
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { envp.forEach { free($0) } }
        return posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    }

    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift cannot import.
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
