extension ActivityError {
    /// Every `error.code` share writes in its JSON result, in one place
    /// (the README's "Error codes" table says what each means).
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

        // MARK: - Mail

        /// The message was kept in drafts (outcome `saved`); the message names the file.
        public static let saved = "saved"
        /// The message waits in the outbox (outcome `queued`), with the reason.
        public static let queued = "queued"
        /// Reading or writing a local file failed.
        public static let ioError = "io-error"
        /// The server or sendmail refused for good, or the connection failed.
        public static let sendFailed = "send-failed"
        /// The server refused for now (4xx).
        public static let temporaryFailure = "temporary-failure"
        /// The mail setup is wrong: a transport URL, a password command, sendmail.
        public static let configuration = "configuration"

        // MARK: - Other system activities

        /// Copy: no terminal for OSC 52, and neither wl-copy nor xclip.
        public static let noClipboard = "no-clipboard"
        /// Copy: wl-copy or xclip failed, or the terminal could not be written.
        public static let copyFailed = "copy-failed"
        /// Add to Reading List: the list could not be read or saved.
        public static let readingList = "reading-list"
        /// Add to Reading List: every URL given is on the list already; nothing was written.
        public static let alreadyListed = "already-listed"
        /// Save to Pictures: the picture could not be written in the pictures folder.
        public static let saveFailed = "save-failed"
        /// Save to Pictures: the URL could not be downloaded (refused, too large, too slow, too many redirects).
        public static let downloadFailed = "download-failed"
        /// Save to Pictures: the URL's bytes are not an image.
        public static let notAnImage = "not-an-image"
        /// Assign to Contact: `--contact` (or the chosen one) names no contact, or more than one.
        public static let noSuchContact = "no-such-contact"
        /// Assign to Contact: the card changed on disk since it was read; nothing was written.
        public static let contactChanged = "contact-changed"
        /// Assign to Contact: the image could not be read or the card could not be written.
        public static let contactFailed = "contact-failed"
        /// Print: `lp` refused the job, or CUPS aborted it.
        public static let printFailed = "print-failed"
        /// Print: the printer is stopped, so the job waits in its queue.
        public static let printerStopped = "printer-stopped"
        /// The system activity is not built yet.
        public static let unavailable = "unavailable"
        /// Nearby: no address of this machine to serve on (no default route, or `--bind` names none).
        public static let noNetwork = "no-network"
        /// Nearby: the server could not start, or stopped (too many requests for a wrong link).
        public static let serveFailed = "serve-failed"

        // MARK: - Social posts

        /// A service refused the account's credentials (HTTP 401 or 403).
        public static let unauthorized = "unauthorized"
        /// A service's rate limit is reached (HTTP 429); the message says when to try again.
        public static let rateLimited = "rate-limited"
        /// A service refused a picture or video (its type, size or content).
        public static let mediaRejected = "media-rejected"

        // MARK: - Plugins

        /// The plugin's program could not start or exited with another status than 0.
        public static let pluginFailed = "plugin-failed"
        /// The plugin ran past its `Timeout` (its process group was killed), or
        /// nobody downloaded Nearby's share within `--timeout`.
        public static let timeout = "timeout"
        /// share was interrupted (Ctrl-C, TERM, HUP) while the plugin ran (outcome `cancelled`).
        public static let cancelled = "cancelled"

        // MARK: - The Swift API

        /// In `checkActivityConformance` only: a form submission asked to be retried.
        public static let retry = "retry"

        /// All of the codes above, for the README's table and its test.
        public static let all = [
            failed, notEligible, itemFailed, noItems, prepareFailed, noTerminal, terminalClosed, noForm, noFinish,
            invalidInput, saved, queued, ioError, sendFailed, temporaryFailure, configuration, noClipboard,
            copyFailed, readingList, alreadyListed, saveFailed, downloadFailed, notAnImage,
            noSuchContact, contactChanged, contactFailed, printFailed, printerStopped, unavailable, noNetwork, serveFailed,
            unauthorized, rateLimited, mediaRejected, pluginFailed, timeout, cancelled, retry,
        ]
    }
}
