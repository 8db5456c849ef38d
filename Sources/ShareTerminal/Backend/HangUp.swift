import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices SIGHUP and SIGTERM (a closed terminal, a polite kill) while a
/// screen is up, so the screen can save what was typed and restore the
/// terminal instead of dying mid-edit.
///
/// The handler only sets a flag (async-signal-safe) and is installed
/// without SA_RESTART, so a blocking read returns and the run loop sees it.
enum HangUp {
    private static let flag = Atomic<Bool>(false)

    /// Starts watching; the previous handlers come back with ``stop()``.
    static func watch() {
        flag.store(false, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in HangUp.flag.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGHUP, &action, nil)
        sigaction(SIGTERM, &action, nil)
    }

    /// Puts the default handlers back.
    static func stop() {
        signal(SIGHUP, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }

    /// Whether a hang-up or TERM arrived.
    static var happened: Bool { flag.load(ordering: .relaxed) }
}
