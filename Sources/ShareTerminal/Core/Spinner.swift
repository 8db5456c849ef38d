/// The spinner screens turn while work runs ("Sending… ⠙").
enum Spinner {
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The frame after `turns` turns.
    static func frame(_ turns: Int) -> String { frames[abs(turns) % frames.count] }
}
