/// What a terminal is told to show a frame: the terminal's sequences
/// that ``FrameWriter`` uses, from its terminfo entry.
struct TerminalSequences: Sendable {
    /// Clears the screen and homes the cursor (terminfo `clear`).
    var clear: [UInt8]
    /// Hide and show the cursor (`civis`, `cnorm`); empty when the terminal has none.
    var hideCursor: [UInt8]
    var showCursor: [UInt8]
    /// The cursor moved to a row and a column (both from 0), when the
    /// terminal's `cup` is not ECMA-48's `ESC [ row ; column H`; nil when it is.
    var move: (@Sendable (_ y: Int, _ x: Int) -> [UInt8])?
    /// Palette colours (0: none, every cell drawn without colour).
    var colors: Int
    /// Whether writing the last cell of the screen scrolls it (auto
    /// margins without the "newline glitch" of xterm and its kin): that
    /// cell is then left as it is.
    var lastCellScrolls: Bool
    /// The start and the end of a synchronized update (DEC private mode
    /// 2026: the terminal shows what comes between them at once, at its
    /// end); empty unless the terminal is ECMA-48's (``synchronizedUpdate(cup:)``).
    var beginUpdate: [UInt8]
    var endUpdate: [UInt8]

    /// ECMA-48's cursor position as terminfo writes it (`cup` of xterm and its kin).
    static let ecma48Cup = "\u{1B}[%i%p1%d;%p2%dH"

    /// The start and the end of a synchronized update for a terminal whose
    /// `cup` is `cup` (terminfo's template): DEC's for an ECMA-48 terminal,
    /// which reads a control sequence to its end by ECMA-48's rules and
    /// skips one it does not know; none for any other, which might show it.
    static func synchronizedUpdate(cup: String) -> (begin: [UInt8], end: [UInt8]) {
        cup == ecma48Cup ? (Array("\u{1B}[?2026h".utf8), Array("\u{1B}[?2026l".utf8)) : ([], [])
    }

    /// An ECMA-48 terminal (xterm and its kin) with `colors` colours.
    static func ecma48(colors: Int) -> TerminalSequences {
        let update = synchronizedUpdate(cup: ecma48Cup)
        return TerminalSequences(clear: Array("\u{1B}[H\u{1B}[2J".utf8), hideCursor: Array("\u{1B}[?25l".utf8),
                                 showCursor: Array("\u{1B}[?12l\u{1B}[?25h".utf8), move: nil, colors: colors,
                                 lastCellScrolls: false, beginUpdate: update.begin, endUpdate: update.end)
    }
}

/// Turns frames into what the terminal is sent: after the first frame
/// (or one of another size, or ``forget()``), only the cells of each row
/// from the first that differs from the frame before to the last, each
/// run of them after one cursor move and a style change where the style
/// changes, and the cursor put where the frame wants it.
///
/// On an ECMA-48 terminal each frame is one synchronized update: the
/// terminal shows it whole, never half drawn. The update begins when the
/// input that leads to the frame is read (``beginUpdate()``), before the
/// frame is worked out, or else with the frame; it ends with the frame,
/// or when the screen is left (``leave(height:)``).
///
/// The writer keeps what the terminal shows: the last frame, the style in
/// force, where the cursor is and whether it is shown, so that nothing is
/// sent twice. Styles are ECMA-48 SGR sequences (`CellStyle.sgr`); a
/// colour outside the palette draws the cell without colours.
struct FrameWriter {
    let sequences: TerminalSequences
    /// The bytes of the last frame written.
    private(set) var output: [UInt8] = []
    /// What the terminal shows, as far as the writer knows.
    private var shown: Frame?
    private var style: CellStyle?
    private var at: (x: Int, y: Int)?
    private var cursorShown: Bool?
    /// The SGR sequence of each style used lately: a form uses a handful,
    /// a thumbnail a few hundred (the list starts again past 64).
    private var sgrs: [(style: CellStyle, bytes: [UInt8])] = []
    /// Whether an update has begun that no frame has ended yet.
    private(set) var updating = false

    init(sequences: TerminalSequences) {
        self.sequences = sequences
    }

    /// Forgets what the terminal shows (it was resized, or used by another
    /// program): the next frame clears the screen and is drawn whole.
    mutating func forget() {
        shown = nil
        style = nil
        at = nil
        cursorShown = nil
    }

    /// What begins an update, sent when input was read and the frame it
    /// leads to is still to be worked out: empty when one has begun (or
    /// the terminal has none). Sent at once, it also wakes the terminal's
    /// reader while the frame is made, rather than after.
    mutating func beginUpdate() -> [UInt8] {
        guard !updating, !sequences.beginUpdate.isEmpty else { return [] }
        updating = true
        return sequences.beginUpdate
    }

    /// Makes ``output`` what leaves the screen to what comes after it (a
    /// shell, an editor): the default style, the cursor on the last of
    /// `height` lines, and the end of an update begun. What the terminal
    /// shows is forgotten.
    mutating func leave(height: Int) {
        output.removeAll(keepingCapacity: true)
        if style != .plain { setStyle(.plain) }
        move(0, max(0, height - 1))
        if updating { output += sequences.endUpdate }
        updating = false
        forget()
    }

    /// Makes ``output`` what shows `frame` on a screen of `width` by `height`
    /// cells, as an update or the end of the one begun: empty when the
    /// terminal shows it already and no update has begun, but for the
    /// frame's links, sent again each time.
    mutating func write(_ frame: Frame, width screenWidth: Int, height screenHeight: Int) {
        output.removeAll(keepingCapacity: true)
        if !updating { output += sequences.beginUpdate }
        let begun = output.count
        defer {
            if updating || output.count > begun {
                output += sequences.endUpdate
            } else {
                output.removeAll(keepingCapacity: true)
            }
            updating = false
        }
        let width = min(frame.width, screenWidth), height = min(frame.height, screenHeight)
        // Unwrapped once: an optional frame bound row by row is retained and released row by row.
        let previous = shown ?? frame
        let cleared = shown == nil || previous.width != frame.width || previous.height != frame.height
        if cleared {
            if style != .plain { setStyle(.plain) }
            output += sequences.clear
            at = (0, 0)
        }
        shown = frame
        for y in 0..<height {
            // The last cell of a screen that scrolls when it is written is left alone; nothing is
            // written past the screen's edge (a wide character there would wrap to the next row).
            let end = sequences.lastCellScrolls && y == screenHeight - 1 && width == screenWidth ? width - 1 : width
            let columns: Range<Int>
            if !cleared {
                guard let changed = frame.changedColumns(y, from: previous) else { continue }
                columns = changed.clamped(to: 0..<end)
            } else {
                // On a cleared screen, from the first cell that is not blank to the last.
                guard let drawn = frame.drawnColumns(y) else { continue }
                columns = drawn.clamped(to: 0..<end)
            }
            frame.rows[y].withUnsafeBufferPointer { cells in
                var x = columns.lowerBound
                while x < columns.upperBound {
                    let cell = cells[x]
                    // The second half of a wide character is drawn with its first half.
                    if cell.isContinuation {
                        x += 1
                        continue
                    }
                    let simpleWidth = cell.cluster == 0 ? DisplayWidth.simpleWidth(ofValue: cell.scalar) : nil
                    let cellWidth = simpleWidth ?? (x + 1 < frame.width && cells[x + 1].isContinuation ? 2 : 1)
                    guard x + cellWidth <= end else { break }
                    if simpleWidth != nil {
                        put(cell.style, x, y)
                        appendUTF8(cell.scalar)
                        at = (x + cellWidth, y)
                    } else {
                        // A grapheme a terminal may count other than the frame does: its second
                        // cell blanked first (else an old character could stay beside it), and the
                        // cursor placed again after it.
                        if cellWidth == 2 && x + 1 < columns.upperBound {
                            put(cells[x + 1].style, x + 1, y)
                            output.append(0x20)
                            at = (x + 2, y)
                        }
                        put(cell.style, x, y)
                        for scalar in frame.drawnScalars(of: cell) {
                            let value = scalar.value
                            appendUTF8(value < 0x20 || (0x7F...0x9F).contains(value) ? 0xFFFD : value)
                        }
                        at = nil
                    }
                    x += 1
                }
            }
        }
        if let cursor = frame.cursor {
            if at == nil || at! != cursor { move(cursor.x, cursor.y) }
            if cursorShown != true { output += sequences.showCursor }
            cursorShown = true
        } else if cursorShown != false {
            output += sequences.hideCursor
            cursorShown = false
        }
        if !frame.hyperlinks.isEmpty {
            output += FrameWriter.hyperlinks(frame.hyperlinks, width: screenWidth, height: screenHeight, palette: sequences.colors).utf8
        }
    }

    /// The cursor at `x`, `y` and the terminal in `style`, sending only what changes.
    private mutating func put(_ style: CellStyle, _ x: Int, _ y: Int) {
        if at == nil || at! != (x, y) { move(x, y) }
        if self.style != style { setStyle(style) }
    }

    private mutating func move(_ x: Int, _ y: Int) {
        if let move = sequences.move {
            output += move(y, x)
        } else {
            output.append(0x1B)
            output.append(0x5B)
            appendNumber(y + 1)
            output.append(0x3B)
            appendNumber(x + 1)
            output.append(0x48)
        }
        at = (x, y)
    }

    private mutating func setStyle(_ new: CellStyle) {
        style = new
        if let known = sgrs.first(where: { $0.style == new }) {
            output += known.bytes
            return
        }
        let bytes = Array(FrameWriter.drawable(new, palette: sequences.colors).sgr.utf8)
        if sgrs.count == 64 { sgrs.removeAll(keepingCapacity: true) }
        sgrs.append((new, bytes))
        output += bytes
    }

    /// `style` as a terminal with `palette` colours draws it: without
    /// colours when one of them is outside the palette.
    private static func drawable(_ style: CellStyle, palette: Int) -> CellStyle {
        [style.foreground, style.background].contains { $0.map { $0.index >= palette } ?? false } ? style.monochrome : style
    }

    private mutating func appendNumber(_ number: Int) {
        if number >= 10 { appendNumber(number / 10) }
        output.append(UInt8(48 + number % 10))
    }

    private mutating func appendUTF8(_ value: UInt32) {
        switch value {
        case ..<0x80:
            output.append(UInt8(value))
        case ..<0x800:
            output.append(UInt8(0xC0 | value >> 6))
            output.append(UInt8(0x80 | value & 0x3F))
        case ..<0x10000:
            output.append(UInt8(0xE0 | value >> 12))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        default:
            output.append(UInt8(0xF0 | value >> 18))
            output.append(UInt8(0x80 | value >> 12 & 0x3F))
            output.append(UInt8(0x80 | value >> 6 & 0x3F))
            output.append(UInt8(0x80 | value & 0x3F))
        }
    }

    /// What makes `links` clickable on a screen of this size: each link's
    /// text is sent again inside an OSC 8, over the same cells and in the
    /// same style, with the cursor and its attributes saved before and
    /// restored after (what the writer knows of the terminal stays true).
    /// Terminals without links ignore the OSC. Control characters never
    /// reach the terminal. A colour outside the `palette` (0: none) is left
    /// out, as it is left out of the cells.
    static func hyperlinks(_ links: [Frame.Hyperlink], width: Int, height: Int, palette: Int) -> String {
        var sequence = "\u{1B}7"
        for var link in links where link.y < height && link.x < width {
            link.style = drawable(link.style, palette: palette)
            let url = String(String.UnicodeScalarView(link.url.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }))
            sequence += "\u{1B}[\(link.y + 1);\(link.x + 1)H\(link.style.sgr)\u{1B}]8;;\(url)\u{1B}\\\(TerminalText.sanitized(link.text))\u{1B}]8;;\u{1B}\\"
        }
        return sequence + "\u{1B}8"
    }
}
