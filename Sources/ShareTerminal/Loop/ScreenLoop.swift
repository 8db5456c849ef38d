import Synchronization

/// A timer of ``ScreenLoop``: its key and when it comes due.
private struct ScreenTimer {
    let key: String
    let due: Int
}

/// What a screen hears from the loop.
public enum ScreenEvent<Message: Sendable>: Sendable {
    /// A key, a click, the wheel, or a new size.
    case input(InputEvent)
    /// A message: from running work (a finished send, progress), from a
    /// timer that came due, or posted by the screen itself.
    case message(Message)
    /// Work is running and nothing else happened for a while: time to turn
    /// a spinner.
    case tick
}

/// One screen driven by ``ScreenLoop``: its state, and how it turns events
/// into a new state and effects.
///
/// A conformer keeps its state as a value, updates it with a pure function
/// (`PickerUpdate`, `FormUpdate`), and performs the effects that function
/// returns through the loop (start work, set a timer, leave for `$EDITOR`).
/// It guarantees that ``view()`` has no side effects a caller could see:
/// the same state gives the same frame (it may keep what it drew, to draw
/// less the next time: ``FormFrames``).
@MainActor
public protocol ScreenProgram: AnyObject {
    /// What running work and timers send to the screen.
    associatedtype Message: Sendable
    /// What the screen ends with.
    associatedtype Outcome

    /// The screen as it is now.
    func view() -> Frame
    /// Handles one event; an outcome ends the loop.
    func handle(_ event: ScreenEvent<Message>, in loop: ScreenLoop<Message>) -> Outcome?
    /// The terminal went away (a hang-up, a TERM): save what can be saved
    /// and end.
    func terminalClosed(in loop: ScreenLoop<Message>) -> Outcome
}

/// The one run loop of every screen (the picker, forms, progress and
/// result views): draw the view, wait for an event, a message or a timer,
/// hand it to the screen, until the screen ends.
///
/// Work that takes time (a send, a download) runs outside the loop and
/// speaks to it only by messages (``start(_:)``, ``poster``); timers
/// (``schedule(_:after:key:)``) are messages that come due in the
/// terminal's clock, so an in-memory terminal tests them exactly.
@MainActor
public final class ScreenLoop<Message: Sendable> {
    /// The terminal the screen is drawn on.
    public let terminal: any TerminalBackend
    /// How often a screen with running work hears ``ScreenEvent/tick``, in milliseconds.
    public var tickInterval = 80
    private let mailbox: Mailbox
    /// Timers by key and due time, and the message of each (same order):
    /// the keys apart, so that asking for one is not generic code.
    private var timers: [ScreenTimer] = []
    private var timerMessages: [Message] = []
    private var running = 0

    /// A loop on `terminal`.
    public init(terminal: any TerminalBackend) {
        self.terminal = terminal
        mailbox = Mailbox(wake: terminal.wake)
    }

    // MARK: - Messages, work and timers

    /// Sends messages to the screen from any thread.
    public struct Poster: Sendable {
        fileprivate let mailbox: Mailbox

        /// Queues `message` and wakes the loop.
        public func post(_ message: Message) { mailbox.post(message, wake: true) }
    }

    /// Sends messages to the screen from work running on other threads.
    public var poster: Poster { Poster(mailbox: mailbox) }

    /// Queues `message` for the screen, after the event being handled.
    public func post(_ message: Message) { mailbox.post(message, wake: false) }

    /// Runs `work` on the main actor while the screen stays live; the
    /// message it ends with goes to the screen. Only with ``run(_:)-async``.
    public func start(_ work: @escaping @MainActor () async -> Message) {
        running += 1
        Task { @MainActor in
            let message = await work()
            self.running -= 1
            self.post(message)
        }
    }

    /// Whether started work is still running.
    public var isWorking: Bool { running > 0 }

    /// Sends `message` to the screen in `milliseconds`, replacing a timer
    /// with the same key.
    public func schedule(_ message: Message, after milliseconds: Int, key: String) {
        cancelTimer(key)
        timers.append(ScreenTimer(key: key, due: terminal.milliseconds + max(0, milliseconds)))
        timerMessages.append(message)
    }

    /// Forgets the timer with `key`, if any.
    public func cancelTimer(_ key: String) {
        guard let index = timers.firstIndex(where: { $0.key == key }) else { return }
        timers.remove(at: index)
        timerMessages.remove(at: index)
    }

    /// Whether a timer with `key` is waiting.
    public func isScheduled(_ key: String) -> Bool { timers.contains { $0.key == key } }

    // MARK: - Running

    /// Runs `program` until it ends; for screens that start no work (the picker).
    public func run<Program: ScreenProgram>(_ program: Program) -> Program.Outcome where Program.Message == Message {
        while true {
            if let outcome = step(program) { return outcome }
        }
    }

    /// Runs `program` until it ends, letting started work run between waits.
    public func run<Program: ScreenProgram>(_ program: Program) async -> Program.Outcome where Program.Message == Message {
        while true {
            if let outcome = step(program) { return outcome }
            // Work on the main actor (an activity's perform) goes on between waits.
            if running > 0 { await Task.yield() }
        }
    }

    /// Draws (unless more input is already waiting: a paste is drawn once,
    /// when it is all in), then gives the screen one event: a queued
    /// message, a timer that came due, or what the terminal reports.
    private func step<Program: ScreenProgram>(_ program: Program) -> Program.Outcome? where Program.Message == Message {
        let draws = !terminal.inputPending()
        if draws { terminal.draw(program.view()) }
        if let message = mailbox.take() { return program.handle(.message(message), in: self) }
        let now = terminal.milliseconds
        if let index = timers.indices.min(by: { timers[$0].due < timers[$1].due }), timers[index].due <= now {
            timers.remove(at: index)
            let message = timerMessages.remove(at: index)
            return program.handle(.message(message), in: self)
        }
        var timeout = timers.lazy.map { $0.due - now }.min()
        if running > 0 { timeout = min(timeout ?? tickInterval, tickInterval) }
        // Undrawn, the wait is only for what already arrived: input that makes no event (a
        // mouse button's release, a key nobody binds) must not leave the last event undrawn.
        if !draws { timeout = 0 }
        switch terminal.nextEvent(timeoutMilliseconds: timeout) {
        case .input(let event): return program.handle(.input(event), in: self)
        case .timeout: return running > 0 && draws ? program.handle(.tick, in: self) : nil
        case .woken: return nil
        case .closed: return program.terminalClosed(in: self)
        }
    }

    /// Messages waiting for the screen, safe to fill from any thread.
    fileprivate final class Mailbox: Sendable {
        private let queue = Mutex<[Message]>([])
        /// How many messages wait: read before each wait for a key, so
        /// that an empty mailbox costs no lock.
        private let waiting = Atomic<Int>(0)
        private let wake: TerminalWake

        init(wake: TerminalWake) { self.wake = wake }

        func post(_ message: Message, wake signal: Bool) {
            queue.withLock { queue in
                queue.append(message)
                waiting.add(1, ordering: .releasing)
            }
            if signal { wake.signal() }
        }

        func take() -> Message? {
            guard waiting.load(ordering: .acquiring) > 0 else { return nil }
            return queue.withLock { queue in
                guard !queue.isEmpty else { return nil }
                waiting.subtract(1, ordering: .relaxed)
                return queue.removeFirst()
            }
        }
    }
}
