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
///
/// Kept as a short list rather than a dictionary: a key press looks through
/// twenty pairs, and the default map is made without hashing a Character
/// (which normalizes it) before the picker's first paint.
public struct KeyMap: Sendable, Equatable {
    private var pairs: [(event: InputEvent, action: PickerAction)]

    /// The bindings.
    public var bindings: [InputEvent: PickerAction] {
        get { Dictionary(pairs.map { ($0.event, $0.action) }, uniquingKeysWith: { _, last in last }) }
        set { pairs = newValue.map { (event: $0.key, action: $0.value) } }
    }

    /// A key map of `bindings`.
    public init(bindings: [InputEvent: PickerAction]) {
        pairs = bindings.map { (event: $0.key, action: $0.value) }
    }

    private init(pairs: [(event: InputEvent, action: PickerAction)]) { self.pairs = pairs }

    /// The default picker keys of SPEC §7.
    public static let picker = KeyMap(pairs: [
        (.left, .left), (.character("h"), .left), (.right, .right), (.character("l"), .right),
        (.up, .up), (.character("k"), .up), (.down, .down), (.character("j"), .down),
        (.tab, .nextRow), (.backTab, .previousRow), (.enter, .pick),
        (.character("/"), .filter), (.character("?"), .help),
        (.escape, .cancel), (.character("q"), .cancel), (.control("c"), .cancel),
        (.home, .first), (.end, .last),
    ])

    /// The action for an event, if bound.
    public func action(for event: InputEvent) -> PickerAction? { pairs.first { $0.event == event }?.action }

    public static func == (lhs: KeyMap, rhs: KeyMap) -> Bool { lhs.bindings == rhs.bindings }
}

extension InputEvent: Hashable {}
