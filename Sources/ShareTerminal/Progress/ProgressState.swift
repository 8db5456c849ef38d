/// A screen that waits on work in progress (item providers computing an
/// activity's items): what it is, how far it got, and whether the person
/// asked to stop it.
public struct ProgressState: Sendable, Equatable {
    /// What is being done (`Preparing the items for Mail`).
    public var title: String
    /// The fraction done, 0 to 1, when the work reports one.
    public var fraction: Double?
    /// Whether the person asked to cancel (the work is stopping).
    public var cancelling = false
    /// How far the spinner has turned.
    public var spinner = 0
    public var width: Int
    public var height: Int
    public var colors: Bool

    /// A screen about `title`, nothing done yet.
    public init(title: String, width: Int, height: Int, colors: Bool = true) {
        self.title = title
        self.width = width
        self.height = height
        self.colors = colors
    }
}

/// What the progress screen asks the run loop to do.
public enum ProgressEffect: Sendable, Equatable {
    /// Stop the work.
    case cancel
}

/// The progress screen's update: pure.
public enum ProgressUpdate {
    /// Applies a key, a resize or a tick.
    public static func update(_ state: inout ProgressState, _ event: InputEvent?) -> [ProgressEffect] {
        switch event {
        case nil:
            state.spinner += 1
        case .resize(let width, let height)?:
            state.width = width
            state.height = height
        case let event?:
            guard KeyMap.progress.action(for: event) == .cancel, !state.cancelling else { return [] }
            state.cancelling = true
            return [.cancel]
        }
        return []
    }
}
