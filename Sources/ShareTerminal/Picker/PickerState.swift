import ShareCore
import ShareSupport

/// One tile: an eligible activity as the picker shows it.
public struct PickerTile: Sendable, Equatable {
    /// The activity's type, reported when the tile is picked.
    public var type: ActivityType
    /// The title under the icon.
    public var title: String
    /// The icon: one glyph, or up to three short lines of text art.
    public var icon: [String]
    /// The row the tile belongs to.
    public var category: ActivityCategory
    /// An image icon drawn as terminal symbols (up to 10×3 cells), when colours allow.
    public var iconCells: [[Cell]]?
    /// For a tile of the people row: who (`Kim Minsu <kim@example.com>`),
    /// shared with through `type`.
    public var person: String?
    /// The title in English when `title` is in another language: the
    /// filter (`/`) finds the tile by either.
    public var englishTitle: String?

    /// Creates a tile.
    public init(type: ActivityType, title: String, icon: [String], category: ActivityCategory, iconCells: [[Cell]]? = nil,
                person: String? = nil, englishTitle: String? = nil) {
        self.type = type
        self.title = title
        self.englishTitle = englishTitle == title ? nil : englishTitle
        self.icon = icon
        self.category = category
        self.iconCells = iconCells
        self.person = person
    }

    /// The row the tile is drawn in.
    public var row: PickerRow { person != nil ? .people : category == .share ? .share : .action }
}

/// The picker's rows, top to bottom.
public enum PickerRow: Sendable, Equatable, CaseIterable {
    case people, share, action

    /// The row's heading.
    public var title: String {
        switch self {
        case .people: Localization.text("People")
        case .share: Localization.text("Share")
        case .action: Localization.text("Actions")
        }
    }
}

/// The preview header: what is being shared.
public struct PickerHeader: Sendable, Equatable {
    /// The main line (the title, or the first item's name).
    public var title: String
    /// The second line (what and how much).
    public var subtitle: String
    /// A glyph for the kind of item, shown when there is no thumbnail.
    public var icon: String
    /// A small picture of the first image, as styled cells, when colours allow.
    public var thumbnail: [[Cell]]?

    /// Creates a header.
    public init(title: String, subtitle: String, icon: String, thumbnail: [[Cell]]? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.icon = icon
        self.thumbnail = thumbnail
    }
}

/// Everything the picker shows, as a value: `update` changes it, `view` draws it.
public struct PickerState: Sendable, Equatable {
    /// What is being shared.
    public var header: PickerHeader
    /// The eligible activities, in display order.
    public var tiles: [PickerTile]
    /// The selected tile's type.
    public var selection: ActivityType?
    /// The selected person, when the selection is in the people row.
    public var selectedPerson: String?
    /// The filter text while filtering (`/`), else `nil`.
    public var filter: String?
    /// Whether the key help is open.
    public var showingHelp = false
    /// A line shown in place of the help bar until the next key (`Pinned Mail`).
    public var notice: String?
    /// Lines scrolled off the top of the tile area.
    public var scroll = 0
    /// Per row of the grid, the tiles slid off its left edge.
    public var rowOffsets: [PickerRow: Int] = [:]
    /// The terminal size.
    public var width: Int
    public var height: Int
    /// Whether colours may be used (`NO_COLOR`, `--no-color`, monochrome terminals turn this off).
    public var colors: Bool
    /// The keys: what `update` does with a key, and what the help bar and the key help name.
    public var keys: KeyMap<PickerAction>
    /// The Options line and its chooser, when pictures are shared; `nil` otherwise.
    public var options: PickerOptions?

    /// Creates the picker's first state: the first tile is selected, so Enter picks it.
    public init(header: PickerHeader, tiles: [PickerTile], width: Int, height: Int, colors: Bool = true, keys: KeyMap<PickerAction> = .picker) {
        self.header = header
        // Screen order: the people row, the share row, the action row, each
        // keeping its own order (pinned tiles first), so keys follow what is drawn.
        self.tiles = PickerRow.allCases.flatMap { row in tiles.filter { $0.row == row } }
        self.width = width
        self.height = height
        self.colors = colors
        self.keys = keys
        // Enter at start picks the first activity, not a person.
        selection = self.tiles.first { $0.person == nil }?.type ?? self.tiles.first?.type
        selectedPerson = self.tiles.first { $0.person == nil } == nil ? self.tiles.first?.person : nil
    }

    /// The tiles that pass the filter, in order.
    public var visibleTiles: [PickerTile] {
        guard let filter, !filter.isEmpty else { return tiles }
        let needle = filter.lowercased()
        return tiles.filter { tile in ([tile.title] + (tile.englishTitle.map { [$0] } ?? [])).contains { $0.lowercased().contains(needle) } }
    }

    /// The index of the selection among the visible tiles.
    public var selectedIndex: Int? {
        visibleTiles.firstIndex { $0.type == selection && $0.person == selectedPerson }
    }

    /// Whether the terminal is too small for tiles and the picker shows a list.
    public var isListMode: Bool { width < 60 || height < 16 }
}
