import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal

extension ScreenPresenter {
    /// Shows what an activity gave back until the person closes the
    /// screen; `c` copies it. Nothing happens without a terminal.
    func showResult(title: String, lines: [String]) async {
        guard let terminal = try? openTerminal() else { return }
        defer { terminal.end() }
        let size = terminal.size
        let program = ResultProgram(state: ResultState(title: title, lines: lines, width: size.width, height: size.height,
                                                       colors: terminal.colors),
                                    environment: services.environment)
        await ScreenLoop<Never>(terminal: terminal).run(program)
    }
}

/// The result screen in the loop: `ResultUpdate` decides, this copies.
@MainActor
final class ResultProgram: ScreenProgram {
    private var state: ResultState
    private let environment: [String: String]

    init(state: ResultState, environment: [String: String]) {
        self.state = state
        self.environment = environment
    }

    func view() -> Frame { ResultView.view(state) }

    func handle(_ event: ScreenEvent<Never>, in loop: ScreenLoop<Never>) -> Void? {
        guard case .input(let input) = event else { return nil }
        for effect in ResultUpdate.update(&state, input) {
            switch effect {
            case .close: return ()
            case .copy(let text):
                do {
                    let throughTerminal = try SystemIntegration(environment: environment).copy(text)
                    ResultUpdate.show(throughTerminal ? Localization.text("Sent to the terminal's clipboard (OSC 52)") : Localization.text("Copied"),
                                      isError: false, in: &state)
                } catch {
                    ResultUpdate.show(Localization.text("Cannot copy: %@", ErrorText.sentence(error)), isError: true, in: &state)
                }
            }
        }
        return nil
    }

    func terminalClosed(in loop: ScreenLoop<Never>) {}
}
