import ShareCore
import ShareSupport

/// A list to choose one option from, narrowed by typing: a choice field's
/// chooser in a form, and a screen of its own (the drafts of `--resume
/// --draft`). Keys (``KeyMap/chooser``): ↑↓ select among the matches,
/// Enter chooses, Esc closes; any other key edits the filter.
public struct Chooser: Sendable, Equatable {
    public var options: [String]
    public var filter: TextEditor
    /// The selected option's index among `options`.
    public var selected: Int

    /// How a key ended the chooser.
    public enum Outcome: Sendable, Equatable {
        case chosen(Int)
        case closed
    }

    public init(options: [String], filter: TextEditor = TextEditor(), selected: Int = 0) {
        self.options = options
        self.filter = filter
        self.selected = selected
    }

    /// The indices of `options` that contain `filter` (any case), in order.
    public static func matches(_ options: [String], filter: String) -> [Int] {
        let wanted = filter.lowercased()
        return options.indices.filter { wanted.isEmpty || options[$0].lowercased().contains(wanted) }
    }

    public var matches: [Int] { Chooser.matches(options, filter: filter.text) }

    /// Applies a key; the outcome when it ends the chooser.
    public mutating func handle(_ event: InputEvent) -> Outcome? {
        let matches = self.matches
        let position = matches.firstIndex(of: selected)
        let action = KeyMap.chooser.action(for: event)
        switch action {
        case .close:
            return .closed
        case .previous, .next:
            guard !matches.isEmpty else { return nil }
            let step = action == .next ? 1 : -1
            selected = matches[position.map { ($0 + step + matches.count) % matches.count } ?? 0]
        case .choose:
            guard let chosen = position.map({ matches[$0] }) ?? matches.first else { return nil }
            return .chosen(chosen)
        case nil:
            var edited = filter
            guard edited.handle(event) else { return nil }
            filter = edited
            let now = self.matches
            // The selection stays on its option while it still matches, else the first match.
            if !now.contains(selected) { selected = now.first ?? selected }
        }
        return nil
    }

    /// Draws the chooser as a box in the middle of `frame`: `title` on its
    /// border, the filter as typed, the matches (the selected one in
    /// reverse video, `none` when there are none) and its keys; returns
    /// where the cursor goes.
    public func draw(title: String, none: String, into frame: inout Frame) -> (x: Int, y: Int) {
        let matches = self.matches
        let widest = options.map { DisplayWidth.of($0) }.max() ?? 0
        let width = min(frame.width - 4, max(40, widest + 6))
        let listRoom = max(1, min(matches.count, frame.height - 8))
        let height = min(frame.height - 2, listRoom + 4)
        let x = (frame.width - width) / 2
        let y = max(1, (frame.height - height) / 2)
        frame.box(x: x, y: y, width: width, height: height)
        frame.put(" " + DisplayWidth.truncate(title, to: width - 4) + " ", x: x + 2, y: y, style: CellStyle(bold: true))
        let (text, column) = FormView.window(filter, width: width - 6)
        frame.put("/ ", x: x + 2, y: y + 1, style: CellStyle(dim: true))
        frame.put(text, x: x + 4, y: y + 1)
        let rows = height - 4
        let position = matches.firstIndex(of: selected) ?? 0
        let first = max(0, min(position - rows + 1, matches.count - rows))
        if matches.isEmpty {
            frame.put(DisplayWidth.truncate(none, to: width - 4), x: x + 2, y: y + 2, style: CellStyle(dim: true))
        }
        for (offset, option) in matches.dropFirst(first).prefix(rows).enumerated() {
            let isSelected = option == selected
            let style = isSelected ? CellStyle(bold: true, reverse: true) : .plain
            if isSelected { frame.fill(x: x + 1, y: y + 2 + offset, width: width - 2, height: 1, style: style) }
            frame.put((isSelected ? "▸ " : "  ") + DisplayWidth.truncate(TerminalText.sanitized(options[option]), to: width - 6),
                      x: x + 2, y: y + 2 + offset, style: style)
        }
        frame.put(DisplayWidth.truncate(KeyMap.chooser.helpBar(), to: width - 4), x: x + 2, y: y + height - 2,
                  style: CellStyle(dim: true))
        return (x + 4 + column, y + 1)
    }
}
