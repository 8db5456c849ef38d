import ShareCore
import ShareSupport

/// What a key asks of the progress screen.
public enum ProgressAction: Sendable, Equatable {
    /// Stop the work.
    case cancel
}

extension KeyMap where Action == ProgressAction {
    /// The progress screen's keys: `Esc cancels`.
    public static var progress: KeyMap {
        KeyMap([KeyBinding(.cancel, [.escape, .control("c"), .character("q")], bar: .words(Localization.text("cancels")))])
    }
}
