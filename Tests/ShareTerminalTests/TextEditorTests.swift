import Testing
@testable import ShareTerminal

extension TextEditor {
    /// Every row of the text wrapped to `width`, each with its first
    /// character's index, and the cursor's row and column: the whole text,
    /// as the screen never reads it, to check the row functions against.
    func wrapped(width: Int) -> (rows: [(start: Int, text: String)], cursorRow: Int, cursorColumn: Int) {
        var rows: [(start: Int, text: String)] = []
        var line = 0
        while line <= characters.count {
            for range in lineRows(from: line, width: width) { rows.append((range.lowerBound, String(characters[range]))) }
            line = lineEnd(line) + 1
        }
        let (position, column) = cursorPosition(width: width)
        let cursorLine = lineRows(from: position.line, width: width)
        let cursorRow = rows.firstIndex { $0.start == cursorLine[position.row].lowerBound } ?? 0
        return (rows, cursorRow, column)
    }
}

struct TextEditorTests {
    private func type(_ editor: inout TextEditor, _ events: [InputEvent]) {
        for event in events { editor.handle(event) }
    }

    @Test func emacsLineKeys() {
        var editor = TextEditor("hello brave new world")
        type(&editor, [.control("a")])
        #expect(editor.cursor == 0)
        type(&editor, [.alt("f"), .alt("f")])
        #expect(editor.cursor == 11)
        type(&editor, [.control("w")])
        #expect(editor.text == "hello  new world")
        type(&editor, [.control("e"), .alt("b"), .control("k")])
        #expect(editor.text == "hello  new ")
        type(&editor, [.control("b"), .control("d")])
        #expect(editor.text == "hello  new")
        type(&editor, [.control("u")])
        #expect(editor.text == "")
        type(&editor, [.character("a"), .character("b"), .left, .character("X"), .home, .delete, .end, .backspace])
        #expect(editor.text == "X")
    }

    @Test func koreanAndEmojiAreOneCursorStepEach() {
        var editor = TextEditor("안녕 👨‍👩‍👧 e\u{301}")
        #expect(editor.characters.count == 6)
        type(&editor, [.backspace])
        #expect(editor.text == "안녕 👨‍👩‍👧 ")
        type(&editor, [.left, .backspace])
        #expect(editor.text == "안녕  ")
        type(&editor, [.control("a"), .right, .control("d")])
        #expect(editor.text == "안  ")
        let (rows, row, column) = editor.wrapped(width: 20)
        #expect(rows.map(\.text) == ["안  "])
        #expect(row == 0 && column == 2)
    }

    @Test func oneLineFieldsIgnoreLineBreaks() {
        var editor = TextEditor("a")
        let handled = editor.handle(.enter)
        #expect(!handled)
        editor.insert("b\nc\r\nd")
        #expect(editor.text == "abcd")
    }

    @Test func bodyWrapsAtSpacesAndKeepsTheCursorVisible() {
        var editor = TextEditor("The numbers are attached.\nSee you", multiline: true)
        let (rows, row, column) = editor.wrapped(width: 10)
        #expect(rows.map(\.text) == ["The ", "numbers ", "are ", "attached.", "See you"])
        #expect(row == 4 && column == 7)
        type(&editor, [.up])
        #expect(editor.cursor == 7)  // column 7 of "The numbers…" is before "ers"
        type(&editor, [.control("e"), .control("k")])
        #expect(editor.text == "The numbers are attached.See you")
        type(&editor, [.enter])
        #expect(editor.text == "The numbers are attached.\nSee you")
        let long = TextEditor(String(repeating: "가", count: 12), multiline: true)
        #expect(long.wrapped(width: 10).rows.map(\.text) == ["가가가가가", "가가가가가", "가가"])
    }

    /// A page moves by wrapped rows, keeping the column; a row shorter than
    /// the column ends the move at its end, on that row.
    @Test func movingByRowsFollowsTheWrappedRows() {
        var editor = TextEditor("The numbers are attached.\nSee you", multiline: true)
        type(&editor, [.up, .home, .right, .right])  // "Th|e"
        #expect(editor.cursor == 2)
        editor.moveByRows(1, width: 10)
        #expect(editor.cursor == 6 && editor.wrapped(width: 10).cursorRow == 1)  // "nu|mbers"
        editor.moveByRows(2, width: 10)
        #expect(editor.cursor == 18 && editor.wrapped(width: 10).cursorRow == 3)  // "at|tached."
        editor.moveByRows(-1, width: 10)
        #expect(editor.cursor == 14 && editor.wrapped(width: 10).cursorRow == 2)
        // Past the first row: the first row at that column, then its start.
        editor.moveByRows(-9, width: 10)
        #expect(editor.cursor == 2)
        editor.moveByRows(-9, width: 10)
        #expect(editor.cursor == 0)
        editor.moveByRows(9, width: 10)
        #expect(editor.cursor == 26)  // "|See you": column 0 of the last row
        editor.moveByRows(9, width: 10)
        #expect(editor.cursor == editor.text.count)
        // Onto a shorter row that is not its line's last: its last character, not the next row's first.
        var short = TextEditor("The numbers are attached.", multiline: true)
        type(&short, [.home, .right, .right, .right, .right, .right, .right, .right, .right, .right, .right, .right])
        #expect(short.cursorPosition(width: 10).position == TextEditor.RowPosition(line: 0, row: 1))
        short.moveByRows(-1, width: 10)
        #expect(short.cursor == 3)  // "The| "
        var korean = TextEditor(String(repeating: "가", count: 12), multiline: true)
        type(&korean, [.home, .right, .right])  // column 4
        korean.moveByRows(2, width: 10)
        #expect(korean.cursor == 12 && korean.wrapped(width: 10).cursorRow == 2)  // "가가" is shorter: its end
    }

    /// The row functions that read a few lines agree with wrapping the
    /// whole text, on texts of words, Hangul, spaces and empty lines.
    @Test func rowsReadLineByLineAgreeWithTheWholeText() {
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces = ["a", "bc", " ", "  ", "가", "나다", "\n", "\n\n", "word ", "longerword"]
        for _ in 0..<200 {
            let text = (0..<next(30)).map { _ in pieces[next(pieces.count)] }.joined()
            let width = 1 + next(12)
            let editor = TextEditor(text, multiline: true)
            let (rows, _, _) = editor.wrapped(width: width)
            // Every row's position, in order.
            var positions: [TextEditor.RowPosition] = []
            var line = 0
            while line <= editor.characters.count {
                for row in editor.lineRows(from: line, width: width).indices { positions.append(TextEditor.RowPosition(line: line, row: row)) }
                line = editor.lineEnd(line) + 1
            }
            #expect(positions.count == rows.count, "\(text.debugDescription) at \(width)")
            guard positions.count == rows.count else { continue }
            for _ in 0..<10 {
                let a = next(positions.count), b = next(positions.count), limit = 1 + next(positions.count + 2)
                let expected = b >= a && b - a < limit ? b - a : nil
                #expect(editor.rows(from: positions[a], to: positions[b], limit: limit, width: width) == expected,
                        "\(text.debugDescription) at \(width): rows \(a) → \(b) within \(limit)")
                let moved = editor.position(positions[a], movedBy: b - a, width: width)
                #expect(moved == positions[b], "\(text.debugDescription) at \(width): row \(a) moved \(b - a)")
                #expect(editor.rows(from: positions[a], count: limit, width: width).map(\.start)
                        == rows[a...].prefix(limit).map(\.start))
            }
        }
    }
}
