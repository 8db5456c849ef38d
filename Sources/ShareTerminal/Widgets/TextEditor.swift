/// Editable text with a cursor, for one-line fields and the body editor.
///
/// The text is kept as graphemes, so the cursor never lands inside a
/// Hangul syllable, an emoji sequence or a letter with its accent. Keys
/// follow Emacs and readline: C-a C-e C-b C-f C-d C-k C-u C-w M-b M-f,
/// Backspace, Delete, Home, End; in multi-line text, C-a/C-e/Home/End and
/// C-k/C-u act on the current line, and up/down keep the column.
public struct TextEditor: Sendable, Equatable {
    /// The text, one `Character` per grapheme.
    public private(set) var characters: [Character]
    /// The cursor, as an index into `characters` (0 … count).
    public private(set) var cursor: Int
    /// Whether Enter inserts a line break.
    public let multiline: Bool

    /// Creates an editor with the cursor at the end.
    public init(_ text: String = "", multiline: Bool = false) {
        characters = Array(text)
        cursor = characters.count
        self.multiline = multiline
    }

    /// The text.
    public var text: String { String(characters) }

    /// Replaces the text, cursor at the end.
    public mutating func setText(_ text: String) {
        characters = Array(text)
        cursor = characters.count
    }

    /// Moves the cursor to `index` (clamped).
    public mutating func moveCursor(to index: Int) {
        cursor = max(0, min(index, characters.count))
    }

    // MARK: - Editing

    /// Inserts text at the cursor (line breaks dropped in a one-line field).
    public mutating func insert(_ text: String) {
        let new = multiline ? Array(text) : Array(text).filter { !$0.isNewline }
        characters.insert(contentsOf: new, at: cursor)
        cursor += new.count
    }

    /// Applies an editing key; returns false when the key is not an editing key.
    @discardableResult
    public mutating func handle(_ event: InputEvent) -> Bool {
        switch event {
        case .character(let character): insert(String(character))
        case .enter:
            guard multiline else { return false }
            insert("\n")
        case .backspace:
            if cursor > 0 { characters.remove(at: cursor - 1); cursor -= 1 }
        case .delete, .control("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .control("b"): cursor = max(0, cursor - 1)
        case .right, .control("f"): cursor = min(characters.count, cursor + 1)
        case .home, .control("a"): cursor = lineStart(cursor)
        case .end, .control("e"): cursor = lineEnd(cursor)
        case .control("k"):
            let end = lineEnd(cursor)
            if end == cursor, end < characters.count, multiline { characters.remove(at: cursor) } else {
                characters.removeSubrange(cursor..<end)
            }
        case .control("u"):
            let start = lineStart(cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .control("w"):
            let start = wordStart(before: cursor)
            characters.removeSubrange(start..<cursor)
            cursor = start
        case .alt("b"): cursor = wordStart(before: cursor)
        case .alt("f"): cursor = wordEnd(after: cursor)
        case .alt("d"):
            let end = wordEnd(after: cursor)
            characters.removeSubrange(cursor..<end)
        case .up where multiline: moveVertically(-1)
        case .down where multiline: moveVertically(1)
        default: return false
        }
        return true
    }

    // MARK: - Positions

    func lineStart(_ index: Int) -> Int {
        var start = index
        while start > 0 && !characters[start - 1].isNewline { start -= 1 }
        return start
    }

    func lineEnd(_ index: Int) -> Int {
        var end = index
        while end < characters.count && !characters[end].isNewline { end += 1 }
        return end
    }

    private func isWord(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "_" }

    func wordStart(before index: Int) -> Int {
        var start = index
        while start > 0 && !isWord(characters[start - 1]) { start -= 1 }
        while start > 0 && isWord(characters[start - 1]) { start -= 1 }
        return start
    }

    func wordEnd(after index: Int) -> Int {
        var end = index
        while end < characters.count && !isWord(characters[end]) { end += 1 }
        while end < characters.count && isWord(characters[end]) { end += 1 }
        return end
    }

    /// Up or down one logical line, keeping the display column where possible.
    private mutating func moveVertically(_ direction: Int) {
        let start = lineStart(cursor)
        let column = TextEditor.columns(characters[start..<cursor])
        let target: Int
        if direction < 0 {
            guard start > 0 else { cursor = 0; return }
            target = lineStart(start - 1)
        } else {
            let end = lineEnd(cursor)
            guard end < characters.count else { cursor = characters.count; return }
            target = end + 1
        }
        var index = target
        var used = 0
        while index < characters.count && !characters[index].isNewline {
            let width = TextEditor.cellWidth(characters[index])
            if used + width > column { break }
            used += width
            index += 1
        }
        cursor = index
    }

    // MARK: - Display

    /// Columns a character takes once drawn: control characters are shown
    /// as one visible symbol (␉, ␛), everything else by display width.
    public static func cellWidth(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x20 || first.value == 0x7F || (0x80...0x9F).contains(first.value) { return 1 }
        return DisplayWidth.of(character)
    }

    /// Columns a run of characters takes once drawn.
    public static func columns<C: Collection>(_ characters: C) -> Int where C.Element == Character {
        characters.reduce(0) { $0 + cellWidth($1) }
    }

    // MARK: - Wrapped rows, one line at a time

    /// A row of the wrapped text: the first character of its line, and
    /// which row of that line. The screen keeps its first row as one, so
    /// that a keystroke reads the rows it shows, never the whole text.
    public struct RowPosition: Sendable, Equatable, Comparable {
        /// The index of the line's first character.
        public var line: Int
        /// The row within the line (0 for its first).
        public var row: Int

        public init(line: Int, row: Int) {
            self.line = line
            self.row = row
        }

        public static func < (a: RowPosition, b: RowPosition) -> Bool { (a.line, a.row) < (b.line, b.row) }
    }

    /// The rows of the line that starts at `start`, wrapped to `width`
    /// columns: at spaces when a word fits, else between graphemes. An
    /// empty line is one empty row.
    func lineRows(from start: Int, width: Int) -> [Range<Int>] {
        let width = max(1, width)
        let end = lineEnd(start)
        var rows: [Range<Int>] = []
        var rowStart = start
        repeat {
            var used = 0
            var index = rowStart
            var lastSpace: Int?
            while index < end {
                let w = TextEditor.cellWidth(characters[index])
                if used + w > width { break }
                if characters[index] == " " { lastSpace = index }
                used += w
                index += 1
            }
            var cut = index
            if index < end, let space = lastSpace, space > rowStart { cut = space + 1 }
            if cut == rowStart { cut = min(end, rowStart + 1) }
            rows.append(rowStart..<cut)
            rowStart = cut
        } while rowStart < end
        return rows
    }

    /// The position a character index is drawn at: a cursor at the end of a
    /// full row belongs to the next row, at the end of its line to the last.
    func position(of index: Int, width: Int) -> (position: RowPosition, column: Int) {
        let line = lineStart(index)
        let rows = lineRows(from: line, width: width)
        let row = rows.firstIndex { index >= $0.lowerBound && index < $0.upperBound } ?? rows.count - 1
        return (RowPosition(line: line, row: row), TextEditor.columns(characters[rows[row].lowerBound..<index]))
    }

    /// Where the cursor is drawn: its row and column.
    public func cursorPosition(width: Int) -> (position: RowPosition, column: Int) {
        position(of: cursor, width: width)
    }

    /// `position` made valid for the text as it is now: on a line's first
    /// character, and a row that line has (after an edit or a resize).
    public func clamped(_ position: RowPosition, width: Int) -> RowPosition {
        let line = lineStart(min(max(0, position.line), characters.count))
        return RowPosition(line: line, row: min(max(0, position.row), lineRows(from: line, width: width).count - 1))
    }

    /// `position` moved `count` rows down (up when negative), stopping at
    /// the first and the last row. Reads only the lines it passes.
    public func position(_ position: RowPosition, movedBy count: Int, width: Int) -> RowPosition {
        var current = position
        var remaining = count
        while remaining > 0 {
            let rows = lineRows(from: current.line, width: width).count
            if current.row + remaining < rows { current.row += remaining; break }
            let next = lineEnd(current.line) + 1
            guard next <= characters.count else { current.row = rows - 1; break }
            remaining -= rows - current.row
            current = RowPosition(line: next, row: 0)
        }
        while remaining < 0 {
            if current.row + remaining >= 0 { current.row += remaining; break }
            guard current.line > 0 else { current.row = 0; break }
            remaining += current.row + 1
            let previous = lineStart(current.line - 1)
            current = RowPosition(line: previous, row: lineRows(from: previous, width: width).count - 1)
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
            counted += lineRows(from: line, width: width).count
            guard counted < limit else { return nil }
            line = lineEnd(line) + 1
        }
        guard line == to.line else { return nil }
        counted += to.row
        return counted < limit ? counted : nil
    }

    /// Up to `count` rows from `top` down: each row's first character and text.
    public func rows(from top: RowPosition, count: Int, width: Int) -> [(start: Int, text: String)] {
        var result: [(start: Int, text: String)] = []
        var line = top.line
        var skip = top.row
        while result.count < count && line <= characters.count {
            for range in lineRows(from: line, width: width).dropFirst(skip).prefix(count - result.count) {
                result.append((range.lowerBound, String(characters[range])))
            }
            skip = 0
            line = lineEnd(line) + 1
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
            cursor = count < 0 ? 0 : characters.count
            return
        }
        let rows = lineRows(from: target.line, width: width)
        let row = rows[target.row]
        var index = row.lowerBound
        var used = 0
        while index < row.upperBound {
            let width = TextEditor.cellWidth(characters[index])
            if used + width > column { break }
            used += width
            index += 1
        }
        // The end of a row that is not its line's last is drawn on the next row: stay on this one.
        cursor = index == row.upperBound && target.row < rows.count - 1 && index > row.lowerBound ? index - 1 : index
    }
}
