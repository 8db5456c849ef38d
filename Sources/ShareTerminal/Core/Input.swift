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
    case left, right, up, down, nextRow, previousRow, pick, filter, help, cancel, first, last, pin
}

/// Keys → actions, as data, so bindings can come from the config's `[keys]`.
///
/// Kept as a short list rather than a dictionary: a key press looks through
/// twenty pairs, and the default map is made without hashing a Character
/// (which normalizes it) before the picker's first paint. The list's order
/// is the binding order: the help bar names an action's first key.
public struct KeyMap: Sendable, Equatable {
    private struct Binding: Sendable, Equatable {
        var event: InputEvent
        var action: PickerAction
    }

    private var pairs: [Binding]

    /// The bindings, without their order.
    public var bindings: [InputEvent: PickerAction] {
        Dictionary(pairs.map { ($0.event, $0.action) }, uniquingKeysWith: { first, _ in first })
    }

    /// A key map of `bindings`, in that order; when a key appears twice, its first action wins.
    public init(_ bindings: [(event: InputEvent, action: PickerAction)]) {
        pairs = bindings.map { Binding(event: $0.event, action: $0.action) }
    }

    /// The default picker keys of SPEC §7.
    public static let picker = KeyMap([
        (.left, .left), (.character("h"), .left), (.right, .right), (.character("l"), .right),
        (.up, .up), (.character("k"), .up), (.down, .down), (.character("j"), .down),
        (.tab, .nextRow), (.backTab, .previousRow), (.enter, .pick),
        (.character("/"), .filter), (.character("?"), .help), (.character("p"), .pin),
        (.escape, .cancel), (.character("q"), .cancel), (.control("c"), .cancel),
        (.home, .first), (.end, .last),
    ])

    /// The action for an event, if bound.
    public func action(for event: InputEvent) -> PickerAction? { pairs.first { $0.event == event }?.action }

    /// The keys that do `action`, in binding order (the first is the one a help bar names).
    public func keys(for action: PickerAction) -> [InputEvent] {
        var seen: [InputEvent] = []
        var keys: [InputEvent] = []
        // A key's first binding is the one that counts (as in `action(for:)`).
        for pair in pairs where !seen.contains(pair.event) {
            seen.append(pair.event)
            if pair.action == action { keys.append(pair.event) }
        }
        return keys
    }

    /// Makes `events` the keys of `action`, in that order, in place of its
    /// old keys (where the first of them was, or at the end when it had
    /// none); an event bound to another action leaves that action.
    public mutating func rebind(_ action: PickerAction, to events: [InputEvent]) {
        let position = pairs.firstIndex { $0.action == action } ?? pairs.endIndex
        let before = pairs[..<position].filter { !events.contains($0.event) }
        let after = pairs[position...].filter { $0.action != action && !events.contains($0.event) }
        var seen: [InputEvent] = []
        for event in events where !seen.contains(event) { seen.append(event) }
        pairs = before + seen.map { Binding(event: $0, action: action) } + after
    }
}

extension InputEvent: Hashable {}
