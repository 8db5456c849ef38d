import ShareCore
import ShareSupport

/// What a key asks of a screen that shows a link: the link screen, and
/// the live screen (Nearby), whose offers are links too.
public enum LinkAction: Sendable, Equatable {
    /// Copy the link.
    case copy
    /// Done with the link (the link screen).
    case done
    /// Stop the activity (the live screen).
    case stop
}

extension KeyMap where Action == LinkAction {
    /// The link screen's keys: `c copy link   Enter done`.
    public static var link: KeyMap {
        KeyMap([copyLink, KeyBinding(.done, [.enter, .escape, .character("q"), .control("c")], bar: .words(Localization.text("done")))])
    }

    /// The live screen's keys: `c copy link   Esc stop` (copy only when a link is offered).
    public static var live: KeyMap {
        KeyMap([copyLink, KeyBinding(.stop, [.escape, .character("q"), .control("c")], bar: .words(Localization.text("stop")))])
    }

    private static var copyLink: KeyBinding<LinkAction> {
        KeyBinding(.copy, [.character("c"), .character("y")], bar: .words(Localization.text("copy link")))
    }
}
