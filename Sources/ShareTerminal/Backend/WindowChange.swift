import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Notices SIGWINCH (the terminal changed size) while a screen is up.
///
/// Installed before ncurses starts, so that ncurses (which installs its
/// own only over the default) leaves it alone: ncurses looks at its flag
/// when it reads keys and at a refresh, neither of which the screen asks
/// it for (the terminal's size is asked and given to ncurses here). The
/// handler only sets a flag (async-signal-safe), without SA_RESTART, so a
/// `poll` on this thread returns at once.
enum WindowChange {
    private static let flag = Atomic<Bool>(false)

    /// Starts watching; ``stop()`` puts the default back.
    static func watch() {
        flag.store(false, ordering: .relaxed)
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in WindowChange.flag.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGWINCH, &action, nil)
    }

    /// Puts the default handler back.
    static func stop() {
        signal(SIGWINCH, SIG_DFL)
    }

    /// Whether the size changed since the last look; forgets it.
    static func consume() -> Bool {
        flag.load(ordering: .relaxed) && flag.exchange(false, ordering: .relaxed)
    }
}
