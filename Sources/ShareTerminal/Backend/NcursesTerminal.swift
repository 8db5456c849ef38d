import CNcursesw
#if canImport(Glibc)
import Glibc
#endif

/// The one place that talks to the terminal: draws frames on `/dev/tty`
/// through ncurses, and reads keys, mouse and resizes from it directly
/// (``KeyDecoder`` makes the bytes into events).
///
/// Drawing on `/dev/tty` (as fzf does) keeps stdout for the JSON result and
/// stdin free to be an item. Colours come from the terminal's palette
/// (`use_default_colors`), and are off when `wantColors` is false or the
/// terminal has none. With `wantColors` false the views draw without
/// colours, but a colour a frame still holds (a QR code's black on white,
/// which must not follow the theme) is drawn when the terminal has it.
public final class NcursesTerminal: TerminalBackend {
    private let input: UnsafeMutablePointer<FILE>
    private let output: UnsafeMutablePointer<FILE>
    private let screen: OpaquePointer
    /// Whether the terminal has colours (started whatever `wantColors` says).
    private let hasColors: Bool
    /// Whether the views may use colours (`--no-color`, `NO_COLOR` say not).
    private let wantsColors: Bool
    /// Signalled by running work to end a wait.
    public let wake = TerminalWake()
    /// Reads in a row that found the terminal readable and nothing in it.
    private var emptyReads = 0
    private var pairs: [Int: Int16] = [:]
    private var ended = false
    /// The terminal's descriptor, read directly (ncurses only draws).
    private let terminal: Int32
    /// The terminal and ``wake``, as `poll` takes them.
    private var descriptors: [pollfd] = []
    /// Bytes read from the terminal, and how many of them are made into events.
    private var received: [UInt8] = []
    private var unread = 0
    /// The frame in ncurses' window: the next one rewrites only the cells
    /// of each row from the first that differs from it to the last. `nil`
    /// when the window must be drawn whole.
    private var shown: Frame?

    /// Opens `/dev/tty` and starts ncurses on it.
    ///
    /// - Throws: ``TerminalError`` when there is no terminal or ncurses cannot start.
    public init(wantColors: Bool) throws(TerminalError) {
        // Only the character type matters to ncurses (UTF-8, wide characters);
        // loading every category read a dozen locale files before the first paint.
        setlocale(LC_CTYPE, "")
        // One open of the terminal for both streams (each open and close of a
        // terminal is a trip through the tty layer).
        let descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw TerminalError("cannot open /dev/tty: \(String(cString: strerror(errno)))") }
        guard let input = fdopen(descriptor, "r") else {
            close(descriptor)
            throw TerminalError("cannot open /dev/tty for reading")
        }
        let second = fcntl(descriptor, F_DUPFD_CLOEXEC, 0)
        guard second >= 0, let output = fdopen(second, "w") else {
            if second >= 0 { close(second) }
            fclose(input)
            throw TerminalError("cannot open /dev/tty for writing")
        }
        // The screen's own SIGWINCH handler, before newterm: ncurses installs its
        // handler only over the default one. Its flag is looked at only by its key
        // reading and by refresh, which would resize ncurses' window unseen.
        WindowChange.watch()
        guard let screen = newterm(nil, output, input) else {
            WindowChange.stop()
            fclose(input)
            fclose(output)
            let term = getenv("TERM").map { String(cString: $0) } ?? "unset"
            throw TerminalError("ncurses cannot drive this terminal (TERM=\(term))")
        }
        // A terminal that cannot move the cursor (TERM=dumb) cannot show a screen.
        set_term(screen)
        guard nc_can_address_cursor() != 0 else {
            WindowChange.stop()
            endwin()
            delscreen(screen)
            fclose(input)
            fclose(output)
            let term = getenv("TERM").map { String(cString: $0) } ?? "unset"
            throw TerminalError("this terminal cannot move the cursor (TERM=\(term)); share needs one that can, such as xterm-256color")
        }
        // One write per refresh: a FILE on a terminal is line-buffered, which
        // made ncurses send a frame in dozens of writes.
        setvbuf(output, nil, _IOFBF, 1 << 16)
        self.input = input
        self.output = output
        self.screen = screen
        terminal = descriptor
        set_term(screen)
        // Until a screen has been through one endwin/refresh cycle, ncurses
        // flushes its output after every cursor movement (it cannot yet tell
        // a curses program from a terminfo one), which sent a first frame in
        // sixty writes. One cycle here, before colours are started (so the
        // resume has no palette to reset), makes every refresh one write.
        endwin()
        refresh()
        raw()
        noecho()
        nonl()
        // The screen loop looks for typed-ahead keys before it draws (`inputPending`):
        // ncurses need not poll for them again, twice, during each refresh.
        typeahead(-1)
        // keypad, curs_set and the mouse mask write to the terminal at once:
        // here, so that the first frame is the last thing written before
        // share waits for a key.
        keypad(nc_stdscr(), true)
        leaveok(nc_stdscr(), true)
        curs_set(0)
        // ncurses turns mouse reporting on in the form terminfo names (SGR or X10);
        // KeyDecoder reads either.
        mousemask(nc_mouse_mask(), nil)
        wantsColors = wantColors
        if has_colors() {
            start_color()
            use_default_colors()
            hasColors = true
        } else {
            hasColors = false
        }
        // A TERM or a hang-up ends the wait for keys: the screen saves what it
        // holds and the terminal is restored on the way out.
        HangUp.watch()
        // The first frame clears the screen and draws what is not blank, with
        // the colours now in force.
        clearok(nc_stdscr(), true)
    }

    deinit { end() }

    /// How many palette colours the terminal has (8, 256 …; 0 without colours).
    public var paletteSize: Int { hasColors && wantsColors ? Int(nc_colors()) : 0 }

    /// The terminal's size now.
    public var size: (width: Int, height: Int) { (Int(nc_cols()), Int(nc_lines())) }

    /// Leaves the screen to run `body` (an external editor) on the plain
    /// terminal, then comes back and redraws everything.
    public func suspend<Result>(_ body: () -> Result) -> Result {
        def_prog_mode()
        endwin()
        let result = body()
        reset_prog_mode()
        clearok(nc_stdscr(), true)
        shown = nil
        refresh()
        return result
    }

    /// Restores the terminal (idempotent).
    public func end() {
        guard !ended else { return }
        ended = true
        HangUp.stop()
        WindowChange.stop()
        endwin()
        delscreen(screen)
        fclose(input)
        fclose(output)
    }

    /// Draws `frame`; ncurses sends only what changed since the last one.
    public func draw(_ frame: Frame) {
        compose(frame)
        if let cursor = frame.cursor {
            leaveok(nc_stdscr(), false)
            curs_set(1)
            move(Int32(cursor.y), Int32(cursor.x))
        } else {
            // Leave the hardware cursor where it is: no move back after each change.
            leaveok(nc_stdscr(), true)
            curs_set(0)
        }
        refresh()
        guard !frame.hyperlinks.isEmpty else { return }
        fputs(NcursesTerminal.hyperlinks(frame.hyperlinks, width: Int(nc_cols()), height: Int(nc_lines()),
                                         palette: hasColors ? Int(nc_colors()) : 0), output)
        fflush(output)
    }

    /// What makes `links` clickable on a screen of this size: ncurses
    /// cannot send OSC 8, so each link's text is sent again inside one,
    /// over the same cells and in the same style, with the cursor and its
    /// attributes saved before and restored after (ncurses' idea of the
    /// screen stays true). Terminals without
    /// links ignore the OSC. Control characters never reach the terminal.
    /// A colour outside the `palette` (0: none) is left out, as ncurses leaves it out of the cells.
    static func hyperlinks(_ links: [Frame.Hyperlink], width: Int, height: Int, palette: Int) -> String {
        var sequence = "\u{1B}7"
        for var link in links where link.y < height && link.x < width {
            if [link.style.foreground, link.style.background].contains(where: { $0.map { $0.index >= palette } ?? false }) {
                link.style = link.style.monochrome
            }
            let url = String(String.UnicodeScalarView(link.url.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }))
            sequence += "\u{1B}[\(link.y + 1);\(link.x + 1)H\(link.style.sgr)\u{1B}]8;;\(url)\u{1B}\\\(TerminalText.sanitized(link.text))\u{1B}]8;;\u{1B}\\"
        }
        return sequence + "\u{1B}8"
    }

    /// `frame` in ncurses' window, not yet sent. After a frame of the same
    /// size, each row's cells from the first that differs from that frame
    /// to the last, blanks included (a keystroke changes a few cells of a
    /// row or two, and ncurses compares and sends only those); else the
    /// window erased and every cell that is not blank.
    private func compose(_ frame: Frame) {
        let width = min(frame.width, Int(nc_cols()))
        let height = min(frame.height, Int(nc_lines()))
        let previous = shown.flatMap { $0.width == frame.width && $0.height == frame.height ? $0 : nil }
        if previous == nil { erase() }
        shown = frame
        withUnsafeTemporaryAllocation(of: wchar_t.self, capacity: max(6, width)) { buffer in
            for y in 0..<height {
                var columns = 0..<width
                if let previous {
                    guard let changed = frame.changedColumns(y, from: previous) else { continue }
                    columns = changed.clamped(to: 0..<width)
                }
                let skipsBlanks = previous == nil
                frame.rows[y].withUnsafeBufferPointer { cells in
                    var x = columns.lowerBound
                    while x < columns.upperBound {
                        let cell = cells[x]
                        // The second half of a wide character is drawn with its first half; on an
                        // erased window, blanks are what erase() left.
                        if cell.isContinuation || (skipsBlanks && cell.isBlank) {
                            x += 1
                            continue
                        }
                        // A run: cells in one style whose characters are simple scalars
                        // (ASCII, box drawing, Hangul syllables …), one ncurses call for
                        // all (on an erased window, ending at its last cell that is not a blank).
                        if cell.cluster == 0 && DisplayWidth.simpleWidth(ofValue: cell.scalar) != nil {
                            let style = cell.style
                            let start = x
                            var count = 0
                            var drawn = 0
                            while x < columns.upperBound {
                                let next = cells[x]
                                if next.isContinuation { x += 1; continue }
                                guard next.cluster == 0, next.style == style, DisplayWidth.simpleWidth(ofValue: next.scalar) != nil else { break }
                                buffer[count] = wchar_t(bitPattern: next.scalar)
                                count += 1
                                if !skipsBlanks || !next.isBlank { drawn = count }
                                x += 1
                            }
                            let (attributes, pair) = look(style)
                            _ = nc_put_run(Int32(y), Int32(start), buffer.baseAddress, Int32(drawn), attributes, pair)
                            continue
                        }
                        // Over a row drawn before, the second cell of a wide character is blanked
                        // first: ncurses takes some that the frame counts two columns wide (a flag,
                        // ❤️‍🔥) for one column, and would leave the old cell beside it.
                        if !skipsBlanks, x + 1 < columns.upperBound, cells[x + 1].isContinuation {
                            buffer[0] = 0x20
                            buffer[1] = 0
                            let (attributes, pair) = look(cells[x + 1].style)
                            _ = nc_put(Int32(y), Int32(x + 1), buffer.baseAddress, attributes, pair)
                        }
                        // ncurses holds one spacing character and its combining marks.
                        let scalars = frame.drawnScalars(of: cell)
                        for (index, scalar) in scalars.enumerated() { buffer[index] = wchar_t(bitPattern: scalar.value) }
                        buffer[scalars.count] = 0
                        let (attributes, pair) = look(cell.style)
                        _ = nc_put(Int32(y), Int32(x), buffer.baseAddress, attributes, pair)
                        x += 1
                    }
                }
            }
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
            if HangUp.happened || emptyReads >= 50 { return .closed }
            if WindowChange.consume() { return .input(resized()) }
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
    /// bytes not yet decoded; whether anything came.
    private func receive() -> Bool {
        if unread == received.count {
            received.removeAll(keepingCapacity: true)
            unread = 0
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer in
            let count = read(terminal, buffer.baseAddress, buffer.count)
            guard count > 0 else { return false }
            received.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            return true
        }
    }

    /// ncurses' screen made the terminal's new size (the window is cut or
    /// padded to it, and the next frame is drawn whole).
    private func resized() -> InputEvent {
        var size = winsize()
        if withUnsafeMutablePointer(to: &size, { ioctl(terminal, UInt(TIOCGWINSZ), $0) }) == 0, size.ws_row > 0, size.ws_col > 0 {
            resizeterm(Int32(size.ws_row), Int32(size.ws_col))
        }
        shown = nil
        return .resize(width: Int(nc_cols()), height: Int(nc_lines()))
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

    /// The colours of a style as one number, the key of its colour pair.
    private func pairKey(_ style: CellStyle) -> Int {
        (style.foreground.map { $0.index + 1 } ?? 0) * 257 + (style.background.map { $0.index + 1 } ?? 0)
    }

    /// ncurses attributes and colour pair for a style.
    private func look(_ style: CellStyle) -> (attr_t, Int16) {
        var attributes: attr_t = 0
        if style.bold { attributes |= nc_a_bold() }
        if style.reverse { attributes |= nc_a_reverse() }
        if style.dim { attributes |= nc_a_dim() }
        if style.underline { attributes |= nc_a_underline() }
        guard hasColors, style.foreground != nil || style.background != nil else { return (attributes, 0) }
        if let color = style.foreground ?? style.background, Int32(color.index) >= nc_colors() { return (attributes, 0) }
        let key = pairKey(style)
        if let pair = pairs[key] { return (attributes, pair) }
        let pair = Int16(pairs.count + 1)
        guard Int32(pair) < nc_color_pairs() else { return (attributes, 0) }
        init_pair(pair, Int16(style.foreground?.index ?? -1), Int16(style.background?.index ?? -1))
        pairs[key] = pair
        return (attributes, pair)
    }
}

/// The terminal cannot be used; the message says why.
public struct TerminalError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
