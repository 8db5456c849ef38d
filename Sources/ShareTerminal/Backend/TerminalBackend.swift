import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a terminal reports when a screen waits on it.
public enum TerminalEvent: Sendable, Equatable {
    /// A key, a click, the wheel, or a new size.
    case input(InputEvent)
    /// The wait ran out with nothing to report.
    case timeout
    /// Running work asked for the screen's attention (``TerminalWake/signal()``).
    case woken
    /// The terminal went away (a hang-up, a TERM, reads that keep failing):
    /// nobody is left to type. Every later wait reports it again.
    case closed
}

/// The terminal a screen is drawn on: `/dev/tty`, set up by ncurses
/// (``NcursesTerminal``), or `InMemoryTerminal` (the ShareTerminalTesting target) in tests.
///
/// Conformers guarantee that `draw` shows exactly the frame given, that
/// `nextEvent` returns no later than its timeout (in ``milliseconds``, the
/// terminal's own clock), and that a ``wake`` signalled from any thread
/// ends a wait with ``TerminalEvent/woken``.
public protocol TerminalBackend: AnyObject {
    /// The size now, in cells.
    var size: (width: Int, height: Int) { get }
    /// Palette colours (8, 256 …); 0 draws without colour.
    var paletteSize: Int { get }
    /// A monotonic clock, in milliseconds, in which timeouts are measured.
    var milliseconds: Int { get }
    /// Lets work on other threads end a wait.
    var wake: TerminalWake { get }
    /// Shows `frame`.
    func draw(_ frame: Frame)
    /// Waits for the next event; `nil` waits as long as it takes. A
    /// timeout of 0 waits for nothing new but still returns input that
    /// has already arrived (the screen loop relies on it when it holds a
    /// frame back for ``inputPending()``).
    func nextEvent(timeoutMilliseconds: Int?) -> TerminalEvent
    /// Whether input has arrived that no ``nextEvent(timeoutMilliseconds:)``
    /// has taken yet (the rest of a paste): the loop takes it before it
    /// draws again, so that a paste is one frame, not one a key.
    func inputPending() -> Bool
    /// Leaves the screen to run `body` on the plain terminal (`$EDITOR`),
    /// then takes it back and redraws everything.
    func suspend<Result>(_ body: () -> Result) -> Result
    /// Restores the terminal (idempotent).
    func end()
}

extension TerminalBackend {
    /// Whether frames are drawn in colour.
    public var colors: Bool { paletteSize > 0 }
}

/// A signal from running work to a waiting screen: safe to send from any
/// thread. The pipe behind it is made on first use, off the first paint.
public final class TerminalWake: Sendable {
    private let state = Mutex<(signalled: Bool, read: Int32, write: Int32)>((false, -1, -1))

    /// A wake with nothing signalled.
    public init() {}

    deinit {
        state.withLock { ends in
            if ends.read >= 0 { close(ends.read) }
            if ends.write >= 0 { close(ends.write) }
        }
    }

    /// Ends the screen's wait (once, however often it is called before the screen looks).
    public func signal() {
        // The byte is written under the lock: written after it, it could land
        // after a `consume` that already forgot the signal, and leave the pipe
        // readable with nothing signalled (a wait that never waits).
        state.withLock { ends in
            guard !ends.signalled else { return }
            ends.signalled = true
            guard ends.write >= 0 else { return }
            var byte: UInt8 = 1
            _ = write(ends.write, &byte, 1)
        }
    }

    /// Whether a signal came since the last look; forgets it.
    public func consume() -> Bool {
        state.withLock { ends in
            guard ends.signalled else { return false }
            ends.signalled = false
            if ends.read >= 0 {
                var bytes = [UInt8](repeating: 0, count: 64)
                while read(ends.read, &bytes, bytes.count) > 0 {}
            }
            return true
        }
    }

    /// The descriptor that becomes readable on a signal, for `poll`.
    public var descriptor: Int32 {
        state.withLock { ends in
            if ends.read < 0 {
                var pair: [Int32] = [-1, -1]
                guard pipe(&pair) == 0 else { return -1 }
                for end in pair {
                    _ = fcntl(end, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                }
                ends.read = pair[0]
                ends.write = pair[1]
                // A signal sent before the pipe existed is still owed.
                if ends.signalled {
                    var byte: UInt8 = 1
                    _ = write(ends.write, &byte, 1)
                }
            }
            return ends.read
        }
    }
}
