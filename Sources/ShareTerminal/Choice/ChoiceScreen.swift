import ShareCore
import ShareSupport

/// A screen that asks for one of a list (a draft to reopen): a title bar,
/// and the list in a box narrowed by typing (``Chooser``).
public struct ChoiceState: Sendable, Equatable {
    public var title: String
    /// What the list is, on the box's border (`Choose a draft`).
    public var heading: String
    /// Words for a filter that matches nothing.
    public var none: String
    public var chooser: Chooser
    public var width: Int
    public var height: Int
    public var colors: Bool

    public init(title: String, heading: String, none: String, options: [String], width: Int, height: Int, colors: Bool = true) {
        self.title = title
        self.heading = heading
        self.none = none
        chooser = Chooser(options: options)
        self.width = width
        self.height = height
        self.colors = colors
    }
}

/// The choice screen's update: pure.
public enum ChoiceUpdate {
    /// Applies an input; the chooser's outcome when it ends.
    public static func update(_ state: inout ChoiceState, _ event: InputEvent) -> Chooser.Outcome? {
        if case .resize(let width, let height) = event {
            state.width = width
            state.height = height
            return nil
        }
        return state.chooser.handle(event)
    }
}

/// The choice screen's view: pure.
public enum ChoiceView {
    public static func view(_ state: ChoiceState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        guard state.width >= 20, state.height >= 6 else { return frame }
        frame.fill(x: 0, y: 0, width: state.width, height: 1, style: CellStyle(reverse: true))
        frame.put(DisplayWidth.truncate(" " + state.title, to: state.width), x: 0, y: 0, style: CellStyle(bold: true, reverse: true))
        let cursor = state.chooser.draw(title: state.heading, none: state.none, into: &frame)
        frame.cursor = cursor
        return state.colors ? frame : frame.monochrome
    }
}
