import Testing
@testable import ShareTerminal

/// What the terminal is sent for a frame: the first drawn whole after a
/// clear, the next ones only as the cells that changed.
struct FrameWriterTests {
    static let escape = "\u{1B}"

    static func frame(_ lines: [(Int, String, CellStyle)], width: Int = 10, height: Int = 3, cursor: (x: Int, y: Int)? = nil) -> Frame {
        var frame = Frame(width: width, height: height)
        for (y, text, style) in lines { _ = frame.put(text, x: 0, y: y, style: style) }
        frame.cursor = cursor
        return frame
    }

    static let beginUpdate = Array("\u{1B}[?2026h".utf8), endUpdate = Array("\u{1B}[?2026l".utf8)

    /// What the writer sends for `frame`, inside the update it begins (or
    /// one begun before) and ends: the update's start and end checked and
    /// taken off. Nothing sent has neither.
    static func sent(_ writer: inout FrameWriter, _ frame: Frame, width: Int = 10, height: Int = 3) -> String {
        let begun = writer.updating
        writer.write(frame, width: width, height: height)
        var output = writer.output[...]
        guard !output.isEmpty else { return "" }
        let begin = begun ? [] : beginUpdate
        // An update of its own holds something: nothing to show sends nothing.
        #expect(output.starts(with: begin) && output.reversed().starts(with: endUpdate.reversed())
                    && (begun || output.count > begin.count + endUpdate.count),
                "sent: \(String(decoding: output, as: UTF8.self).debugDescription)")
        output = output.dropFirst(begin.count).dropLast(endUpdate.count)
        return String(decoding: output, as: UTF8.self)
    }

    @Test func theFirstFrameClearsTheScreenAndSkipsBlanksAndTheSameFrameAgainSendsNothing() {
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        let frame = Self.frame([(0, "ab", .plain), (2, "  c d", .plain)])
        let e = Self.escape
        #expect(Self.sent(&writer, frame) == "\(e)[0m\(e)[H\(e)[2Jab\(e)[3;3Hc d\(e)[?25l")
        #expect(Self.sent(&writer, frame).isEmpty)
    }

    @Test func eachFrameIsOneSynchronizedUpdateAndNothingToShowSendsNothing() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        writer.write(Self.frame([(0, "ab", .plain)]), width: 10, height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(e)[?2026h\(e)[0m\(e)[H\(e)[2Jab\(e)[?25l\(e)[?2026l")
        writer.write(Self.frame([(0, "ab", .plain)]), width: 10, height: 3)
        #expect(writer.output.isEmpty)
    }

    @Test func anUpdateBegunWhenInputIsReadIsEndedByTheNextFrameOrByLeaving() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([(0, "ab", .plain)]))
        #expect(writer.beginUpdate() == Self.beginUpdate)
        // More input before the frame: its update has begun already.
        #expect(writer.beginUpdate().isEmpty)
        writer.write(Self.frame([(0, "ac", .plain)]), width: 10, height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(e)[1;2Hc\(e)[?2026l")
        // Input that changes nothing still ends the update it began.
        #expect(writer.beginUpdate() == Self.beginUpdate)
        writer.write(Self.frame([(0, "ac", .plain)]), width: 10, height: 3)
        #expect(writer.output == Self.endUpdate)
        // So does leaving the screen to an editor.
        #expect(writer.beginUpdate() == Self.beginUpdate)
        writer.leave(height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(e)[3;1H\(e)[?2026l")
        #expect(!writer.updating)
    }

    @Test func aScreenDrawnWholeAgainAfterInputIsStillInTheUpdateTheInputBegan() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([(0, "ab", .plain)]))
        #expect(writer.beginUpdate() == Self.beginUpdate)
        // A resize: what the terminal shows is forgotten, not the update it holds.
        writer.forget()
        writer.write(Self.frame([(0, "ab", .plain)]), width: 10, height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(e)[0m\(e)[H\(e)[2Jab\(e)[?25l\(e)[?2026l")
    }

    @Test func onlyAnECMA48TerminalIsSentSynchronizedUpdates() {
        let ecma48 = TerminalSequences.synchronizedUpdate(cup: "\u{1B}[%i%p1%d;%p2%dH")
        #expect(ecma48.begin == Self.beginUpdate && ecma48.end == Self.endUpdate)
        // A VT52's cursor position: ESC Y and the row and column as characters.
        let vt52 = TerminalSequences.synchronizedUpdate(cup: "\u{1B}Y%p1%' '%+%c%p2%' '%+%c")
        #expect(vt52.begin.isEmpty && vt52.end.isEmpty)
    }

    @Test func aTerminalWithoutSynchronizedUpdatesIsSentNone() {
        var sequences = TerminalSequences.ecma48(colors: 8)
        sequences.beginUpdate = []
        sequences.endUpdate = []
        var writer = FrameWriter(sequences: sequences)
        #expect(writer.beginUpdate().isEmpty)
        writer.write(Self.frame([(0, "ab", .plain)]), width: 10, height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(Self.escape)[0m\(Self.escape)[H\(Self.escape)[2Jab\(Self.escape)[?25l")
    }

    @Test func aChangedCellIsSentAloneAfterOneMove() {
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([(1, "hello", .plain)]))
        #expect(Self.sent(&writer, Self.frame([(1, "hallo", .plain)])) == "\(Self.escape)[2;2Ha")
        // Cells written in a row need no move between them; a cut line's old cells are blanked.
        #expect(Self.sent(&writer, Self.frame([(1, "hi", .plain)])) == "\(Self.escape)[2;2Hi   ")
    }

    @Test func stylesAreSentWhereTheyChangeAndColoursOutsideThePaletteAreLeftOut() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([]))
        // The cursor is home after the clear.
        #expect(Self.sent(&writer, Self.frame([(0, "ab", CellStyle(bold: true))])) == "\(e)[0;1mab")
        #expect(Self.sent(&writer, Self.frame([(0, "ab", .plain)])) == "\(e)[1;1H\(e)[0mab")
        #expect(Self.sent(&writer, Self.frame([(0, "x", CellStyle(foreground: .red, reverse: true))])) == "\(e)[1;1H\(e)[0;7;31mx\(e)[0m ")
        var monochrome = FrameWriter(sequences: .ecma48(colors: 0))
        _ = Self.sent(&monochrome, Self.frame([]))
        #expect(Self.sent(&monochrome, Self.frame([(0, "x", CellStyle(foreground: .red, reverse: true))])) == "\(e)[0;7mx")
    }

    @Test func theCursorIsMovedAndShownOnlyWhenItChanges() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([(0, "ab", .plain)]))
        #expect(Self.sent(&writer, Self.frame([(0, "ab", .plain)], cursor: (1, 2))) == "\(e)[3;2H\(e)[?12l\(e)[?25h")
        #expect(Self.sent(&writer, Self.frame([(0, "ab", .plain)], cursor: (2, 0))) == "\(e)[1;3H")
        // Typing at the cursor leaves the cursor after what was typed: no move.
        #expect(Self.sent(&writer, Self.frame([(0, "abc", .plain)], cursor: (3, 0))) == "c")
        #expect(Self.sent(&writer, Self.frame([(0, "abc", .plain)])) == "\(e)[?25l")
    }

    @Test func aWideCharacterMovesTheCursorTwoCellsAndAClusterIsPlacedAgain() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([]))
        // The cursor is home after the clear; 가 takes it two cells on.
        #expect(Self.sent(&writer, Self.frame([(0, "가x", .plain)])) == "가x")
        // A grapheme of several scalars is two cells in the frame, and a terminal may count it
        // otherwise: the cell after it is blanked first, and the cursor is placed again after it.
        let sent = Self.sent(&writer, Self.frame([(0, "가\u{302}y", .plain)]))
        #expect(sent == "\(e)[1;2H \(e)[1;1H가\u{302}\(e)[1;3Hy")
    }

    @Test func controlCharactersNeverReachTheTerminal() {
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([]))
        var frame = Self.frame([])
        _ = frame.put("a\u{1B}[2Jb\u{9B}c", x: 0, y: 0)
        let sent = Self.sent(&writer, frame)
        #expect(sent.contains("a\u{241B}") && !sent.contains("\u{1B}[2J") && !sent.unicodeScalars.contains { $0.value == 0x9B },
                "sent: \(sent.debugDescription)")
    }

    @Test func theLastCellIsLeftAloneWhereWritingItScrollsAndTheTerminalsOwnMoveIsUsed() {
        var sequences = TerminalSequences.ecma48(colors: 8)
        sequences.lastCellScrolls = true
        sequences.move = { y, x in Array("<\(y),\(x)>".utf8) }
        var writer = FrameWriter(sequences: sequences)
        _ = Self.sent(&writer, Self.frame([], width: 4, height: 2), width: 4, height: 2)
        #expect(Self.sent(&writer, Self.frame([(1, "abcd", .plain)], width: 4, height: 2), width: 4, height: 2) == "<1,0>abc")
        // On a larger screen the frame's last cell is not the screen's.
        var wide = FrameWriter(sequences: sequences)
        _ = Self.sent(&wide, Self.frame([], width: 4, height: 2), width: 5, height: 2)
        #expect(Self.sent(&wide, Self.frame([(1, "abcd", .plain)], width: 4, height: 2), width: 5, height: 2) == "<1,0>abcd")
    }

    @Test func aFrameOfAnotherSizeOrAfterLeavingIsDrawnWhole() {
        let e = Self.escape
        var writer = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&writer, Self.frame([(0, "ab", CellStyle(bold: true))]))
        writer.leave(height: 3)
        #expect(String(decoding: writer.output, as: UTF8.self) == "\(e)[0m\(e)[3;1H")
        #expect(Self.sent(&writer, Self.frame([(0, "ab", .plain)])) == "\(e)[0m\(e)[H\(e)[2Jab\(e)[?25l")
        #expect(Self.sent(&writer, Self.frame([(0, "ab", .plain)], width: 12), width: 12) == "\(e)[H\(e)[2Jab")
    }

    @Test func nothingIsWrittenPastTheEdgeNorIntoALastCellThatScrolls() {
        var sequences = TerminalSequences.ecma48(colors: 8)
        sequences.lastCellScrolls = true
        var writer = FrameWriter(sequences: sequences)
        _ = Self.sent(&writer, Self.frame([], width: 4, height: 2), width: 4, height: 2)
        // 가 would fill the last cell.
        #expect(Self.sent(&writer, Self.frame([(1, "ab가", .plain)], width: 4, height: 2), width: 4, height: 2) == "\(Self.escape)[2;1Hab")
        // A frame wider than the screen: 가 at the screen's last column would wrap to the next row.
        var narrow = FrameWriter(sequences: .ecma48(colors: 8))
        _ = Self.sent(&narrow, Self.frame([], width: 5, height: 2), width: 4, height: 2)
        #expect(Self.sent(&narrow, Self.frame([(0, "abc가", .plain)], width: 5, height: 2), width: 4, height: 2) == "abc")
    }

    @Test func stylesBeyondTheRememberedOnesAreStillSentRight() {
        var writer = FrameWriter(sequences: .ecma48(colors: 256))
        _ = Self.sent(&writer, Self.frame([]))
        for index in 0..<70 {
            let style = CellStyle(foreground: TerminalColor(index: index))
            #expect(Self.sent(&writer, Self.frame([(0, "x", style)])).hasSuffix(style.sgr + "x"))
        }
        #expect(Self.sent(&writer, Self.frame([(0, "y", CellStyle(foreground: TerminalColor(index: 0)))])) ==
                "\(Self.escape)[1;1H\(Self.escape)[0;30my")
    }

    @Test func terminfoDelaysAreNotSentAsText() {
        // vt100's cup and clear carry delays for old hardware.
        #expect(NcursesTerminal.withoutDelays("\u{1B}[%i%p1%d;%p2%dH$<5>") == Array("\u{1B}[%i%p1%d;%p2%dH".utf8))
        #expect(NcursesTerminal.withoutDelays("\u{1B}[H\u{1B}[J$<50>") == Array("\u{1B}[H\u{1B}[J".utf8))
        #expect(NcursesTerminal.withoutDelays("$<2*/>a$<1>b") == Array("ab".utf8))
        // A dollar that starts no delay is text.
        #expect(NcursesTerminal.withoutDelays("a$b$") == Array("a$b$".utf8))
    }
}
