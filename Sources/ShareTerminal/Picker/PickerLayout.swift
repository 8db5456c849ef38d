import ShareCore
import ShareSupport

/// Where everything goes on screen, computed from the state alone; shared
/// by `view` (to draw) and `update` (to move between lines, hit-test clicks).
///
/// In the grid each row is one line of tiles, as on the phone: a row with
/// more tiles than fit slides sideways to keep the selection in view, so
/// the three rows fit 80×24 whatever their lengths. A row with room widens
/// its tiles up to its longest title.
public struct PickerLayout: Sendable, Equatable {
    /// A tile's place, in content coordinates (before scrolling).
    public struct Slot: Sendable, Equatable {
        public var index: Int
        public var x: Int
        public var y: Int
        /// Columns the tile takes, the gap after it included.
        public var width: Int
    }

    /// A section heading ("Share", "Actions"), in content coordinates.
    public struct Heading: Sendable, Equatable {
        public var title: String
        public var y: Int
        /// Whether the row has tiles off screen to the left, and to the right.
        public var moreBefore = false
        public var moreAfter = false
    }

    /// The narrowest a tile gets, and the widest a long title makes it.
    public static let tileWidth = 12
    public static let widestTile = 22
    public static let tileHeight = 4

    /// Lines taken by the preview header.
    public let headerHeight: Int
    /// The first screen line of the tile area, and its height.
    public let contentTop: Int
    public let contentHeight: Int
    /// Lines of content in all.
    public let contentLength: Int
    /// One per tile on screen, in order; a tile slid off its row has none.
    public let slots: [Slot]
    public let headings: [Heading]
    /// Lines a tile takes: 1 in list mode, 4 in the grid.
    public let tileLines: Int

    /// Lays out `state`.
    public init(_ state: PickerState) {
        let list = state.isListMode
        headerHeight = list ? min(2, max(0, state.height - 3)) : 4
        contentTop = headerHeight + (list ? 0 : 1)
        contentHeight = max(0, state.height - contentTop - 1)
        tileLines = list ? 1 : PickerLayout.tileHeight
        var slots: [Slot] = []
        var headings: [Heading] = []
        var y = 0
        let tiles = state.visibleTiles
        for row in PickerRow.allCases {
            let members = tiles.indices.filter { tiles[$0].row == row }
            guard !members.isEmpty else { continue }
            if !headings.isEmpty && !list { y += 1 }
            var heading = Heading(title: row.title, y: y)
            y += 1
            if list {
                for index in members {
                    slots.append(Slot(index: index, x: 1, y: y, width: state.width - 1))
                    y += 1
                }
            } else {
                let fit = PickerLayout.fit(members.map { tiles[$0] }, width: state.width)
                let first = PickerLayout.clampOffset(state.rowOffsets[row] ?? 0, count: members.count, shown: fit.shown)
                var x = 1
                for (column, index) in members.dropFirst(first).prefix(fit.shown).enumerated() {
                    let width = fit.widths[fit.widths.count == 1 ? 0 : column]
                    slots.append(Slot(index: index, x: x, y: y, width: width))
                    x += width
                }
                heading.moreBefore = first > 0
                heading.moreAfter = first + fit.shown < members.count
                y += tileLines
            }
            headings.append(heading)
        }
        self.slots = slots.sorted { $0.index < $1.index }
        self.headings = headings
        contentLength = y
    }

    /// How many of a row's `tiles` show at once in `width` columns, and how
    /// wide each is: at least ``tileWidth``, wider while the row has room
    /// and a title needs it. All alike when that shows every title whole
    /// (or when the row slides); else each as its title needs, the room
    /// left shared among them. One width stands for every tile.
    static func fit(_ tiles: [PickerTile], width: Int) -> (shown: Int, widths: [Int]) {
        let room = max(tileWidth, width - 2)
        let most = room / tileWidth
        guard tiles.count <= most, !tiles.isEmpty else { return (most, [room / most]) }
        let needs = tiles.map { max(tileWidth, min(widestTile, DisplayWidth.of(TerminalText.sanitized($0.title)) + 1)) }
        let even = min(room / tiles.count, widestTile)
        let longest = needs.max() ?? tileWidth
        if longest <= even { return (tiles.count, [max(tileWidth, longest)]) }
        let total = needs.reduce(0, +)
        guard total <= room else { return (tiles.count, [max(tileWidth, even)]) }
        let share = (room - total) / tiles.count
        return (tiles.count, needs.map { $0 + share })
    }

    static func clampOffset(_ offset: Int, count: Int, shown: Int) -> Int {
        max(0, min(offset, count - shown))
    }

    /// The first tile a row shows after sliding just enough to show its
    /// tile at `position`, starting from `offset`.
    static func offset(showing position: Int, of row: [PickerTile], width: Int, from offset: Int) -> Int {
        let shown = fit(row, width: width).shown
        let slid = position < offset ? position : position >= offset + shown ? position - shown + 1 : offset
        return clampOffset(slid, count: row.count, shown: shown)
    }

    /// The slot of visible tile `index`, when it is on screen.
    public func slot(_ index: Int) -> Slot? { slots.first { $0.index == index } }

    /// The visible tile under a screen cell, given the scroll.
    public func tile(atX x: Int, y: Int, scroll: Int) -> Int? {
        let contentY = y - contentTop + scroll
        guard y >= contentTop && y < contentTop + contentHeight else { return nil }
        return slots.first { slot in
            // A list row is the whole line; a tile is its columns.
            contentY >= slot.y && contentY < slot.y + tileLines
                && (tileLines == 1 || (x >= slot.x && x < slot.x + slot.width))
        }?.index
    }

    /// The scroll that keeps `index` visible, starting from `scroll`.
    public func scroll(showing index: Int, from scroll: Int) -> Int {
        guard let slot = slot(index), contentHeight > 0 else { return scroll }
        // Show the section heading too when the tile is first in its section.
        let top = headings.contains { $0.y == slot.y - 1 } ? slot.y - 1 : slot.y
        if top < scroll { return max(0, top) }
        if slot.y + tileLines > scroll + contentHeight { return slot.y + tileLines - contentHeight }
        return clamp(scroll)
    }

    /// `scroll` kept within the content.
    public func clamp(_ scroll: Int) -> Int {
        max(0, min(scroll, contentLength - contentHeight))
    }
}
