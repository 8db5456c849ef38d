#if canImport(Glibc)
import Glibc
#endif

/// A colour from the terminal's own palette: the 8 ANSI colours for the
/// UI (so it follows the user's theme), or an index of the 256-colour
/// palette for thumbnails.
public struct TerminalColor: Sendable, Equatable, Hashable {
    // One byte, so that a cell stays small and a frame of a large terminal
    // is one ordinary allocation rather than a fresh mapping each frame.
    private let value: UInt8

    /// The palette index, 0–255.
    public var index: Int { Int(value) }

    /// A palette colour.
    public init(index: Int) { value = UInt8(max(0, min(255, index))) }

    public static let black = TerminalColor(index: 0)
    public static let red = TerminalColor(index: 1)
    public static let green = TerminalColor(index: 2)
    public static let yellow = TerminalColor(index: 3)
    public static let blue = TerminalColor(index: 4)
    public static let magenta = TerminalColor(index: 5)
    public static let cyan = TerminalColor(index: 6)
    public static let white = TerminalColor(index: 7)
}

/// How a cell is drawn. With colours off, only the attributes remain, and
/// the selection (reverse video) still shows on a monochrome terminal.
public struct CellStyle: Sendable, Equatable, Hashable {
    public var foreground: TerminalColor?
    public var background: TerminalColor?
    public var bold = false
    public var reverse = false
    public var dim = false
    public var underline = false

    /// Creates a style.
    public init(foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false,
                reverse: Bool = false, dim: Bool = false, underline: Bool = false) {
        self.foreground = foreground
        self.background = background
        self.bold = bold
        self.reverse = reverse
        self.dim = dim
        self.underline = underline
    }

    /// The terminal's default look.
    public static let plain = CellStyle()

    /// The style without colours (for `NO_COLOR` and `--no-color`).
    public var monochrome: CellStyle {
        CellStyle(bold: bold, reverse: reverse, dim: dim, underline: underline)
    }

    /// The SGR sequence that sets exactly this style from the default
    /// (`ESC [ 0 … m`): what `FrameWriter` sends for it.
    public var sgr: String {
        var codes = ["0"]
        if bold { codes.append("1") }
        if dim { codes.append("2") }
        if underline { codes.append("4") }
        if reverse { codes.append("7") }
        if let foreground { codes.append(foreground.index < 8 ? "3\(foreground.index)" : "38;5;\(foreground.index)") }
        if let background { codes.append(background.index < 8 ? "4\(background.index)" : "48;5;\(background.index)") }
        return "\u{1B}[" + codes.joined(separator: ";") + "m"
    }

    /// A short code for snapshot style maps: `.` plain, `r` reverse, `b` bold,
    /// `d` dim, `u` underline, `c` coloured, `R` reverse+bold.
    var code: Character {
        switch (reverse, bold, dim, underline) {
        case (true, true, _, _): "R"
        case (true, false, _, _): "r"
        case (false, true, _, _): "b"
        case (false, false, true, _): "d"
        case (false, false, false, true): "u"
        default: foreground != nil || background != nil ? "c" : "."
        }
    }
}

/// One screen cell: a grapheme (or nothing, for the right half of a wide one).
public struct Cell: Sendable, Equatable {
    /// The grapheme drawn here; empty for the second column of a wide character.
    public var text: String
    /// How it is drawn.
    public var style: CellStyle

    /// A blank cell.
    public static let blank = Cell(text: " ", style: .plain)
}

/// A cell as a frame keeps it: plain values, so that a frame is filled and
/// copied without touching a string per cell. `scalar` is the grapheme's
/// only scalar (0 for the right half of a wide character); a grapheme of
/// several scalars is `clusters[cluster - 1]` of its frame.
struct StoredCell: Sendable, Equatable {
    var scalar: UInt32
    var cluster: UInt32
    var style: CellStyle

    static let blank = StoredCell(scalar: 0x20, cluster: 0, style: .plain)
    static func continuation(_ style: CellStyle) -> StoredCell { StoredCell(scalar: 0, cluster: 0, style: style) }
    var isContinuation: Bool { scalar == 0 && cluster == 0 }
    /// A space in the default look: what an erased screen shows.
    var isBlank: Bool { scalar == 0x20 && cluster == 0 && style == .plain }
}

/// A screen's worth of styled cells: what a view returns and a backend draws.
///
/// Text is placed by display width: a Hangul syllable or an emoji takes
/// two cells (the second is a continuation), a combining mark stays with
/// its base, and nothing is ever drawn past the right edge.
public struct Frame: Sendable, Equatable {
    /// Columns.
    public let width: Int
    /// Lines.
    public let height: Int
    /// Cells, one array a row: a frame made from another by changing a
    /// few rows shares the others with it, so that copying it copies no
    /// cell and telling its rows from the other's reads only the rows
    /// changed (``changedColumns(_:from:)``).
    private(set) var rows: [[StoredCell]]
    /// The graphemes of more than one scalar, referred to by cells.
    private var clusters: [String] = []
    /// How many graphemes of several scalars the frame holds: a frame
    /// drawn over and over keeps those of the rows drawn over too.
    var clusterCount: Int { clusters.count }
    /// Where the terminal cursor should be, if visible.
    public var cursor: (x: Int, y: Int)?
    /// Text already put in the frame that is also a link (OSC 8), for
    /// terminals that open links on a click; others show the text alone.
    public var hyperlinks: [Hyperlink] = []

    /// Text of one row, from column `x`, that links to `url`.
    public struct Hyperlink: Sendable, Equatable {
        public var x: Int
        public var y: Int
        /// The text as put in the frame (drawn again inside the link).
        public var text: String
        public var url: String
        /// The style the text was put with (drawn again with it).
        public var style: CellStyle

        public init(x: Int, y: Int, text: String, url: String, style: CellStyle = .plain) {
            self.x = x
            self.y = y
            self.text = text
            self.url = url
            self.style = style
        }
    }

    /// A blank frame.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        let width = self.width
        // Each row its own array (not one shared), so that the first change of a row copies nothing.
        rows = (0..<self.height).map { _ in [StoredCell](repeating: .blank, count: width) }
    }

    public static func == (lhs: Frame, rhs: Frame) -> Bool {
        guard lhs.width == rhs.width && lhs.height == rhs.height
            && lhs.cursor?.x == rhs.cursor?.x && lhs.cursor?.y == rhs.cursor?.y && lhs.hyperlinks == rhs.hyperlinks else { return false }
        if lhs.rows == rhs.rows && lhs.clusters == rhs.clusters { return true }
        return (0..<lhs.height).allSatisfy { y in (0..<lhs.width).allSatisfy { x in lhs[x, y] == rhs[x, y] } }
    }

    /// The columns of row `y` that differ from row `y` of `other` (a frame
    /// of the same width): from the first cell that differs to the last,
    /// widened to whole wide characters; `nil` when the rows are the same.
    /// A row both frames share (not copied since) is not read.
    func changedColumns(_ y: Int, from other: Frame) -> Range<Int>? {
        guard width > 0 else { return nil }
        return rows[y].withUnsafeBufferPointer { mine in
            other.rows[y].withUnsafeBufferPointer { theirs -> Range<Int>? in
                if mine.baseAddress == theirs.baseAddress { return nil }
                func same(_ x: Int) -> Bool {
                    let a = mine[x], b = theirs[x]
                    guard a.style == b.style else { return false }
                    if a.cluster == 0 && b.cluster == 0 { return a.scalar == b.scalar }
                    // A cluster's number is its place in each frame's own list: compared by its scalars
                    // ("é" and "e" with an accent are equal Strings, but other cells).
                    return text(of: a).unicodeScalars.elementsEqual(other.text(of: b).unicodeScalars)
                }
                var first = 0
                while first < width, same(first) { first += 1 }
                guard first < width else { return nil }
                var last = width - 1
                while last > first, same(last) { last -= 1 }
                // A wide character is drawn from its first cell, which draws its second (a second
                // half differs alone only in style, which `paint` gives it).
                if mine[first].isContinuation && first > 0 { first -= 1 }
                if last + 1 < width, mine[last + 1].isContinuation { last += 1 }
                return first..<(last + 1)
            }
        }
    }

    /// The columns of row `y` from its first cell that is not blank (a
    /// space in the default look) to its last; `nil` for a blank row.
    func drawnColumns(_ y: Int) -> Range<Int>? {
        rows[y].withUnsafeBufferPointer { cells in
            guard let first = cells.firstIndex(where: { !$0.isBlank }),
                  let last = cells.lastIndex(where: { !$0.isBlank }) else { return nil }
            return first..<(last + 1)
        }
    }

    /// The cell at a position.
    public subscript(x: Int, y: Int) -> Cell {
        let stored = rows[y][x]
        return Cell(text: text(of: stored), style: stored.style)
    }

    /// The grapheme a stored cell holds ("" for a continuation).
    func text(of stored: StoredCell) -> String {
        if stored.cluster > 0 { return clusters[Int(stored.cluster) - 1] }
        guard stored.scalar != 0, let scalar = Unicode.Scalar(stored.scalar) else { return "" }
        return String(Character(scalar))
    }

    /// What a terminal cell can hold of a stored cell's grapheme: its first
    /// scalar, then the combining marks and variation selectors after it,
    /// up to five in all (what a curses cell holds, and what terminals draw
    /// in the columns the frame counts); a ZWJ sequence keeps its first part.
    func drawnScalars(of stored: StoredCell) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        for scalar in text(of: stored).unicodeScalars where scalars.count < 5 {
            if !scalars.isEmpty {
                let mark = scalar.properties.generalCategory == .nonspacingMark
                    || scalar.properties.generalCategory == .enclosingMark || (0xFE00...0xFE0F).contains(scalar.value)
                guard mark else { break }
            }
            scalars.append(scalar)
        }
        return scalars
    }

    /// The stored form of a cell's text (a grapheme, perhaps with marks joined) in `style`.
    private mutating func stored(_ text: String, _ style: CellStyle) -> StoredCell {
        let scalars = text.unicodeScalars
        if let first = scalars.first, scalars.index(after: scalars.startIndex) == scalars.endIndex {
            return StoredCell(scalar: first.value, cluster: 0, style: style)
        }
        clusters.append(text)
        return StoredCell(scalar: scalars.first?.value ?? 0x20, cluster: UInt32(clusters.count), style: style)
    }

    /// Writes `text` at (x, y) without passing `maxX` (exclusive, default the
    /// right edge); control characters are shown as symbols. Returns the
    /// column after the last cell written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, style: CellStyle = .plain, maxX: Int? = nil) -> Int {
        guard y >= 0 && y < height else { return x }
        let limit = min(maxX ?? width, width)
        var column = x
        // Printable ASCII needs no grapheme breaking, no width lookup, no
        // sanitizing; nor do scalars that are each a grapheme of a known
        // width (box drawing, arrows, Latin letters, Hangul syllables). Only
        // the cells at either end of such a run can split a wide character.
        let ascii = TerminalText.isPrintableASCII(text)
        if ascii || text.unicodeScalars.allSatisfy({ DisplayWidth.simpleWidth(of: $0) != nil }) {
            var written = false
            let width = self.width
            rows[y].withUnsafeMutableBufferPointer { cells in
                func write(_ value: UInt32, columns: Int) -> Bool {
                    if column + columns > limit { return false }
                    if column >= 0 {
                        // The left half of a wide character whose right half is the run's first cell.
                        if !written && cells[column].isContinuation && column > 0 {
                            cells[column - 1] = StoredCell(scalar: 0x20, cluster: 0, style: cells[column - 1].style)
                        }
                        written = true
                        cells[column] = StoredCell(scalar: value, cluster: 0, style: style)
                        if columns == 2 { cells[column + 1] = .continuation(style) }
                    }
                    column += columns
                    return true
                }
                if ascii {
                    for byte in text.utf8 where !write(UInt32(byte), columns: 1) { break }
                } else {
                    for scalar in text.unicodeScalars where !write(scalar.value, columns: DisplayWidth.simpleWidth(of: scalar) ?? 1) { break }
                }
                // The right half of a wide character whose left half was written over.
                if written && column < width && cells[column].isContinuation {
                    cells[column] = StoredCell(scalar: 0x20, cluster: 0, style: cells[column].style)
                }
            }
            return column
        }
        for character in TerminalText.sanitized(text) {
            let columns = DisplayWidth.of(character)
            if columns == 0 {
                // A lone combining mark or format character joins the previous cell.
                if column > x, column - 1 < limit {
                    let before = rows[y][column - 1]
                    rows[y][column - 1] = stored(self.text(of: before) + String(character), before.style)
                }
                continue
            }
            if column + columns > limit { break }
            if column >= 0 {
                for covered in column..<(column + columns) { unsplit(x: covered, y: y) }
                rows[y][column] = stored(String(character), style)
                if columns == 2 { rows[y][column + 1] = .continuation(style) }
            }
            column += columns
        }
        return column
    }

    /// Writes `count` copies of `scalar` from (x, y), as `put` writes a
    /// string of them (a border's line, without building that string).
    /// Returns the column after the last cell written.
    @discardableResult
    public mutating func put(repeating scalar: Unicode.Scalar, count: Int, x: Int, y: Int, style: CellStyle = .plain,
                             maxX: Int? = nil) -> Int {
        guard DisplayWidth.simpleWidth(of: scalar) == 1 else {
            return put(String(repeating: String(scalar), count: max(0, count)), x: x, y: y, style: style, maxX: maxX)
        }
        guard y >= 0 && y < height else { return x }
        let limit = min(maxX ?? width, width)
        let end = min(x + max(0, count), limit)
        guard end > x else { return x }
        for column in max(0, x)..<max(0, end) {
            unsplit(x: column, y: y)
            rows[y][column] = StoredCell(scalar: scalar.value, cluster: 0, style: style)
        }
        return end
    }

    /// A border's top or bottom line `w` columns wide from (x, y): `left`,
    /// `fill` repeated, `right` ("╭──╮"), as `put` would write that string.
    public mutating func putLine(_ left: Unicode.Scalar, _ fill: Unicode.Scalar, _ right: Unicode.Scalar,
                                 x: Int, y: Int, width w: Int, style: CellStyle = .plain) {
        let afterLeft = put(String(left), x: x, y: y, style: style)
        put(String(right), x: put(repeating: fill, count: w - 2, x: afterLeft, y: y, style: style), y: y, style: style)
    }

    /// Before cell (x, y) is overwritten: if it is one half of a wide
    /// character, blank the other half, so no half character is left behind.
    private mutating func unsplit(x: Int, y: Int) {
        if rows[y][x].isContinuation, x > 0 {
            rows[y][x - 1] = StoredCell(scalar: 0x20, cluster: 0, style: rows[y][x - 1].style)
        } else if x + 1 < width, rows[y][x + 1].isContinuation {
            rows[y][x + 1] = StoredCell(scalar: 0x20, cluster: 0, style: rows[y][x + 1].style)
        }
    }

    /// Sets the style of `count` cells from (x, y), keeping their text.
    public mutating func paint(x: Int, y: Int, count: Int, style: CellStyle) {
        guard y >= 0 && y < height else { return }
        for column in max(0, x)..<min(width, x + count) { rows[y][column].style = style }
    }

    /// Fills a rectangle with blanks in `style`.
    public mutating func fill(x: Int, y: Int, width w: Int, height h: Int, style: CellStyle) {
        for row in max(0, y)..<min(height, y + h) {
            for column in max(0, x)..<min(width, x + w) {
                unsplit(x: column, y: row)
                rows[row][column] = StoredCell(scalar: 0x20, cluster: 0, style: style)
            }
        }
    }

    /// Clears a rectangle and draws a rounded border around it (dialogs, the key help).
    public mutating func box(x: Int, y: Int, width w: Int, height h: Int) {
        guard w >= 2 && h >= 2 else { return }
        fill(x: x, y: y, width: w, height: h, style: .plain)
        putLine("╭", "─", "╮", x: x, y: y, width: w)
        for row in 1..<(h - 1) {
            put("│", x: x, y: y + row)
            put("│", x: x + w - 1, y: y + row)
        }
        putLine("╰", "─", "╯", x: x, y: y + h - 1, width: w)
    }

    /// The frame with every colour removed (for `NO_COLOR`).
    public var monochrome: Frame {
        var copy = self
        for y in copy.rows.indices {
            for x in copy.rows[y].indices { copy.rows[y][x].style = copy.rows[y][x].style.monochrome }
        }
        for index in copy.hyperlinks.indices { copy.hyperlinks[index].style = copy.hyperlinks[index].style.monochrome }
        return copy
    }

    /// Each line as text (wide characters once, continuations skipped), right-trimmed.
    public var lines: [String] {
        (0..<height).map { row in
            var line = ""
            for column in 0..<width { line += text(of: rows[row][column]) }
            while line.hasSuffix(" ") { line.removeLast() }
            return line
        }
    }

    /// One line per row of style codes (see ``CellStyle``), right-trimmed of `.`.
    public var styleMap: [String] {
        (0..<height).map { row in
            var line = String((0..<width).map { rows[row][$0].style.code })
            while line.hasSuffix(".") { line.removeLast() }
            return line
        }
    }
}
