import ShareCore
import ShareSupport

/// The progress screen's view: a box with the title, a bar and the way out.
public enum ProgressView {
    /// Draws `state`.
    public static func view(_ state: ProgressState) -> Frame {
        var frame = Frame(width: state.width, height: state.height)
        let width = min(state.width - 2, 56)
        guard width >= 12, state.height >= 5 else {
            frame.put(DisplayWidth.truncate(state.title + "…", to: max(0, state.width)), x: 0, y: 0)
            return frame
        }
        let height = 5
        let x = (state.width - width) / 2
        let y = (state.height - height) / 2
        frame.box(x: x, y: y, width: width, height: height)
        let spinner = Spinner.frame(state.spinner)
        frame.put(DisplayWidth.truncate("\(spinner) \(state.title)…", to: width - 4), x: x + 2, y: y + 1, style: CellStyle(bold: true))
        let barWidth = width - 10
        if let fraction = state.fraction {
            let done = Int((Double(barWidth) * min(1, max(0, fraction))).rounded(.down))
            let accent = state.colors ? CellStyle(foreground: .cyan) : .plain
            frame.put(String(repeating: "█", count: done), x: x + 2, y: y + 2, style: accent)
            frame.put(String(repeating: "░", count: barWidth - done), x: x + 2 + done, y: y + 2, style: CellStyle(dim: true))
            frame.put("\(Int((fraction * 100).rounded(.down)))%", x: x + 3 + barWidth, y: y + 2)
        }
        let hint = state.cancelling ? Localization.text("Cancelling…") : KeyMap.progress.helpBar()
        frame.put(hint, x: x + 2, y: y + 3, style: CellStyle(dim: true))
        return state.colors ? frame : frame.monochrome
    }
}
