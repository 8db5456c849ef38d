import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

/// Tiles whose titles need measuring: Hangul and kanji (2 columns each), a
/// combining accent (0), emoji presentation and a ZWJ family (2 each).
private let wideTiles: [PickerTile] = [
    PickerTile(type: .assignToContact, title: "연락처에 지정하기 정말 긴 제목", icon: ["☺"], category: .share),
    PickerTile(type: .saveToCameraRoll, title: "사진 앱에 저장", icon: ["▣"], category: .share),
    PickerTile(type: ActivityType(rawValue: "com.example.family"), title: "Share 👨‍👩‍👧 family", icon: ["👨‍👩‍👧"], category: .share),
    PickerTile(type: ActivityType(rawValue: "com.example.love"), title: "I ❤️ it", icon: ["❤️"], category: .share),
    PickerTile(type: ActivityType(rawValue: "com.example.cafe"), title: "Cafe\u{301} au lait", icon: ["☕"], category: .share),
    PickerTile(type: .mail, title: "메일 보내기", icon: ["✉"], category: .action),
    PickerTile(type: ActivityType(rawValue: "com.example.japanese"), title: "日本語のタイトル", icon: ["日本"], category: .action),
    PickerTile(type: ActivityType(rawValue: "com.example.korea"), title: "🇰🇷 Korea", icon: ["🇰🇷"], category: .action),
    PickerTile(type: .addToReadingList, title: "Add to Reading List", icon: ["👓"], category: .action),
]

private func realisticState(width: Int, height: Int, colors: Bool = true) -> PickerState {
    PickerState(header: PickerHeader.describing(Fixture.items), tiles: Fixture.realistic, width: width, height: height,
                colors: colors)
}

/// The titles drawn on one line of a grid, one per 12-column tile from
/// column 1, trimmed; checks that the 12th column of each tile (the gap
/// before the next) stays blank, so no title spills into its neighbour.
private func titles(in frame: Frame, line y: Int, count: Int, sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    (0..<count).map { column in
        let x = 1 + column * PickerLayout.tileWidth
        let gap = x + PickerLayout.tileWidth - 1
        if gap < frame.width {
            #expect(frame[gap, y].text == " ", "the title in tile \(column) of line \(y) runs into the gap: \(frame.lines[y])",
                    sourceLocation: sourceLocation)
        }
        let text = frame.text(x: x, y: y, count: PickerLayout.tileWidth - 1)
        return String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

/// Checks that `shown` is `title` as a tile must show it: whole when it fits
/// 11 columns, else a prefix of it plus "…", never wider than 11 columns.
private func expectFits(_ shown: String, title: String, sourceLocation: SourceLocation = #_sourceLocation) {
    let safe = TerminalText.sanitized(title)
    #expect(DisplayWidth.of(shown) <= 11, "“\(shown)” is \(DisplayWidth.of(shown)) columns", sourceLocation: sourceLocation)
    if DisplayWidth.of(safe) <= 11 {
        #expect(shown == safe, "“\(title)” fits and is shown whole", sourceLocation: sourceLocation)
    } else {
        #expect(shown.hasSuffix("…"), "“\(shown)” is cut and ends in …", sourceLocation: sourceLocation)
        #expect(safe.hasPrefix(String(shown.dropLast())), "“\(shown)” is a prefix of “\(title)”", sourceLocation: sourceLocation)
        // It uses the room it has, unless the cut fell on spaces, which are dropped ("Assign to…").
        let rest = safe.dropFirst(shown.count - 1)
        #expect(DisplayWidth.of(shown) >= 10 || rest.first?.isWhitespace == true,
                "“\(shown)” uses the room it has", sourceLocation: sourceLocation)
    }
}

struct PickerViewTests {
    // MARK: - Snapshots

    @Test func gridWithHeader100x30() {
        let frame = PickerView.view(realisticState(width: 100, height: 30))
        assertSnapshot(frame, named: "picker-grid-100x30")
        expectWellFormed(frame)
    }

    @Test func gridThatWraps80x24() {
        var state = realisticState(width: 80, height: 24)
        send(.tab, .down, .right, to: &state)
        #expect(state.selection == ActivityType(rawValue: "com.example.translate"))
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-grid-wrapped-80x24")
        expectWellFormed(frame)
    }

    @Test func listMode40x12() {
        let frame = PickerView.view(realisticState(width: 40, height: 12))
        assertSnapshot(frame, named: "picker-list-40x12")
        expectWellFormed(frame)
    }

    @Test func wideAndEmojiTitles100x30() {
        let state = PickerState(header: PickerHeader(title: "사진 3장", subtitle: "image/jpeg · 4.2 MB", icon: "▣"),
                                tiles: wideTiles, width: 100, height: 30)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-wide-titles-100x30")
        expectWellFormed(frame)
    }

    @Test func filterPromptWithCursor() {
        var state = realisticState(width: 80, height: 24)
        send(.character("/"), to: &state)
        _ = typing("re", into: &state)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-filter-80x24")
        expectWellFormed(frame)
        #expect(frame.lines[23] == "/re")
        #expect(frame.cursor?.x == 3 && frame.cursor?.y == 23)
    }

    @Test func helpOverlay() {
        var state = realisticState(width: 100, height: 30)
        send(.character("?"), to: &state)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-help-100x30")
        expectWellFormed(frame)
        for (keys, meaning) in state.keys.keyList() {
            #expect(frame.shows(keys) && frame.shows(meaning), "\(keys): \(meaning)")
        }
    }

    @Test func monochromeStillShowsTheSelection() throws {
        var state = realisticState(width: 80, height: 24, colors: false)
        send(.tab, .right, .right, .right, to: &state)
        #expect(state.selectedTitle == "Copy")
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-monochrome-80x24")
        expectWellFormed(frame)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                #expect(frame[x, y].style.foreground == nil && frame[x, y].style.background == nil, "colour at (\(x), \(y))")
            }
        }
        let copy = try #require(frame.locate("Copy"))
        #expect((0..<4).allSatisfy { frame[copy.x + $0, copy.y].style.reverse }, "the selected title is in reverse video")
        #expect(frame.styleMap[copy.y].contains("R"))
        let print = try #require(frame.locate("Print"))
        #expect(!frame[print.x, print.y].style.reverse, "an unselected title is not")
    }

    @Test func scrolledGridShowsBothHints() {
        var state = PickerState(header: Fixture.header, tiles: Fixture.numbered(30), width: 80, height: 20)
        send(.wheelDown, to: &state)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-scrolled-80x20")
        expectWellFormed(frame)
        #expect(frame.shows("▲") && frame.shows("▼"))
    }

    // MARK: - Titles

    @Test func everyTitleFitsItsTile() {
        let state = PickerState(header: Fixture.header, tiles: wideTiles, width: 100, height: 30)
        let frame = PickerView.view(state)
        // 100×30: titles on line 9 (share row) and line 15 (action row).
        let shown = titles(in: frame, line: 9, count: 5) + titles(in: frame, line: 15, count: 4)
        for (text, tile) in zip(shown, wideTiles) { expectFits(text, title: tile.title) }
        #expect(shown == ["연락처에…", "사진 앱에…", "Share 👨‍👩‍👧 f…", "I ❤️ it", "Cafe\u{301} au la…",
                          "메일 보내기", "日本語のタ…", "🇰🇷 Korea", "Add to Rea…"])
    }

    @Test func realisticTitlesFitTheirTiles() {
        let frame = PickerView.view(realisticState(width: 80, height: 24))
        // 80×24: share titles on line 9, actions on lines 15 and 20 (6 a line).
        let shown = titles(in: frame, line: 9, count: 4) + titles(in: frame, line: 15, count: 6) + titles(in: frame, line: 20, count: 2)
        for (text, tile) in zip(shown, Fixture.realistic) { expectFits(text, title: tile.title) }
        #expect(shown.count == Fixture.realistic.count)
    }

    @Test func titlesAreCentredUnderTheIconBox() throws {
        let frame = PickerView.view(Fixture.state())
        for title in ["Echo", "Golf", "Hotel", "India"] {
            let at = try #require(frame.locate(title))
            let box = try #require(frame.occurrences(of: "╭────╮").filter { $0.y == at.y - 3 }.min { abs($0.x - at.x) < abs($1.x - at.x) })
            // An even-width title sits exactly under the box's 4 inner columns' middle.
            let left = at.x - box.x
            let right = (box.x + 6) - (at.x + DisplayWidth.of(title))
            #expect(abs(left - right) <= 1, "\(title): \(left) columns left of it, \(right) right, under the box")
        }
    }

    // MARK: - Safety

    @Test(arguments: [(100, 30), (40, 12)])
    func controlCharactersNeverReachTheTerminal(width: Int, height: Int) {
        let hostile = "\u{1B}[31mred\u{7}\u{9B}2J"
        let tiles = [PickerTile(type: .mail, title: hostile, icon: ["\u{1B}]0;x\u{7}"], category: .share)] + Fixture.tiles()
        var state = PickerState(header: PickerHeader(title: "Title \u{1B}[2J", subtitle: "\u{1B}]0;pwned\u{7}", icon: "\u{1B}"),
                                tiles: tiles, width: width, height: height)
        let plain = PickerView.view(state)
        #expect(plain.shows("␛[31mred"), "the ESC is shown as a symbol")
        send(.character("?"), to: &state)
        let withHelp = PickerView.view(state)
        for frame in [plain, withHelp] {
            expectWellFormed(frame)
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    #expect(!frame[x, y].text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B || $0.value == 0x07 })
                }
            }
        }
    }

    /// In list mode the row is measured before its control characters are
    /// made visible, so a long title with controls must still end in "…".
    @Test func aLongListTitleWithControlCharactersIsCutWithAnEllipsis() throws {
        let title = String(repeating: "\u{7}", count: 6) + "abcdefghijklmnopqrstuvwxyz0123"
        let tiles = [PickerTile(type: .mail, title: title, icon: ["✉"], category: .share)]
        let frame = PickerView.view(PickerState(header: Fixture.header, tiles: tiles, width: 40, height: 12))
        let at = try #require(frame.locate("␇␇␇␇␇␇abc"))
        let line = frame.lines[at.y]
        #expect(line.hasSuffix("…"), "the cut title ends in …: “\(line)”")
        expectWellFormed(frame)
    }

    /// In list mode a title long enough to be cut must show its "…", even on
    /// the line where the ▼ scroll hint is drawn.
    @Test func theScrollHintDoesNotHideTheEndOfAListRow() throws {
        // 40×12: rows 2…10 show Share, Alpha…Delta, Actions, Echo, Foxtrot and this tile; ▼ on row 10.
        let long = "연락처에 지정하기 정말 정말 아주 긴 제목입니다"
        var tiles = Fixture.tiles()
        tiles[6].title = long
        let frame = PickerView.view(PickerState(header: Fixture.header, tiles: tiles, width: 40, height: 12))
        let at = try #require(frame.locate("연락처에"))
        // The row ends in its "…", and the ▼ hint (when on this line) comes after it.
        let row = frame.lines[at.y]
        let text = row.hasSuffix("▼") ? String(row.dropLast()).trimmingCharacters(in: .whitespaces) : row
        #expect(text.hasSuffix("…"), "“\(row)”")
        #expect(frame.shows("▼"))
        expectWellFormed(frame)
    }

    // MARK: - Help from the key map

    @Test func theDefaultHelpReadsAsBefore() {
        #expect(KeyMap.picker.helpBar() == "←↓↑→ move  Tab row  Enter pick  1-9 pick  / filter  p pin  ? keys  Esc cancel")
        #expect(KeyMap.picker.shortHelpBar() == "←↓↑→ Tab ⏎ 1-9 / p ? Esc")
        #expect(KeyMap.picker.keyList().map(\.keys) == ["← → h l", "↑ ↓ k j", "Tab S-Tab", "Enter", "1 – 9", "/", "p", "mouse",
                                                             "Esc q Ctrl-C"])
    }

    @Test func reboundKeysShowInTheBarAndTheOldOnesDoNot() {
        var state = realisticState(width: 100, height: 30)
        var form = KeyMap.form
        KeyActions.apply(["pick": [.character(" "), .control("p")], "cancel": [.alt("q"), .escape], "filter": [.character("f")]],
                         picker: &state.keys, form: &form)
        let bar = PickerView.view(state).lines[29]
        #expect(bar == "←↓↑→ move  Tab row  Space pick  1-9 pick  f filter  p pin  ? keys  M-q cancel", "“\(bar)”")
        #expect(!bar.contains("Enter") && !bar.contains("/") && !bar.contains("Esc"), "“\(bar)”")

        state.width = 60
        let short = PickerView.view(state).lines[29]
        #expect(short == "←↓↑→ Tab Space 1-9 f p ? M-q", "the narrow bar names the new keys too: “\(short)”")
        #expect(!short.contains("⏎") && !short.contains("/"), "“\(short)”")
    }

    @Test func reboundKeysShowInTheKeyHelpAndTheOldOnesDoNot() {
        var state = realisticState(width: 100, height: 30)
        var form = KeyMap.form
        KeyActions.apply(["pick": [.character(" "), .control("p")], "cancel": [.alt("q")], "filter": [.character("f")]],
                         picker: &state.keys, form: &form)
        send(.character("?"), to: &state)
        let frame = PickerView.view(state)
        expectWellFormed(frame)
        #expect(keyColumn(frame, "pick the selected activity") == "Space ^P")
        #expect(keyColumn(frame, "filter by title (Esc clears)") == "f")
        #expect(keyColumn(frame, "cancel") == "M-q Ctrl-C", "Ctrl-C always cancels, so it stays")
        #expect(keyColumn(frame, "previous / next activity") == "← → h l", "other keys are as they were")
        #expect(!frame.shows("Enter") && !frame.shows("Esc q"), "\(frame.lines.joined(separator: "\n"))")
    }

    @Test func keysOfOppositeMovesPairUpOrGroup() {
        var keys = KeyMap.picker
        keys.rebind(.left, to: [.control("b")])
        keys.rebind(.right, to: [.control("f"), .character("l")])
        #expect(keys.helpBar().hasPrefix("^B/↓/↑/^F move  "), "\(keys.helpBar())")
        #expect(keys.keyList().first?.keys == "^B / ^F l", "unequal counts: left's keys, then right's")
        keys.rebind(.up, to: [.character("w")])
        keys.rebind(.down, to: [.character("s")])
        #expect(keys.keyList()[1].keys == "w s")
        #expect(keys.shortHelpBar().hasPrefix("^B/s/w/^F Tab ⏎ "), "\(keys.shortHelpBar())")
    }

    @Test func aCommandLeftWithoutKeysLeavesTheHelp() {
        var keys = KeyMap.picker
        keys.rebind(.pick, to: [.character("/")])
        #expect(keys.helpBar() == "←↓↑→ move  Tab row  / pick  1-9 pick  p pin  ? keys  Esc cancel")
        #expect(!keys.keyList().contains { $0.meaning.hasPrefix("filter") })
    }

    // MARK: - Small terminals

    @Test func helpInListModeStillListsEveryKey() {
        var state = Fixture.state(width: 40, height: 12)
        send(.character("?"), to: &state)
        let frame = PickerView.view(state)
        expectWellFormed(frame)
        for (keys, _) in state.keys.keyList() {
            #expect(frame.shows(keys), "“\(keys)” is in the key help at 40×12")
        }
    }

    @Test func theFilterCursorCountsWideCharacters() {
        var state = realisticState(width: 80, height: 24)
        send(.character("/"), to: &state)
        _ = typing("메일", into: &state)
        let frame = PickerView.view(state)
        #expect(frame.lines[23] == "/메일")
        #expect(frame.cursor?.x == 5 && frame.cursor?.y == 23, "/ is 1 column, 메일 is 4")
        #expect(frame.shows("No activity matches “메일”"))
    }

    /// The help box is drawn over the tiles; where its edge falls on half of
    /// a wide character, that character must not be left half drawn (at
    /// 80×24 the edge falls on the 사 of “사진 앱에 …”; at 59×16 on the 💬
    /// icon of the list).
    @Test(arguments: [(100, 30), (80, 24), (61, 16), (60, 16), (59, 16), (40, 12)])
    func theHelpOverlayNeverLeavesHalfAWideCharacter(width: Int, height: Int) {
        for tiles in [Fixture.realistic, wideTiles] {
            var state = PickerState(header: Fixture.header, tiles: tiles, width: width, height: height)
            send(.character("?"), to: &state)
            expectWellFormed(PickerView.view(state))
        }
    }

    /// In list mode the titles start in one column whatever the icon's width
    /// (✉ is 1 column, 💬 2), as in any list.
    @Test func listTitlesLineUp() throws {
        let frame = PickerView.view(realisticState(width: 40, height: 12))
        var columns: [String: Int] = [:]
        for title in ["Mail", "Message", "Twitter", "Mustachify", "Nearby", "Add to Reading List", "Assign to Contact"] {
            columns[title] = try #require(frame.locate(title)).x
        }
        #expect(Set(columns.values).count == 1, "title columns: \(columns)")
    }

    /// No line wider than the frame, no half-drawn wide character, no control
    /// character, from 100×30 down to 1×1 (the help box has its own test above).
    @Test func framesAreWellFormedAtEverySize() {
        for (width, height) in [(100, 30), (80, 24), (61, 16), (60, 16), (59, 16), (40, 12), (20, 5), (10, 3), (1, 1)] {
            for tiles in [Fixture.realistic, wideTiles] {
                var state = PickerState(header: PickerHeader.describing(Fixture.items), tiles: tiles, width: width, height: height)
                expectWellFormed(PickerView.view(state))
                // The last tile selected, scrolled into view; and a filter showing.
                for _ in tiles { send(.right, to: &state) }
                expectWellFormed(PickerView.view(state))
                send(.character("/"), .character("a"), to: &state)
                expectWellFormed(PickerView.view(state))
            }
        }
    }
}

/// The key help's key column on the line that says `meaning`.
private func keyColumn(_ frame: Frame, _ meaning: String) -> String? {
    guard let line = frame.lines.first(where: { $0.contains("  " + meaning + " ") }),
          let end = line.range(of: "  " + meaning + " "),
          let start = line[..<end.lowerBound].range(of: "│ ", options: .backwards) else { return nil }
    return line[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
}
