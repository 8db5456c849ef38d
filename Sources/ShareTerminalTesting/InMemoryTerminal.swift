#if canImport(Glibc)
import Glibc
#endif
import ShareTerminal

/// A terminal in memory, for tests: it records every frame drawn and plays
/// a script of events, in a clock of its own that moves only when a wait
/// runs out, so that timing (an autosave half a second after a key) is
/// tested exactly and without sleeping.
///
/// ```swift
/// let terminal = InMemoryTerminal(width: 80, height: 24, script: [
///     .input(.character("a")), .wait(milliseconds: 600),
///     .until("the draft is saved") { $0.lines.joined().contains("Saved") }, .input(.escape),
/// ])
/// ```
///
/// When the script runs out, or an ``Step/until(_:_:)`` never comes true,
/// the terminal reports ``TerminalEvent/closed`` (as a hung-up terminal
/// would) and records why in ``problems``.
public final class InMemoryTerminal: TerminalBackend {
    /// One step of the script.
    public enum Step {
        /// An event, delivered at once (a resize also changes ``size``).
        case input(InputEvent)
        /// Keys that arrive together, as a paste does: delivered one a
        /// wait, with ``inputPending()`` true while any is left; `nil` is
        /// input that makes no event (a mouse button's release, a key
        /// nobody binds), after which the wait goes on.
        case typedAhead([InputEvent?])
        /// Time passes with nothing typed.
        case wait(milliseconds: Int)
        /// Time passes, a wait at a time, until the last frame drawn
        /// satisfies the condition (running work finishes meanwhile).
        case until(String, (Frame) -> Bool)
        /// Nothing more is typed: waits run out one after another while
        /// running work finishes, for a screen that ends by itself.
        case idle
        /// The terminal goes away: every later wait reports ``TerminalEvent/closed``.
        case hangUp
    }

    /// The frames drawn, in order (a frame equal to the one before is not repeated).
    public private(set) var frames: [Frame] = []
    /// What went wrong with the script: an `until` that never came true, a script that ran out.
    public private(set) var problems: [String] = []
    /// How often the screen was left for a program of its own (`$EDITOR`).
    public private(set) var suspensions = 0
    /// Whether ``end()`` was called.
    public private(set) var ended = false
    public private(set) var size: (width: Int, height: Int)
    public let paletteSize: Int
    public private(set) var milliseconds = 0
    public let wake = TerminalWake()
    private var script: [Step]
    /// Waits spent on the current `until` so far.
    private var waitsOnCondition = 0

    /// The most waits an `until` may take before it counts as never coming true.
    public static let patience = 2000

    /// A terminal of `width` × `height` that plays `script`.
    public init(width: Int = 80, height: Int = 24, paletteSize: Int = 256, script: [Step]) {
        size = (width, height)
        self.paletteSize = paletteSize
        self.script = script
    }

    /// The last frame drawn, if any.
    public var lastFrame: Frame? { frames.last }

    /// Whether any frame drawn had `text` on one of its lines.
    public func showed(_ text: String) -> Bool {
        frames.contains { frame in frame.lines.contains { $0.contains(text) } }
    }

    public func draw(_ frame: Frame) {
        if frames.last != frame { frames.append(frame) }
    }

    public func inputPending() -> Bool {
        guard case .typedAhead(let events)? = script.first else { return false }
        return !events.isEmpty
    }

    public func nextEvent(timeoutMilliseconds: Int?) -> TerminalEvent {
        if wake.consume() { return .woken }
        while let step = script.first {
            switch step {
            case .input(let event):
                script.removeFirst()
                if case .resize(let width, let height) = event { size = (width, height) }
                return .input(event)
            case .typedAhead(var events):
                guard !events.isEmpty else {
                    script.removeFirst()
                    continue
                }
                let event = events.removeFirst()
                if events.isEmpty { script.removeFirst() } else { script[0] = .typedAhead(events) }
                if let event { return .input(event) }
            case .wait(let duration):
                guard let timeout = timeoutMilliseconds, timeout < duration else {
                    milliseconds += duration
                    script.removeFirst()
                    continue
                }
                milliseconds += max(0, timeout)
                script[0] = .wait(milliseconds: duration - max(0, timeout))
                return .timeout
            case .until(let what, let condition):
                if let frame = frames.last, condition(frame) {
                    script.removeFirst()
                    waitsOnCondition = 0
                    continue
                }
                // With no timer running, only work on another thread can change the
                // screen: wait for its wake, for real (bounded).
                if timeoutMilliseconds == nil, waitForWake() { return .woken }
                return waitOnce(timeoutMilliseconds, else: "never came true: \(what)")
            case .idle:
                return waitOnce(timeoutMilliseconds, else: "the screen waited for keys that never come")
            case .hangUp:
                return .closed
            }
        }
        problems.append("the script ran out while the screen waited for more")
        script = [.hangUp]
        return .closed
    }

    /// How long, in real time, an `until` waits for work on another thread
    /// to wake the screen when no timer runs.
    public static let wakeDeadlineMilliseconds: Int32 = 10_000

    /// Blocks until the wake is signalled (true) or the deadline passes.
    private func waitForWake() -> Bool {
        var entry = pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, InMemoryTerminal.wakeDeadlineMilliseconds) > 0 else { return false }
        return wake.consume()
    }

    /// One wait runs out while the script waits for the screen; a wait
    /// with no end, or too many, is a problem and closes the terminal.
    private func waitOnce(_ timeoutMilliseconds: Int?, else problem: String) -> TerminalEvent {
        waitsOnCondition += 1
        guard let timeout = timeoutMilliseconds, waitsOnCondition <= InMemoryTerminal.patience else {
            problems.append(problem)
            script = [.hangUp]
            return .closed
        }
        milliseconds += max(0, timeout)
        return .timeout
    }

    public func suspend<Result>(_ body: () -> Result) -> Result {
        suspensions += 1
        return body()
    }

    public func end() { ended = true }
}
