/// One binding of a screen's key map: the keys that trigger an action,
/// the action's name in the config's `[keys]`, and what the help says of it.
public struct KeyBinding<Action: Sendable & Equatable>: Sendable, Equatable {
    /// Where a binding shows in one kind of help: a help bar, or the list
    /// of keys (the picker's `?`).
    public enum Help: Sendable, Equatable {
        /// Not shown.
        case hidden
        /// An entry of its own: the keys, then `words`. `keys` names the
        /// keys when they are not listed one by one (`1-9`, `mouse`).
        case words(String, keys: String? = nil)
        /// An entry of its own whose words the screen gives as it draws (a
        /// form's primary action: Send, Post or Print).
        case given
        /// In the entry of `action`'s binding, after its keys; `keys` names
        /// them when they are not listed one by one (`Ctrl-C`).
        case with(Action, keys: String? = nil)
    }

    /// What the keys do.
    public var action: Action
    /// The keys, in order: a help bar names the first.
    public var keys: [InputEvent]
    /// The action's name in `[keys]` (`next-row`); `nil` when the config
    /// cannot rebind it.
    public var name: String?
    /// What a help bar says of it.
    public var bar: Help
    /// What the list of keys says of it.
    public var list: Help
    /// Whether its keys hold whatever the config says, in every mode of the
    /// screen (Ctrl-C cancels the picker while it shows its keys too): the
    /// map finds them first, and rebinding never takes them away.
    public var isFixed: Bool

    /// A binding of `keys` to `action`.
    public init(_ action: Action, _ keys: [InputEvent], name: String? = nil, bar: Help = .hidden, list: Help = .hidden,
                isFixed: Bool = false) {
        self.action = action
        self.keys = keys
        self.name = name
        self.bar = bar
        self.list = list
        self.isFixed = isFixed
    }
}

/// A screen's keys as data: which keys trigger which of the screen's
/// actions, and what its help bar and list of keys say of them, so that
/// the help always names the keys bound now.
///
/// Kept as a short list rather than a dictionary: a key press looks through
/// twenty bindings, and a map is made without hashing a Character (which
/// normalizes it) before a screen's first paint. The list's order is the
/// help's order: an entry comes where its binding is.
public struct KeyMap<Action: Sendable & Equatable>: Sendable, Equatable {
    /// The bindings, in order.
    public private(set) var bindings: [KeyBinding<Action>]

    /// A key map of `bindings`; when two have a key, the first wins (a fixed one before any other).
    public init(_ bindings: [KeyBinding<Action>]) {
        self.bindings = bindings
    }

    // MARK: - Keys

    /// The action for an event, if bound: a fixed binding's, else the first binding's that has the key.
    public func action(for event: InputEvent) -> Action? {
        fixedAction(for: event) ?? bindings.first { $0.keys.contains(event) }?.action
    }

    /// The action of a fixed binding of `event`: one the screen honours in
    /// every mode, before anything else.
    public func fixedAction(for event: InputEvent) -> Action? {
        bindings.first { $0.isFixed && $0.keys.contains(event) }?.action
    }

    /// The keys that do `action`, each once: those of its bindings, the
    /// fixed ones last (the first is the one a help bar names).
    public func keys(for action: Action) -> [InputEvent] {
        var keys: [InputEvent] = []
        for binding in helpOrder where binding.action == action {
            for key in counted(binding) where !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The names the config's `[keys]` may rebind, in order.
    public var names: [String] { bindings.compactMap { $0.name } }

    /// Makes `events` the keys of `action` (of its first binding that is
    /// not fixed), in that order, once each, in place of its old keys; an
    /// event bound to another action leaves that action, unless fixed.
    public mutating func rebind(_ action: Action, to events: [InputEvent]) {
        guard let index = bindings.firstIndex(where: { !$0.isFixed && $0.action == action }) else { return }
        rebind(at: index, to: events)
    }

    /// Rebinds as ``rebind(_:to:)`` the binding the config names `name`;
    /// nothing when no binding has that name.
    public mutating func rebind(named name: String, to events: [InputEvent]) {
        guard let index = bindings.firstIndex(where: { $0.name == name }) else { return }
        rebind(at: index, to: events)
    }

    private mutating func rebind(at index: Int, to events: [InputEvent]) {
        var unique: [InputEvent] = []
        for event in events where !unique.contains(event) { unique.append(event) }
        for other in bindings.indices where !bindings[other].isFixed {
            bindings[other].keys.removeAll { unique.contains($0) }
        }
        bindings[index].keys = unique
    }

    /// The bindings in the order the help lists their keys: the fixed ones last.
    private var helpOrder: [KeyBinding<Action>] { bindings.filter { !$0.isFixed } + bindings.filter { $0.isFixed } }

    /// The keys of `binding` that do its action (a key does what its first binding says).
    private func counted(_ binding: KeyBinding<Action>) -> [InputEvent] {
        binding.keys.filter { action(for: $0) == binding.action }
    }

    // MARK: - Help

    /// The help bar: each entry's keys (the first of each action in it)
    /// and words, `separator` between entries: `←↓↑→ move  Tab row  …`.
    /// `words` gets each entry's action and words (`nil` for words the
    /// screen gives) and says what to show, `nil` for nothing.
    public func helpBar(separator: String = "  ", words: (Action, String?) -> String? = { $1 }) -> String {
        entries({ $0.bar }, label: KeyNames.label).compactMap { entry in
            guard let keys = entry.firstKeys, let words = words(entry.action, entry.words) else { return nil }
            return keys + " " + words
        }.joined(separator: separator)
    }

    /// The help bar for narrow terminals: every entry's keys, without
    /// words, Enter as `⏎`: `←↓↑→ Tab ⏎ 1-9 / ? Esc`.
    public func shortHelpBar(words: (Action, String?) -> String? = { $1 }) -> String {
        entries({ $0.bar }, label: KeyNames.shortLabel).compactMap { entry in
            words(entry.action, entry.words) == nil ? nil : entry.firstKeys
        }.joined(separator: " ")
    }

    /// The list of keys (`?`): every key of each entry, and its words.
    public func keyList() -> [(keys: String, meaning: String)] {
        entries({ $0.list }, label: KeyNames.label).compactMap { entry in
            guard let keys = entry.allKeys, let words = entry.words else { return nil }
            return (keys, words)
        }
    }

    /// One entry of a help: its words, and the labels of the keys of each
    /// action in it, in order.
    private struct Entry {
        var action: Action
        var words: String?
        var groups: [(action: Action, keys: [InputEvent], labels: [String])] = []

        /// The first key of each action, run together when each is one
        /// column (`←↓↑→`, `hjkl`), else with slashes (`^B/↓/↑/^F`).
        var firstKeys: String? {
            let labels = groups.compactMap { $0.labels.first }
            guard !labels.isEmpty else { return nil }
            return labels.joined(separator: labels.allSatisfy { DisplayWidth.of($0) == 1 } ? "" : "/")
        }

        /// Every key: those of opposite actions side by side in pairs when
        /// each has as many (`← → h l`), else one action's after the
        /// other's (`a / → l`).
        var allKeys: String? {
            let lists = groups.map { $0.labels }.filter { !$0.isEmpty }
            guard let first = lists.first else { return nil }
            if lists.count == 1 { return first.joined(separator: " ") }
            guard lists.allSatisfy({ $0.count == first.count }) else {
                return lists.map { $0.joined(separator: " ") }.joined(separator: " / ")
            }
            return first.indices.flatMap { index in lists.map { $0[index] } }.joined(separator: " ")
        }

        /// Adds the keys of `binding` that count to its action's labels,
        /// as `name` when it names them together.
        mutating func add(_ binding: KeyBinding<Action>, keys: [InputEvent], name: String?, label: (InputEvent) -> String) {
            let index = groups.firstIndex { $0.action == binding.action } ?? {
                groups.append((binding.action, [], []))
                return groups.count - 1
            }()
            let new = keys.filter { !groups[index].keys.contains($0) }
            guard !new.isEmpty else { return }
            groups[index].keys += new
            groups[index].labels += name.map { [$0] } ?? new.map(label)
        }
    }

    /// The entries of one help, in the order of their bindings.
    ///
    /// This generic code reads properties through closures, never key paths
    /// (`\.bar`): a key path of a generic type is made at run time from its
    /// mangled pattern, 0.6 M instructions before the picker's first frame.
    private func entries(_ place: (KeyBinding<Action>) -> KeyBinding<Action>.Help, label: (InputEvent) -> String) -> [Entry] {
        let ordered = helpOrder
        let counted = ordered.map(counted)
        var entries: [Entry] = []
        for (index, binding) in ordered.enumerated() {
            var entry: Entry
            let name: String?
            switch place(binding) {
            case .words(let words, let keys): (entry, name) = (Entry(action: binding.action, words: words), keys)
            case .given: (entry, name) = (Entry(action: binding.action, words: nil), nil)
            case .hidden, .with: continue
            }
            entry.add(binding, keys: counted[index], name: name, label: label)
            for (other, member) in ordered.enumerated() {
                guard case .with(let leader, let keys) = place(member), leader == binding.action else { continue }
                entry.add(member, keys: counted[other], name: keys, label: label)
            }
            entries.append(entry)
        }
        return entries
    }
}
