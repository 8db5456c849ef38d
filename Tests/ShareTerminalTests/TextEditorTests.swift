import Testing
@testable import ShareTerminal

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
        var korean = TextEditor(String(repeating: "가", count: 12), multiline: true)
        type(&korean, [.home, .right, .right])  // column 4
        korean.moveByRows(2, width: 10)
        #expect(korean.cursor == 12 && korean.wrapped(width: 10).cursorRow == 2)  // "가가" is shorter: its end
    }
}
