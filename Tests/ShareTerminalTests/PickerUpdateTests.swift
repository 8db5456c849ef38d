import ShareCore
import Testing
@testable import ShareTerminal

// The fixture's tiles: Alpha…Delta in the share row, Echo…Juliet (…Lima) in
// the action row. Expected positions below are worked out by hand from the
// tile geometry (12 columns per tile from column 1, `(width - 2) / 12` per
// line), never with PickerLayout.
private let a = Fixture.type(0), b = Fixture.type(1), c = Fixture.type(2), d = Fixture.type(3)
private let e = Fixture.type(4), f = Fixture.type(5), g = Fixture.type(6), h = Fixture.type(7)
private let i = Fixture.type(8), j = Fixture.type(9), k = Fixture.type(10), l = Fixture.type(11)

private let sizes = [(100, 30), (80, 24)]

struct PickerUpdateTests {
    // MARK: - Start, Enter, digits

    @Test(arguments: [(100, 30), (80, 24), (40, 12)])
    func enterAtStartPicksTheFirstTile(width: Int, height: Int) {
        var state = Fixture.state(width: width, height: height)
        #expect(state.selection == a)
        #expect(send(.enter, to: &state) == [.pick(a)])
    }

    @Test func theStateKeysDecideWhatAKeyDoes() {
        var state = Fixture.state()
        state.keys.rebind(.pick, to: [.character(" ")])
        state.keys.rebind(.cancel, to: [.alt("q")])
        #expect(send(.enter, to: &state) == [], "Enter no longer picks")
        #expect(send(.character("q"), to: &state) == [], "q no longer cancels")
        #expect(send(.character(" "), to: &state) == [.pick(a)])
        #expect(send(.alt("q"), to: &state) == [.cancel])
        #expect(send(.control("c"), to: &state) == [.cancel], "Ctrl-C always cancels")
    }

    @Test func pAsksToPinTheSelectedTileAndANoticeLastsOneKey() {
        var state = Fixture.state()
        #expect(send(.right, to: &state) == [])
        #expect(send(.character("p"), to: &state) == [.togglePin(b)])
        state.notice = "Pinned Bravo"
        #expect(send(.right, to: &state) == [])
        #expect(state.notice == nil, "the next key clears the notice")
        // While filtering, p is typed text.
        #expect(send(.character("/"), to: &state) == [])
        #expect(send(.character("p"), to: &state) == [])
        #expect(state.filter == "p")
    }

    @Test func digitsPickTheNthVisibleTile() {
        for (digit, expected) in [("1", a), ("4", d), ("5", e), ("9", i)] {
            var state = Fixture.state()
            #expect(send(.character(Character(digit)), to: &state) == [.pick(expected)], "digit \(digit)")
        }
        var state = Fixture.state()
        #expect(send(.character("0"), to: &state) == [])
        #expect(state == Fixture.state())
    }

    @Test func aDigitBeyondTheTileCountDoesNothing() {
        var state = Fixture.state(share: 2, action: 1)
        let before = state
        #expect(send(.character("4"), to: &state) == [])
        #expect(send(.character("9"), to: &state) == [])
        #expect(state == before)
        #expect(send(.character("3"), to: &state) == [.pick(c)])
    }

    // MARK: - Moving

    @Test(arguments: sizes)
    func leftAndRightMoveAndClamp(width: Int, height: Int) {
        var state = Fixture.state(width: width, height: height)
        #expect(send(.left, to: &state) == [])
        #expect(state.selection == a, "left at the first tile stays")
        send(.right, to: &state)
        #expect(state.selection == b)
        send(.character("l"), to: &state)
        #expect(state.selection == c)
        send(.right, .right, to: &state)
        #expect(state.selection == e, "right from the last share tile goes on to the first action")
        send(.character("h"), to: &state)
        #expect(state.selection == d)
        for _ in 0..<12 { send(.right, to: &state) }
        #expect(state.selection == j, "right clamps at the last tile")
        for _ in 0..<12 { send(.character("h"), to: &state) }
        #expect(state.selection == a, "h clamps at the first tile")
    }

    @Test(arguments: sizes)
    func upAndDownGoToTheNearestTileOnTheNextLine(width: Int, height: Int) {
        // Share line: Alpha x1, Bravo x13, Charlie x25, Delta x37.
        // Action line: Echo x1, Foxtrot x13, Golf x25, Hotel x37, India x49, Juliet x61.
        var state = Fixture.state(width: width, height: height)
        send(.up, to: &state)
        #expect(state.selection == a, "up on the first line stays")
        send(.down, to: &state)
        #expect(state.selection == e)
        send(.down, to: &state)
        #expect(state.selection == e, "down on the last line stays")
        send(.character("k"), to: &state)
        #expect(state.selection == a)

        send(.right, to: &state)
        send(.character("j"), to: &state)
        #expect(state.selection == f)

        send(.up, .right, .right, to: &state)
        #expect(state.selection == d)
        send(.down, to: &state)
        #expect(state.selection == h)

        send(.right, .right, to: &state)
        #expect(state.selection == j)
        send(.up, to: &state)
        #expect(state.selection == d, "Juliet (x61) goes up to Delta (x37), the nearest tile on the share line")
        send(.right, .right, .right, .right, .right, .right, to: &state)
        send(.character("k"), to: &state)
        #expect(state.selection == d)
    }

    @Test func upAndDownBetweenSlidRows() {
        // 80 columns: share tiles 12 wide (Alpha…Delta at x1…x37); six of the eight actions, 13 wide.
        var state = Fixture.state(width: 80, height: 24, share: 4, action: 8)
        for _ in 0..<9 { send(.right, to: &state) }
        #expect(state.selection == j)
        send(.up, to: &state)
        #expect(state.selection == d, "Juliet (x66) goes up to Delta (x37)")
        send(.tab, .right, .right, .right, .right, .right, .right, .right, to: &state)
        #expect(state.selection == l)
        #expect(state.rowOffsets[.action] == 2, "the action row slid two tiles to show Lima")
        send(.up, to: &state)
        #expect(state.selection == d, "Lima (x66) goes up to Delta (x37)")
        send(.down, to: &state)
        #expect(state.selection == j, "Delta (x37) comes down to Juliet, drawn at x40 since the slide")
        send(.down, to: &state)
        #expect(state.selection == j, "nothing below the last row")
    }

    @Test(arguments: sizes)
    func tabAndBackTabSwitchRows(width: Int, height: Int) {
        var state = Fixture.state(width: width, height: height)
        send(.tab, to: &state)
        #expect(state.selection == e)
        send(.tab, to: &state)
        #expect(state.selection == a)
        send(.right, .right, .tab, to: &state)
        #expect(state.selection == e)
        send(.right, .right, .backTab, to: &state)
        #expect(state.selection == a)
        send(.backTab, to: &state)
        #expect(state.selection == e)
        #expect(send(.tab, to: &state) == [])
    }

    /// Pinned activities come before all others in the tile list (SPEC §2),
    /// so a tile list can mix the rows, e.g. SPEC §8's `pinned = mail,
    /// copyToPasteboard`; the picker still draws the share row first. The
    /// keys must follow what is on screen: the picker starts on the first
    /// tile of the first row (SPEC §7), 1–9 count tiles as drawn, and →
    /// goes to the tile drawn next.
    @Test(arguments: [
        [ActivityType.mail, .copyToPasteboard, .message, .postToTwitter, .airDrop, .print],  // pinned = mail, copyToPasteboard
        [ActivityType.copyToPasteboard, .mail, .message, .postToTwitter, .airDrop, .print],  // pinned = copyToPasteboard
    ])
    func keysFollowTheScreenOrderWhenPinsMixTheRows(order: [ActivityType]) throws {
        let all = Fixture.realistic
        let tiles = try order.map { type in try #require(all.first { $0.type == type }) }
        let start = PickerState(header: Fixture.header, tiles: tiles, width: 100, height: 30)
        let frame = PickerView.view(start)
        // The tiles in reading order on screen.
        var shown: [(type: ActivityType, x: Int, y: Int)] = []
        for tile in tiles {
            let at = try #require(frame.locate(tile.title))
            shown.append((tile.type, at.x, at.y))
        }
        let screenOrder = shown.sorted { ($0.y, $0.x) < ($1.y, $1.x) }.map(\.type)
        #expect(screenOrder == [.mail, .message, .postToTwitter, .copyToPasteboard, .airDrop, .print], "share row first")

        var state = start
        #expect(send(.enter, to: &state) == [.pick(screenOrder[0])], "Enter at start picks the first tile of the first row")
        for (offset, expected) in screenOrder.enumerated() {
            state = start
            let digit = Character(String(offset + 1))
            #expect(send(.character(digit), to: &state) == [.pick(expected)], "\(digit) picks tile \(offset + 1) on screen")
        }
        state = start
        state.selection = screenOrder[0]
        var visited = [state.selection]
        for _ in 1..<screenOrder.count {
            send(.right, to: &state)
            visited.append(state.selection)
        }
        #expect(visited == screenOrder, "→ walks the tiles in the order they are drawn")
    }

    // MARK: - Filter

    @Test func slashThenTypingFiltersTitlesCaseInsensitively() {
        var state = Fixture.state()
        #expect(send(.character("/"), to: &state) == [])
        #expect(state.filter == "")
        #expect(typing("OT", into: &state) == [])
        #expect(state.filter == "OT")
        #expect(state.visibleTiles.map(\.type) == [f, h], "Foxtrot and Hotel contain “ot”")
        #expect(state.selection == f, "the selection moves to the first match")
        #expect(typing("e", into: &state) == [])
        #expect(state.visibleTiles.map(\.type) == [h])
        #expect(state.selection == h)
        #expect(send(.backspace, to: &state) == [])
        #expect(state.filter == "OT")
        #expect(state.visibleTiles.map(\.type) == [f, h])
        #expect(state.selection.map { [f, h].contains($0) } == true)
    }

    @Test func escClearsTheFilterAndASecondEscCancels() {
        var state = Fixture.state()
        send(.character("/"), to: &state)
        _ = typing("ot", into: &state)
        #expect(send(.escape, to: &state) == [], "the first Esc only clears the filter")
        #expect(state.filter == nil)
        #expect(state.visibleTiles.count == 10)
        #expect(state.selectedIndex != nil, "a tile is still selected")
        #expect(send(.escape, to: &state) == [.cancel])
    }

    @Test func theFilterMatchesTitlesOnly() {
        // Every type is com.example.… but only Foxtrot has an “x” in its title.
        var state = Fixture.state()
        send(.character("/"), to: &state)
        _ = typing("x", into: &state)
        #expect(state.visibleTiles.map(\.title) == ["Foxtrot"])
        #expect(state.selection == f)
    }

    @Test func enterWhileFilteringPicksTheSelectedMatch() {
        var state = Fixture.state()
        send(.character("/"), to: &state)
        _ = typing("ote", into: &state)
        #expect(send(.enter, to: &state) == [.pick(h)])

        state = Fixture.state()
        send(.character("/"), to: &state)
        _ = typing("ot", into: &state)
        send(.right, to: &state)
        #expect(state.selection == h, "arrows still move among the matches")
        #expect(send(.enter, to: &state) == [.pick(h)])

        state = Fixture.state()
        send(.character("/"), to: &state)
        _ = typing("zzz", into: &state)
        #expect(state.visibleTiles.isEmpty)
        #expect(send(.enter, to: &state) == [], "Enter with no match picks nothing")
    }

    @Test func keysThatActOutsideTheFilterAreTextInsideIt() {
        var state = Fixture.state()
        send(.character("/"), to: &state)
        #expect(typing("qj1?", into: &state) == [])
        #expect(state.filter == "qj1?")
        #expect(state.showingHelp == false)
        #expect(send(.control("c"), to: &state) == [.cancel], "Ctrl-C cancels even while filtering")
    }

    // MARK: - Help and cancel

    @Test func helpOpensAndAnyKeyClosesItWithoutActing() {
        var state = Fixture.state()
        #expect(send(.character("?"), to: &state) == [])
        #expect(state.showingHelp)
        #expect(send(.character("q"), to: &state) == [], "q closes the help, it does not cancel")
        #expect(state.showingHelp == false)
        #expect(send(.character("q"), to: &state) == [.cancel])

        for key: InputEvent in [.enter, .escape, .character("3"), .character("/"), .right, .down, .tab] {
            var state = Fixture.state()
            send(.character("?"), to: &state)
            #expect(send(key, to: &state) == [], "\(key) closes the help without acting")
            #expect(state.showingHelp == false)
            #expect(state.filter == nil)
            #expect(state.selection == a)
        }
    }

    @Test func ctrlCCancelsEvenWithTheHelpOpen() {
        var state = Fixture.state()
        send(.character("?"), to: &state)
        #expect(send(.control("c"), to: &state) == [.cancel])
    }

    @Test(arguments: [InputEvent.escape, .character("q"), .control("c")])
    func cancelKeys(key: InputEvent) {
        var state = Fixture.state()
        #expect(send(key, to: &state) == [.cancel])
    }

    // MARK: - Mouse

    @Test func aClickInsideATilePicksIt() throws {
        let state = Fixture.state()
        let frame = PickerView.view(state)
        let title = try #require(frame.locate("Charlie"))
        var copy = state
        #expect(send(.click(x: title.x, y: title.y), to: &copy) == [.pick(c)], "a click on the title")
        copy = state
        #expect(send(.click(x: title.x + 6, y: title.y), to: &copy) == [.pick(c)], "a click on the title's last letter")

        // Golf's icon box: three lines above its title.
        let golf = try #require(frame.locate("Golf"))
        let box = try #require(frame.occurrences(of: "╭────╮").filter { $0.y == golf.y - 3 }
            .min { abs($0.x - golf.x) < abs($1.x - golf.x) })
        for (x, y) in [(box.x, box.y), (box.x + 5, box.y + 2), (box.x + 2, box.y + 1)] {
            copy = state
            #expect(send(.click(x: x, y: y), to: &copy) == [.pick(g)], "a click at (\(x), \(y)) on Golf's icon")
        }
    }

    @Test func aClickOutsideEveryTileDoesNothing() throws {
        let state = Fixture.state()
        let frame = PickerView.view(state)
        let actions = try #require(frame.locate("Actions"))
        let charlie = try #require(frame.locate("Charlie"))
        let delta = try #require(frame.locate("Delta"))
        let outside = [
            (5, 1),                          // the header
            (actions.x + 2, actions.y),      // the “Actions” heading
            (charlie.x, charlie.y + 1),      // the blank line between the rows
            (0, charlie.y),                  // the left margin
            (delta.x + 30, delta.y),         // right of the last share tile
            (98, charlie.y - 2),             // the right edge
            (10, frame.height - 1),          // the help bar
        ]
        for (x, y) in outside {
            var copy = state
            #expect(send(.click(x: x, y: y), to: &copy) == [], "a click at (\(x), \(y))")
            #expect(copy == state)
        }
    }

    @Test func aClickInListModePicksTheRow() throws {
        let state = Fixture.state(width: 40, height: 12)
        let frame = PickerView.view(state)
        let bravo = try #require(frame.locate("Bravo"))
        var copy = state
        #expect(send(.click(x: bravo.x + 2, y: bravo.y), to: &copy) == [.pick(b)])
        let actions = try #require(frame.locate("Actions"))
        copy = state
        #expect(send(.click(x: actions.x, y: actions.y), to: &copy) == [])
    }

    @Test func theWheelScrollsTallContentAndIsClamped() throws {
        // People, Share and Actions need 17 lines; 80×16 leaves 10 for them.
        var state = PickerState(header: Fixture.header, tiles: Fixture.tiles(share: 8, action: 8) + PeopleRowTests.people,
                                width: 80, height: 16)
        #expect(PickerView.view(state).shows("People") && !PickerView.view(state).shows("Kilo"))
        var scrolls = [state.scroll]
        for _ in 0..<10 {
            #expect(send(.wheelDown, to: &state) == [])
            scrolls.append(state.scroll)
        }
        #expect(scrolls[1] > 0, "one notch scrolls")
        #expect(scrolls == scrolls.sorted(), "down never scrolls back")
        let bottom = try #require(scrolls.last)
        #expect(scrolls.suffix(3).allSatisfy { $0 == bottom }, "the scroll stops at the end")
        let frame = PickerView.view(state)
        #expect(frame.shows("Kilo"), "the last row is shown at the end")
        #expect(!frame.shows("People"))
        #expect(frame.shows("▲"))
        #expect(!frame.shows("▼"), "nothing below at the end")

        // A click on a tile that scrolled into view picks that tile.
        let kilo = try #require(frame.locate("Kilo"))
        var copy = state
        #expect(send(.click(x: kilo.x, y: kilo.y), to: &copy) == [.pick(Fixture.type(10))])

        for _ in 0..<10 { send(.wheelUp, to: &state) }
        #expect(state.scroll == 0)
        #expect(PickerView.view(state).shows("People"))
    }

    @Test func theWheelDoesNothingWhenEverythingFits() {
        var state = Fixture.state()
        send(.wheelDown, .wheelDown, to: &state)
        #expect(state.scroll == 0)
        send(.wheelUp, to: &state)
        #expect(state.scroll == 0)
    }

    // MARK: - Resize and list mode

    @Test func resizeKeepsTheSelectionVisible() {
        var state = PickerState(header: Fixture.header, tiles: Fixture.numbered(30), width: 80, height: 30)
        for _ in 0..<29 { send(.right, to: &state) }
        #expect(state.selectedTitle == "Act 30")
        #expect(PickerView.view(state).shows("Act 30"))
        for (width, height) in [(80, 16), (61, 20), (40, 12), (59, 30), (100, 60), (80, 18)] {
            #expect(send(.resize(width: width, height: height), to: &state) == [])
            #expect(state.width == width && state.height == height)
            let frame = PickerView.view(state)
            #expect(frame.shows("Act 30"), "after resizing to \(width)×\(height)")
            expectWellFormed(frame)
        }
        send(.resize(width: 100, height: 60), to: &state)
        #expect(state.scroll == 0, "everything fits at 100×60")
        #expect(PickerView.view(state).shows("‹"), "the row slid to Act 30")
        send(.home, to: &state)
        #expect(PickerView.view(state).shows("Act 01") && !PickerView.view(state).shows("Act 30"))
    }

    @Test func listModeBelowSixtyColumnsOrSixteenLines() {
        #expect(!Fixture.state(width: 60, height: 16).isListMode)
        #expect(Fixture.state(width: 59, height: 16).isListMode)
        #expect(Fixture.state(width: 60, height: 15).isListMode)
        var state = Fixture.state()
        send(.resize(width: 40, height: 12), to: &state)
        #expect(state.isListMode)
        send(.resize(width: 100, height: 30), to: &state)
        #expect(!state.isListMode)
    }

    @Test func theSameKeysWorkInListMode() {
        var state = Fixture.state()
        send(.resize(width: 40, height: 12), to: &state)
        send(.character("j"), to: &state)
        #expect(state.selection == b)
        send(.character("k"), to: &state)
        #expect(state.selection == a)
        send(.down, .down, .down, .down, to: &state)
        #expect(state.selection == e, "down goes across the heading to the action row")
        send(.up, to: &state)
        #expect(state.selection == d)
        send(.right, to: &state)
        #expect(state.selection == e)
        send(.character("h"), to: &state)
        #expect(state.selection == d)
        send(.tab, to: &state)
        #expect(state.selection == e)
        send(.backTab, to: &state)
        #expect(state.selection == a)
        for _ in 0..<12 { send(.down, to: &state) }
        #expect(state.selection == j)
        #expect(PickerView.view(state).shows("Juliet"), "the selection scrolled into view")
        var copy = state
        #expect(send(.enter, to: &copy) == [.pick(j)])
        copy = state
        #expect(send(.character("3"), to: &copy) == [.pick(c)])
        copy = state
        send(.character("/"), to: &copy)
        _ = typing("ot", into: &copy)
        #expect(send(.enter, to: &copy) == [.pick(f)])
        copy = state
        #expect(send(.character("?"), .character("q"), to: &copy) == [])
        #expect(send(.character("q"), to: &copy) == [.cancel])
        copy = state
        #expect(send(.escape, to: &copy) == [.cancel])
    }
}
