import ShareCore
import ShareSupport

/// What a key asks of the result screen.
public enum ResultAction: Sendable, Equatable {
    /// Scroll a line, or a page.
    case up, down, pageUp, pageDown
    /// Copy what the activity gave back.
    case copy
    /// Close the screen.
    case close
}

extension KeyMap where Action == ResultAction {
    /// The result screen's keys: `↑↓ scroll   c copy   Enter close`.
    public static var result: KeyMap {
        KeyMap([
            KeyBinding(.up, [.up, .character("k")], bar: .words(Localization.text("scroll"))),
            KeyBinding(.down, [.down, .character("j")], bar: .with(.up)),
            KeyBinding(.pageUp, [.pageUp]),
            KeyBinding(.pageDown, [.pageDown, .character(" ")]),
            KeyBinding(.copy, [.character("c"), .character("y")], bar: .words(Localization.text("copy"))),
            KeyBinding(.close, [.enter, .escape, .character("q"), .control("c")], bar: .words(Localization.text("close"))),
        ])
    }
}

/// What an activity gave back, shown when it ends (a plugin picked from
/// the picker): a title bar, the lines it printed (links as links), a
/// status line and the keys.
public struct ResultState: Sendable, Equatable {
    public var title: String
    /// The lines given back; a line that is a URL is drawn as a link.
    public var lines: [String]
    /// Lines scrolled off the top.
    public var scroll = 0
    public var status: String?
    public var statusIsError = false
    public var width: Int
    public var height: Int
    public var colors: Bool

    public init(title: String, lines: [String], width: Int, height: Int, colors: Bool = true) {
        self.title = title
        self.lines = lines
        self.width = width
        self.height = height
        self.colors = colors
    }

    /// The lines as drawn: each wrapped to the screen, with the line it came from.
    var rows: [(text: String, line: Int)] {
        let room = max(1, width - 2)
        return lines.enumerated().flatMap { index, line in
            let pieces = ResultState.isLink(line) ? LinkView.wrapped(line, width: room, anywhere: true) : LinkView.wrapped(line, width: room)
            return (pieces.isEmpty ? [""] : pieces).map { (text: $0, line: index) }
        }
    }

    /// Lines of the screen the rows take: all but the title, a blank line, the status and the keys.
    var visibleRows: Int { max(1, height - 4) }

    static func isLink(_ line: String) -> Bool {
        (line.hasPrefix("https://") || line.hasPrefix("http://")) && !line.contains(" ")
    }
}

/// What the result screen asks the run loop to do.
public enum ResultEffect: Sendable, Equatable {
    case copy(String)
    case close
}

/// The result screen's update: pure.
public enum ResultUpdate {
    public static func update(_ state: inout ResultState, _ event: InputEvent) -> [ResultEffect] {
        if case .resize(let width, let height) = event {
            state.width = width
            state.height = height
        } else {
            state.status = nil
            switch KeyMap.result.action(for: event) {
            case .up: state.scroll -= 1
            case .down: state.scroll += 1
            case .pageUp: state.scroll -= state.visibleRows
            case .pageDown: state.scroll += state.visibleRows
            case .copy: return [.copy(state.lines.joined(separator: "\n"))]
            case .close: return [.close]
            case nil: break
            }
        }
        state.scroll = max(0, min(state.scroll, state.rows.count - state.visibleRows))
        return []
    }

    /// News to show on the status line (`Copied`), and whether it is a problem.
    public static func show(_ status: String, isError: Bool, in state: inout ResultState) {
        state.status = status
        state.statusIsError = isError
    }
}

/// The result screen's view: pure.
public enum ResultView {
    public static func view(_ state: ResultState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard state.width >= 10, state.height >= 5 else { return frame }
        frame.fill(x: 0, y: 0, width: state.width, height: 1, style: CellStyle(reverse: true))
        frame.put(DisplayWidth.truncate(" " + TerminalText.sanitized(state.title), to: state.width), x: 0, y: 0,
                  style: CellStyle(bold: true, reverse: true))
        let rows = state.rows
        let link = CellStyle(foreground: .cyan, underline: true)
        for (offset, row) in rows.dropFirst(state.scroll).prefix(state.visibleRows).enumerated() {
            let line = state.lines[row.line]
            let y = 2 + offset
            if ResultState.isLink(line) {
                frame.put(row.text, x: 1, y: y, style: link)
                frame.hyperlinks.append(Frame.Hyperlink(x: 1, y: y, text: row.text, url: line, style: link))
            } else {
                frame.put(row.text, x: 1, y: y)
            }
        }
        if state.scroll > 0 { frame.put("▲", x: state.width - 2, y: 2, style: CellStyle(dim: true)) }
        if state.scroll + state.visibleRows < rows.count {
            frame.put("▼", x: state.width - 2, y: 1 + state.visibleRows, style: CellStyle(dim: true))
        }
        if let status = state.status {
            frame.put(DisplayWidth.truncate((state.statusIsError ? "⚠ " : "") + status, to: state.width - 2), x: 1, y: state.height - 2,
                      style: state.statusIsError ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true))
        }
        frame.put(DisplayWidth.truncate(KeyMap.result.helpBar(separator: "   "), to: state.width), x: 0, y: state.height - 1,
                  style: CellStyle(dim: true))
        return state.colors ? frame : frame.monochrome
    }
}
