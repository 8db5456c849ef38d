extension ActivityError {
    /// The `error.code`s of the JSON result: here the share sheet's own and
    /// those several activities report; each system activity defines and
    /// declares its own beside its code. README's "Error codes" table lists
    /// them all, and a test holds it to the union.
    ///
    /// The codes are a contract: scripts branch on them, so one is never
    /// renamed. A custom activity may report codes of its own.
    public enum Code {
        // MARK: - The share sheet

        /// A failed result whose activity gave no reason.
        public static let failed = "failed"
        /// The named activity is hidden for these items (excluded, unsupported, unavailable).
        public static let notEligible = "not-eligible"
        /// An item source or provider failed while the items were prepared.
        public static let itemFailed = "item-failed"
        /// No item was left for the activity once the item sources answered.
        public static let noItems = "no-items"
        /// The activity's `prepare(with:)` threw.
        public static let prepareFailed = "prepare-failed"
        /// The activity needs its form shown and there is no terminal.
        public static let noTerminal = "no-terminal"
        /// The terminal went away while a form was open; what was typed is saved.
        public static let terminalClosed = "terminal-closed"
        /// `--resume` named an activity without a form.
        public static let noForm = "no-form"
        /// The activity's `perform` returned without reporting an outcome.
        public static let noFinish = "no-finish"
        /// The input was refused before anything was done (exit status 2).
        public static let invalidInput = "invalid-input"

        // MARK: - Reported by several activities

        /// The message waits in the outbox (outcome `queued`), with the reason.
        public static let queued = "queued"
        /// Reading or writing a local file failed.
        public static let ioError = "io-error"
        /// The server or sendmail refused for good, or the connection failed.
        public static let sendFailed = "send-failed"
        /// The mail setup is wrong: a transport URL, a password command, sendmail.
        public static let configuration = "configuration"

        /// The system activity is not built yet.
        public static let unavailable = "unavailable"

        /// The plugin ran past its `Timeout` (its process group was killed), or
        /// nobody downloaded Nearby's share within `--timeout`.
        public static let timeout = "timeout"
        /// share was interrupted (Ctrl-C, TERM, HUP) while the plugin ran (outcome `cancelled`).
        public static let cancelled = "cancelled"

        // MARK: - The Swift API

        /// In `checkActivityConformance` only: a form submission asked to be retried.
        public static let retry = "retry"

        /// The codes above: the share sheet's own and those several
        /// activities report. Each system activity declares the rest
        /// (``SystemActivity``'s `errorCodes`, beside their definitions).
        public static let sheet = [
            failed, notEligible, itemFailed, noItems, prepareFailed, noTerminal, terminalClosed, noForm, noFinish,
            invalidInput, queued, ioError, sendFailed, configuration, unavailable, timeout, cancelled, retry,
        ]
    }
}
