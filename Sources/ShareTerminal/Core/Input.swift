/// A key or mouse event, decoded by the backend, before any key map.
public enum InputEvent: Sendable, Equatable {
    /// A printable character (already composed: `한`, `é`).
    case character(Character)
    /// Ctrl with a letter (`ctrl("c")`).
    case control(Character)
    /// Alt (Meta) with a character.
    case alt(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case tab, backTab, enter, escape, backspace, delete
    /// A left click at a cell.
    case click(x: Int, y: Int)
    /// The mouse wheel, one notch.
    case wheelUp, wheelDown
    /// The terminal changed size.
    case resize(width: Int, height: Int)
}

extension InputEvent: Hashable {}

extension InputEvent {
    /// Whether the event is Ctrl or Alt with a key: never typed text.
    public var isChord: Bool {
        switch self {
        case .control, .alt: true
        default: false
        }
    }
}
