import ShareCore
import Testing
@testable import ShareTerminal

/// The people row: above the Share row, people most shared with, each
/// opening its activity with the person filled in.
struct PeopleRowTests {
    static let people = [
        PickerTile(type: .mail, title: "박지성", icon: ["박"], category: .share, person: "박지성 <park@example.com>"),
        PickerTile(type: .mail, title: "lee@example.com", icon: ["L"], category: .share, person: "lee@example.com"),
    ]

    static func state(width: Int = 100, height: Int = 30) -> PickerState {
        PickerState(header: Fixture.header, tiles: Fixture.tiles() + people, width: width, height: height)
    }

    @Test func peopleComeFirstOnScreenButEnterAndDigitsStillPickActivities() {
        var state = Self.state()
        #expect(state.tiles.prefix(2).map(\.person) == ["박지성 <park@example.com>", "lee@example.com"])
        #expect(send(.enter, to: &state) == [.pick(Fixture.type(0))], "Enter at start picks the first activity")
        #expect(send(.character("1"), to: &state) == [.pick(Fixture.type(0))], "digits count activities only")
        // Clearing a filter selects the first activity again, not a person.
        #expect(send(.character("/"), .escape, to: &state) == [])
        #expect(send(.enter, to: &state) == [.pick(Fixture.type(0))])
    }

    @Test func upFromTheShareRowReachesPeopleAndEnterPicksThePerson() {
        var state = Self.state()
        #expect(send(.up, to: &state) == [])
        #expect(state.selectedPerson == "박지성 <park@example.com>")
        #expect(send(.right, to: &state) == [])
        #expect(state.selectedPerson == "lee@example.com")
        #expect(send(.enter, to: &state) == [.pickPerson(.mail, "lee@example.com")])
        #expect(send(.character("p"), to: &state) == [], "a person is not pinned")
        #expect(send(.down, to: &state) == [])
        #expect(state.selectedPerson == nil && state.selection != nil)
    }

    @Test func tabGoesRoundPeopleShareAndActions() {
        var state = Self.state()
        send(.tab, to: &state)
        #expect(state.selection == Fixture.type(4) && state.selectedPerson == nil, "Share → Actions")
        send(.tab, to: &state)
        #expect(state.selectedPerson == "박지성 <park@example.com>", "Actions → People")
        send(.tab, to: &state)
        #expect(state.selection == Fixture.type(0) && state.selectedPerson == nil, "People → Share")
        send(.backTab, to: &state)
        #expect(state.selectedPerson == "박지성 <park@example.com>", "and back")
    }

    @Test func theRowIsDrawnAboveShareWithNamesCutByDisplayWidth() {
        var state = Self.state()
        send(.up, to: &state)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-people-100x30")
        let lines = frame.lines
        let people = lines.firstIndex { $0.hasPrefix(" People") }, share = lines.firstIndex { $0.hasPrefix(" Share") }
        #expect(people != nil && share != nil && people! < share!, "\(lines.joined(separator: "\n"))")
        #expect(lines.contains { $0.contains("박지성") && $0.contains("lee@example.com") }, "a row with room shows names whole")
    }

    /// Nine people at 80×24: the row stays one line and slides, so the
    /// Actions row is still on screen below it.
    @Test func manyPeopleAt80x24LeaveTheActionsOnScreen() throws {
        let names = ["김민수", "이영희", "박지성", "Pamela Anderson", "lee@example.com", "최유리", "정하늘", "Ann", "Bob"]
        let people = names.map { name in
            PickerTile(type: .mail, title: name, icon: [String(name.prefix(1))], category: .share, person: name)
        }
        var state = PickerState(header: PickerHeader.describing(Fixture.items), tiles: Fixture.realistic + people,
                                width: 80, height: 24)
        let frame = PickerView.view(state)
        assertSnapshot(frame, named: "picker-people-80x24")
        expectWellFormed(frame)
        let lines = frame.lines
        let heads = ["People", "Share", "Actions"].map { head in lines.firstIndex { $0.hasPrefix(" " + head) } }
        #expect(heads.allSatisfy { $0 != nil } && heads == heads.sorted { ($0 ?? 0) < ($1 ?? 0) }, "\(lines.joined(separator: "\n"))")
        let actions = try #require(heads[2])
        #expect(actions + 4 < 23, "the Actions row's titles are above the help bar")
        #expect(lines[actions + 4].contains("Nearby") && frame.shows("›"))
        #expect(!frame.shows("▼"), "nothing is below the screen")
        // The last person is reached by sliding the row.
        send(.up, to: &state)
        for _ in 0..<8 { send(.right, to: &state) }
        #expect(state.selectedPerson == "Bob")
        #expect(PickerView.view(state).shows("Bob") && !PickerView.view(state).shows("김민수"))
    }
}
