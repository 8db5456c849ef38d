import ShareCore

/// What the picker asks the run loop to do.
public enum PickerEffect: Sendable, Equatable {
    /// Run this activity.
    case pick(ActivityType)
    /// End with `cancelled`.
    case cancel
    /// Pin this activity, or unpin it when pinned.
    case togglePin(ActivityType)
    /// Run this activity for this person (a tile of the people row).
    case pickPerson(ActivityType, String)
}

/// The picker's update: an event changes the state and may yield effects.
/// Pure: no terminal, no clock, no environment.
public enum PickerUpdate {
    /// Applies `event` to `state`, its keys looked up in `state.keys`.
    public static func update(_ state: inout PickerState, _ event: InputEvent) -> [PickerEffect] {
        if case .resize(let width, let height) = event {
            state.width = width
            state.height = height
            keepSelectionVisible(&state)
            return []
        }
        // A fixed key (Ctrl-C cancels) works whatever shows.
        if let action = state.keys.fixedAction(for: event) { return perform(action, event, on: &state) }
        if state.showingHelp {
            state.showingHelp = false
            return []
        }
        state.notice = nil
        if state.options?.isOpen == true {
            updateOptions(&state, event)
            return []
        }
        if case .click(let x, let y) = event {
            let layout = PickerLayout(state)
            guard let index = layout.tile(atX: x, y: y, scroll: state.scroll) else { return [] }
            return [pick(state.visibleTiles[index])]
        }
        if state.filter != nil, let effects = updateFilter(&state, event) { return effects }
        guard let action = state.keys.action(for: event) else { return [] }
        return perform(action, event, on: &state)
    }

    /// Keys while filtering: text edits the filter, and so do the keys of
    /// ``KeyMap/filter`` (Esc clears it); the rest falls through.
    private static func updateFilter(_ state: inout PickerState, _ event: InputEvent) -> [PickerEffect]? {
        if case .character(let character) = event {
            state.filter?.append(character)
        } else {
            switch KeyMap.filter.action(for: event) {
            case .deleteBackward:
                if state.filter?.isEmpty == true { state.filter = nil } else { state.filter?.removeLast() }
            case .close: state.filter = nil
            case .clear: state.filter = ""
            case nil: return nil
            }
        }
        reselect(&state)
        return []
    }

    /// Does `action`, which `event` asked for.
    private static func perform(_ action: PickerAction, _ event: InputEvent, on state: inout PickerState) -> [PickerEffect] {
        let tiles = state.visibleTiles
        switch action {
        case .cancel: return [.cancel]
        case .pickByPosition:
            guard case .character(let digit) = event, let number = digit.wholeNumberValue, (1...9).contains(number) else { break }
            // Digits count activities only, not people.
            let activities = tiles.filter { $0.person == nil }
            if number <= activities.count { return [.pick(activities[number - 1].type)] }
        case .scrollUp, .scrollDown:
            let layout = PickerLayout(state)
            state.scroll = layout.clamp(state.scroll + (action == .scrollUp ? -1 : 1) * (layout.tileLines + 1))
        case .help: state.showingHelp = true
        case .options: state.options?.isOpen = true
        case .pin:
            if let index = state.selectedIndex, tiles[index].person == nil { return [.togglePin(tiles[index].type)] }
        case .filter: state.filter = state.filter ?? ""
        case .pick:
            if let index = state.selectedIndex { return [pick(tiles[index])] }
        case .left, .right:
            guard let index = state.selectedIndex else { break }
            select(index + (action == .left ? -1 : 1), in: &state)
        case .first: select(0, in: &state)
        case .last: select(tiles.count - 1, in: &state)
        case .up, .down: moveVertically(down: action == .down, &state)
        case .nextRow, .previousRow:
            // The first tile of the next row that has tiles (or the previous), round.
            guard let index = state.selectedIndex else { break }
            var rows = PickerRow.allCases.filter { row in tiles.contains { $0.row == row } }
            if action == .previousRow { rows.reverse() }
            guard let here = rows.firstIndex(of: tiles[index].row) else { break }
            let next = rows[(here + 1) % rows.count]
            select(tiles.firstIndex { $0.row == next } ?? index, in: &state)
        }
        return []
    }

    /// Keys while the options' chooser is open: up and down move, Enter and
    /// Space choose, Esc, `o` and `q` close it (a click outside too).
    private static func updateOptions(_ state: inout PickerState, _ event: InputEvent) {
        guard var options = state.options else { return }
        let count = options.rows.count
        switch event {
        case .up, .character("k"): options.cursor = (options.cursor + count - 1) % count
        case .down, .character("j"), .tab: options.cursor = (options.cursor + 1) % count
        case .enter, .character(" "): options.chooseHighlighted()
        case .escape, .character("o"), .character("q"), .click: options.isOpen = false
        default: break
        }
        state.options = options
    }

    /// What picking `tile` does: run its activity, for its person if it has one.
    private static func pick(_ tile: PickerTile) -> PickerEffect {
        tile.person.map { .pickPerson(tile.type, $0) } ?? .pick(tile.type)
    }

    private static func select(_ index: Int, in state: inout PickerState) {
        let tiles = state.visibleTiles
        guard !tiles.isEmpty else { return }
        let tile = tiles[max(0, min(index, tiles.count - 1))]
        state.selection = tile.type
        state.selectedPerson = tile.person
        keepSelectionVisible(&state)
    }

    /// Up and down go to the nearest tile on the line above or below, across rows.
    private static func moveVertically(down: Bool, _ state: inout PickerState) {
        let layout = PickerLayout(state)
        guard let index = state.selectedIndex, let current = layout.slot(index) else { return }
        let lines = Set(layout.slots.map(\.y)).sorted()
        guard let line = lines.firstIndex(of: current.y) else { return }
        let target = line + (down ? 1 : -1)
        guard lines.indices.contains(target) else { return }
        let candidates = layout.slots.filter { $0.y == lines[target] }
        if let best = candidates.min(by: { abs($0.x - current.x) < abs($1.x - current.x) }) {
            select(best.index, in: &state)
        }
    }

    /// After the filter changed: the first match is selected, so Enter picks it.
    private static func reselect(_ state: inout PickerState) {
        // The first activity, as at start; a person only when no activity matches.
        let first = state.visibleTiles.first { $0.person == nil } ?? state.visibleTiles.first
        state.selection = first?.type
        state.selectedPerson = first?.person
        state.scroll = 0
        state.rowOffsets = [:]
        keepSelectionVisible(&state)
    }

    private static func keepSelectionVisible(_ state: inout PickerState) {
        // First the selection's row slides sideways, then the tile area scrolls.
        let tiles = state.visibleTiles
        if let index = state.selectedIndex, !state.isListMode {
            let row = tiles[index].row
            let members = tiles.filter { $0.row == row }
            let position = tiles[..<index].filter { $0.row == row }.count
            state.rowOffsets[row] = PickerLayout.offset(showing: position, of: members, width: state.width,
                                                        from: state.rowOffsets[row] ?? 0)
        }
        let layout = PickerLayout(state)
        if let index = state.selectedIndex {
            state.scroll = layout.scroll(showing: index, from: state.scroll)
        } else {
            state.scroll = layout.clamp(state.scroll)
        }
    }
}
