#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// The signals a screen notices while it is up. Each handler only sets a
/// flag, without `SA_RESTART`, so a blocking read or `poll` on the thread
/// it lands on returns and the run loop looks at the flag.
enum ScreenSignals {
    /// SIGHUP and SIGTERM (a closed terminal, a polite kill): the screen
    /// saves what was typed and restores the terminal instead of dying
    /// mid-edit.
    static let hangUp = SignalFlag(SIGHUP, SIGTERM)

    /// SIGWINCH (the terminal changed size). Watched before ncurses starts,
    /// so that ncurses (which installs its own only over the default) leaves
    /// it alone: ncurses looks at its flag when it reads keys and at a
    /// refresh, neither of which the screen asks it for (the terminal's size
    /// is asked and given to ncurses here).
    static let windowChange = SignalFlag(SIGWINCH)
}
