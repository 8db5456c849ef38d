import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import ShareSupport

/// How an activity run ended (SPEC §3).
public enum ActivityOutcome: String, Sendable, Equatable, CaseIterable {
    /// The activity did its work.
    case performed
    /// A message was accepted by the server or the sendmail command.
    case sent
    /// The work was kept as a draft.
    case saved
    /// The work was queued to be delivered later (outbox, temporary error).
    case queued
    /// The person cancelled.
    case cancelled
    /// The activity failed; the result's error says why.
    case failed

    /// Whether this outcome counts as completed: only `performed` and `sent`.
    public var isCompleted: Bool { self == .performed || self == .sent }
}

/// Why an activity failed: a stable code and a message for people.
public struct ActivityError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stable, machine-readable code such as `smtp-rejected` or `no-terminal`.
    public var code: String
    /// What happened and what to do, in words.
    public var message: String

    /// Creates an error from a code and a message.
    public init(code: String, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

/// The one completion a run reports: the terminal counterpart of the
/// arguments of `completionWithItemsHandler`.
///
/// `completed` is derived from the outcome, so success cannot be claimed
/// for work that did not happen.
public struct ActivityResult: Sendable, Equatable {
    /// The activity that ran, or `nil` when the person dismissed the picker.
    public var activityType: ActivityType?
    /// How it ended.
    public var outcome: ActivityOutcome
    /// Items the activity handed back (a plugin's output lines, a saved path).
    public var returnedItems: [ShareItem]
    /// Why it failed, when it did.
    public var error: ActivityError?
    /// What went wrong beside a result that stands (a message sent whose
    /// copy could not be filed); printed on stderr, and in the JSON as
    /// `warnings` when there are any.
    public var warnings: [String] = []
    /// Who the share went to (`Kim Minsu <kim@example.com>`): Mail's and
    /// Message's recipients, for the share history.
    public var recipients: [String] = []
    /// How to take the share back (`share --undo`), kept in the history.
    public var undo: [UndoAction] = []
    /// A link the person finishes the share at (a service's share link):
    /// the front end opens it in a browser, or shows it with a QR code to
    /// finish on a phone. Not in the JSON (a returned item carries it).
    public var linkToOpen: URL?
    /// What the share did, in one short line for a person ("Copied 2
    /// items", "Saved ~/Pictures/face-2.png"): the front end prints it on
    /// standard error when the screen closes. Not in the JSON.
    public var summary: String?
    /// When a share that waits is to be done (a message scheduled for
    /// later), for the share history. Not in the JSON.
    public var waitsUntil: Date?

    /// The recipients by name where they have one: "Kim Minsu, lee@example.com".
    public var recipientNames: String {
        recipients.map { recipient in
            let (name, address) = ShareHistory.split(recipient)
            return name ?? address
        }.joined(separator: ", ")
    }

    /// Creates a result. A `failed` outcome without an error gets a generic one.
    public init(activityType: ActivityType?, outcome: ActivityOutcome, returnedItems: [ShareItem] = [],
                error: ActivityError? = nil) {
        self.activityType = activityType
        self.outcome = outcome
        self.returnedItems = returnedItems
        self.error = error ?? (outcome == .failed
            ? ActivityError(code: ActivityError.Code.failed, message: "\(activityType?.rawValue ?? "the share sheet") failed without saying why") : nil)
    }

    /// The result when the person dismissed the picker without picking.
    public static let dismissed = ActivityResult(activityType: nil, outcome: .cancelled)

    /// A failed result carrying `error`.
    public static func failure(_ activityType: ActivityType, _ error: ActivityError) -> ActivityResult {
        ActivityResult(activityType: activityType, outcome: .failed, error: error)
    }

    /// True only for `performed` and `sent`.
    public var completed: Bool { outcome.isCompleted }

    /// The process exit code for this result: 0 completed; 1 cancelled,
    /// saved or queued; 2 refused input, nothing done; 3 failed.
    public var exitCode: Int32 {
        switch outcome {
        case .performed, .sent: 0
        case .saved, .queued, .cancelled: 1
        case .failed: error?.code == ActivityError.Code.invalidInput ? 2 : 3
        }
    }

    /// The completion object of SPEC §3, keys in contract order.
    public var json: JSONValue {
        .object([
            ("activityType", .optional(activityType?.rawValue)),
            ("completed", .bool(completed)),
            ("outcome", .string(outcome.rawValue)),
            ("returnedItems", .array(returnedItems.map(\.json))),
            ("error", error.map { .object([("code", .string($0.code)), ("message", .string($0.message))]) } ?? .null),
        ] + (warnings.isEmpty ? [] : [("warnings", .array(warnings.map(JSONValue.string)))]))
    }
}

extension ShareItem {
    /// The item as JSON: `{"kind": …, "value": …}`, plus `contentType` and `name` for files.
    public var json: JSONValue {
        switch self {
        case .text(let text): return .object([("kind", .string("string")), ("value", .string(text))])
        case .url(let url): return .object([("kind", .string("url")), ("value", .string(url.absoluteString))])
        case .image(let file), .file(let file):
            let value: JSONValue = file.path.map { .string($0.path) } ?? .null
            return .object([("kind", .string(kind.rawValue)), ("value", value),
                            ("name", .string(file.name)), ("contentType", .string(file.contentType))])
        }
    }
}
