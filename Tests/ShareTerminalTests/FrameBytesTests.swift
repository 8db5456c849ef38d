import CNcursesw
import Testing
@testable import ShareTerminal

/// The first frame written directly: exactly the cells the frame holds, in
/// their looks, ending with the default look and the cursor home (where
/// ncurses is told the cursor is). Sequences are readable tokens here.
struct FrameBytesTests {
    private func tokens(colors: Int = 8, movesInStyle: Bool = true) -> TerminalSequences {
        TerminalSequences(
            clear: Array("<clear>".utf8), reset: Array("<reset>".utf8), bold: Array("<bold>".utf8),
            reverse: Array("<rev>".utf8), dim: Array("<dim>".utf8), underline: Array("<ul>".utf8),
            colors: colors, movesInStyle: movesInStyle,
            moveTo: { row, column in Array("<\(row),\(column)>".utf8) },
            foreground: { Array("<fg\($0)>".utf8) }, background: { Array("<bg\($0)>".utf8) })
    }

    private func written(_ frame: Frame, _ sequences: TerminalSequences) -> String {
        String(decoding: FrameBytes.write(frame, with: sequences), as: UTF8.self)
    }

    @Test func writesEachRunWhereItIsInItsLook() {
        var frame = Frame(width: 12, height: 3)
        frame.put("ab", x: 0, y: 0)
        frame.put("Mail", x: 7, y: 0, style: CellStyle(bold: true))
        frame.putLine("╭", "─", "╮", x: 2, y: 1, width: 4, style: CellStyle(dim: true))
        #expect(written(frame, tokens()) == "<clear>ab<0,7><bold>Mail<1,2><reset><dim>╭──╮<reset><0,0>")
    }

    @Test func shortGapsAreWrittenAndLongOnesJumped() {
        var frame = Frame(width: 20, height: 2)
        frame.put("Add to  List", x: 0, y: 0)
        frame.put("x", x: 18, y: 0)
        #expect(written(frame, tokens()) == "<clear>Add to  List<0,18>x<0,0>")
    }

    @Test func coloursAreLeftOutWhereTheTerminalHasNone() {
        var frame = Frame(width: 10, height: 2)
        frame.put("Share", x: 1, y: 0, style: CellStyle(foreground: .blue, bold: true))
        #expect(written(frame, tokens()) == "<clear> <bold><fg4>Share<reset><0,0>")
        #expect(written(frame, tokens(colors: 0)) == "<clear> <bold>Share<reset><0,0>")
        // A palette index the terminal does not have: no colour, as the backend draws it.
        var bright = Frame(width: 10, height: 2)
        bright.put("x", x: 0, y: 0, style: CellStyle(foreground: TerminalColor(index: 200)))
        #expect(written(bright, tokens(colors: 8)) == "<clear>x<0,0>")
    }

    @Test func theLookIsResetBeforeMovingWhereTheTerminalCannotMoveInIt() {
        var frame = Frame(width: 10, height: 2)
        frame.put("a", x: 0, y: 0, style: CellStyle(reverse: true))
        frame.put("b", x: 5, y: 0, style: CellStyle(reverse: true))
        #expect(written(frame, tokens(movesInStyle: true)) == "<clear><rev>a<0,5>b<reset><0,0>")
        #expect(written(frame, tokens(movesInStyle: false)) == "<clear><rev>a<reset><0,5><rev>b<reset><0,0>")
    }

    /// After a grapheme whose width is the terminal's to decide (an emoji, a
    /// combining sequence), the next cell is reached by an explicit move.
    @Test func theCursorIsPlacedAgainAfterACharacterOfUncertainWidth() {
        var frame = Frame(width: 10, height: 2)
        frame.put("e\u{301}x", x: 0, y: 0)
        frame.put("한", x: 4, y: 0)
        frame.put("y", x: 6, y: 0)
        #expect(written(frame, tokens()) == "<clear>e\u{301}<0,1>x  한y<0,0>")
    }

    /// vt100's entry pads its strings (`clear=\E[H\E[J$<50>`): the delay is
    /// not sent as text.
    @Test func paddingIsTakenOutOfCapabilities() {
        func stripped(_ text: String) -> String {
            String(decoding: TerminalSequences.withoutPadding(Array(text.utf8)), as: UTF8.self)
        }
        #expect(stripped("\u{1B}[H\u{1B}[J$<50>") == "\u{1B}[H\u{1B}[J")
        #expect(stripped("\u{1B}[1m$<2>x$<5.5*/>") == "\u{1B}[1mx")
        #expect(stripped("\u{1B}[1;1H") == "\u{1B}[1;1H")
        #expect(stripped("$<>$<a>$") == "$<>$<a>$", "not padding: kept")
    }

    @Test func onlyFramesWithoutACursorAndWithABlankLastCellAreWritten() {
        var frame = Frame(width: 4, height: 2)
        frame.put("ab", x: 0, y: 1)
        #expect(FrameBytes.canWrite(frame))
        frame.cursor = (x: 1, y: 1)
        #expect(!FrameBytes.canWrite(frame), "a visible cursor is ncurses' to place")
        var corner = Frame(width: 4, height: 2)
        corner.put("d", x: 3, y: 1)
        #expect(!FrameBytes.canWrite(corner), "writing the last cell scrolls some terminals")
        #expect(!FrameBytes.canWrite(Frame(width: 0, height: 0)))
    }

    /// The ANSI cursor address written without terminfo's interpreter is the
    /// one the interpreter makes of the same string.
    @Test func theANSIMoveIsWhatTiparmMakesOfIt() {
        let template = String(decoding: TerminalSequences.ansiCursorAddress, as: UTF8.self)
        for (row, column) in [(0, 0), (0, 9), (8, 9), (9, 10), (29, 99), (99, 999), (1234, 5)] {
            let interpreted = template.withCString { nc_parameter2($0, Int32(row), Int32(column)).map { String(cString: $0) } }
            #expect(String(decoding: TerminalSequences.ansiMove(row: row, column: column), as: UTF8.self) == interpreted,
                    "row \(row), column \(column)")
        }
        #expect(String(decoding: TerminalSequences.ansiMove(row: 29, column: 99), as: UTF8.self) == "\u{1B}[30;100H")
    }
}
