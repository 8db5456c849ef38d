import ShareTerminal

/// The result view's state: what the service answered so far, the drawn
/// image, and which button has the focus. Pure: ``update(_:)`` turns an
/// event into at most one decision, ``frame`` draws the state.
struct ResultScreen {
    /// How far the request got.
    enum Phase: Equatable {
        /// Posted; no answer yet.
        case waiting
        /// The image arrived; the summary says what it is ("64×64 PNG, 1.2 kB").
        case arrived(summary: String)
        /// No image: the service refused, could not be reached, or the result could not be kept.
        case failed(String)
    }

    /// The two buttons, left to right.
    enum Button: CaseIterable {
        case done, cancel

        var label: String {
            switch self {
            case .done: "[ Done ]"
            case .cancel: "[ Cancel ]"
            }
        }
    }

    /// What the person decided.
    enum Decision: Equatable {
        case done, cancel
    }

    /// The shared image's name (`face.png`).
    var itemName: String
    /// A line about the request (`posting 157 B to http://…`).
    var requestLine: String
    /// Where Done keeps the image (`face-mustache.png`), once known.
    var destinationName: String?
    var phase: Phase = .waiting
    /// The returned image as cells, when it can be drawn here.
    var image: [[Cell]]?
    /// The returned image's size in pixels, when it arrived.
    var imagePixels: PNGInfo?
    var focus: Button = .done
    var width: Int
    var height: Int
    var colors: Bool

    /// Done does something only once the image arrived.
    var isDoneEnabled: Bool {
        if case .arrived = phase { return true }
        return false
    }

    // MARK: - Update

    /// Applies one event; returns the decision it makes, if any.
    mutating func update(_ event: InputEvent) -> Decision? {
        switch event {
        case .enter, .character(" "): return press(focus)
        case .character("d"), .character("D"): return press(.done)
        case .character("c"), .character("C"), .escape, .control("c"): return press(.cancel)
        case .tab, .backTab, .left, .right, .character("h"), .character("l"):
            focus = focus == .done ? .cancel : .done
            return nil
        case .click(let x, let y):
            guard y == layout.buttonRow, let button = Button.allCases.first(where: { layout.buttonColumns($0).contains(x) }) else {
                return nil
            }
            focus = button
            return press(button)
        case .resize(let width, let height):
            self.width = width
            self.height = height
            return nil
        default:
            return nil
        }
    }

    private func press(_ button: Button) -> Decision? {
        switch button {
        case .done: isDoneEnabled ? .done : nil  // a disabled Done does nothing
        case .cancel: .cancel
        }
    }

    // MARK: - Layout

    struct Layout {
        var width: Int
        var height: Int

        /// The first and last rows of the content (the image, the messages).
        var contentTop: Int { 2 }
        var contentBottom: Int { height - 5 }
        var contentRows: Int { max(0, contentBottom - contentTop + 1) }
        var statusRow: Int { height - 4 }
        var buttonRow: Int { height - 2 }
        var hintRow: Int { height - 1 }

        private static let gap = 3

        /// Where the buttons start: centred as a group.
        private var buttonsX: Int {
            let total = Button.allCases.map { DisplayWidth.of($0.label) }.reduce(0, +) + Layout.gap * (Button.allCases.count - 1)
            return max(0, (width - total) / 2)
        }

        /// The columns a button takes.
        func buttonColumns(_ button: Button) -> Range<Int> {
            var x = buttonsX
            for candidate in Button.allCases {
                let end = x + DisplayWidth.of(candidate.label)
                if candidate == button { return x..<end }
                x = end + Layout.gap
            }
            return 0..<0
        }
    }

    var layout: Layout { Layout(width: width, height: height) }

    /// The cells to draw an image of `pixels` in, keeping its shape: a cell
    /// is about twice as tall as it is wide.
    static func imageGeometry(for pixels: PNGInfo, columns: Int, rows: Int) -> (columns: Int, rows: Int)? {
        guard columns > 0, rows > 0 else { return nil }
        let scale = min(Double(columns) / Double(pixels.width), 2 * Double(rows) / Double(pixels.height))
        let fitted = (columns: Int((Double(pixels.width) * scale).rounded()), rows: Int((Double(pixels.height) * scale / 2).rounded()))
        return (min(columns, max(1, fitted.columns)), min(rows, max(1, fitted.rows)))
    }

    /// The room for the image: the content area less a margin.
    var imageRoom: (columns: Int, rows: Int) { (max(0, width - 4), layout.contentRows) }

    // MARK: - View

    /// The screen as a frame.
    var frame: Frame {
        var frame = Frame(width: width, height: height)
        let layout = layout
        let accent = colors ? CellStyle(foreground: .yellow, bold: true) : CellStyle(bold: true)
        let problem = colors ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true)
        let dim = CellStyle(dim: true)

        let end = frame.put("Mustachify", x: 1, y: 0, style: accent)
        frame.put("  " + itemName, x: end, y: 0, style: dim, maxX: width - 1)
        frame.put(String(repeating: "─", count: width), x: 0, y: 1, style: dim)
        frame.put(String(repeating: "─", count: width), x: 0, y: layout.buttonRow - 1, style: dim)

        switch phase {
        case .waiting:
            let middle = layout.contentTop + layout.contentRows / 2 - 1
            centre("Mustachifying…", y: middle, style: CellStyle(bold: true), into: &frame)
            centre(DisplayWidth.truncate(requestLine, to: max(1, width - 2)), y: middle + 1, style: dim, into: &frame)
            centre("Done waits for the image; Esc cancels.", y: layout.statusRow, style: dim, into: &frame)
        case .arrived(let summary):
            if let image {
                let top = layout.contentTop + max(0, (layout.contentRows - image.count) / 2)
                for (row, cells) in image.enumerated() where top + row <= layout.contentBottom {
                    let left = max(0, (width - cells.count) / 2)
                    for (column, cell) in cells.enumerated() where left + column < width {
                        frame.put(cell.text, x: left + column, y: top + row, style: colors ? cell.style : cell.style.monochrome)
                    }
                }
            } else {
                centre("(the image cannot be drawn on this terminal)", y: layout.contentTop + layout.contentRows / 2, style: dim,
                       into: &frame)
            }
            let keep = destinationName.map { " Done saves it as \($0)." } ?? ""
            centre(DisplayWidth.truncate("✓ Mustachified: \(summary).\(keep)", to: max(1, width - 2)), y: layout.statusRow,
                   style: .plain, into: &frame)
        case .failed(let message):
            let lines = ResultScreen.wrap(message, columns: max(10, width - 6))
            let top = layout.contentTop + max(0, (layout.contentRows - lines.count - 2) / 2)
            centre("Mustachify failed", y: top, style: problem, into: &frame)
            for (index, line) in lines.enumerated() where top + 2 + index <= layout.contentBottom {
                frame.put(line, x: 3, y: top + 2 + index, style: .plain, maxX: width - 1)
            }
            centre("No image arrived: only Cancel is left.", y: layout.statusRow, style: dim, into: &frame)
        }

        for button in Button.allCases {
            let enabled = button == .cancel || isDoneEnabled
            let focused = button == focus
            // Disabled is dim; the focus is reverse video (underlined while disabled).
            let style = CellStyle(bold: enabled && focused, reverse: enabled && focused, dim: !enabled,
                                  underline: !enabled && focused)
            frame.put(button.label, x: layout.buttonColumns(button).lowerBound, y: layout.buttonRow, style: style)
        }
        let hint = isDoneEnabled ? "Enter/d Done   Tab switch   Esc/c Cancel" : "Esc/c Cancel"
        centre(hint, y: layout.hintRow, style: dim, into: &frame)
        return frame
    }

    private func centre(_ text: String, y: Int, style: CellStyle, into frame: inout Frame) {
        guard y >= 0 && y < height else { return }
        frame.put(text, x: max(0, (width - DisplayWidth.of(text)) / 2), y: y, style: style)
    }

    /// `text` in lines of at most `columns` columns, broken between words (a longer word is cut).
    static func wrap(_ text: String, columns: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in TerminalText.sanitized(text).split(separator: " ") {
            var word = String(word)
            while DisplayWidth.of(word) > columns {
                if !line.isEmpty { lines.append(line); line = "" }
                var head = ""
                for character in word {
                    if !head.isEmpty && DisplayWidth.of(head) + DisplayWidth.of(character) > columns { break }
                    head.append(character)
                }
                lines.append(head)
                word.removeFirst(head.count)
            }
            if line.isEmpty {
                line = word
            } else if DisplayWidth.of(line) + 1 + DisplayWidth.of(word) <= columns {
                line += " " + word
            } else {
                lines.append(line)
                line = word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}
