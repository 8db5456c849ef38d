import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TestSupport

/// A program running in a detached tmux session of its own, for driving the
/// picker end to end: keys and mouse in, the screen (with or without colours)
/// out, and the program's stdout, stderr and exit status in files.
///
/// Each session has its own server (`-S` socket in a fresh directory, no
/// config: `-f /dev/null`), so tests run in parallel without meeting. The
/// server is started with `posix_spawn` (not `Process`, which would hang
/// until the server exits, since the server inherits its pipes), with an
/// empty signal mask and default dispositions, so the program sees
/// `SIGWINCH`. Later tmux commands (capture, keys, resize) go through
/// `Process`. The server is killed when the session goes away.
///
/// Nothing here sleeps to synchronise: every wait polls the screen or the
/// status file (`eventually`) until a condition holds or a deadline passes.
final class TmuxSession {
    /// The private directory: the socket, and the program's stdout, stderr and status.
    let directory: URL
    /// The server's socket.
    let socket: String
    /// The terminal size now.
    private(set) var width: Int
    private(set) var height: Int

    private let tmux: URL
    private let environment: [String: String]
    private var outFile: URL { directory.appendingPathComponent("stdout") }
    private var errFile: URL { directory.appendingPathComponent("stderr") }
    private var statusFile: URL { directory.appendingPathComponent("status") }
    private var closed = false

    /// The longest any wait may take before the test fails (a loaded CI machine is slow).
    static let defaultTimeout: Double = 20

    /// Starts `command` (a `/bin/sh` command line, which may be a pipeline) in
    /// a new `width`×`height` session, in `workingDirectory`, with
    /// `environment` (plus `LANG=C.UTF-8`, `TERM=xterm-256color`).
    init(_ command: String, width: Int = 100, height: Int = 30, workingDirectory: URL,
         environment: [String: String]) throws {
        self.tmux = try TmuxSession.tmuxBinary()
        self.width = width
        self.height = height
        self.environment = environment
        var template = Array("/tmp/share-tmux-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil, "mkdtemp: errno \(errno)")
        directory = URL(fileURLWithPath: String(cString: made!), isDirectory: true)
        socket = directory.appendingPathComponent("tmux.sock").path
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)

        let q = TmuxSession.quote
        let pending = directory.appendingPathComponent("status.partial").path
        // The status file appears whole (mv), so a poll never reads half of it.
        let script = "env LANG=C.UTF-8 TERM=xterm-256color sh -c \(q(command))"
            + " >\(q(outFile.path)) 2>\(q(errFile.path)); echo $? >\(q(pending)); mv \(q(pending)) \(q(statusFile.path))"
        let clientErrors = directory.appendingPathComponent("tmux-client.err")
        let status = try TmuxSession.spawn(tmux.path, ["tmux", "-S", socket, "-f", "/dev/null", "new-session", "-d",
                                                      "-x", String(width), "-y", String(height),
                                                      "-c", workingDirectory.path, script],
                                           environment: environment, errorPath: clientErrors.path)
        if status != 0 {
            let message = (try? String(contentsOf: clientErrors, encoding: .utf8)) ?? ""
            close()
            try #require(status == 0, "tmux new-session exited with \(status): \(message)")
        }
    }

    deinit { close() }

    /// Kills the server (and with it the program, if still running) and removes the directory.
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? run(["kill-server"])
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - The screen

    /// The screen as text, one line per row (trailing blanks trimmed by tmux);
    /// a wide character appears once, without a filler for its second cell.
    /// With `colors`, SGR sequences are included (`capture-pane -e`); tmux
    /// writes only the changes from the previous cell, across lines.
    func capture(colors: Bool = false) throws -> Screen {
        let result = try run(["capture-pane", "-p"] + (colors ? ["-e"] : []))
        guard result.status == 0 else { throw TmuxError.failed("capture-pane: \(result.err)\(programReport())") }
        return Screen(text: result.out)
    }

    /// Polls the screen until `condition` holds; returns that screen.
    @discardableResult
    func waitUntil(_ what: String, timeout: Double = TmuxSession.defaultTimeout, colors: Bool = false,
                   _ condition: (Screen) -> Bool) throws -> Screen {
        var last: Screen?
        return try eventually(what, timeout: timeout, report: { "last screen:\n\(last?.text ?? "(none)")\(programReport())" }) {
            guard let screen = try? capture(colors: colors) else { return nil }
            last = screen
            return condition(screen) ? screen : nil
        }
    }

    /// Polls the screen until it shows `text`; returns that screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Double = TmuxSession.defaultTimeout) throws -> Screen {
        try waitUntil("\"\(text)\"", timeout: timeout) { $0.text.contains(text) }
    }

    // MARK: - Input

    /// Sends tmux key names (`Escape`, `Enter`, `Right`, `C-c`, `q`…).
    func send(_ keys: String...) throws {
        let result = try run(["send-keys"] + keys)
        guard result.status == 0 else { throw TmuxError.failed("send-keys \(keys): \(result.err)\(programReport())") }
    }

    /// Types `text` literally (`send-keys -l`), escape sequences included.
    func sendLiteral(_ text: String) throws {
        let result = try run(["send-keys", "-l", text])
        guard result.status == 0 else { throw TmuxError.failed("send-keys -l: \(result.err)\(programReport())") }
    }

    /// A left click on the cell at 0-based `column`, `row`: an SGR 1006 press and
    /// release, sent at once (the press may end the program before a second command).
    func click(column: Int, row: Int) throws {
        try sendLiteral("\u{1B}[<0;\(column + 1);\(row + 1)M\u{1B}[<0;\(column + 1);\(row + 1)m")
    }

    /// Resizes the terminal; the program gets `SIGWINCH`.
    func resize(width: Int, height: Int) throws {
        let result = try run(["resize-window", "-x", String(width), "-y", String(height)])
        guard result.status == 0 else { throw TmuxError.failed("resize-window: \(result.err)\(programReport())") }
        self.width = width
        self.height = height
    }

    /// How many bytes typed into the terminal wait for the program to read
    /// them (`FIONREAD` on the pane's terminal, up to the 4 KiB the
    /// terminal's line discipline holds).
    func unreadInput() throws -> Int {
        let result = try run(["display-message", "-p", "#{pane_tty}"])
        let path = result.out.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !path.isEmpty else { throw TmuxError.failed("display-message: \(result.err)") }
        let descriptor = open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw TmuxError.failed("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { Glibc.close(descriptor) }
        var count: Int32 = 0
        guard withUnsafeMutablePointer(to: &count, { ioctl(descriptor, UInt(FIONREAD), $0) }) == 0 else {
            throw TmuxError.failed("FIONREAD on \(path): \(String(cString: strerror(errno)))")
        }
        return Int(count)
    }

    // MARK: - The program's results

    /// Polls until the program has exited; returns its exit status.
    func waitForExit(timeout: Double = TmuxSession.defaultTimeout) throws -> Int32 {
        try eventually("the program to exit", timeout: timeout,
                       report: { "screen:\n\((try? capture().text) ?? "(no screen)")\(programReport())" }) {
            (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
    }

    /// Whether the program has exited.
    var hasExited: Bool { FileManager.default.fileExists(atPath: statusFile.path) }

    /// The program's standard output so far.
    var stdout: String { (try? String(contentsOf: outFile, encoding: .utf8)) ?? "" }
    /// The program's standard error so far.
    var stderr: String { (try? String(contentsOf: errFile, encoding: .utf8)) ?? "" }

    private func programReport() -> String {
        "\n-- stdout: \(stdout)\n-- stderr: \(stderr)"
    }

    // MARK: - Running tmux

    /// Runs a tmux command on this session's server (`source-file`,
    /// `copy-mode`, `send-keys -X` …); fails the test when tmux refuses it.
    @discardableResult
    func command(_ arguments: String...) throws -> String {
        let result = try run(arguments)
        guard result.status == 0 else { throw TmuxError.failed("tmux \(arguments): \(result.err)\(programReport())") }
        return result.out
    }

    private func run(_ arguments: [String]) throws -> ShareRun {
        try Share.run(tmux, ["-S", socket] + arguments, environment: environment, directory: directory)
    }

    static func tmuxBinary() throws -> URL {
        let candidates = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"]
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
        return URL(fileURLWithPath: try #require(found, "tmux is needed for the end-to-end picker tests (apt-get install tmux)"))
    }

    /// `text` as one `/bin/sh` word.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs `path` with `arguments` (argv[0] included) and waits for it, with
    /// an empty signal mask, default signal dispositions, stdin and stdout on
    /// /dev/null, stderr into `errorPath`, and no other descriptor inherited.
    static func spawn(_ path: String, _ arguments: [String], environment: [String: String],
                      errorPath: String) throws -> Int32 {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // Pipes other tests hold open must not live on in the server, or their
        // readers would wait for its end.
        closeInheritedDescriptors(&actions)

        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let error = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        try #require(error == 0, "posix_spawn \(path): error \(error)")
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            try #require(errno == EINTR, "waitpid: errno \(errno)")
        }
        // WIFEXITED / WEXITSTATUS by hand: the macros are not imported.
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// Adds "close every descriptor from 3 up" to `actions`: glibc's
    /// `posix_spawn_file_actions_addclosefrom_np` (2.34+, not visible to Swift
    /// by name), else one close per descriptor open now.
    private static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        if let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") {
            let closeFrom = unsafeBitCast(symbol, to: CloseFrom.self)
            if closeFrom(&actions, 3) == 0 { return }
        }
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for descriptor in open.compactMap({ Int32($0) }) where descriptor > 2 {
            // A descriptor closed meanwhile is fine: glibc ignores EBADF for close actions.
            posix_spawn_file_actions_addclose(&actions, descriptor)
        }
    }
}

/// A tmux command that failed; the text says what the program wrote.
enum TmuxError: Error, CustomStringConvertible {
    case failed(String)

    var description: String {
        switch self {
        case .failed(let text): text
        }
    }
}

/// One capture of the screen.
struct Screen: Sendable {
    /// The capture as tmux printed it.
    var text: String
    /// One string per row.
    var lines: [String] {
        var lines = text.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// Whether the screen shows `text` somewhere.
    func contains(_ text: String) -> Bool { self.text.contains(text) }

    /// The row and cell column where `text` first appears, reading row by row.
    func find(_ text: String) -> (row: Int, column: Int)? {
        for (row, line) in lines.enumerated() {
            if let range = line.range(of: text) {
                return (row, Screen.columns(line[..<range.lowerBound]))
            }
        }
        return nil
    }

    /// Every match of `pattern`, in reading order, with its row and cell column.
    func matches(of pattern: Regex<Substring>) -> [(text: String, row: Int, column: Int)] {
        var found: [(text: String, row: Int, column: Int)] = []
        for (row, line) in lines.enumerated() {
            for match in line.matches(of: pattern) {
                found.append((String(match.output), row, Screen.columns(line[..<match.range.lowerBound])))
            }
        }
        return found
    }

    /// The cells `text` takes on tmux 3.3a's screen, measured independently of
    /// the code under test, scalar by scalar as tmux stores them: a mark,
    /// format character or variation selector takes 0 (so ❤️ takes 1), as does
    /// whatever a ZWJ joins to its cell (tmux joins the next non-ASCII
    /// character to the cell before, which capture-pane prints as one run);
    /// East Asian Wide and emoji presentation characters take 2; the rest 1.
    static func columns<S: StringProtocol>(_ text: S) -> Int {
        var total = 0
        var joining = false
        for scalar in text.unicodeScalars {
            defer { joining = scalar.value == 0x200D }
            if joining { continue }
            let value = scalar.value
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .enclosingMark, .format, .control: continue
            default: break
            }
            let wide = scalar.properties.isEmojiPresentation
                || (0x1100...0x115F).contains(value) || (0x2E80...0x303E).contains(value)
                || (0x3041...0x33FF).contains(value) || (0x3400...0x4DBF).contains(value)
                || (0x4E00...0x9FFF).contains(value) || (0xAC00...0xD7A3).contains(value)
                || (0xF900...0xFAFF).contains(value) || (0xFF00...0xFF60).contains(value)
                || (0xFFE0...0xFFE6).contains(value) || (0x20000...0x3FFFD).contains(value)
            total += wide ? 2 : 1
        }
        return total
    }

    /// The runs of reverse-video text on each row of a colour capture
    /// (`capture(colors: true)`), blanks trimmed: the selection. SGR state
    /// carries across lines, as tmux writes only the changes.
    var reversed: [[String]] {
        var rows: [[String]] = [[]]
        var reverse = false
        var run = ""
        func endRun() {
            let trimmed = run.trimmingCharacters(in: .whitespaces)
            if !trimmed.isEmpty { rows[rows.count - 1].append(trimmed) }
            run = ""
        }
        var rest = Substring(text)
        while let character = rest.first {
            if character == "\u{1B}", let match = rest.prefixMatch(of: /\x1B\[([0-9;:]*)([A-Za-z])/) {
                rest = rest[match.range.upperBound...]
                guard match.output.2 == "m" else { continue }
                let codes = match.output.1.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                var index = 0
                while index < codes.count {
                    let code = codes[index]
                    if code == 38 || code == 48 {
                        // An extended colour: 5;N or 2;R;G;B follow.
                        index += codes.indices.contains(index + 1) && codes[index + 1] == 2 ? 5 : 3
                        continue
                    }
                    if code == 0 || code == 7 || code == 27 {
                        if (code == 7) != reverse { endRun() }
                        reverse = code == 7
                    }
                    index += 1
                }
                continue
            }
            rest = rest.dropFirst()
            if character == "\n" {
                endRun()
                rows.append([])
            } else if reverse {
                run.append(character)
            } else if !run.isEmpty {
                endRun()
            }
        }
        endRun()
        if rows.last?.isEmpty == true && text.hasSuffix("\n") { rows.removeLast() }
        return rows
    }

    /// Whether some reverse-video run of a colour capture contains `text`.
    func isSelected(_ text: String) -> Bool {
        reversed.joined().contains { $0.contains(text) }
    }
}

extension TmuxSession {
    /// Writes, at `path`, an executable stand-in for a terminal emulator
    /// (`x-terminal-emulator -e COMMAND ARGUMENT…`) that runs the command in
    /// a new window of this session, as a desktop's terminal would open one.
    func writeTerminalStandIn(to path: URL) throws {
        let script = """
            #!/bin/sh
            # x-terminal-emulator -e COMMAND ARGUMENT...: the command in a new tmux window.
            [ "$1" = -e ] && shift
            line=
            for word; do line="$line '$(printf '%s' "$word" | sed "s/'/'\\\\\\\\''/g")'"; done
            exec tmux -S \(TmuxSession.quote(socket)) new-window "$line"

            """
        try Data(script.utf8).write(to: path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
    }
}

