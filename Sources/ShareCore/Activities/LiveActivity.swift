import Synchronization

/// What an activity that runs a while (Nearby serving a file) shows as it
/// runs: ways to reach the share, each with its text and a QR code, and
/// lines of news (who connected, how far a download got). The front end
/// draws it and knows nothing of what it means.
public struct LiveStatus: Sendable, Equatable {
    /// One way to reach the share: a link on this network, a wormhole code.
    public struct Offer: Sendable, Equatable {
        /// What it is (`On this network (wlan0)`).
        public var heading: String
        /// What the person reads or types (a URL, a code).
        public var text: String
        /// What the QR code holds (`nil`: no code).
        public var code: String?
        /// Whether `text` is a link (an OSC 8 hyperlink where supported).
        public var isLink: Bool

        public init(heading: String, text: String, code: String? = nil, isLink: Bool = false) {
            self.heading = heading
            self.text = text
            self.code = code
            self.isLink = isLink
        }
    }

    /// A line of news, with how far along it is (0…1) when it is a transfer.
    public struct Line: Sendable, Equatable {
        public var text: String
        public var progress: Double?
        public var isError: Bool

        public init(_ text: String, progress: Double? = nil, isError: Bool = false) {
            self.text = text
            self.progress = progress
            self.isError = isError
        }
    }

    /// Something the person can pick with one key (a device around to send to).
    public struct Choice: Sendable, Equatable {
        /// The key that picks it (`1`).
        public var key: Character
        /// What it is (`📱 Kim's Pixel (Samsung, mobile)`).
        public var text: String

        public init(key: Character, text: String) {
            self.key = key
            self.text = text
        }
    }

    /// The heading (`Nearby`).
    public var title: String
    /// What the person does next (`Scan the code with a phone …`).
    public var instruction: String
    public var offers: [Offer]
    /// The news, oldest first.
    public var lines: [Line]
    /// The work is done and the screen only shows its outcome (a link
    /// made): Esc closes it rather than stopping anything.
    public var isDone = false
    /// What the person can pick with one key, under its heading
    /// (`Devices around`); picking one is ``LiveInput/choose(_:)``.
    public var choices: [Choice] = []
    public var choicesHeading = ""
    /// A question the person answers by typing and Enter (`PIN for
    /// Kim's Pixel`), or `nil`; the answer is ``LiveInput/answer(_:)``.
    public var prompt: String?

    public init(title: String, instruction: String, offers: [Offer] = [], lines: [Line] = [], isDone: Bool = false) {
        self.title = title
        self.instruction = instruction
        self.offers = offers
        self.lines = lines
        self.isDone = isDone
    }
}

/// What the person did on a live activity's screen beside stopping it.
public enum LiveInput: Sendable, Equatable {
    /// Pressed the key of a ``LiveStatus/Choice``.
    case choose(Character)
    /// Typed this and pressed Enter at the ``LiveStatus/prompt``.
    case answer(String)
}

/// Where a live activity shows its status, and hears that the person
/// wants it to stop (or picks a choice, or answers its prompt). Safe from any thread: a server's thread shows
/// progress through it as bytes go out.
public final class LiveDisplay: Sendable {
    private let sink: @Sendable (LiveStatus) -> Void
    private let state = Mutex<(cancelled: Bool, waiters: [Int: CheckedContinuation<Void, Never>], next: Int)>((false, [:], 0))

    /// A display that hands each status to `sink` (the screen loop's poster,
    /// or lines on standard error without a terminal).
    public init(sink: @escaping @Sendable (LiveStatus) -> Void) {
        self.sink = sink
    }

    private let inputs = AsyncStream<LiveInput>.makeStream()

    /// Shows `status` in place of the last one.
    public func show(_ status: LiveStatus) { sink(status) }

    /// What the person picks and answers, in order; one reader.
    public var input: AsyncStream<LiveInput> { inputs.stream }

    /// The person picked a choice or answered the prompt (the screen calls it).
    public func send(_ input: LiveInput) { inputs.continuation.yield(input) }

    /// The person asked to stop (Esc, Ctrl-C).
    public func cancel() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.cancelled else { return [] }
            state.cancelled = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Whether the person asked to stop.
    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    /// Returns once the person asks to stop (at once if they have), or
    /// when the task waiting is cancelled.
    public func cancellation() async {
        let key = state.withLock { state -> Int in
            defer { state.next += 1 }
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.cancelled || Task.isCancelled { return true }
                    state.waiters[key] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: key) }?.resume()
        }
    }
}

/// An activity that runs a while after it is picked, with a screen of its
/// own (``LiveStatus``) instead of a form: Nearby serves its items until
/// they are fetched. It still reports exactly one outcome on the session.
@MainActor
public protocol LiveActivity: Activity {
    /// Performs, showing its progress on `display` and stopping (with
    /// `cancelled`) when the person asks.
    func perform(_ session: ActivitySession, display: LiveDisplay) async
}

extension LiveActivity {
    /// Without a display, a live activity runs with one that shows nothing.
    public func perform(_ session: ActivitySession) async {
        await perform(session, display: LiveDisplay { _ in })
    }
}

/// A front end that can show a live activity's screen.
@MainActor
public protocol LivePresenter: AnyObject {
    /// Shows `activity`'s status while `run` performs it with the display,
    /// passing the person's wish to stop to the display; returns what `run`
    /// returns.
    func presentLive(_ activity: any LiveActivity, run: @escaping @MainActor (LiveDisplay) async -> ActivityResult) async -> ActivityResult
}
