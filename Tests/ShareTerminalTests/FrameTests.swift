import Testing
@testable import ShareTerminal

/// The frame rules the picker relies on (see ``expectWellFormed``).
struct FrameTests {
    @Test func wideCharactersTakeTwoCellsAndAreNeverCut() {
        var frame = Frame(width: 6, height: 1)
        let end = frame.put("한글a", x: 0, y: 0)
        #expect(end == 5)
        #expect(frame[0, 0].text == "한" && frame[1, 0].text.isEmpty && frame[2, 0].text == "글" && frame[3, 0].text.isEmpty)
        #expect(frame.lines == ["한글a"])

        var narrow = Frame(width: 3, height: 1)
        narrow.put("한글", x: 0, y: 0)
        #expect(narrow.lines == ["한"], "글 would straddle the edge: dropped whole")
        expectWellFormed(narrow)
    }

    @Test func controlCharactersAreShownAsSymbols() {
        var frame = Frame(width: 20, height: 1)
        frame.put("\u{1B}[31mred\u{7}", x: 0, y: 0)
        #expect(frame.lines == ["␛[31mred␇"])
        expectWellFormed(frame)
    }

    /// Writing over one half of a wide character must not leave the other
    /// half behind: the whole character goes (a terminal would blank it too).
    @Test func writingOverHalfAWideCharacterRemovesAllOfIt() {
        var right = Frame(width: 6, height: 1)
        right.put("사진", x: 0, y: 0)
        right.put("│", x: 1, y: 0)
        expectWellFormed(right)
        #expect(right.lines == [" │진"])

        var left = Frame(width: 6, height: 1)
        left.put("사진", x: 0, y: 0)
        left.put("│", x: 2, y: 0)
        expectWellFormed(left)
        #expect(left.lines == ["사│"])

        var filled = Frame(width: 6, height: 1)
        filled.put("사진", x: 0, y: 0)
        filled.fill(x: 1, y: 0, width: 2, height: 1, style: .plain)
        expectWellFormed(filled)
        #expect(filled.lines == [""], "both characters lost a half, so both go")

        // A run of simple scalars over the halves of two wide characters.
        var run = Frame(width: 6, height: 1)
        run.put("사진", x: 0, y: 0)
        run.put("ab", x: 1, y: 0)
        expectWellFormed(run)
        #expect(run.lines == [" ab"])
        var hangul = Frame(width: 6, height: 1)
        hangul.put("사진", x: 0, y: 0)
        hangul.put("a가", x: 1, y: 0)
        expectWellFormed(hangul)
        #expect(hangul.lines == [" a가"])

        // From left of the edge: the wide character across it is not drawn,
        // and what the run writes first still takes a cut half with it.
        var offEdge = Frame(width: 6, height: 1)
        offEdge.put("사진", x: 0, y: 0)
        offEdge.put("가b", x: -1, y: 0)
        expectWellFormed(offEdge)
        #expect(offEdge.lines == [" b진"])
        var nothing = Frame(width: 6, height: 1)
        nothing.put("사진", x: 0, y: 0)
        nothing.put("가", x: -1, y: 0)
        expectWellFormed(nothing)
        #expect(nothing.lines == ["사진"], "nothing written, nothing changed")
    }

    /// The columns of a row that changed (what the terminal backend redraws
    /// over the row as it was) are all that differ: every cell outside them
    /// is the same in both frames, the first and the last of them differ,
    /// and they hold whole wide characters. Over random edits of rows of
    /// narrow, wide and several-scalar characters in two styles.
    @Test(arguments: [31, 32, 33] as [UInt64])
    func theChangedColumnsOfARowAreAllThatDiffer(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        let pieces = ["a", " ", "가", "é", "e\u{301}", "👩‍💻", "│", "xy", "  "]
        let styles = [CellStyle.plain, CellStyle(bold: true)]
        func edited(_ frame: Frame) -> Frame {
            var frame = frame
            for _ in 0..<Int.random(in: 0...3, using: &numbers) {
                frame.put(pieces.randomElement(using: &numbers)!, x: Int.random(in: -1..<12, using: &numbers), y: 0,
                          style: styles.randomElement(using: &numbers)!)
            }
            return frame
        }
        var changes = 0
        for _ in 0..<500 {
            let old = edited(edited(Frame(width: 12, height: 1)))
            let new = edited(old)
            // Cells differ in their style or their scalars: "é" and "e" with an accent are other cells.
            let differing = (0..<12).filter {
                new[$0, 0].style != old[$0, 0].style || !new[$0, 0].text.unicodeScalars.elementsEqual(old[$0, 0].text.unicodeScalars)
            }
            guard let columns = new.changedColumns(0, from: old) else {
                #expect(differing.isEmpty, "\(old.lines) → \(new.lines): no change reported")
                continue
            }
            changes += 1
            #expect(!differing.isEmpty, "\(old.lines) → \(new.lines): a change reported where none is")
            #expect(differing.allSatisfy(columns.contains), "\(old.lines) → \(new.lines): \(differing) outside \(columns)")
            #expect(new[columns.lowerBound, 0].text != "", "\(new.lines): starts inside a wide character")
            #expect(columns.upperBound == 12 || new[columns.upperBound, 0].text != "", "\(new.lines): ends inside a wide character")
            // Only widened to take in a whole wide character.
            #expect(columns.lowerBound == differing.first! || columns.lowerBound == differing.first! - 1)
            #expect(columns.upperBound == differing.last! + 1 || columns.upperBound == differing.last! + 2)
        }
        #expect(changes > 200, "the edits changed rows")
    }
}
