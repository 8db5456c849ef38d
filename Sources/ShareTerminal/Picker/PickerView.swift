import ShareCore
import ShareSupport

/// The picker's view: state → frame. Pure: the same state and size always
/// give the same frame, which the snapshot tests compare.
public enum PickerView {
    /// Draws `state` into a frame of its size.
    public static func view(_ state: PickerState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard state.width > 0 && state.height > 0 else { return frame }
        let layout = PickerLayout(state)
        let accent = CellStyle(foreground: .cyan, bold: true)
        if state.isListMode {
            drawCompactHeader(state, layout, into: &frame)
        } else {
            drawHeader(state, into: &frame, accent: accent)
        }
        drawContent(state, layout, into: &frame, accent: accent)
        drawBottomLine(state, into: &frame)
        if let options = state.options, options.isOpen { drawOptions(options, into: &frame) }
        if state.showingHelp { drawHelp(state.keys, into: &frame) }
        return state.colors ? frame : frame.monochrome
    }

    // MARK: - Header

    private static func drawHeader(_ state: PickerState, into frame: inout Frame, accent: CellStyle) {
        let width = state.width
        let border = CellStyle(dim: true)
        frame.putLine("╭", "─", "╮", x: 0, y: 0, width: width, style: border)
        frame.put("│", x: 0, y: 1, style: border)
        frame.put("│", x: width - 1, y: 1, style: border)
        frame.put("│", x: 0, y: 2, style: border)
        frame.put("│", x: width - 1, y: 2, style: border)
        frame.putLine("╰", "─", "╯", x: 0, y: 3, width: width, style: border)
        var textX = 4
        if let thumbnail = state.header.thumbnail, state.colors {
            for (row, cells) in thumbnail.prefix(2).enumerated() {
                for (column, cell) in cells.prefix(8).enumerated() {
                    frame.put(cell.text, x: 2 + column, y: 1 + row, style: cell.style, maxX: 10)
                }
            }
            textX = 2 + min(8, thumbnail.map(\.count).max() ?? 0) + 2
        } else {
            frame.put(state.header.icon, x: 2, y: 1, style: accent, maxX: 4)
        }
        let limit = width - 2
        frame.put(DisplayWidth.truncate(TerminalText.sanitized(state.header.title), to: max(0, limit - textX)),
                  x: textX, y: 1, style: CellStyle(bold: true), maxX: limit)
        frame.put(DisplayWidth.truncate(TerminalText.sanitized(state.header.subtitle), to: max(0, limit - textX)),
                  x: textX, y: 2, style: CellStyle(dim: true), maxX: limit)
        // The Options line, set in the header's lower border: what will be removed, for the selected activity.
        if let options = state.options, width > 12 {
            let line = " " + Localization.text("Options: %@ (o)", options.summary(for: state.selection)) + " "
            frame.put(DisplayWidth.truncate(line, to: width - 4), x: 2, y: 3, style: CellStyle(foreground: .yellow), maxX: width - 2)
        }
    }

    private static func drawCompactHeader(_ state: PickerState, _ layout: PickerLayout, into frame: inout Frame) {
        guard layout.headerHeight > 0 else { return }
        let title = state.header.icon + " " + TerminalText.sanitized(state.header.title)
        frame.put(DisplayWidth.truncate(title, to: state.width), x: 0, y: 0, style: CellStyle(bold: true))
        if layout.headerHeight > 1 {
            frame.put(DisplayWidth.truncate(TerminalText.sanitized(state.header.subtitle), to: state.width),
                      x: 0, y: 1, style: CellStyle(dim: true))
        }
    }

    // MARK: - Tiles

    private static func drawContent(_ state: PickerState, _ layout: PickerLayout, into frame: inout Frame, accent: CellStyle) {
        let top = layout.contentTop
        let bottom = top + layout.contentHeight
        func screenY(_ contentY: Int) -> Int? {
            let y = contentY - state.scroll + top
            return y >= top && y < bottom ? y : nil
        }
        let tiles = state.visibleTiles
        if tiles.isEmpty {
            let message = state.filter.map { Localization.text("No activity matches “%@”", $0) } ?? Localization.text("No activity can take these items")
            frame.put(DisplayWidth.truncate(message, to: state.width - 2), x: 1, y: min(top, state.height - 1),
                      style: CellStyle(dim: true))
            return
        }
        for heading in layout.headings {
            if let y = screenY(heading.y) { frame.put(heading.title, x: 1, y: y, style: CellStyle(foreground: .blue, bold: true)) }
        }
        let selected = state.selectedIndex
        for slot in layout.slots {
            let tile = tiles[slot.index]
            let isSelected = slot.index == selected
            if layout.tileLines == 1 {
                guard let y = screenY(slot.y) else { continue }
                let style = isSelected ? CellStyle(bold: true, reverse: true) : .plain
                if isSelected { frame.fill(x: 0, y: y, width: state.width, height: 1, style: style) }
                // The icon padded to two columns so titles line up; the row stops
                // short of the scroll hint in the last columns.
                let glyph = DisplayWidth.truncate(TerminalText.sanitized(String((tile.icon.first ?? "").drop(while: \.isWhitespace))), to: 2)
                let icon = (glyph.isEmpty ? "◆" : glyph)
                let label = icon + String(repeating: " ", count: 2 - DisplayWidth.of(icon)) + "  " + TerminalText.sanitized(tile.title)
                frame.put(DisplayWidth.truncate(label, to: max(0, state.width - 4)), x: slot.x + 1, y: y, style: style)
                continue
            }
            drawTile(tile, at: slot.x, width: slot.width, isSelected: isSelected, accent: accent, into: &frame,
                     line: screenY, baseY: slot.y)
        }
        // A row slid sideways shows which way its other tiles are, beside its icons.
        for heading in layout.headings {
            guard let y = screenY(heading.y + 2) else { continue }
            if heading.moreBefore { frame.put("‹", x: 0, y: y, style: accent) }
            if heading.moreAfter { frame.put("›", x: state.width - 1, y: y, style: accent) }
        }
        // A scroll hint when tiles are off screen.
        if state.scroll > 0 { frame.put("▲", x: state.width - 2, y: top, style: CellStyle(dim: true)) }
        if state.scroll + layout.contentHeight < layout.contentLength, bottom - 1 >= top {
            frame.put("▼", x: state.width - 2, y: bottom - 1, style: CellStyle(dim: true))
        }
    }

    private static func drawTile(_ tile: PickerTile, at x: Int, width: Int, isSelected: Bool, accent: CellStyle,
                                 into frame: inout Frame, line: (Int) -> Int?, baseY: Int) {
        guard (0..<PickerLayout.tileHeight).contains(where: { line(baseY + $0) != nil }) else { return }
        // Everything is centred on the tile's middle column; the last column is the gap.
        let middle = x + width / 2
        // Only the title shows the selection, so moving it redraws two titles, not two boxes.
        let boxStyle = CellStyle(dim: true)
        let art = tile.icon.prefix(3).map { TerminalText.sanitized($0) }
        if let cells = tile.iconCells, frame.width > 0 {
            // An image icon: its cells centred over the title.
            let cellsWidth = min(10, cells.map(\.count).max() ?? 0)
            for (row, rowCells) in cells.prefix(3).enumerated() {
                guard let y = line(baseY + row) else { continue }
                for (column, cell) in rowCells.prefix(cellsWidth).enumerated() {
                    frame.put(cell.text, x: middle - 5 + (10 - cellsWidth) / 2 + column, y: y, style: cell.style, maxX: middle + 5)
                }
            }
        } else if art.count <= 1 {
            let glyph = DisplayWidth.truncate(art.first ?? "◆", to: 4)
            let pad = (4 - DisplayWidth.of(glyph)) / 2
            if let y = line(baseY) { frame.put("╭────╮", x: middle - 3, y: y, style: boxStyle) }
            if let y = line(baseY + 1) {
                frame.put("│", x: middle - 3, y: y, style: boxStyle)
                frame.put(glyph, x: middle - 2 + pad, y: y, style: .plain, maxX: middle + 2)
                frame.put("│", x: middle + 2, y: y, style: boxStyle)
            }
            if let y = line(baseY + 2) { frame.put("╰────╯", x: middle - 3, y: y, style: boxStyle) }
        } else {
            for (row, text) in art.enumerated() {
                guard let y = line(baseY + row) else { continue }
                let cut = DisplayWidth.truncate(text, to: 10)
                frame.put(cut, x: middle - 5 + (10 - DisplayWidth.of(cut)) / 2, y: y, style: .plain, maxX: middle + 5)
            }
        }
        if let y = line(baseY + 3) {
            let title = DisplayWidth.truncate(TerminalText.sanitized(tile.title), to: width - 1)
            let titleX = max(x, middle - (DisplayWidth.of(title) + 1) / 2)
            frame.put(title, x: titleX, y: y, style: isSelected ? CellStyle(bold: true, reverse: true) : .plain,
                      maxX: x + width - 1)
        }
    }

    // MARK: - Bottom line and help

    private static func drawBottomLine(_ state: PickerState, into frame: inout Frame) {
        let y = state.height - 1
        guard y >= 0 else { return }
        if let filter = state.filter {
            let end = frame.put("/" + filter, x: 0, y: y, style: CellStyle(bold: true))
            frame.cursor = (min(end, state.width - 1), y)
            return
        }
        if state.options?.isOpen == true {
            let bar = Localization.text("↑↓ move  Enter choose  Esc close")
            frame.put(DisplayWidth.truncate(bar, to: state.width), x: 0, y: y, style: CellStyle(dim: true))
            return
        }
        if let notice = state.notice {
            frame.put(DisplayWidth.truncate(notice, to: state.width), x: 0, y: y, style: CellStyle(bold: true))
            return
        }
        let wide = state.keys.helpBar()
        let bar = DisplayWidth.of(wide) <= state.width ? wide : state.keys.shortHelpBar()
        frame.put(DisplayWidth.truncate(bar, to: state.width), x: 0, y: y, style: CellStyle(dim: true))
    }

    /// The options' chooser: a box in the middle with one line per choice, the highlighted one reversed.
    private static func drawOptions(_ options: PickerOptions, into frame: inout Frame) {
        let rows = options.rows
        let width = min(frame.width - 2, 50)
        let height = rows.count + 2
        guard width > 10 && height <= frame.height - 1 else { return }
        let x = (frame.width - width) / 2
        let y = max(0, (frame.height - 1 - height) / 2)
        frame.box(x: x, y: y, width: width, height: height)
        frame.put(" " + Localization.text("Options") + " ", x: x + 2, y: y, style: CellStyle(bold: true))
        for (index, row) in rows.enumerated() {
            let style = index == options.cursor ? CellStyle(bold: true, reverse: true) : .plain
            if index == options.cursor { frame.fill(x: x + 1, y: y + 1 + index, width: width - 2, height: 1, style: style) }
            frame.put(DisplayWidth.truncate(options.label(of: row), to: width - 4), x: x + 2, y: y + 1 + index, style: style,
                      maxX: x + width - 1)
        }
    }

    private static func drawHelp(_ keys: KeyMap<PickerAction>, into frame: inout Frame) {
        let keyHelp = keys.keyList()
        let width = min(frame.width - 2, 52)
        // Blank lines above and below the keys only when there is room for them.
        // A small terminal gives the box every line, help bar included, so that every key is listed.
        let roomy = frame.height - 2 >= keyHelp.count + 4
        let height = min(roomy ? frame.height - 2 : frame.height, keyHelp.count + (roomy ? 4 : 2))
        guard width > 10 && height > 3 else { return }
        let x = (frame.width - width) / 2
        let y = (frame.height - height) / 2
        let keyWidth = min(14, max(13, width / 3))
        frame.box(x: x, y: y, width: width, height: height)
        frame.put(" " + Localization.text("Keys") + " ", x: x + 2, y: y, style: CellStyle(bold: true))
        let top = y + (roomy ? 2 : 1)
        for (row, entry) in keyHelp.prefix(height - (roomy ? 4 : 2)).enumerated() {
            frame.put(DisplayWidth.truncate(entry.0, to: keyWidth - 1), x: x + 2, y: top + row, style: CellStyle(bold: true))
            frame.put(DisplayWidth.truncate(entry.1, to: width - keyWidth - 3), x: x + 2 + keyWidth, y: top + row)
        }
    }
}
