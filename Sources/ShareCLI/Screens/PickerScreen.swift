import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareSupport
import ShareTerminal

/// Runs the picker on the terminal: the screen loop with the picker's
/// state, update and view, until a tile is picked or the picker is dismissed.
@MainActor
enum PickerSession {
    /// What was picked: an activity, the person when it was a tile of the
    /// people row, and the options before sharing as the Options line left them.
    struct Choice: Equatable {
        var type: ActivityType
        var person: String?
        var options: SharingOptions?
    }

    /// Shows `activities` (the eligible ones of `sheet`, in order), and
    /// those of `pending` that turn out available once asked, on threads of
    /// their own; returns the picked type, or `nil` when dismissed.
    /// `togglePin` pins or unpins a type (and orders the sheet anew),
    /// returning what to tell the person.
    static func run(sheet: ShareSheet, activities: [any Activity], pending: [any AvailabilityChecking] = [], items: [ShareItem],
                    title: String?, colors: Bool, keys: KeyMap<PickerAction> = .picker, options: PickerOptions? = nil,
                    people: (@Sendable () -> [SharedPerson])? = nil, togglePin: ((ActivityType) -> String)? = nil) throws(TerminalError) -> Choice? {
        let terminal = try NcursesTerminal(wantColors: colors)
        defer { terminal.end() }
        return run(on: terminal, sheet: sheet, activities: activities, pending: pending, items: items, title: title, keys: keys,
                   options: options, people: people, togglePin: togglePin)
    }

    /// The picker on `terminal`.
    static func run(on terminal: any TerminalBackend, sheet: ShareSheet, activities: [any Activity],
                    pending: [any AvailabilityChecking] = [], items: [ShareItem], title: String?, keys: KeyMap<PickerAction> = .picker,
                    options: PickerOptions? = nil, people: (@Sendable () -> [SharedPerson])? = nil,
                    togglePin: ((ActivityType) -> String)? = nil) -> Choice? {
        let tiles = self.tiles(activities, sheet: sheet)
        let metadata = sheet.activityItems.lazy.compactMap(\.linkMetadata).first
        let header = PickerHeader.describing(sheet.activityItems.map(\.placeholder), title: title, metadata: metadata)
        let size = terminal.size
        var state = PickerState(header: header, tiles: tiles, width: size.width, height: size.height, colors: terminal.colors,
                                keys: keys)
        state.options = options
        let program = PickerProgram(state: state, sheet: sheet, activities: activities, pending: pending, items: items,
                                    togglePin: togglePin)
        let loop = ScreenLoop<PickerProgram.Message>(terminal: terminal)
        // The people row is read from the history on a thread of its own, started after the
        // first paint: making the thread (70 µs here) would delay it.
        if let people { loop.post(.readPeople(people)) }
        // The thumbnail and image icons come after the first paint, so they never delay it.
        if terminal.paletteSize >= 256 { loop.post(.drawImages) }
        let poster = loop.poster
        for activity in pending {
            let type = activity.activityType
            let check = activity.availabilityCheck()
            if !BackgroundThread.start({ poster.post(.availability(type, check())) }) {
                loop.post(.availability(type, check()))
            }
        }
        switch loop.run(program) {
        case .picked(let type, let person, let options): return Choice(type: type, person: person, options: options)
        case .dismissed: return nil
        }
    }

    /// The people row: each person with the activity last used with them,
    /// when that activity can take these items and takes recipients offered
    /// to it (``RecipientsReceiving``); their name (else the address's local
    /// part) under their initial and the activity's glyph.
    static func personTiles(_ people: [SharedPerson], activities: [any Activity]) -> [PickerTile] {
        people.compactMap { person in
            guard let activity = activities.first(where: { $0.activityType == person.activity }),
                  activity is any RecipientsReceiving else { return nil }
            // Without a name, the address's local part (`minsu` of minsu@example.org).
            let title = person.name ?? String(person.address.prefix { $0 != "@" })
            // Their initial beside the activity's glyph: `박 ✉`.
            let initial = title.first.map { String($0).uppercased() } ?? "?"
            let glyph = icon(activity.activityImage).first.map { DisplayWidth.truncate($0, to: 1) } ?? ""
            let badge = glyph.isEmpty || DisplayWidth.of(initial) > 2 ? initial : initial + " " + glyph
            return PickerTile(type: person.activity, title: title, icon: [badge], category: .share, person: person.recipient)
        }
    }

    /// The tiles of `activities`, in their order.
    static func tiles(_ activities: [any Activity], sheet: ShareSheet) -> [PickerTile] {
        activities.map { activity in
            PickerTile(type: activity.activityType, title: activity.localizedActivityTitle, icon: icon(activity.activityImage),
                       category: sheet.category(of: activity), englishTitle: activity.activityTitle)
        }
    }

    /// An encoded image drawn as 6×3 cells, through a private temporary file.
    static func iconCells(_ picture: Thumbnail) -> [[Cell]]? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("share-icon-\(getpid())-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: picture.data, attributes: [.posixPermissions: 0o600])
        else { return nil }
        defer { try? FileManager.default.removeItem(at: file) }
        return Thumbnailer.cells(forImageAt: file.path, columns: 6, rows: 3)
    }

    static func icon(_ image: ActivityImage) -> [String] {
        switch image {
        case .glyph(let glyph): [glyph]
        case .textArt(let lines): lines
        case .image: ["▣"]
        }
    }
}

/// The picker as a screen of the loop.
@MainActor
final class PickerProgram: ScreenProgram {
    enum Message: Sendable {
        /// Read the people row from the history on another thread (after the first paint).
        case readPeople(@Sendable () -> [SharedPerson])
        /// Draw the items' thumbnail and the plugins' image icons (after the first paint).
        case drawImages
        /// A pending activity's availability, asked on another thread.
        case availability(ActivityType, Availability)
        /// The people most shared with, read from the history on another thread.
        case people([SharedPerson])
    }

    enum Ending {
        case picked(ActivityType, person: String?, options: SharingOptions?)
        case dismissed
    }

    private var state: PickerState
    private let sheet: ShareSheet
    private var activities: [any Activity]
    private var pending: [any AvailabilityChecking]
    private let items: [ShareItem]
    private let togglePin: ((ActivityType) -> String)?
    /// The people row's tiles, kept first when the activity tiles are made anew.
    private var people: [PickerTile] = []

    init(state: PickerState, sheet: ShareSheet, activities: [any Activity], pending: [any AvailabilityChecking] = [],
         items: [ShareItem], togglePin: ((ActivityType) -> String)? = nil) {
        self.state = state
        self.sheet = sheet
        self.activities = activities
        self.pending = pending
        self.items = items
        self.togglePin = togglePin
    }

    func view() -> Frame { PickerView.view(state) }

    func handle(_ event: ScreenEvent<Message>, in loop: ScreenLoop<Message>) -> Ending? {
        switch event {
        case .input(let input):
            for effect in PickerUpdate.update(&state, input) {
                switch effect {
                case .pick(let type): return .picked(type, person: nil, options: state.options?.options)
                case .pickPerson(let type, let person): return .picked(type, person: person, options: state.options?.options)
                case .cancel: return .dismissed
                case .togglePin(let type):
                    guard let togglePin else { break }
                    state.notice = togglePin(type)
                    refreshTiles()
                }
            }
        case .message(.readPeople(let read)):
            let poster = loop.poster
            if !BackgroundThread.start({ poster.post(.people(read())) }) { loop.post(.people(read())) }
        case .message(.drawImages):
            drawImages()
        case .message(.availability(let type, let availability)):
            guard let index = pending.firstIndex(where: { $0.activityType == type }) else { break }
            let activity = pending.remove(at: index)
            activity.settle(availability)
            if availability.isAvailable { refreshTiles() }
        case .message(.people(let people)):
            self.people = PickerSession.personTiles(people, activities: activities)
            if !self.people.isEmpty { refreshTiles() }
        case .tick:
            break
        }
        return nil
    }

    func terminalClosed(in loop: ScreenLoop<Message>) -> Ending { .dismissed }

    /// The tiles again, with those that became available in their place in
    /// the order; the selection stays on the tile it was on.
    private func refreshTiles() {
        activities = sheet.eligibleActivitiesNotWaiting().eligible
        let icons = Dictionary(state.tiles.map { ($0.type, $0.iconCells) }, uniquingKeysWith: { first, _ in first })
        let all = people + PickerSession.tiles(activities, sheet: sheet).map { tile in
            var tile = tile
            tile.iconCells = icons[tile.type] ?? nil
            return tile
        }
        // In screen order, as the state's first tiles were.
        state.tiles = PickerRow.allCases.flatMap { row in all.filter { $0.row == row } }
    }

    private func drawImages() {
        if let image = items.first(where: { $0.kind == .image })?.fileItem?.path {
            state.header.thumbnail = Thumbnailer.cells(forImageAt: image.path, columns: 8, rows: 2)
        }
        // Image icons (plugins' PNGs) as terminal symbols, for the tiles on the first screens.
        for activity in activities.prefix(60) {
            guard case .image(let picture) = activity.activityImage,
                  let tileIndex = state.tiles.firstIndex(where: { $0.type == activity.activityType }) else { continue }
            state.tiles[tileIndex].iconCells = PickerSession.iconCells(picture)
        }
    }
}
