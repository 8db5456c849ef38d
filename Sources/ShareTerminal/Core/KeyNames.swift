import ShareSupport

/// Key names as people write them in the config's `[keys]` section:
/// `C-x` or `Ctrl-x`, `M-f` or `Alt-f`, `Enter`, `Esc`, `Tab`, `S-Tab`,
/// `Up`, `Down`, `Left`, `Right`, `Home`, `End`, `PageUp`, `PageDown`,
/// `Backspace`, `Delete`, `Space`, or a single character.
public enum KeyNames {
    /// The event a name stands for, or `nil` when it names no key.
    public static func event(_ name: String) -> InputEvent? {
        let text = name.trimmingWhitespace(includingNewlines: true)
        let lowered = text.lowercased()
        for prefix in ["c-", "ctrl-", "^"] where lowered.hasPrefix(prefix) && text.count == prefix.count + 1 {
            guard let letter = lowered.last, letter.isLetter, letter.isASCII else { return nil }
            return .control(letter)
        }
        for prefix in ["m-", "alt-"] where lowered.hasPrefix(prefix) && text.count == prefix.count + 1 {
            return text.last.map { .alt($0) }
        }
        switch lowered {
        case "enter", "return": return .enter
        case "esc", "escape": return .escape
        case "tab": return .tab
        case "s-tab", "shift-tab", "backtab": return .backTab
        case "up": return .up
        case "down": return .down
        case "left": return .left
        case "right": return .right
        case "home": return .home
        case "end": return .end
        case "pageup": return .pageUp
        case "pagedown": return .pageDown
        case "backspace": return .backspace
        case "delete", "del": return .delete
        case "space": return .character(" ")
        default: return text.count == 1 ? text.first.map { .character($0) } : nil
        }
    }

    /// How a key is shown in help bars: `^X`, `M-f`, `Esc`, `Tab`, `x`.
    public static func label(_ event: InputEvent) -> String {
        switch event {
        case .control(let letter): "^" + String(letter).uppercased()
        case .alt(let character): "M-" + String(character)
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "S-Tab"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .backspace: "Backspace"
        case .delete: "Del"
        default: "?"
        }
    }

    /// How a key is shown in a help bar with no room for words: as in
    /// ``label(_:)``, but Enter as `⏎`.
    public static func shortLabel(_ event: InputEvent) -> String {
        event == .enter ? "⏎" : label(event)
    }
}

/// Every `[keys]` action: the compose screen's and the picker's.
public enum KeyActions {
    /// The names accepted in `[keys]`, each with what it does.
    public static let all: [(name: String, meaning: String)] = [
        ("send", "forms: the primary action (Send, Post, Print)"), ("save", "forms: the secondary action (Save draft)"),
        ("later", "forms: the action done at a time asked for (Send later)"),
        ("attach", "forms: attach a file"), ("editor", "forms: edit in $EDITOR"), ("cancel", "forms and picker: cancel"),
        ("pick", "picker: pick the selected tile"), ("filter", "picker: filter by title"), ("help", "picker: show the keys"),
        ("pin", "picker: pin or unpin the selected tile"), ("options", "picker: the options before sharing"),
        ("next-row", "picker: the other row"), ("previous-row", "picker: the other row, backwards"),
        ("left", "picker: previous tile"), ("right", "picker: next tile"), ("up", "picker: line above"), ("down", "picker: line below"),
    ]

    /// Applies `bindings` (action → keys) to the picker's key map and the
    /// forms'; the caller has checked the names. The keys of an action
    /// replace its default keys.
    ///
    /// Actions are applied in the order of `all`, so when two actions claim
    /// one key the later in `all` always gets it, whatever the dictionary's order.
    public static func apply(_ bindings: [String: [InputEvent]], picker: inout KeyMap<PickerAction>, form: inout KeyMap<FormCommand>) {
        for (action, _) in all {
            guard let events = bindings[action], !events.isEmpty else { continue }
            picker.rebind(named: action, to: events)
            form.rebind(named: action, to: events)
        }
    }
}
