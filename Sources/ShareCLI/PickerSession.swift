import ShareCore
import ShareTerminal

/// Runs the picker on the terminal: draw, read an event, update, until a
/// tile is picked or the picker is dismissed.
@MainActor
enum PickerSession {
    /// Shows the eligible activities of `sheet`; returns the picked type, or `nil` when dismissed.
    static func run(sheet: ShareSheet, items: [ShareItem], title: String?, colors: Bool) throws(TerminalError) -> ActivityType? {
        let tiles = sheet.eligibleActivities().map { activity in
            PickerTile(type: activity.activityType, title: activity.activityTitle, icon: icon(activity.activityImage),
                       category: sheet.category(of: activity))
        }
        let metadata = sheet.activityItems.lazy.compactMap(\.linkMetadata).first
        let header = PickerHeader.describing(sheet.activityItems.map(\.placeholder), title: title, metadata: metadata)
        let terminal = try NcursesTerminal(wantColors: colors)
        defer { terminal.end() }
        let size = terminal.size
        var state = PickerState(header: header, tiles: tiles, width: size.width, height: size.height, colors: terminal.colors)
        var failures = 0
        // The thumbnail comes after the first paint, so it never delays it.
        terminal.draw(PickerView.view(state))
        if terminal.paletteSize >= 256, let image = items.first(where: { $0.kind == .image })?.fileItem?.path {
            state.header.thumbnail = Thumbnailer.cells(forImageAt: image.path, columns: 8, rows: 2)
        }
        while true {
            terminal.draw(PickerView.view(state))
            guard let event = terminal.nextEvent() else {
                // Repeated read errors mean the terminal is gone (closed window, hang-up).
                failures += 1
                if failures >= 3 { return nil }
                continue
            }
            failures = 0
            for effect in PickerUpdate.update(&state, event) {
                switch effect {
                case .pick(let type): return type
                case .cancel: return nil
                }
            }
        }
    }

    static func icon(_ image: ActivityImage) -> [String] {
        switch image {
        case .glyph(let glyph): [glyph]
        case .textArt(let lines): lines
        case .image: ["▣"]
        }
    }
}
