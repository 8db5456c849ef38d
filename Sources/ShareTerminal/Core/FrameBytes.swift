/// The escape sequences of one terminal, from its terminfo entry, that a
/// frame is written with. Capabilities the terminal lacks are empty.
public struct TerminalSequences {
    /// Clears the screen and homes the cursor (`clear`).
    public var clear: [UInt8]
    /// Back to the default look (`sgr0`, then `op` when colours are in use).
    public var reset: [UInt8]
    /// Bold, reverse, dim and underline on (`bold`, `rev`, `dim`, `smul`).
    public var bold: [UInt8]
    public var reverse: [UInt8]
    public var dim: [UInt8]
    public var underline: [UInt8]
    /// How many palette colours may be used (0: none, the frame is drawn without colours).
    public var colors: Int
    /// Whether the cursor may move while attributes are on (`msgr`).
    public var movesInStyle: Bool
    /// The cursor to a row and column (`cup`).
    public var moveTo: (_ row: Int, _ column: Int) -> [UInt8]
    /// A palette colour for the text and for the background (`setaf`, `setab`).
    public var foreground: (Int) -> [UInt8]
    public var background: (Int) -> [UInt8]

    /// A capability's bytes without terminfo's padding (`$<5>`, `$<2*/>`):
    /// a delay for old hardware that tputs would turn into waiting or pad
    /// characters, never text to send.
    public static func withoutPadding(_ bytes: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "<"),
               let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: ">")), close > index + 2,
               bytes[(index + 2)..<close].allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".")
                   || $0 == UInt8(ascii: "*") || $0 == UInt8(ascii: "/") }) {
                index = close + 1
                continue
            }
            result.append(bytes[index])
            index += 1
        }
        return result
    }

    /// `cup` as nearly every terminal spells it (ANSI: `\E[%i%p1%d;%p2%dH`);
    /// ``ansiMove(row:column:)`` writes it without interpreting it.
    public static let ansiCursorAddress = Array("\u{1B}[%i%p1%d;%p2%dH".utf8)

    /// The ANSI cursor address of a row and column (counted from 0): ESC [ row+1 ; column+1 H.
    public static func ansiMove(row: Int, column: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x1B, 0x5B]
        bytes.reserveCapacity(10)
        appendDecimal(row + 1, to: &bytes)
        bytes.append(0x3B)
        appendDecimal(column + 1, to: &bytes)
        bytes.append(0x48)
        return bytes
    }

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        if value >= 10 { appendDecimal(value / 10, to: &bytes) }
        bytes.append(0x30 + UInt8(value % 10))
    }

    public init(clear: [UInt8], reset: [UInt8], bold: [UInt8], reverse: [UInt8], dim: [UInt8], underline: [UInt8],
                colors: Int, movesInStyle: Bool, moveTo: @escaping (Int, Int) -> [UInt8],
                foreground: @escaping (Int) -> [UInt8], background: @escaping (Int) -> [UInt8]) {
        self.clear = clear
        self.reset = reset
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
        self.colors = colors
        self.movesInStyle = movesInStyle
        self.moveTo = moveTo
        self.foreground = foreground
        self.background = background
    }
}

/// A whole frame as the bytes that draw it on a terminal, for the first
/// frame of a screen: written at once, before ncurses has composed a frame
/// of its own (see DECISIONS.md, "The first frame, written directly").
///
/// The screen ends exactly as ncurses would leave it after drawing the same
/// frame: each cell holds what the backend gives ncurses for it (one
/// spacing character and its marks), attributes are back to the default and
/// the cursor is home.
public enum FrameBytes {
    /// Whether `frame` can be written this way: the cursor hidden, and the
    /// bottom-right cell blank (writing it scrolls a terminal without a
    /// pending wrap).
    public static func canWrite(_ frame: Frame) -> Bool {
        guard frame.cursor == nil, frame.width > 0, frame.height > 0 else { return false }
        return frame.storage[frame.storage.count - 1].isBlank
    }

    /// Clears the screen and draws `frame` on it.
    public static func write(_ frame: Frame, with sequences: TerminalSequences) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(frame.width * frame.height)
        out += sequences.clear
        // Where the cursor is (nil after a character whose width is the
        // terminal's to decide), and the look in force.
        var cursor: (row: Int, column: Int)? = (0, 0)
        var current = CellStyle.plain
        let cells = frame.storage
        for row in 0..<frame.height {
            let base = row * frame.width
            var column = 0
            while column < frame.width {
                let cell = cells[base + column]
                if cell.isContinuation { column += 1; continue }
                if cell.isBlank {
                    guard let next = nextDrawn(in: cells, row: base, from: column, width: frame.width) else { break }
                    // A short gap in the default look is cheaper written than jumped.
                    if let at = cursor, at.row == row, at.column == column, current == .plain, next - column <= 4 {
                        for _ in column..<next { out.append(0x20) }
                        cursor = (row, next)
                    }
                    column = next
                    continue
                }
                let style = look(cell.style, colors: sequences.colors)
                if cursor.map({ $0.row != row || $0.column != column }) ?? true {
                    if current != .plain && !sequences.movesInStyle {
                        out += sequences.reset
                        current = .plain
                    }
                    out += sequences.moveTo(row, column)
                }
                if style != current {
                    if current != .plain { out += sequences.reset }
                    if style.bold { out += sequences.bold }
                    if style.reverse { out += sequences.reverse }
                    if style.dim { out += sequences.dim }
                    if style.underline { out += sequences.underline }
                    if let color = style.foreground { out += sequences.foreground(color.index) }
                    if let color = style.background { out += sequences.background(color.index) }
                    current = style
                }
                if cell.cluster == 0, let width = DisplayWidth.simpleWidth(ofValue: cell.scalar), let scalar = Unicode.Scalar(cell.scalar) {
                    append(scalar, to: &out)
                    cursor = (row, column + width)
                } else {
                    for scalar in frame.drawnScalars(of: cell) { append(scalar, to: &out) }
                    cursor = nil
                }
                column += 1
            }
        }
        if current != .plain { out += sequences.reset }
        out += sequences.moveTo(0, 0)
        return out
    }

    /// The style as drawn: colours the terminal cannot show are left out, as the backend does.
    static func look(_ style: CellStyle, colors: Int) -> CellStyle {
        var drawn = style
        if colors == 0 || (style.foreground ?? style.background).map({ $0.index >= colors }) == true {
            drawn.foreground = nil
            drawn.background = nil
        }
        return drawn
    }

    /// The column of the next cell in the row that is drawn (not blank, not a continuation).
    private static func nextDrawn(in cells: [StoredCell], row base: Int, from column: Int, width: Int) -> Int? {
        var next = column
        while next < width {
            let cell = cells[base + next]
            if !cell.isContinuation && !cell.isBlank { return next }
            next += 1
        }
        return nil
    }

    /// UTF-8, byte by byte (no temporary array per character).
    @inline(__always)
    private static func append(_ scalar: Unicode.Scalar, to out: inout [UInt8]) {
        let value = scalar.value
        switch value {
        case 0..<0x80:
            out.append(UInt8(value))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (value >> 6)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (value >> 12)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (value >> 18)))
            out.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (value & 0x3F)))
        }
    }
}
