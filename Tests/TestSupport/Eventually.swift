#if canImport(Glibc)
import Glibc
#endif

/// A wait in a test that ran out: what was awaited, for how long, and what
/// was seen last.
public struct Timeout: Error, CustomStringConvertible {
    /// The whole account, for the test's failure.
    public let description: String
}

/// Tries `attempt` every 20 ms until it gives a value, and returns that
/// value; throws ``Timeout`` (naming `what`, with `report()`'s account of
/// what was seen) once `timeout` seconds have passed without one. An error
/// `attempt` throws ends the wait at once.
///
/// This is how a test waits for another process: it polls what it waits
/// for, never sleeps in the hope that it happened, so the wait ends as soon
/// as the condition holds and a slow machine only makes it longer.
public func eventually<Value>(_ what: String, timeout: Double, report: () -> String = { "" },
                              _ attempt: () throws -> Value?) throws -> Value {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while true {
        if let value = try attempt() { return value }
        if ContinuousClock.now > deadline {
            let seen = report()
            throw Timeout(description: "waited \(timeout) s for \(what)" + (seen.isEmpty ? "" : "; \(seen)"))
        }
        usleep(20_000)
    }
}

/// Polls `condition` every 20 ms until it holds; throws ``Timeout`` once
/// `timeout` seconds have passed without it, as the `eventually` above
/// does for a value.
public func eventually(_ what: String, timeout: Double, report: () -> String = { "" },
                       _ condition: () throws -> Bool) throws {
    try eventually(what, timeout: timeout, report: report) { try condition() ? () : nil }
}
