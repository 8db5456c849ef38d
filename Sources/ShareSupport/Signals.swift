import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Handlers for signals that only note that one came, for a loop to look
/// at: the handler does one atomic store or add (async-signal-safe) and
/// nothing else. The screen's hang-up and resize flags (``SignalFlag``)
/// and supervised runs' interrupts are installed here.
package enum SignalHandlers {
    /// Installs `handler` for each of `signals`; returns the handlers it
    /// replaced, in the same order, for ``restore(_:to:)``.
    ///
    /// Without `restart` a blocking call the signal interrupts (a `read`, a
    /// `poll`) returns at once with EINTR, so its loop looks at the note;
    /// with it, the call goes on.
    @discardableResult
    package static func install(_ signals: [Int32], restart: Bool = false,
                                handler: @convention(c) (Int32) -> Void) -> [sigaction] {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        action.sa_flags = restart ? SA_RESTART : 0
        return signals.map { number in
            var previous = sigaction()
            sigaction(number, &action, &previous)
            return previous
        }
    }

    /// Puts back, for each of `signals`, the handler ``install(_:restart:handler:)``
    /// replaced (`previous` as it returned them).
    package static func restore(_ signals: [Int32], to previous: [sigaction]) {
        for (number, var handler) in zip(signals, previous) { sigaction(number, &handler, nil) }
    }

    /// Puts the default handler back for each of `signals`.
    package static func reset(_ signals: [Int32]) {
        for number in signals { signal(number, SIG_DFL) }
    }
}

/// Whether one of a few signals came while they were watched: a flag their
/// handler sets (one bit a signal in one atomic word, shared by every
/// flag), installed without `SA_RESTART`.
package struct SignalFlag: Sendable {
    /// The signals noted since each was last watched or consumed, bit
    /// `n - 1` for signal `n`.
    private static let noted = Atomic<UInt64>(0)
    private let signals: [Int32]
    private let bits: UInt64

    /// A flag for `signals` (1 to 64), not yet watched.
    package init(_ signals: Int32...) {
        precondition(signals.allSatisfy { (1...64).contains($0) }, "signal numbers run from 1 to 64")
        self.signals = signals
        bits = signals.reduce(0) { $0 | SignalFlag.bit($1) }
    }

    private static func bit(_ number: Int32) -> UInt64 { UInt64(1) << UInt64(number - 1) }

    /// Starts watching, with the flag down; ``stop()`` puts the default handlers back.
    package func watch() {
        // Made before a handler can touch it.
        SignalFlag.noted.bitwiseAnd(~bits, ordering: .relaxed)
        SignalHandlers.install(signals) { number in
            SignalFlag.noted.bitwiseOr(SignalFlag.bit(number), ordering: .relaxed)
        }
    }

    /// Puts the default handlers back.
    package func stop() {
        SignalHandlers.reset(signals)
    }

    /// Whether one of the signals came since ``watch()`` or the last ``consume()``.
    package var happened: Bool { SignalFlag.noted.load(ordering: .relaxed) & bits != 0 }

    /// Whether one of the signals came since the last look; puts the flag down.
    package func consume() -> Bool {
        happened && SignalFlag.noted.bitwiseAnd(~bits, ordering: .relaxed).oldValue & bits != 0
    }
}
