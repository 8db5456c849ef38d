import ShareActivities
import ShareCore
import ShareSupport
import ShareTerminal
import Synchronization

extension ScreenPresenter: LivePresenter {
    /// Shows a live activity's screen while `run` performs it: its status
    /// as the activity shows it, Esc (and Ctrl-C, q) asks it to stop, `c`
    /// copies its link; the screen ends with the activity.
    func presentLive(_ activity: any LiveActivity, run: @escaping @MainActor (LiveDisplay) async -> ActivityResult) async -> ActivityResult {
        let terminal: any TerminalBackend
        do { terminal = try openTerminal() } catch {
            return .failure(activity.activityType, ActivityError(code: ActivityError.Code.noTerminal, message: ErrorText.sentence(error)))
        }
        defer { terminal.end() }
        let loop = ScreenLoop<LiveProgram.Message>(terminal: terminal)
        let poster = loop.poster
        let display = LiveDisplay { status in poster.post(.status(status)) }
        let size = terminal.size
        let program = LiveProgram(state: LiveState(status: LiveStatus(title: activity.localizedActivityTitle, instruction: ""),
                                                   width: size.width, height: size.height, colors: terminal.colors),
                                  display: display, environment: services.environment, type: activity.activityType)
        loop.start { .finished(await run(display)) }
        return await loop.run(program)
    }
}

/// A live activity's screen in the loop: `LiveUpdate` decides, this
/// performs its effects.
@MainActor
final class LiveProgram: ScreenProgram {
    enum Message: Sendable {
        case status(LiveStatus)
        case finished(ActivityResult)
    }

    private var state: LiveState
    private let display: LiveDisplay
    private let environment: [String: String]
    private let type: ActivityType

    init(state: LiveState, display: LiveDisplay, environment: [String: String], type: ActivityType) {
        self.state = state
        self.display = display
        self.environment = environment
        self.type = type
    }

    func view() -> Frame { LiveView.view(state) }

    func handle(_ event: ScreenEvent<Message>, in loop: ScreenLoop<Message>) -> ActivityResult? {
        switch event {
        case .input(let input):
            for effect in LiveUpdate.update(&state, .input(input)) {
                switch effect {
                case .stop:
                    display.cancel()
                case .input(let input):
                    display.send(input)
                case .copy(let link):
                    let (news, isError) = ComposeProgram.copy(link, system: SystemIntegration(environment: environment))
                    _ = LiveUpdate.update(&state, .note(news, isError: isError))
                }
            }
        case .message(.status(let status)):
            _ = LiveUpdate.update(&state, .status(status))
        case .message(.finished(let result)):
            return result
        case .tick:
            break
        }
        return nil
    }

    /// The terminal went away: the activity is asked to stop, and share ends with it.
    func terminalClosed(in loop: ScreenLoop<Message>) -> ActivityResult {
        display.cancel()
        return ActivityResult(activityType: type, outcome: .cancelled,
                              error: ActivityError(code: ActivityError.Code.terminalClosed, message: "the terminal went away"))
    }
}

/// A live activity's status without a screen: its offers once, then each
/// new line of news that is not a transfer's progress, on standard error.
final class LiveStatusLines: Sendable {
    private let printed = Mutex<(offers: [String], lines: Set<String>)>(([], []))
    private let write: @Sendable (String) -> Void

    init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    func show(_ status: LiveStatus) {
        let text = printed.withLock { printed -> String in
            var text = ""
            let offers = status.offers.map { $0.heading + ": " + $0.text }
            if offers != printed.offers {
                printed.offers = offers
                text += offers.map { "share: " + TerminalText.sanitized($0) + "\n" }.joined()
            }
            for line in status.lines where line.progress == nil && !printed.lines.contains(line.text) {
                printed.lines.insert(line.text)
                text += "share: " + TerminalText.sanitized(line.text) + "\n"
            }
            return text
        }
        if !text.isEmpty { write(text) }
    }
}
