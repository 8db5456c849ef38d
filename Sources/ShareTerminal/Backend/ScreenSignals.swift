#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// The signals a screen notices while it is up. Each handler only sets a
/// flag, without `SA_RESTART`, so a blocking read or `poll` on the thread
/// it lands on returns and the run loop looks at the flag.
enum ScreenSignals {
    /// SIGHUP, SIGTERM and SIGINT (a closed terminal, a polite kill; in
    /// raw mode Ctrl-C is a key, so an INT comes from `kill`): the screen
    /// saves what was typed and restores the terminal instead of dying
    /// mid-edit.
    static let hangUp = SignalFlag(SIGHUP, SIGTERM, SIGINT)

    /// SIGWINCH (the terminal changed size): the size is asked then.
    static let windowChange = SignalFlag(SIGWINCH)

    /// SIGTSTP (a stop asked by `kill`; in raw mode Ctrl-Z is a key): the
    /// screen gives the shell its terminal back, stops, and is drawn again
    /// when continued.
    static let stop = SignalFlag(SIGTSTP)
}
