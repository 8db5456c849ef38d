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

/// The titles drawn under the tiles on screen, in order, each read from
/// its own slot of the layout, trimmed; checks that the last column of each
/// tile (the gap before the next) stays blank, so no title spills into its
/// neighbour. Returns each title with the columns its tile gives it.
private func titles(in frame: Frame, of state: PickerState, sourceLocation: SourceLocation = #_sourceLocation) -> [(shown: String, room: Int)] {
    let layout = PickerLayout(state)
    return layout.slots.map { slot in
        let y = layout.contentTop + slot.y - state.scroll + 3
        let gap = slot.x + slot.width - 1
        if gap < frame.width {
            #expect(frame[gap, y].text == " ", "the title of tile \(slot.index) runs into the gap: \(frame.lines[y])",
                    sourceLocation: sourceLocation)
        }
        let text = frame.text(x: slot.x, y: y, count: slot.width - 1)
        return (String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()), slot.width - 1)
    }
}

/// Checks that `shown` is `title` as a tile must show it: whole when it fits
/// `room` columns, else a prefix of it plus "…", never wider than `room`.
private func expectFits(_ shown: String, title: String, room: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    let safe = TerminalText.sanitized(title)
    #expect(DisplayWidth.of(shown) <= room, "“\(shown)” is \(DisplayWidth.of(shown)) columns", sourceLocation: sourceLocation)
    if DisplayWidth.of(safe) <= room {
        #expect(shown == safe, "“\(title)” fits and is shown whole", sourceLocation: sourceLocation)
    } else {
        #expect(shown.hasSuffix("…"), "“\(shown)” is cut and ends in …", sourceLocation: sourceLocation)
        #expect(safe.hasPrefix(String(shown.dropLast())), "“\(shown)” is a prefix of “\(title)”", sourceLocation: sourceLocation)
        // It uses the room it has, unless the cut fell on spaces, which are dropped ("Assign to…").
        let rest = safe.dropFirst(shown.count - 1)
        #expect(DisplayWidth.of(shown) >= room - 1 || rest.first?.isWhitespace == true,
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

    /// Eight actions in 80 columns: six show, and the row slides sideways
    /// to the rest instead of wrapping onto a second line.
    @Test func aFullRowSlidesSideways80x24() throws {
        var state = realisticState(width: 80, height: 24)
        let start = PickerView.view(state)
        #expect(!start.shows("‹") && start.shows("›"), "more actions to the right")
        #expect(start.shows("Nearby") && !start.shows("Translate"))
        send(.tab, to: &state)
        for _ in 0..<7 { send(.right, to: &state) }
        #expect(state.selection == ActivityType(rawValue: "com.example.translate"))
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-grid-slid-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("‹") && !frame.shows("›"), "more actions to the left, none to the right")
        #expect(frame.shows("Translate") && !frame.shows("Nearby"))
        #expect(frame.locate("Actions")?.y == start.locate("Actions")?.y, "the row slid; the screen did not scroll")
        // Left to the first action slides it back.
        for _ in 0..<7 { send(.left, to: &state) }
        let back = PickerView.view(state)
        #expect(back.shows("Nearby") && !back.shows("‹"))
        // A click on a slid row picks the tile drawn there.
        send(.end, to: &state)
        let at = try #require(PickerView.view(state).locate("Translate"))
        #expect(send(.click(x: at.x, y: at.y), to: &state) == [.pick(ActivityType(rawValue: "com.example.translate"))])
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
        // Three rows need 17 lines; 80×16 has 10 for tiles.
        var state = PickerState(header: Fixture.header, tiles: Fixture.tiles(share: 8, action: 8) + PeopleRowTests.people,
                                width: 80, height: 16)
        send(.wheelDown, to: &state)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-scrolled-80x16")
        expectWellFormed(frame)
        #expect(frame.shows("▲") && frame.shows("▼"))
    }

    // MARK: - Titles

    @Test func everyTitleFitsItsTile() {
        let state = PickerState(header: Fixture.header, tiles: wideTiles, width: 100, height: 30)
        let frame = PickerView.view(state)
        let shown = titles(in: frame, of: state)
        #expect(shown.count == wideTiles.count)
        for ((text, room), tile) in zip(shown, wideTiles) { expectFits(text, title: tile.title, room: room) }
        // Five share tiles, each as wide as its title needs (22 at most) and
        // the room left shared; four actions 20 each: what fits is whole.
        #expect(shown.map(\.shown) == ["연락처에 지정하기 정말…", "사진 앱에 저장", "Share 👨‍👩‍👧 family", "I ❤️ it", "Cafe\u{301} au lait",
                                        "메일 보내기", "日本語のタイトル", "🇰🇷 Korea", "Add to Reading List"])
    }

    /// The demo's four actions at 80 columns: 19 columns each would cut
    /// "Add to Reading List"; as wide as each title needs, all are whole.
    @Test func aRowWithRoomForEveryTitleGivesEachItsOwnWidth() {
        let actions = [("Nearby", ActivityType.airDrop), ("Add to Reading List", .addToReadingList), ("Copy", .copyToPasteboard),
                       ("Save to Pictures", .saveToCameraRoll)].map { PickerTile(type: $1, title: $0, icon: ["◆"], category: .action) }
        let state = PickerState(header: Fixture.header, tiles: actions, width: 80, height: 24)
        let frame = PickerView.view(state)
        let shown = titles(in: frame, of: state)
        #expect(shown.map(\.shown) == ["Nearby", "Add to Reading List", "Copy", "Save to Pictures"], "\(frame.lines.joined(separator: "\n"))")
        let slots = PickerLayout(state).slots
        #expect(slots.last.map { $0.x + $0.width } ?? 99 <= 79, "the row stays inside the screen")
        #expect(Set(slots.map(\.width)).count > 1, "each tile its own width")
    }

    @Test func realisticTitlesFitTheirTiles() {
        var state = realisticState(width: 80, height: 24)
        var seen: [String: String] = [:]
        // Every action, as the row slides to show it.
        for _ in 0..<2 {
            let frame = PickerView.view(state)
            let layout = PickerLayout(state)
            for ((text, room), slot) in zip(titles(in: frame, of: state), layout.slots) {
                let tile = state.visibleTiles[slot.index]
                expectFits(text, title: tile.title, room: room)
                seen[tile.title] = text
            }
            send(.tab, .end, to: &state)
        }
        #expect(seen.count == Fixture.realistic.count, "every tile was on screen once: \(seen)")
        // A row with room shows its titles whole; a full one gets 12 of 78 columns each.
        #expect(seen["Mustachify"] == "Mustachify" && seen["Add to Reading List"] == "Add to Read…")
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
        #expect(KeyMap.picker.keyList().map(\.keys) == ["← → h l", "↑ ↓ k j", "Tab S-Tab", "Enter", "1 – 9", "/", "p", "o",
                                                             "mouse", "Esc q Ctrl-C"])
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
