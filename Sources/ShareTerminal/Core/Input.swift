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

/// Named things a person can ask for, independent of the keys bound to them.
public enum PickerAction: String, Sendable, Equatable, CaseIterable {
    case left, right, up, down, nextRow, previousRow, pick, filter, help, cancel, first, last
}

/// Keys → actions, as data, so bindings can come from the config's `[keys]`.
public struct KeyMap: Sendable, Equatable {
    /// The bindings.
    public var bindings: [InputEvent: PickerAction]

    /// The default picker keys of SPEC §7.
    public static let picker = KeyMap(bindings: [
        .left: .left, .character("h"): .left, .right: .right, .character("l"): .right,
        .up: .up, .character("k"): .up, .down: .down, .character("j"): .down,
        .tab: .nextRow, .backTab: .previousRow, .enter: .pick,
        .character("/"): .filter, .character("?"): .help,
        .escape: .cancel, .character("q"): .cancel, .control("c"): .cancel,
        .home: .first, .end: .last,
    ])

    /// The action for an event, if bound.
    public func action(for event: InputEvent) -> PickerAction? { bindings[event] }
}

extension InputEvent: Hashable {}
