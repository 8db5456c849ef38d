import ShareCore
import ShareTerminal

extension ScreenPresenter {
    /// Asks for one of `options` on a screen of its own: its index, or nil
    /// when the person closes it (or there is no terminal).
    func choose(title: String, heading: String, none: String, options: [String]) async -> Int? {
        guard let terminal = try? openTerminal() else { return nil }
        defer { terminal.end() }
        let size = terminal.size
        let program = ChoiceProgram(state: ChoiceState(title: title, heading: heading, none: none, options: options,
                                                       width: size.width, height: size.height, colors: terminal.colors))
        return await ScreenLoop<Never>(terminal: terminal).run(program)
    }
}

/// The choice screen as a screen of the loop.
@MainActor
final class ChoiceProgram: ScreenProgram {
    private var state: ChoiceState

    init(state: ChoiceState) { self.state = state }

    func view() -> Frame { ChoiceView.view(state) }

    func handle(_ event: ScreenEvent<Never>, in loop: ScreenLoop<Never>) -> Int?? {
        guard case .input(let input) = event else { return nil }
        switch ChoiceUpdate.update(&state, input) {
        case .chosen(let index): return .some(index)
        case .closed: return .some(nil)
        case nil: return nil
        }
    }

    func terminalClosed(in loop: ScreenLoop<Never>) -> Int? { nil }
}
