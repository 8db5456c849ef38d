/// Editable text with a cursor, for one-line fields and the body editor.
///
/// The text is kept as lines, so that a keystroke in a body of fifty
/// thousand lines touches one line and the rows on screen, never the
/// whole text. The cursor counts graphemes, so it never lands inside a
/// Hangul syllable, an emoji sequence or a letter with its accent. Keys
/// (``KeyMap/editor``) follow Emacs and readline; in multi-line text,
/// C-a/C-e/Home/End and C-k/C-u act on the current line, and up/down keep
/// the column.
///
/// A multi-line text breaks lines at LF, CR LF and CR (its `text` joins
/// them with LF); any other control character, and the Unicode line and
/// paragraph separators, stay in their line, drawn as a symbol. A
/// one-line field keeps its value as given, whatever it holds, and drops
/// line breaks from what is typed or pasted.
public struct TextEditor: Sendable, Equatable {
    /// A place in the text: a line, and how many graphemes into it.
    public struct Position: Sendable, Equatable, Comparable {
        /// The line's index.
        public var line: Int
        /// Graphemes before the place, in its line.
        public var offset: Int

        public init(line: Int, offset: Int) {
            self.line = line
            self.offset = offset
        }

        public static func < (a: Position, b: Position) -> Bool { (a.line, a.offset) < (b.line, b.offset) }
    }

    /// The lines, without their line breaks: at least one.
    public private(set) var lines: TextLines
    /// The cursor.
    public private(set) var cursor: Position
    /// Whether Enter inserts a line break.
    public let multiline: Bool
    /// How many edits changed the text, so that an edit is told from a
    /// move without comparing texts. Not part of equality.
    public private(set) var edits = 0

    /// Creates an editor with the cursor at the end.
    public init(_ text: String = "", multiline: Bool = false) {
        self.multiline = multiline
        lines = TextLines(multiline ? TextEditor.lines(of: text) : [text])
        cursor = Position(line: 0, offset: 0)
        cursor = end
    }

    public static func == (a: TextEditor, b: TextEditor) -> Bool {
        a.cursor == b.cursor && a.multiline == b.multiline && a.lines == b.lines
    }

    /// The text.
    public var text: String { lines.count == 1 ? lines[0] : lines.joined(separator: "\n") }

    /// Whether there is no text.
    public var isEmpty: Bool { lines.count == 1 && lines[0].isEmpty }

    /// Replaces the text, cursor at the end.
    public mutating func setText(_ text: String) {
        lines = TextLines(multiline ? TextEditor.lines(of: text) : [text])
        cursor = end
        edits += 1
    }

    /// The cursor as a count of graphemes from the start, a line break
    /// counting one. Reads every line before the cursor.
    public var cursorIndex: Int {
        var index = cursor.offset
        // Through the lines' iterator, which walks the blocks: no lookup per line.
        for (number, line) in lines.enumerated() {
            guard number < cursor.line else { break }
            index += line.count + 1
        }
        return index
    }

    /// Moves the cursor to the grapheme `index` counted as ``cursorIndex`` (clamped).
    public mutating func moveCursor(to index: Int) {
        var remaining = max(0, index)
        for (number, line) in lines.enumerated() {
            let count = line.count
            if remaining <= count {
                cursor = Position(line: number, offset: remaining)
                return
            }
            remaining -= count + 1
        }
        cursor = end
    }

    /// The text's lines: split at LF, CR LF and CR, by bytes (a line
    /// break is always a grapheme of its own).
    static func lines(of text: String) -> [String] {
        var lines: [String] = []
        let utf8 = text.utf8
        var start = utf8.startIndex
        var index = start
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == 0x0A || byte == 0x0D else {
                index = utf8.index(after: index)
                continue
            }
            lines.append(String(text[start..<index]))
            var next = utf8.index(after: index)
            if byte == 0x0D, next < utf8.endIndex, utf8[next] == 0x0A { next = utf8.index(after: next) }
            start = next
            index = next
        }
        lines.append(String(text[start...]))
        return lines
    }

    // MARK: - Editing

    /// Inserts text at the cursor (line breaks dropped in a one-line field).
    public mutating func insert(_ text: String) {
        // A keystroke is one piece: no list of lines made for it. A one-line
        // field drops every line break (NEL, U+2028 and U+2029 too).
        let pieces = multiline && text.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) ? TextEditor.lines(of: text) : []
        let single = multiline || TerminalText.isPrintableASCII(text) ? text : text.filter { !$0.isNewline }
        // Nothing left to insert (an empty paste, or only line breaks in a one-line field): no edit.
        guard !pieces.isEmpty || !single.isEmpty else { return }
        let line = lines[cursor.line]
        let at = stringIndex(cursor.offset, in: line)
        if pieces.isEmpty {
            var joined = String(line[..<at])
            // Counted after joining: a typed accent joins the letter before it. Text added after a
            // grapheme can join only that one, so the line before it is not counted again.
            let last = joined.last
            joined += single
            joined += line[at...]
            lines[cursor.line] = joined
            cursor.offset = last.map { cursor.offset - 1 + (String($0) + single).count } ?? single.count
        } else {
            let head = String(line[..<at]), tail = String(line[at...])
            var added = Array(pieces.dropFirst())
            let last = added[added.count - 1]
            added[added.count - 1] = last + tail
            lines[cursor.line] = head + pieces[0]
            lines.insert(contentsOf: added, at: cursor.line + 1)
            cursor = Position(line: cursor.line + added.count, offset: last.count)
        }
        edits += 1
    }

    /// Applies an editing key (a character, or one of ``KeyMap/editor``);
    /// returns false when the key is not an editing key.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        if case .character(let character) = event {
            insert(String(character))
            return true
        }
        guard let action = KeyMap.editor.action(for: event) else { return false }
        switch action {
        case .newline:
            guard multiline else { return false }
            insert("\n")
        case .deleteBackward:
            if cursor != start { remove(from: position(before: cursor), to: cursor) }
        case .deleteForward:
            if cursor != end { remove(from: cursor, to: position(after: cursor)) }
        case .backward: cursor = position(before: cursor)
        case .forward: cursor = position(after: cursor)
        case .lineStart: cursor.offset = 0
        case .lineEnd: cursor.offset = lines[cursor.line].count
        case .killToLineEnd:
            let lineEnd = Position(line: cursor.line, offset: lines[cursor.line].count)
            // At the end of a line, C-k joins the next one to it.
            remove(from: cursor, to: cursor == lineEnd && cursor != end ? position(after: cursor) : lineEnd)
        case .killToLineStart: remove(from: Position(line: cursor.line, offset: 0), to: cursor)
        case .deleteWordBackward: remove(from: wordStart(before: cursor), to: cursor)
        case .wordBackward: cursor = wordStart(before: cursor)
        case .wordForward: cursor = wordEnd(after: cursor)
        case .deleteWordForward: remove(from: cursor, to: wordEnd(after: cursor))
        case .lineUp, .lineDown:
            guard multiline else { return false }
            moveVertically(action == .lineUp ? -1 : 1)
        }
        return true
    }

    /// Removes the text from `from` to `to` (across lines); the cursor goes to `from`.
    private mutating func remove(from: Position, to: Position) {
        cursor = from
        guard from < to else { return }
        let first = lines[from.line], last = lines[to.line]
        let joined = String(first[..<stringIndex(from.offset, in: first)]) + String(last[stringIndex(to.offset, in: last)...])
        lines.replaceSubrange(from.line..<(to.line + 1), with: CollectionOfOne(joined))
        edits += 1
    }

    // MARK: - Positions

    /// The start of the text.
    var start: Position { Position(line: 0, offset: 0) }

    /// The end of the text.
    var end: Position { Position(line: lines.count - 1, offset: lines[lines.count - 1].count) }

    /// The index in `line` of its grapheme number `offset` (its end when past it).
    func stringIndex(_ offset: Int, in line: String) -> String.Index {
        // Up to a scalar of a simple kind (ASCII, Latin, Hangul syllables) that follows only such
        // scalars, each scalar is a grapheme: counted as scalars, with no grapheme breaking.
        var count = 0, found = false
        let stop = DisplayWidth.walkSimpleScalars(line) { _, _, _ in
            found = count == offset
            count += 1
            return !found
        }
        if found || stop == line.utf8.count { return line.utf8.index(line.utf8.startIndex, offsetBy: stop) }
        return line.index(line.startIndex, offsetBy: offset, limitedBy: line.endIndex) ?? line.endIndex
    }

    /// One grapheme back; from a line's start, the end of the line before.
    func position(before position: Position) -> Position {
        if position.offset > 0 { return Position(line: position.line, offset: position.offset - 1) }
        guard position.line > 0 else { return position }
        return Position(line: position.line - 1, offset: lines[position.line - 1].count)
    }

    /// One grapheme on; from a line's end, the start of the line after.
    func position(after position: Position) -> Position {
        if position.offset < lines[position.line].count { return Position(line: position.line, offset: position.offset + 1) }
        guard position.line < lines.count - 1 else { return position }
        return Position(line: position.line + 1, offset: 0)
    }

    private static func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }

    /// The start of the word before `position`: back over what is not a
    /// word (line breaks included), then over the word.
    func wordStart(before position: Position) -> Position {
        var line = position.line
        var characters = Array(lines[line])
        var index = min(position.offset, characters.count)
        while true {
            while index > 0 && !TextEditor.isWord(characters[index - 1]) { index -= 1 }
            guard index == 0, line > 0 else { break }
            line -= 1
            characters = Array(lines[line])
            index = characters.count
        }
        while index > 0 && TextEditor.isWord(characters[index - 1]) { index -= 1 }
        return Position(line: line, offset: index)
    }

    /// The end of the word after `position`: on over what is not a word
    /// (line breaks included), then over the word.
    func wordEnd(after position: Position) -> Position {
        var line = position.line
        var characters = Array(lines[line])
        var index = min(position.offset, characters.count)
        while true {
            while index < characters.count && !TextEditor.isWord(characters[index]) { index += 1 }
            guard index == characters.count, line < lines.count - 1 else { break }
            line += 1
            characters = Array(lines[line])
            index = 0
        }
        while index < characters.count && TextEditor.isWord(characters[index]) { index += 1 }
        return Position(line: line, offset: index)
    }

    /// Up or down one logical line, keeping the display column where possible.
    private mutating func moveVertically(_ direction: Int) {
        let target = cursor.line + direction
        guard lines.indices.contains(target) else {
            cursor = direction < 0 ? start : end
            return
        }
        let cells = TextEditor.cells(of: lines[cursor.line])
        let column = cells.columns(0..<min(cursor.offset, cells.count))
        cursor = Position(line: target, offset: TextEditor.cells(of: lines[target]).offset(atColumn: column, in: 0..<Int.max))
    }

    // MARK: - Display

    /// Columns a character takes once drawn: control characters and the
    /// line and paragraph separators are shown as one visible symbol (␉, ␛,
    /// �; ``TerminalText/sanitized(_:)``), everything else by display width.
    public static func cellWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x20 || first.value == 0x7F || (0x80...0x9F).contains(first.value)
            || first.value == 0x2028 || first.value == 0x2029 { return 1 }
        return DisplayWidth.of(character)
    }

    /// Columns a run of characters takes once drawn.
    public static func columns<C: Collection>(_ characters: C) -> Int where C.Element == Character {
        characters.reduce(0) { $0 + cellWidth($1) }
    }

    /// A line's graphemes as drawn: where each starts, its width, and
    /// whether it is a space; one number each, in one array.
    struct Cells {
        /// Per grapheme: its first byte in the line's UTF-8 × 8, plus its
        /// width × 2, plus 1 for a space; then the line's length × 8.
        private var packed: [UInt64]

        init(capacity: Int) {
            packed = []
            packed.reserveCapacity(capacity + 1)
        }

        /// The cells of a line whose every scalar is simple (ASCII, Latin,
        /// Hangul syllables: each a grapheme of a known width), written
        /// straight into their array; `nil` for any other line.
        static func ofSimpleScalars(_ line: String) -> Cells? {
            var line = line
            return line.withUTF8 { bytes in
                var simple = true
                // A grapheme takes at least a byte: the line's length bounds the count.
                let packed = [UInt64](unsafeUninitializedCapacity: bytes.count + 1) { cells, count in
                    var offset = 0
                    while offset < bytes.count {
                        guard let scalar = DisplayWidth.simpleScalar(in: bytes, at: offset) else {
                            simple = false
                            break
                        }
                        cells[count] = Cells.packed(offset, width: scalar.width, space: scalar.value == 0x20)
                        count += 1
                        offset += scalar.length
                    }
                    cells[count] = UInt64(offset) << 3
                    count += 1
                }
                return simple ? Cells(packed: packed) : nil
            }
        }

        private init(packed: [UInt64]) { self.packed = packed }

        private static func packed(_ offset: Int, width: Int, space: Bool) -> UInt64 {
            UInt64(offset) << 3 | UInt64(width) << 1 | (space ? 1 : 0)
        }

        mutating func append(at offset: Int, width: Int, space: Bool) {
            packed.append(Cells.packed(offset, width: width, space: space))
        }

        /// Ends the line at `length` bytes.
        mutating func end(at length: Int) { packed.append(UInt64(length) << 3) }

        var count: Int { packed.count - 1 }
        func width(_ index: Int) -> Int { Int(packed[index] >> 1 & 3) }
        func isSpace(_ index: Int) -> Bool { packed[index] & 1 != 0 }

        /// Graphemes `range` of `line` (the line these cells were made of).
        func text(_ range: Range<Int>, of line: String) -> Substring {
            let utf8 = line.utf8
            let from = utf8.index(utf8.startIndex, offsetBy: Int(packed[range.lowerBound] >> 3))
            let to = utf8.index(utf8.startIndex, offsetBy: Int(packed[range.upperBound] >> 3))
            return line[from..<to]
        }

        /// The columns the graphemes in `range` take.
        func columns(_ range: Range<Int>) -> Int {
            var total = 0
            for index in range { total += width(index) }
            return total
        }

        /// The offset in `range` whose column is the last not past `column`.
        func offset(atColumn column: Int, in range: Range<Int>) -> Int {
            var index = range.lowerBound
            var used = 0
            let upper = min(range.upperBound, count)
            while index < upper {
                if used + width(index) > column { break }
                used += width(index)
                index += 1
            }
            return index
        }
    }

    /// The cells of `line`. A line of scalars that are each a grapheme of
    /// a known width (ASCII, Latin, Hangul syllables) needs no grapheme
    /// breaking and no property lookups.
    static func cells(of line: String) -> Cells {
        if let cells = Cells.ofSimpleScalars(line) { return cells }
        var cells = Cells(capacity: line.utf8.count)
        var offset = 0
        for character in line {
            cells.append(at: offset, width: cellWidth(character), space: character == " ")
            offset += character.utf8.count
        }
        cells.end(at: line.utf8.count)
        return cells
    }

    // MARK: - Wrapped rows, one line at a time

    /// A row of the wrapped text: its line, and which row of that line.
    /// The screen keeps its first row as one, so that a keystroke reads
    /// the rows it shows, never the whole text.
    public struct RowPosition: Sendable, Equatable, Comparable {
        /// The line's index.
        public var line: Int
        /// The row within the line (0 for its first).
        public var row: Int

        public init(line: Int, row: Int) {
            self.line = line
            self.row = row
        }

        public static func < (a: RowPosition, b: RowPosition) -> Bool { (a.line, a.row) < (b.line, b.row) }
    }

    /// The rows of a line with `cells`, wrapped to `width` columns, as
    /// grapheme offsets: at spaces when a word fits, else between
    /// graphemes. An empty line is one empty row.
    static func rows(of cells: Cells, width: Int) -> [Range<Int>] {
        let width = max(1, width)
        var rows: [Range<Int>] = []
        var rowStart = 0
        repeat {
            var used = 0
            var index = rowStart
            var lastSpace: Int?
            while index < cells.count {
                let w = cells.width(index)
                if used + w > width { break }
                if cells.isSpace(index) { lastSpace = index }
                used += w
                index += 1
            }
            var cut = index
            if index < cells.count, let space = lastSpace, space > rowStart { cut = space + 1 }
            if cut == rowStart { cut = min(cells.count, rowStart + 1) }
            rows.append(rowStart..<cut)
            rowStart = cut
        } while rowStart < cells.count
        return rows
    }

    /// The rows of line `line` wrapped to `width`, as grapheme offsets.
    func lineRows(_ line: Int, width: Int) -> [Range<Int>] {
        TextEditor.rows(of: TextEditor.cells(of: lines[line]), width: width)
    }

    /// Whether `line` surely fits in one row of `width` columns, told
    /// without breaking it into graphemes: no character is wider in columns
    /// than in UTF-8 bytes (a wide one takes three or four), so a line of
    /// no more bytes than columns fits; else a line of simple scalars is
    /// summed. `false` for any other line, which then needs measuring.
    static func fitsInOneRow(_ line: String, width: Int) -> Bool {
        line.utf8.count <= width || simpleColumns(line, before: 0).map { $0.total <= width } ?? false
    }

    /// The columns of a line whose every scalar is a grapheme of a known
    /// width (ASCII, Latin, Hangul syllables), in all and before grapheme
    /// `offset`; `nil` for any other line.
    static func simpleColumns(_ line: String, before offset: Int) -> (before: Int, total: Int)? {
        if TerminalText.isPrintableASCII(line) { return (min(offset, line.utf8.count), line.utf8.count) }
        var columns = (before: 0, total: 0)
        var index = 0
        let stop = DisplayWidth.walkSimpleScalars(line) { _, _, width in
            if index < offset { columns.before += width }
            columns.total += width
            index += 1
            return true
        }
        return stop == line.utf8.count ? columns : nil
    }

    /// How many rows line `line` takes wrapped to `width`.
    func lineRowCount(_ line: Int, width: Int) -> Int {
        TextEditor.fitsInOneRow(lines[line], width: max(1, width)) ? 1 : lineRows(line, width: width).count
    }

    /// The position a place is drawn at: a place at the end of a full row
    /// belongs to the next row, at the end of its line to the last.
    func position(of place: Position, width: Int) -> (position: RowPosition, column: Int) {
        let line = lines[place.line]
        if let columns = TextEditor.simpleColumns(line, before: place.offset), columns.total <= max(1, width) {
            return (RowPosition(line: place.line, row: 0), columns.before)
        }
        let cells = TextEditor.cells(of: line)
        let rows = TextEditor.rows(of: cells, width: width)
        let offset = min(place.offset, cells.count)
        let row = rows.firstIndex { offset >= $0.lowerBound && offset < $0.upperBound } ?? rows.count - 1
        return (RowPosition(line: place.line, row: row), cells.columns(rows[row].lowerBound..<offset))
    }

    /// Where the cursor is drawn: its row and column.
    public func cursorPosition(width: Int) -> (position: RowPosition, column: Int) {
        position(of: cursor, width: width)
    }

    /// `position` made valid for the text as it is now: a line the text
    /// has, and a row that line has (after an edit or a resize).
    public func clamped(_ position: RowPosition, width: Int) -> RowPosition {
        let line = min(max(0, position.line), lines.count - 1)
        return RowPosition(line: line, row: min(max(0, position.row), lineRowCount(line, width: width) - 1))
    }

    /// `position` moved `count` rows down (up when negative), stopping at
    /// the first and the last row. Reads only the lines it passes.
    public func position(_ position: RowPosition, movedBy count: Int, width: Int) -> RowPosition {
        var current = position
        var remaining = count
        while remaining > 0 {
            let rows = lineRowCount(current.line, width: width)
            if current.row + remaining < rows { current.row += remaining; break }
            guard current.line + 1 < lines.count else { current.row = rows - 1; break }
            remaining -= rows - current.row
            current = RowPosition(line: current.line + 1, row: 0)
        }
        while remaining < 0 {
            if current.row + remaining >= 0 { current.row += remaining; break }
            guard current.line > 0 else { current.row = 0; break }
            remaining += current.row + 1
            current = RowPosition(line: current.line - 1, row: lineRowCount(current.line - 1, width: width) - 1)
        }
        return current
    }

    /// How many rows `to` is below `from`, or `nil` when it is above `from`
    /// or `limit` rows or more below: reads at most `limit` rows.
    public func rows(from: RowPosition, to: RowPosition, limit: Int, width: Int) -> Int? {
        guard from <= to else { return nil }
        // Each line between them is wrapped once, and only until `limit` rows are counted.
        var counted = -from.row
        var line = from.line
        while line < to.line {
            counted += lineRowCount(line, width: width)
            guard counted < limit else { return nil }
            line += 1
        }
        counted += to.row
        return counted < limit ? counted : nil
    }

    /// How many rows there are from `top` down, counting at most `limit`.
    public func rowCount(from top: RowPosition, limit: Int, width: Int) -> Int {
        var counted = -top.row
        var line = top.line
        while counted < limit && line < lines.count {
            counted += lineRowCount(line, width: width)
            line += 1
        }
        return min(counted, limit)
    }

    /// A row of the wrapped text: its first place and its text. (A struct,
    /// not a tuple: an array of tuples is destroyed by the runtime's generic
    /// code, element by element.)
    public struct WrappedRow: Sendable, Equatable {
        public let start: Position
        public let text: String
    }

    /// Up to `count` rows from `top` down: each row's first place and text.
    public func rows(from top: RowPosition, count: Int, width: Int) -> [WrappedRow] {
        var result: [WrappedRow] = []
        result.reserveCapacity(max(0, count))
        var line = top.line
        var skip = top.row
        while result.count < count && line < lines.count {
            let text = lines[line]
            if skip == 0 && TextEditor.fitsInOneRow(text, width: max(1, width)) {
                result.append(WrappedRow(start: Position(line: line, offset: 0), text: text))
                line += 1
                continue
            }
            let cells = TextEditor.cells(of: text)
            for range in TextEditor.rows(of: cells, width: width).dropFirst(skip).prefix(count - result.count) {
                result.append(WrappedRow(start: Position(line: line, offset: range.lowerBound),
                                         text: String(cells.text(range, of: text))))
            }
            skip = 0
            line += 1
        }
        return result
    }

    /// Moves the cursor `count` rows of the text wrapped to `width` (up
    /// when negative), keeping its column where the row is long enough;
    /// already on the first or last row, to the text's start or end.
    public mutating func moveByRows(_ count: Int, width: Int) {
        let (here, column) = cursorPosition(width: width)
        let target = position(here, movedBy: count, width: width)
        guard target != here else {
            cursor = count < 0 ? start : end
            return
        }
        let cells = TextEditor.cells(of: lines[target.line])
        let rows = TextEditor.rows(of: cells, width: width)
        let row = rows[target.row]
        let index = cells.offset(atColumn: column, in: row)
        // The end of a row that is not its line's last is drawn on the next row: stay on this one.
        let offset = index == row.upperBound && target.row < rows.count - 1 && index > row.lowerBound ? index - 1 : index
        cursor = Position(line: target.line, offset: offset)
    }
}
