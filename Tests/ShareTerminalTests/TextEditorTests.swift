import Testing
@testable import ShareTerminal

extension TextEditor {
    /// Every row of the text wrapped to `width`, each with its first
    /// place, and the cursor's row and column: the whole text, as the
    /// screen never reads it, to check the row functions against.
    func wrapped(width: Int) -> (rows: [(start: Position, text: String)], cursorRow: Int, cursorColumn: Int) {
        var rows: [(start: Position, text: String)] = []
        for (number, line) in lines.enumerated() {
            let cells = TextEditor.cells(of: line)
            for range in TextEditor.rows(of: cells, width: width) {
                rows.append((Position(line: number, offset: range.lowerBound),
                             String(cells.text(range, of: line))))
            }
        }
        let (position, column) = cursorPosition(width: width)
        let first = Position(line: position.line, offset: lineRows(position.line, width: width)[position.row].lowerBound)
        let cursorRow = rows.firstIndex { $0.start == first } ?? 0
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
        #expect(editor.cursorIndex == 0)
        type(&editor, [.alt("f"), .alt("f")])
        #expect(editor.cursorIndex == 11)
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
        #expect(editor.text.count == 6)
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
        // Every line break, not only CR and LF.
        editor.insert("\u{2028}e\u{85}")
        editor.insert("\u{2029}")
        #expect(editor.text == "abcde")
    }

    @Test func bodyWrapsAtSpacesAndKeepsTheCursorVisible() {
        var editor = TextEditor("The numbers are attached.\nSee you", multiline: true)
        let (rows, row, column) = editor.wrapped(width: 10)
        #expect(rows.map(\.text) == ["The ", "numbers ", "are ", "attached.", "See you"])
        #expect(row == 4 && column == 7)
        type(&editor, [.up])
        #expect(editor.cursorIndex == 7)  // column 7 of "The numbers…" is before "ers"
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
        #expect(editor.cursorIndex == 2)
        editor.moveByRows(1, width: 10)
        #expect(editor.cursorIndex == 6 && editor.wrapped(width: 10).cursorRow == 1)  // "nu|mbers"
        editor.moveByRows(2, width: 10)
        #expect(editor.cursorIndex == 18 && editor.wrapped(width: 10).cursorRow == 3)  // "at|tached."
        editor.moveByRows(-1, width: 10)
        #expect(editor.cursorIndex == 14 && editor.wrapped(width: 10).cursorRow == 2)
        // Past the first row: the first row at that column, then its start.
        editor.moveByRows(-9, width: 10)
        #expect(editor.cursorIndex == 2)
        editor.moveByRows(-9, width: 10)
        #expect(editor.cursorIndex == 0)
        editor.moveByRows(9, width: 10)
        #expect(editor.cursorIndex == 26)  // "|See you": column 0 of the last row
        editor.moveByRows(9, width: 10)
        #expect(editor.cursorIndex == editor.text.count)
        // Onto a shorter row that is not its line's last: its last character, not the next row's first.
        var short = TextEditor("The numbers are attached.", multiline: true)
        type(&short, [.home, .right, .right, .right, .right, .right, .right, .right, .right, .right, .right, .right])
        #expect(short.cursorPosition(width: 10).position == TextEditor.RowPosition(line: 0, row: 1))
        short.moveByRows(-1, width: 10)
        #expect(short.cursorIndex == 3)  // "The| "
        var korean = TextEditor(String(repeating: "가", count: 12), multiline: true)
        type(&korean, [.home, .right, .right])  // column 4
        korean.moveByRows(2, width: 10)
        #expect(korean.cursorIndex == 12 && korean.wrapped(width: 10).cursorRow == 2)  // "가가" is shorter: its end
    }

    /// The row functions that read a few lines agree with wrapping the
    /// whole text, on texts of words, Hangul, spaces and empty lines.
    @Test func rowsReadLineByLineAgreeWithTheWholeText() {
        var seed: UInt64 = 42
        func next(_ bound: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int((seed >> 33) % UInt64(bound))
        }
        let pieces = ["a", "bc", " ", "  ", "가", "나다", "\n", "\n\n", "word ", "longerword", "👍", "e\u{301}", "\t", "─"]
        for _ in 0..<200 {
            let text = (0..<next(30)).map { _ in pieces[next(pieces.count)] }.joined()
            let width = 1 + next(12)
            let editor = TextEditor(text, multiline: true)
            let (rows, _, _) = editor.wrapped(width: width)
            // Every row's position, in order.
            var positions: [TextEditor.RowPosition] = []
            for line in editor.lines.indices {
                for row in editor.lineRows(line, width: width).indices { positions.append(TextEditor.RowPosition(line: line, row: row)) }
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

    /// A line of no more UTF-8 bytes than columns is one row without being
    /// measured: that holds because no character is wider than its bytes
    /// (every scalar of one or two bytes is at most as wide; longer ones
    /// take at most two columns).
    @Test func noCharacterIsWiderThanItsBytes() {
        for value in UInt32(0)..<0x800 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(TextEditor.cellWidth(Character(scalar)) <= scalar.utf8.count, "U+\(String(value, radix: 16))")
        }
        for line in ["한국어 문장", "👍👍", "e\u{301}e\u{301}", "\t\u{1B}", "──", "abc", "a b가", "a\u{200D}b"] {
            let editor = TextEditor(line, multiline: true)
            for width in 1...12 {
                let rows = TextEditor.rows(of: TextEditor.cells(of: line), width: width).count
                if TextEditor.fitsInOneRow(line, width: width) { #expect(rows == 1, "\(line.debugDescription) at \(width)") }
                #expect(editor.lineRowCount(0, width: width) == rows, "\(line.debugDescription) at \(width)")
                // Where each place is drawn, as measured grapheme by grapheme.
                let cells = TextEditor.cells(of: line)
                let wrapped = TextEditor.rows(of: cells, width: width)
                for offset in 0...line.count {
                    let row = wrapped.firstIndex { offset >= $0.lowerBound && offset < $0.upperBound } ?? wrapped.count - 1
                    let (position, column) = editor.position(of: TextEditor.Position(line: 0, offset: offset), width: width)
                    #expect(position == TextEditor.RowPosition(line: 0, row: row) && column == cells.columns(wrapped[row].lowerBound..<offset),
                            "\(line.debugDescription) at \(width), offset \(offset)")
                }
            }
        }
    }

    /// Lines break at LF, CR LF and CR; any other control character stays
    /// in its line. A one-line field keeps its value as given.
    @Test func linesBreakAtLineEndsOnly() {
        let body = TextEditor("a\r\nb\rc\nd\u{0C}e\u{2028}f", multiline: true)
        #expect(Array(body.lines) == ["a", "b", "c", "d\u{0C}e\u{2028}f"])
        #expect(body.text == "a\nb\nc\nd\u{0C}e\u{2028}f")
        #expect(Array(TextEditor("", multiline: true).lines) == [""])
        #expect(Array(TextEditor("x\n", multiline: true).lines) == ["x", ""])
        let subject = TextEditor("one\ntwo")
        #expect(Array(subject.lines) == ["one\ntwo"] && subject.text == "one\ntwo")
    }

    /// Editing across line breaks: Backspace and Delete join lines, C-k at
    /// a line's end joins the next, words are found across lines, and a
    /// paste of several lines leaves the cursor after it.
    @Test func editingAcrossLines() {
        var editor = TextEditor("first line\nsecond", multiline: true)
        editor.moveCursor(to: 11)  // "|second"
        #expect(editor.cursor == TextEditor.Position(line: 1, offset: 0))
        type(&editor, [.backspace])
        #expect(editor.text == "first linesecond" && editor.cursorIndex == 10)
        type(&editor, [.enter, .up, .control("e"), .control("k")])
        #expect(editor.text == "first linesecond" && editor.lines.count == 1)
        type(&editor, [.control("a"), .alt("f"), .alt("f")])
        #expect(editor.cursorIndex == 16)
        editor.moveCursor(to: 5)
        editor.insert("\n가나\r\n다 ")
        #expect(Array(editor.lines) == ["first", "가나", "다  linesecond"])
        #expect(editor.cursor == TextEditor.Position(line: 2, offset: 2))
        type(&editor, [.alt("b"), .alt("b")])
        #expect(editor.cursor == TextEditor.Position(line: 1, offset: 0), "M-b crosses the line break")
        type(&editor, [.control("w")])
        #expect(Array(editor.lines) == ["가나", "다  linesecond"], "C-w removes the word before and the line break")
        type(&editor, [.control("e"), .delete])
        #expect(Array(editor.lines) == ["가나다  linesecond"])
        type(&editor, [.control("e"), .delete, .right])
        #expect(editor.text == "가나다  linesecond" && editor.cursorIndex == editor.text.count)
    }

    /// An accent typed after its letter joins it: one grapheme, one step.
    @Test func aTypedAccentJoinsItsLetter() {
        var editor = TextEditor("", multiline: true)
        type(&editor, [.character("e"), .character("\u{301}")])
        #expect(editor.text == "e\u{301}" && editor.cursor.offset == 1)
        type(&editor, [.backspace])
        #expect(editor.isEmpty)
    }

    /// Only what changes the text counts as an edit.
    @Test func editsCountChangesNotMoves() {
        var editor = TextEditor("ab\ncd", multiline: true)
        let start = editor.edits
        type(&editor, [.left, .up, .home, .end, .alt("b"), .control("a"), .backspace, .control("u")])
        #expect(editor.edits == start)
        type(&editor, [.character("x")])
        #expect(editor.edits == start + 1)
        var subject = TextEditor("a")
        subject.insert("\r\n")
        subject.insert("")
        #expect(subject.edits == 0 && subject.text == "a", "nothing inserted is no edit")
    }
}

struct TextEditorInsertionTests {
    /// The cursor after an insertion is the count of the line up to the
    /// insertion plus the text, counted after joining (an accent joins
    /// the letter before it, an emoji joins a sequence, a flag's second
    /// half its first), over many random insertions.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func theCursorFollowsTheTextCountedAfterJoining(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        let pieces = ["a", " ", "가", "\u{301}", "e", "👩", "\u{200D}", "💻", "🇰", "🇷", "\u{1100}", "\u{1161}", "é", "ab", "\t"]
        var editor = TextEditor("first 줄\nsecond line", multiline: true)
        for _ in 0..<300 {
            if Int.random(in: 0..<5, using: &numbers) == 0 {
                editor.handle([InputEvent.left, .right, .up, .down, .home, .end].randomElement(using: &numbers)!)
                continue
            }
            let piece = pieces.randomElement(using: &numbers)!
            let line = editor.lines[editor.cursor.line]
            let expected = (String(line.prefix(editor.cursor.offset)) + piece).count
            editor.insert(piece)
            #expect(editor.cursor.offset == expected, "after \(piece.unicodeScalars.map { String($0.value, radix: 16) }) in \(line)")
            #expect(editor.cursor.offset <= editor.lines[editor.cursor.line].count)
        }
    }

    /// A line's cells, measured by scalars where each is a grapheme of its
    /// own, are its graphemes' places and widths measured one by one, over
    /// random lines of simple scalars with now and then one that is not.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func cellsMeasuredByScalarsAreTheGraphemesMeasuredOneByOne(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        let simple = ["a", " ", "가", "é", "—", "─", "→", "ÿ", "ŉ"], other = ["\u{301}", "👩", "\u{1100}", "\t", "漢", "\u{FE0F}"]
        for _ in 0..<300 {
            let pieces = (0..<Int.random(in: 0..<20, using: &numbers)).map { _ in
                Int.random(in: 0..<15, using: &numbers) == 0 ? other.randomElement(using: &numbers)! : simple.randomElement(using: &numbers)!
            }
            let line = pieces.joined(), allSimple = pieces.allSatisfy(simple.contains)
            let cells = TextEditor.cells(of: line)
            #expect(cells.count == line.count, "\(line.debugDescription)")
            for (index, character) in line.enumerated() where index < cells.count {
                #expect(cells.width(index) == TextEditor.cellWidth(character) && cells.isSpace(index) == (character == " ")
                        && cells.text(index..<(index + 1), of: line) == String(character), "\(line.debugDescription) at \(index)")
            }
            let columns = line.reduce(0) { $0 + TextEditor.cellWidth($1) }
            let simpleColumns = TextEditor.simpleColumns(line, before: line.count)
            #expect(allSimple ? simpleColumns.map { $0.total == columns && $0.before == columns } == true : simpleColumns == nil,
                    "\(line.debugDescription)")
        }
    }

    /// The place of a grapheme found by counting scalars (where each
    /// scalar so far is a grapheme of its own) is the place found by
    /// counting graphemes, at every offset of random lines: accents,
    /// jamo, emoji sequences, flags and variation selectors among
    /// letters and syllables.
    @Test(arguments: [21, 22, 23] as [UInt64])
    func aPlaceCountedInScalarsIsThePlaceCountedInGraphemes(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        let pieces = ["a", " ", "가", "\u{301}", "e", "👩", "\u{200D}", "💻", "🇰", "🇷", "\u{1100}", "\u{1161}", "\u{11A8}",
                      "é", "‼", "\u{FE0F}", "—", "\t", "\u{2028}"]
        let editor = TextEditor()
        for _ in 0..<300 {
            let line = (0..<Int.random(in: 0..<12, using: &numbers)).map { _ in pieces.randomElement(using: &numbers)! }.joined()
            for offset in 0...(line.count + 1) {
                let expected = line.index(line.startIndex, offsetBy: offset, limitedBy: line.endIndex) ?? line.endIndex
                let found = editor.stringIndex(offset, in: line)
                #expect(line.utf8.distance(from: line.startIndex, to: found) == line.utf8.distance(from: line.startIndex, to: expected),
                        "grapheme \(offset) of \(line.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
    }
}
