import FoundationEssentials

/// What an activity sees while it performs, and how it reports its outcome.
///
/// The session accepts exactly one outcome. A second `finish` or `fail` is
/// ignored and recorded in ``violations``, so a buggy activity can never
/// report two results; ``checkActivityConformance``-style helpers read it.
@MainActor
public final class ActivitySession {
    /// The activity's type.
    public let activityType: ActivityType
    /// The real items, only those of kinds the activity supports.
    public let items: [ShareItem]
    /// The subject offered to this activity (from `--subject` or an item source), if any.
    public let subject: String?
    /// The values of the form the person submitted, by field id (empty without a form).
    public let formValues: [String: String]
    /// The form action the person chose (``FormAction/id``: `send`, `save`), or `nil` without a form.
    public let formAction: String?
    /// The link metadata of the shared items (title, URL), from their item sources.
    public let linkMetadata: [LinkMetadata]
    /// Where the activity shows its progress as it performs (an upload's
    /// bytes), and hears that the person asked it to stop; one that shows
    /// nothing when the front end gave none.
    public let display: LiveDisplay

    /// The outcome, once reported.
    public private(set) var result: ActivityResult?
    /// Lifecycle rules the activity broke, in words.
    public private(set) var violations: [String] = []

    /// Creates a session; the share sheet does this for each run.
    public init(activityType: ActivityType, items: [ShareItem], subject: String?, form: SubmittedForm? = nil,
                linkMetadata: [LinkMetadata] = []) {
        self.activityType = activityType
        self.items = items
        self.subject = subject
        formValues = form?.values ?? [:]
        formAction = form?.action
        self.linkMetadata = linkMetadata
        display = form?.display ?? LiveDisplay { _ in }
        lendTerminal = form?.lendTerminal
    }

    /// The front end's lending of the terminal, if it has a screen to leave.
    private let lendTerminal: TerminalLender?

    /// Runs `work` with the terminal to itself (gpg-agent asking for a
    /// passphrase with its curses pinentry): the front end's screen is left
    /// while it runs and drawn again after; without a screen it just runs.
    public func withTerminal<Result>(_ work: () -> Result) -> Result {
        guard let lendTerminal else { return work() }
        var result: Result?
        lendTerminal { result = work() }
        guard let result else { return work() }
        return result
    }

    /// Whether an outcome was reported.
    public var isFinished: Bool { result != nil }

    /// Reports the outcome: `performed`, `sent`, `saved`, `queued` or `cancelled`.
    ///
    /// `error` may explain an outcome that is not complete (why a message
    /// was queued). Reporting `failed` without an error records a generic
    /// one; prefer ``fail(_:)``.
    /// `warnings` tell what went wrong beside an outcome that stands (a
    /// message sent whose copy could not be filed).
    /// `recipients` are who it went to, and `undo` how to take it back,
    /// for the share history. `linkToOpen` is a link the person finishes
    /// the share at (a service's share link), which the front end opens.
    /// `summary` says in one short line what was done ("Copied 2 items").
    /// `waitsUntil` is when a share that waits is to be done (a message
    /// scheduled for later).
    public func finish(_ outcome: ActivityOutcome, returnedItems: [ShareItem] = [], error: ActivityError? = nil,
                       warnings: [String] = [], recipients: [String] = [], undo: [UndoAction] = [], linkToOpen: URL? = nil,
                       summary: String? = nil, waitsUntil: Date? = nil) {
        var result = ActivityResult(activityType: activityType, outcome: outcome, returnedItems: returnedItems,
                                    error: outcome.isCompleted ? nil : error)
        result.warnings = warnings
        result.recipients = recipients
        result.undo = undo
        result.linkToOpen = linkToOpen
        result.summary = summary
        result.waitsUntil = waitsUntil
        report(result)
    }

    /// Reports completion as `UIActivity.activityDidFinish(_:)` does:
    /// true is `performed`, false is `cancelled`.
    public func finish(completed: Bool) {
        finish(completed ? .performed : .cancelled)
    }

    /// Reports a failure with its reason.
    public func fail(_ error: ActivityError) {
        report(.failure(activityType, error))
    }

    /// Records a broken lifecycle rule (used by the share sheet).
    func recordViolation(_ text: String) { violations.append(text) }

    private func report(_ newResult: ActivityResult) {
        if let result {
            violations.append("finished twice: first \(result.outcome.rawValue), then \(newResult.outcome.rawValue)")
            return
        }
        result = newResult
    }
}
