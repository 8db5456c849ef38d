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
}
