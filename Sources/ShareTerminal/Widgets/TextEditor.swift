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

    /// Moves the cursor `count` rows of the text wrapped to `width` (up
    /// when negative), keeping its column where the row is long enough;
    /// past the first or last row it stops there.
    public mutating func moveByRows(_ count: Int, width: Int) {
        let (rows, row, column) = wrapped(width: width)
        let target = min(max(0, row + count), rows.count - 1)
        guard target != row else {
            cursor = count < 0 ? 0 : characters.count
            return
        }
        var index = rows[target].start
        let end = target + 1 < rows.count ? rows[target + 1].start : characters.count
        var used = 0
        while index < end && !characters[index].isNewline {
            let width = TextEditor.cellWidth(characters[index])
            if used + width > column { break }
            used += width
            index += 1
        }
        // The end of a wrapped row is the start of the next: stay on this one.
        cursor = index == end && target + 1 < rows.count && index > rows[target].start ? index - 1 : index
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

    /// The visual rows of the text wrapped to `width` columns (at spaces when
    /// a word fits, else anywhere between graphemes), each with the index of
    /// its first character, and the row and column of the cursor.
    public func wrapped(width: Int) -> (rows: [(start: Int, text: String)], cursorRow: Int, cursorColumn: Int) {
        let width = max(1, width)
        var rows: [(start: Int, text: String)] = []
        var cursorRow = 0
        var cursorColumn = 0
        var lineStartIndex = 0
        func emit(_ range: Range<Int>) {
            if cursor >= range.lowerBound && cursor <= range.upperBound {
                cursorRow = rows.count
                cursorColumn = TextEditor.columns(characters[range.lowerBound..<cursor])
            }
            rows.append((range.lowerBound, String(characters[range])))
        }
        while lineStartIndex <= characters.count {
            let end = lineEnd(lineStartIndex)
            var start = lineStartIndex
            repeat {
                var used = 0
                var index = start
                var lastSpace: Int?
                while index < end {
                    let w = TextEditor.cellWidth(characters[index])
                    if used + w > width { break }
                    if characters[index] == " " { lastSpace = index }
                    used += w
                    index += 1
                }
                var cut = index
                if index < end, let space = lastSpace, space > start { cut = space + 1 }
                if cut == start { cut = min(end, start + 1) }
                // A cursor at the end of a full row belongs to the next row.
                if cut < end && cursor == cut { emit(start..<cut); cursorRow = rows.count; cursorColumn = 0 } else { emit(start..<cut) }
                start = cut
            } while start < end
            lineStartIndex = end + 1
        }
        return (rows, cursorRow, cursorColumn)
    }
}
