import ShareCore

/// Where everything goes on screen, computed from the state alone; shared
/// by `view` (to draw) and `update` (to move between lines, hit-test clicks).
public struct PickerLayout: Sendable, Equatable {
    /// A tile's place, in content coordinates (before scrolling).
    public struct Slot: Sendable, Equatable {
        public var index: Int
        public var x: Int
        public var y: Int
    }

    /// A section heading ("Share", "Actions"), in content coordinates.
    public struct Heading: Sendable, Equatable {
        public var title: String
        public var y: Int
    }

    public static let tileWidth = 12
    public static let tileHeight = 4

    /// Lines taken by the preview header.
    public let headerHeight: Int
    /// The first screen line of the tile area, and its height.
    public let contentTop: Int
    public let contentHeight: Int
    /// Lines of content in all.
    public let contentLength: Int
    /// One per visible tile, in order.
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
        let perLine = list ? 1 : max(1, (state.width - 2) / PickerLayout.tileWidth)
        var slots: [Slot] = []
        var headings: [Heading] = []
        var y = 0
        let tiles = state.visibleTiles
        for row in PickerRow.allCases {
            let members = tiles.indices.filter { tiles[$0].row == row }
            guard !members.isEmpty else { continue }
            if !headings.isEmpty && !list { y += 1 }
            headings.append(Heading(title: row.title, y: y))
            y += 1
            for (position, index) in members.enumerated() {
                let column = position % perLine
                if position > 0 && column == 0 { y += tileLines + (list ? 0 : 1) }
                slots.append(Slot(index: index, x: list ? 1 : 1 + column * PickerLayout.tileWidth, y: y))
            }
            y += tileLines
        }
        self.slots = slots.sorted { $0.index < $1.index }
        self.headings = headings
        contentLength = y
    }

    /// The slot of visible tile `index`.
    public func slot(_ index: Int) -> Slot? { slots.first { $0.index == index } }

    /// The visible tile under a screen cell, given the scroll.
    public func tile(atX x: Int, y: Int, scroll: Int) -> Int? {
        let contentY = y - contentTop + scroll
        guard y >= contentTop && y < contentTop + contentHeight else { return nil }
        return slots.first { slot in
            // A list row is the whole line; a tile is its 12 columns.
            contentY >= slot.y && contentY < slot.y + tileLines
                && (tileLines == 1 || (x >= slot.x && x < slot.x + PickerLayout.tileWidth))
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
