import ShareCore
import ShareSupport
import ShareTerminal

extension ScreenPresenter {
    /// Shows the providers' progress while they compute the items (Esc
    /// cancels them); with no terminal, the items are computed unseen.
    func prepare(_ activity: any Activity, providers: [ItemProvider],
                 work: @escaping @MainActor () async throws -> [ShareItem]) async throws -> [ShareItem] {
        guard let terminal = try? openTerminal() else { return try await work() }
        defer { terminal.end() }
        let size = terminal.size
        let state = ProgressState(title: Localization.text("Preparing the items for %@", activity.localizedActivityTitle), width: size.width,
                                  height: size.height, colors: terminal.colors)
        let program = PreparationProgram(state: state, providers: providers)
        let loop = ScreenLoop<PreparationProgram.Message>(terminal: terminal)
        let poster = loop.poster
        for provider in providers {
            provider.observeProgress { _ in
                poster.post(.progress(providers.map(\.progress).reduce(0, +) / Double(providers.count)))
            }
        }
        loop.start {
            do { program.items = try await work() } catch { program.failure = error }
            return .finished
        }
        return try await loop.run(program).get()
    }
}

/// Item providers at work, as a screen of the loop: their progress, and a
/// cancel that stops them.
@MainActor
final class PreparationProgram: ScreenProgram {
    enum Message: Sendable {
        /// The providers' fraction done, together.
        case progress(Double)
        /// The work ended: ``items`` or ``failure`` holds how.
        case finished
    }

    private var state: ProgressState
    private let providers: [ItemProvider]
    /// What the work gave, once it ended.
    var items: [ShareItem]?
    var failure: (any Error)?

    init(state: ProgressState, providers: [ItemProvider]) {
        self.state = state
        self.providers = providers
    }

    func view() -> Frame { ProgressView.view(state) }

    func handle(_ event: ScreenEvent<Message>, in loop: ScreenLoop<Message>) -> Result<[ShareItem], any Error>? {
        switch event {
        case .message(.progress(let fraction)):
            state.fraction = fraction
        case .message(.finished):
            if let items { return .success(items) }
            return .failure(failure ?? ItemProviderError.cancelled)
        case .tick:
            _ = ProgressUpdate.update(&state, nil)
        case .input(let input):
            if ProgressUpdate.update(&state, input).contains(.cancel) { cancel() }
        }
        return nil
    }

    /// Nobody is left to wait for the items: stop the providers.
    func terminalClosed(in loop: ScreenLoop<Message>) -> Result<[ShareItem], any Error> {
        cancel()
        return .failure(ItemProviderError.cancelled)
    }

    private func cancel() {
        for provider in providers { provider.cancel() }
    }
}
