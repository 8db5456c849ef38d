import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program and waits for it: `posix_spawn`, pipes, `poll`. Every
/// helper program and every plugin runs through it.
///
/// Standard input is fed while standard output and error are drained, so a
/// chatty child never blocks on a full pipe. The child starts with default
/// signal dispositions and an empty signal mask (share ignores SIGPIPE;
/// its children must not inherit that). Nothing passes through a shell
/// unless the caller runs one. A supervised run (``Supervision``) puts the
/// child in a process group of its own and kills that whole group when its
/// time is up or share is interrupted.
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
        /// Whether the supervision's time ran out and the program's group was killed.
        public var timedOut = false
        /// Whether the program printed more than `outputLimit` on standard output and was killed.
        public var outputExceeded = false
        /// Whether share was interrupted (SIGINT, SIGTERM or SIGHUP) during a
        /// supervised run and the program's group was killed.
        public var cancelled = false
    }

    /// How a run may end before its program does: the program runs in a
    /// process group of its own, and the whole group (its children too) is
    /// killed when the time is up or, with `stopsOnInterrupt`, when share
    /// gets SIGINT, SIGTERM or SIGHUP (Ctrl-C reaches share's group, not
    /// the program's). Such a signal then no longer ends share: the run
    /// returns, marked ``Outcome/cancelled``, and share reports it.
    public struct Supervision: Sendable, Equatable {
        /// Seconds the program may run, or `nil` for no limit.
        public var timeout: Double?
        /// Whether SIGINT, SIGTERM and SIGHUP to share stop the program.
        public var stopsOnInterrupt: Bool

        /// A supervision with `timeout` seconds (or none) and, by default, interrupts that stop the program.
        public init(timeout: Double?, stopsOnInterrupt: Bool = true) {
            self.timeout = timeout
            self.stopsOnInterrupt = stopsOnInterrupt
        }
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
    ///   - outputLimit: the most standard output kept; a program that prints
    ///     more is killed (``Outcome/outputExceeded``).
    ///   - errorLimit: how much of standard error to keep.
    ///   - supervision: a time limit and interrupts that stop the program
    ///     (its own process group); `nil` waits for it however long it takes.
    public static func run(_ executable: String, arguments: [String], environment: [String: String]? = nil,
                           input: ((UnsafeMutableRawBufferPointer) -> Int)? = nil, keepOutput: Bool = true,
                           outputLimit: Int = .max, errorLimit: Int = 1 << 16,
                           supervision: Supervision? = nil) throws(LaunchError) -> Outcome {
        let deadline = supervision?.timeout.map { ContinuousClock.now + .seconds($0) }
        // Watched from before the spawn, so that no interrupt can end share
        // while a program it started runs on.
        let interruptsAtStart = supervision?.stopsOnInterrupt == true ? Interrupts.watch() : nil
        defer { if interruptsAtStart != nil { Interrupts.stopWatching() } }
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
        let spawned = spawn(&pid, executable, arguments, environment, &actions, newProcessGroup: supervision != nil)
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
        // A supervised program is stopped whole: its group, children included.
        func kill() { _ = Glibc.kill(supervision == nil ? pid : -pid, SIGKILL) }
        // Whether the time is up or share was interrupted; marks the outcome.
        func mustStop() -> Bool {
            if let interruptsAtStart, Interrupts.count.load(ordering: .relaxed) != interruptsAtStart {
                outcome.cancelled = true
            } else if let deadline, ContinuousClock.now >= deadline {
                outcome.timedOut = true
            }
            return outcome.cancelled || outcome.timedOut
        }
        // How long one poll may wait: for ever unless supervised, else until
        // the deadline and at most 0.1 s (interrupts are checked between).
        func pollWait() -> Int32 {
            guard supervision != nil else { return -1 }
            guard let deadline else { return 100 }
            let left = (deadline - ContinuousClock.now) / .milliseconds(1)
            return Int32(max(1, min(100, left.rounded(.up))))
        }
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
            if supervision != nil && mustStop() { break }
            var fds = readers.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if inputFD >= 0 { fds.append(pollfd(fd: inputFD, events: Int16(POLLOUT), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), pollWait())
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
                            kill()
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
                    guard outcome.output.count + count <= outputLimit else {
                        outcome.outputExceeded = true
                        kill()
                        for fd in readers { close(fd) }
                        readers.removeAll()
                        finishInput()
                        break
                    }
                    outcome.output += chunk[0..<count]
                } else if outcome.errors.count < errorLimit {
                    outcome.errors += chunk[0..<min(count, errorLimit - outcome.errors.count)]
                }
            }
        }
        if outcome.cancelled || outcome.timedOut { kill() }
        finishInput()
        for fd in readers { close(fd) }
        // A supervised program may close its output and still run: the
        // deadline and interrupts hold until it has exited. Most exit as
        // they close it: the first naps are short (1, 2, 4 … ms up to the
        // poll's 0.1 s), or each password command would cost 0.1 s.
        var nap: Int32 = 1
        while supervision != nil && !outcome.cancelled && !outcome.timedOut {
            var status: Int32 = 0
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid {
                outcome.status = exitStatus(status)
                return outcome
            }
            if ended < 0 && errno != EINTR { break }
            if mustStop() { kill(); break }
            _ = poll(nil, 0, min(nap, pollWait()))
            nap = min(nap * 2, 100)
        }
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

    /// Starts `executable` away from share: standard input, output and
    /// error on `/dev/null`, a process group of its own (so that the
    /// terminal's Ctrl-C does not reach it), and not waited for (a
    /// graphical browser that stays open while its window does). Returns
    /// its process id, for ``exitStatus(ifEnded:)``.
    public static func launchDetached(_ executable: String, arguments: [String]) throws(LaunchError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let spawned = spawn(&pid, executable, arguments, nil, &actions, newProcessGroup: true)
        guard spawned == 0 else { throw LaunchError(program: executable, reason: String(cString: strerror(spawned))) }
        return pid
    }

    /// A program started to run beside share, its standard output and
    /// error on one pipe that share reads as it goes, in a process group
    /// of its own (stopped whole).
    public final class Running: Sendable {
        /// Its process id (and process group).
        public let pid: pid_t
        /// The read end of its output.
        public let output: Int32
        /// Whether it was waited for: its id may then be another process's, never to be signalled.
        private let reaped = Mutex(false)

        fileprivate init(pid: pid_t, output: Int32) {
            self.pid = pid
            self.output = output
        }

        deinit { close(output) }

        /// Reads its output to the end, a line at a time (at `\n` or `\r`,
        /// without them), then waits for it and returns its exit status.
        public func lines(_ body: (String) -> Void) -> Int32 {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                for byte in buffer[0..<count] {
                    if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                        if !pending.isEmpty { body(String(decoding: pending, as: UTF8.self)) }
                        pending.removeAll(keepingCapacity: true)
                    } else if pending.count < 4096 {
                        pending.append(byte)
                    }
                }
            }
            if !pending.isEmpty { body(String(decoding: pending, as: UTF8.self)) }
            // Ended but not yet reaped (WNOWAIT): its id stays its own until the flag is set.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
            reaped.withLock { $0 = true }
            return Subprocess.wait(for: pid)
        }

        /// Stops it and what it started (TERM to its process group), unless it has ended.
        public func stop() {
            reaped.withLock { reaped in
                if !reaped { _ = kill(-pid, SIGTERM) }
            }
        }
    }

    /// Starts `executable` with `arguments`: standard input `/dev/null`,
    /// output and errors on one pipe (``Running/lines(_:)``), a process
    /// group of its own.
    public static func start(_ executable: String, arguments: [String]) throws(LaunchError) -> Running {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw LaunchError(program: executable, reason: "cannot make a pipe: \(String(cString: strerror(errno)))") }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 2)
        var pid: pid_t = 0
        let spawned = spawn(&pid, executable, arguments, nil, &actions, newProcessGroup: true)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw LaunchError(program: executable, reason: String(cString: strerror(spawned)))
        }
        return Running(pid: pid, output: ends[0])
    }

    /// The exit status of the child `pid` if it has ended (and is reaped
    /// now), or `nil` while it runs.
    public static func exitStatus(ifEnded pid: pid_t) -> Int32? {
        var status: Int32 = 0
        while true {
            let ended = waitpid(pid, &status, WNOHANG)
            if ended == pid { return exitStatus(status) }
            if ended < 0 && errno == EINTR { continue }
            return ended < 0 ? -1 : nil
        }
    }

    /// `posix_spawn` of `executable` with `arguments` and `actions`: an empty
    /// signal mask and default dispositions, and with `newProcessGroup` a
    /// process group of its own (so that it can be stopped whole).
    /// Returns 0 or the error number.
    private static func spawn(_ pid: inout pid_t, _ executable: String, _ arguments: [String], _ environment: [String: String]?,
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

    /// Waits for `pid` to end: its exit status, or 128 + the signal that ended it.
    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        return exitStatus(status)
    }

    /// The exit status in `status` from `waitpid`, or 128 + the signal that
    /// ended the program (WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift
    /// cannot import).
    private static func exitStatus(_ status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// An `input` for ``run(_:arguments:environment:input:keepOutput:errorLimit:supervision:)``
    /// that feeds `bytes`, then ends.
    public static func feeding(_ bytes: [UInt8]) -> (UnsafeMutableRawBufferPointer) -> Int {
        var offset = 0
        return { buffer in
            let count = min(buffer.count, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<(offset + count)])
            offset += count
            return count
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP while supervised runs are under way: counted
/// by a handler instead of ending share, so that each run can stop its
/// program's group and report the run cancelled.
///
/// The handler is installed when the first such run starts and the earlier
/// handlers come back when the last one ends (runs may overlap). It does one
/// atomic add, which is async-signal-safe.
public enum Interrupts {
    /// How many of those signals have arrived, ever.
    public static let count = Atomic<Int>(0)
    private static let signals = [SIGINT, SIGTERM, SIGHUP]
    /// The supervised runs under way, and the handlers to restore after the last.
    private static let watchers = Mutex<(runs: Int, previous: [sigaction])>((0, []))

    /// Starts counting (for the first run) and returns the count so far.
    public static func watch() -> Int {
        // Read first, so that `count` exists before a handler can touch it.
        let now = count.load(ordering: .relaxed)
        watchers.withLock { state in
            state.runs += 1
            guard state.runs == 1 else { return }
            state.previous = SignalHandlers.install(signals, restart: true) { _ in
                Interrupts.count.add(1, ordering: .relaxed)
            }
        }
        return now
    }

    /// Ends a run's watch; after the last one the earlier handlers are back.
    public static func stopWatching() {
        watchers.withLock { state in
            state.runs -= 1
            guard state.runs == 0 else { return }
            SignalHandlers.restore(signals, to: state.previous)
            state.previous = []
        }
    }
}
