import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareCore
import ShareTerminal

/// Runs the picker on the terminal: draw, read an event, update, until a
/// tile is picked or the picker is dismissed.
@MainActor
enum PickerSession {
    /// Shows `activities` (the eligible ones of `sheet`, in order); returns
    /// the picked type, or `nil` when dismissed.
    static func run(sheet: ShareSheet, activities: [any Activity], items: [ShareItem], title: String?, colors: Bool,
                    keys: KeyMap = .picker) throws(TerminalError) -> ActivityType? {
        let tiles = activities.map { activity in
            PickerTile(type: activity.activityType, title: activity.activityTitle, icon: icon(activity.activityImage),
                       category: sheet.category(of: activity))
        }
        let metadata = sheet.activityItems.lazy.compactMap(\.linkMetadata).first
        let header = PickerHeader.describing(sheet.activityItems.map(\.placeholder), title: title, metadata: metadata)
        let terminal = try NcursesTerminal(wantColors: colors, writesFirstFrame: true)
        defer { terminal.end() }
        let size = terminal.size
        var state = PickerState(header: header, tiles: tiles, width: size.width, height: size.height, colors: terminal.colors)
        var failures = 0
        // A TERM or a hang-up ends the picker like a cancel: the terminal is restored on the way out.
        HangUp.watch()
        defer { HangUp.stop() }
        // The thumbnail comes after the first paint, so it never delays it.
        terminal.draw(PickerView.view(state))
        if terminal.paletteSize >= 256, let image = items.first(where: { $0.kind == .image })?.fileItem?.path {
            state.header.thumbnail = Thumbnailer.cells(forImageAt: image.path, columns: 8, rows: 2)
        }
        if terminal.paletteSize >= 256 {
            // Image icons (plugins' PNGs) as terminal symbols, for the tiles on the first screens.
            for activity in activities.prefix(60) {
                guard case .image(let picture) = activity.activityImage,
                      let tileIndex = state.tiles.firstIndex(where: { $0.type == activity.activityType }) else { continue }
                state.tiles[tileIndex].iconCells = iconCells(picture)
            }
            terminal.draw(PickerView.view(state))
        }
        while true {
            terminal.draw(PickerView.view(state))
            let event = terminal.nextEvent()
            if HangUp.happened { return nil }
            guard let event else {
                // Repeated read errors mean the terminal is gone (closed window, hang-up).
                failures += 1
                if failures >= 3 { return nil }
                continue
            }
            failures = 0
            for effect in PickerUpdate.update(&state, event, keys: keys) {
                switch effect {
                case .pick(let type): return type
                case .cancel: return nil
                }
            }
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
