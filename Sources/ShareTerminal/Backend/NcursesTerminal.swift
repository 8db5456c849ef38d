import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// The one place that talks to the terminal, `/dev/tty`: it is set up
/// here (raw mode, the alternate screen, the keypad and the mouse, in
/// the forms the terminal's terminfo entry names, read through ncurses'
/// terminfo level) and restored on the way out; frames are written to it
/// directly (``FrameWriter``: only the cells that changed), and keys, the
/// mouse and resizes are read from it directly (``KeyDecoder`` makes the
/// bytes into events). No curses screen is started: share keeps no copy
/// of the screen but the last frame.
///
/// Drawing on `/dev/tty` (as fzf does) keeps stdout for the JSON result and
/// stdin free to be an item. Colours come from the terminal's palette, and
/// are off when `wantColors` is false or the terminal has none. With
/// `wantColors` false the views draw without colours, but a colour a
/// frame still holds (a QR code's black on white, which must not follow
/// the theme) is drawn when the terminal has it.
public final class NcursesTerminal: TerminalBackend {
    /// How many palette colours the terminal has (0 without colours, whatever `wantColors` says).
    private let palette: Int
    /// Whether the views may use colours (`--no-color`, `NO_COLOR` say not).
    private let wantsColors: Bool
    /// Signalled by running work to end a wait.
    public let wake = TerminalWake()
    /// Reads in a row that found the terminal readable and nothing in it.
    private var emptyReads = 0
    private var ended = false
    /// The terminal's descriptor, read and written directly.
    private let terminal: Int32
    /// The terminal's modes as they were (the shell's), and as the screen has them.
    private var shellModes: termios
    private var screenModes: termios
    /// What the terminal is sent when the screen starts (and comes back
    /// from `suspend`) and when it leaves.
    private let entering: [UInt8]
    private let leaving: [UInt8]
    /// The terminal's size (rows, columns), asked again at each resize.
    private var lines: Int
    private var columns: Int
    /// The terminal and ``wake``, as `poll` takes them.
    private var descriptors: [pollfd] = []
    /// Bytes read from the terminal, and how many of them are made into events.
    private var received: [UInt8] = []
    private var unread = 0
    /// What the terminal shows, and what it is sent for the next frame.
    private var writer: FrameWriter

    /// Opens `/dev/tty`, reads its terminfo entry and sets it up.
    ///
    /// - Throws: ``TerminalError`` when there is no terminal or it cannot show a screen.
    public init(wantColors: Bool) throws(TerminalError) {
        // One open of the terminal, for reading and writing (each open and
        // close of a terminal is a trip through the tty layer).
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TerminalError("cannot open /dev/tty: \(String(cString: strerror(errno)))") }
        var modes = termios()
        guard tcgetattr(descriptor, &modes) == 0 else {
            close(descriptor)
            throw TerminalError("cannot read the modes of /dev/tty: \(String(cString: strerror(errno)))")
        }
        guard nc_setup_terminal(descriptor) != 0 else {
            close(descriptor)
            let term = getenv("TERM").map { String(cString: $0) } ?? "unset"
            throw TerminalError("ncurses cannot drive this terminal (TERM=\(term))")
        }
        // A terminal that cannot move the cursor (TERM=dumb) cannot show a screen.
        guard let cup = nc_string_capability("cup") else {
            nc_release_terminal()
            close(descriptor)
            let term = getenv("TERM").map { String(cString: $0) } ?? "unset"
            throw TerminalError("this terminal cannot move the cursor (TERM=\(term)); share needs one that can, such as xterm-256color")
        }
        // The screen's own handlers: a resize is asked for when it comes; a
        // hang-up, a TERM or an INT ends the wait for keys (the screen saves
        // what it holds and the terminal is restored on the way out); a
        // stop leaves the screen until the process is continued.
        ScreenSignals.windowChange.watch()
        ScreenSignals.hangUp.watch()
        ScreenSignals.stop.watch()
        terminal = descriptor
        shellModes = modes
        screenModes = NcursesTerminal.raw(modes)
        lines = Int(nc_lines())
        columns = Int(nc_cols())
        wantsColors = wantColors
        palette = NcursesTerminal.paletteColors()
        let capability = NcursesTerminal.capability
        let mouse = NcursesTerminal.mouseReporting()
        // The keypad's application mode: its keys come as ESC O sequences, which KeyDecoder reads.
        entering = capability("smcup") + capability("smkx") + capability("civis") + mouse.on
        // As ncurses leaves: after the alternate screen a carriage return,
        // which sets the terminal's tab count back to the line's start.
        leaving = mouse.off + capability("cnorm") + capability("rmcup") + [0x0D] + capability("rmkx")
        writer = FrameWriter(sequences: NcursesTerminal.sequences(cup: cup, colors: palette))
        start()
    }

    /// `modes` as a screen reads keys: no line editing, echo or signals
    /// from keys (Ctrl-C, Ctrl-Z and Ctrl-S are keys), Return as CR, a
    /// line feed written as itself, each byte as it comes (ncurses'
    /// `raw`, `noecho` and `nonl`).
    static func raw(_ modes: termios) -> termios {
        var raw = modes
        raw.c_lflag &= ~tcflag_t(ICANON | ISIG | IEXTEN | ECHO)
        raw.c_iflag &= ~tcflag_t(IXON | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL)
        raw.c_oflag &= ~tcflag_t(ONLCR)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// The palette's size when the terminal can set colours, as ncurses' `has_colors` has it; 0 otherwise.
    private static func paletteColors() -> Int {
        let colors = Int(nc_number("colors"))
        let settable = (nc_string_capability("setaf") != nil && nc_string_capability("setab") != nil)
            || (nc_string_capability("setf") != nil && nc_string_capability("setb") != nil)
            || nc_string_capability("scp") != nil
        return colors > 0 && nc_number("pairs") >= 0 && settable ? colors : 0
    }

    /// What turns mouse reporting on and off, where ncurses would turn it
    /// on: a terminal with a mouse key (`kmous`) or an xterm, through
    /// xterm's `XM` when the entry has it (SGR reports for xterm-256color),
    /// else X10 reports (mode 1000). Nothing for other terminals.
    private static func mouseReporting() -> (on: [UInt8], off: [UInt8]) {
        // strstr, not String.contains: that generic search costs a scan of
        // every protocol conformance the first time, before the first paint.
        let xterm = getenv("TERM").map { strstr($0, "xterm") != nil } ?? false
        let mouseKey = nc_string_capability("kmous").map { $0.pointee != 0 } ?? false
        guard mouseKey || xterm else { return ([], []) }
        guard let xm = nc_string_capability("XM") else {
            return (Array("\u{1B}[?1000h".utf8), Array("\u{1B}[?1000l".utf8))
        }
        let template = String(cString: xm)
        func reporting(_ on: Int32) -> [UInt8] {
            template.withCString { nc_mouse_reporting($0, on).map { withoutDelays(String(cString: $0)) } ?? [] }
        }
        return (reporting(1), reporting(0))
    }

    /// A string capability of the terminal without its delays; empty when it has none.
    private static func capability(_ name: String) -> [UInt8] {
        nc_string_capability(name).map { withoutDelays(String(cString: $0)) } ?? []
    }

    /// The sequences frames are written with, from the terminal's terminfo entry.
    private static func sequences(cup: UnsafePointer<CChar>, colors: Int) -> TerminalSequences {
        let template = String(decoding: withoutDelays(String(cString: cup)), as: UTF8.self)
        // ECMA-48's cursor position (xterm and its kin) is written without a trip through tiparm.
        var move: (@Sendable (Int, Int) -> [UInt8])?
        if template != TerminalSequences.ecma48Cup {
            move = { (y: Int, x: Int) -> [UInt8] in
                template.withCString { nc_cursor_address($0, Int32(y), Int32(x)).map { withoutDelays(String(cString: $0)) } ?? [] }
            }
        }
        let clear = capability("clear")
        let update = TerminalSequences.synchronizedUpdate(cup: template)
        return TerminalSequences(clear: clear.isEmpty ? Array("\u{1B}[H\u{1B}[2J".utf8) : clear, hideCursor: capability("civis"),
                                 showCursor: capability("cnorm"), move: move, colors: colors,
                                 lastCellScrolls: nc_flag("am") != 0 && nc_flag("xenl") == 0,
                                 beginUpdate: update.begin, endUpdate: update.end)
    }

    /// A capability without its padding (`$<5>`, a delay for old hardware
    /// that `tputs` would wait out, which a write would show as text).
    static func withoutDelays(_ capability: String) -> [UInt8] {
        var bytes = Array(capability.utf8)
        while let dollar = bytes.indices.first(where: { bytes[$0] == 0x24 && $0 + 1 < bytes.count && bytes[$0 + 1] == 0x3C }),
              let close = bytes[dollar...].firstIndex(of: 0x3E) {
            bytes.removeSubrange(dollar...close)
        }
        return bytes
    }

    deinit { end() }

    /// How many palette colours the terminal has (8, 256 …; 0 without colours).
    public var paletteSize: Int { wantsColors ? palette : 0 }

    /// The terminal's size now.
    public var size: (width: Int, height: Int) { (columns, lines) }

    /// Leaves the screen to run `body` (an external editor) on the plain
    /// terminal, then comes back; the next frame is drawn whole.
    public func suspend<Result>(_ body: () -> Result) -> Result {
        leave()
        let result = body()
        start()
        return result
    }

    /// The screen's modes and its start: the alternate screen, the
    /// keypad, no cursor (until a frame shows it), the mouse.
    private func start() {
        withUnsafePointer(to: &screenModes) { _ = tcsetattr(terminal, TCSADRAIN, $0) }
        send(entering)
    }

    /// The terminal in its default style with the cursor on the last
    /// line, the screen left and the shell's modes back, for what comes
    /// after the screen; the next frame is drawn whole.
    private func leave() {
        writer.leave(height: lines)
        send(writer.output + leaving)
        withUnsafePointer(to: &shellModes) { _ = tcsetattr(terminal, TCSADRAIN, $0) }
    }

    /// Restores the terminal (idempotent).
    public func end() {
        guard !ended else { return }
        ended = true
        ScreenSignals.stop.stop()
        ScreenSignals.hangUp.stop()
        ScreenSignals.windowChange.stop()
        leave()
        nc_release_terminal()
        close(terminal)
    }

    /// Draws `frame`: only what changed since the last one is sent, in one write.
    public func draw(_ frame: Frame) {
        writer.write(frame, width: columns, height: lines)
        // Cut short, the frame is not what the terminal shows: the next one is drawn whole.
        if !send(writer.output) { writer.forget() }
    }

    /// Writes `bytes` to the terminal, all of them (a signal or a full
    /// buffer may cut a write short); whether they all went (a terminal
    /// gone takes none).
    @discardableResult
    private func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = write(terminal, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
    }

    /// How long the rest of an escape sequence or a character may take to
    /// arrive, in milliseconds: ESC alone is Escape after it.
    static let escapeDelay = 25

    /// Waits for the next event: a key already read comes first; otherwise
    /// `poll` waits on the terminal and on ``wake`` together, and one
    /// `read` takes everything that arrived (a paste in one go).
    ///
    /// The wait is cut into slices of at most 250 ms: a resize or hang-up
    /// signal that lands on another thread interrupts no `poll`, and is
    /// seen at the next slice.
    public func nextEvent(timeoutMilliseconds: Int?) -> TerminalEvent {
        let deadline = timeoutMilliseconds.map { milliseconds + max(0, $0) }
        // Made at the first wait, not before the first paint (the wake's pipe with it).
        if descriptors.isEmpty {
            descriptors = [pollfd(fd: terminal, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)]
        }
        while true {
            if ScreenSignals.hangUp.happened || emptyReads >= 50 { return .closed }
            // A stop asked by a signal (keys cannot send one in raw mode): the
            // shell gets its terminal back until the process is continued.
            if ScreenSignals.stop.consume() {
                suspend { _ = raise(SIGSTOP) }
                return .input(resized())
            }
            if ScreenSignals.windowChange.consume() { return .input(resized()) }
            if wake.consume() { return .woken }
            if unread < received.count {
                let first = received[unread]
                unread += 1
                let event = KeyDecoder.event(for: first, next: { nextByte() }, unread: { _ in unread -= 1 })
                if let event { return .input(event) }
                continue
            }
            // Even with no time left, what already arrived is read: a timeout
            // of 0 asks for the input waiting now, not for none.
            let remaining = deadline.map { max(0, $0 - milliseconds) }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            let ready = poll(&descriptors, 2, Int32(min(remaining ?? 250, 250)))
            if ready < 0 && errno != EINTR { return .closed }
            if descriptors[0].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .closed }
            if descriptors[0].revents & Int16(POLLIN) != 0 {
                // Readable but nothing to read, again and again: the terminal is at its end.
                emptyReads = receive() ? 0 : emptyReads + 1
                continue
            }
            // A signal is looked at at the top, and so is the wake while there is time.
            if ready < 0 { continue }
            if remaining == 0 { return .timeout }
        }
    }

    /// The next byte of a key: one already read, or one that arrives
    /// within the escape delay (the rest of a sequence or a character may
    /// come in the next read; ESC alone is Escape once the delay is over).
    private func nextByte() -> UInt8? {
        guard unread < received.count || (readable(within: NcursesTerminal.escapeDelay) && receive()) else { return nil }
        defer { unread += 1 }
        return received[unread]
    }

    /// Whether the terminal has bytes to read, or gets some within
    /// `timeout` milliseconds (a signal does not cut the wait short).
    private func readable(within timeout: Int) -> Bool {
        let deadline = milliseconds + timeout
        var descriptor = pollfd(fd: terminal, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, Int32(max(0, deadline - milliseconds)))
            if ready < 0 && errno == EINTR { continue }
            return ready > 0 && descriptor.revents & Int16(POLLIN) != 0
        }
    }

    /// Reads what the terminal has (it said it is readable), after the
    /// bytes not yet decoded; whether anything came. Input begins the
    /// update of the frame it leads to (``FrameWriter/beginUpdate()``).
    private func receive() -> Bool {
        if unread == received.count {
            received.removeAll(keepingCapacity: true)
            unread = 0
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let count = read(terminal, buffer.baseAddress, buffer.count)
            guard count > 0 else { return false }
            // The frame this input leads to begins now: the terminal holds what it shows until the frame is whole.
            let begin = writer.beginUpdate()
            if !begin.isEmpty { send(begin) }
            received.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            return true
        }
    }

    /// The terminal's new size (the next frame is drawn whole).
    private func resized() -> InputEvent {
        var size = winsize()
        if withUnsafeMutablePointer(to: &size, { ioctl(terminal, UInt(TIOCGWINSZ), $0) }) == 0, size.ws_row > 0, size.ws_col > 0 {
            lines = Int(size.ws_row)
            columns = Int(size.ws_col)
        }
        writer.forget()
        return .resize(width: columns, height: lines)
    }

    /// Whether the terminal has bytes not yet made into events.
    public func inputPending() -> Bool {
        unread < received.count || readable(within: 0)
    }

    /// Monotonic milliseconds.
    public var milliseconds: Int {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return now.tv_sec * 1000 + now.tv_nsec / 1_000_000
    }
}

/// The terminal cannot be used; the message says why.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
