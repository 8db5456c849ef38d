import ShareCore
import ShareSupport

/// Named things a person can ask of the picker, independent of the keys bound to them.
public enum PickerAction: String, Sendable, Equatable, CaseIterable {
    case left, right, up, down, nextRow, previousRow, pick, filter, help, cancel, first, last, pin
    /// Open the chooser of the options before sharing (the header's Options line).
    case options
    /// Pick the activity whose position is the digit typed (people do not count).
    case pickByPosition
    /// The mouse wheel: scroll a line of tiles.
    case scrollUp, scrollDown
}

extension KeyMap where Action == PickerAction {
    /// The picker's keys (SPEC §7), with what its help bar and its list of
    /// keys (`?`) say of them; the config's `[keys]` rebinds the named ones.
    ///
    /// The bar: `←↓↑→ move  Tab row  Enter pick  1-9 pick  / filter  p pin  ? keys  Esc cancel`.
    public static var picker: KeyMap {
        let pick = Localization.text("pick")
        let digits = (1...9).map { InputEvent.character(Character(String($0))) }
        return KeyMap([
            // Ctrl-C always cancels, even while the keys or a filter show.
            KeyBinding(.cancel, [.control("c")], list: .with(.cancel, keys: "Ctrl-C"), isFixed: true),
            KeyBinding(.left, [.left, .character("h")], name: "left",
                       bar: .words(Localization.text("move")), list: .words(Localization.text("previous / next activity"))),
            KeyBinding(.down, [.down, .character("j")], name: "down", bar: .with(.left), list: .with(.up)),
            KeyBinding(.up, [.up, .character("k")], name: "up", bar: .with(.left), list: .words(Localization.text("line above / below"))),
            KeyBinding(.right, [.right, .character("l")], name: "right", bar: .with(.left), list: .with(.left)),
            KeyBinding(.nextRow, [.tab], name: "next-row",
                       bar: .words(Localization.text("row")), list: .words(Localization.text("switch between Share and Actions"))),
            KeyBinding(.previousRow, [.backTab], name: "previous-row", list: .with(.nextRow)),
            KeyBinding(.pick, [.enter], name: "pick", bar: .words(pick), list: .words(Localization.text("pick the selected activity"))),
            KeyBinding(.pickByPosition, digits, bar: .words(pick, keys: "1-9"), list: .words(Localization.text("pick by position"), keys: "1 – 9")),
            KeyBinding(.filter, [.character("/")], name: "filter",
                       bar: .words(Localization.text("filter")), list: .words(Localization.text("filter by title (Esc clears)"))),
            KeyBinding(.pin, [.character("p")], name: "pin",
                       bar: .words(Localization.text("pin")), list: .words(Localization.text("pin / unpin the selected activity"))),
            KeyBinding(.options, [.character("o")], name: "options",
                       list: .words(Localization.text("options: location, metadata, size"))),
            KeyBinding(.help, [.character("?")], name: "help", bar: .words(Localization.text("keys"))),
            KeyBinding(.scrollUp, [.wheelUp], list: .words(Localization.text("click picks, wheel scrolls"), keys: Localization.text("mouse"))),
            KeyBinding(.scrollDown, [.wheelDown]),
            KeyBinding(.cancel, [.escape, .character("q")], name: "cancel",
                       bar: .words(Localization.text("cancel")), list: .words(Localization.text("cancel"))),
            KeyBinding(.first, [.home]),
            KeyBinding(.last, [.end]),
        ])
    }
}

/// What a key asks of the picker's filter while it shows; characters are typed.
public enum FilterAction: Sendable, Equatable {
    /// Delete the last character; on an empty filter, close it.
    case deleteBackward
    /// Empty the filter.
    case clear
    /// Close the filter: every tile shows again.
    case close
}

extension KeyMap where Action == FilterAction {
    /// The filter's keys: Backspace, C-u and Esc. The picker's list of keys
    /// says that Esc clears it.
    public static var filter: KeyMap {
        KeyMap([
            KeyBinding(.deleteBackward, [.backspace]),
            KeyBinding(.clear, [.control("u")]),
            KeyBinding(.close, [.escape]),
        ])
    }
}
