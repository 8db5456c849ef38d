import ShareCore
import ShareSupport

/// What a user can touch of Assign to Contact from the command line: its
/// option, the contacts a shell completes and its error codes.
extension AssignToContactActivity {
    /// `--contact NAME|UID`: the contact chosen on the command line, else in the form.
    public struct Request: ActivityRequest {
        /// The contact asked for, if any.
        public var contact: String?

        public init() {}

        public init(arguments: ActivityArguments) throws(UsageError) {
            for value in arguments.values("--contact") {
                guard !value.trimmingWhitespace().isEmpty else { throw UsageError(Localization.text("--contact needs a name, an address or a UID")) }
                contact = value
            }
        }
    }

    public nonisolated static var options: [OptionSpec] {
        [OptionSpec("--contact", value: "NAME|UID", group: OptionSpec.Group("Assign to Contact (--activity assignToContact)"),
                    activity: .assignToContact,
                    help: "the contact whose photo the image becomes: a full name, an address or a UID (else chosen in a form)",
                    values: .completed("contacts"))]
    }

    public nonisolated static var completions: [ActivityCompletion] {
        [.of(AssignToContactActivity.self, "contacts") { activity, _ in activity.contactNames() }]
    }

    public nonisolated static var withoutTerminal: String? { Localization.text("add --contact NAME to choose the contact without it") }

    public nonisolated static var errorCodes: [String] {
        [ActivityError.Code.noSuchContact, ActivityError.Code.contactChanged, ActivityError.Code.contactFailed]
    }
}

extension ActivityError.Code {
    /// Assign to Contact: `--contact` (or the chosen one) names no contact, or more than one.
    public static let noSuchContact = "no-such-contact"
    /// Assign to Contact: the card changed on disk since it was read; nothing was written.
    public static let contactChanged = "contact-changed"
    /// Assign to Contact: the image could not be read or the card could not be written.
    public static let contactFailed = "contact-failed"
}
