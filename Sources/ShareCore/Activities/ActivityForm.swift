/// A form an activity declares: the fields the front end shows before
/// `perform` (the compose screen is Mail's form).
public struct ActivityForm: Sendable, Equatable {
    /// The heading shown above the fields.
    public var title: String
    /// The fields, in order.
    public var fields: [FormField]

    /// Creates a form.
    public init(title: String, fields: [FormField]) {
        self.title = title
        self.fields = fields
    }
}

/// One field of an ``ActivityForm``.
public struct FormField: Sendable, Equatable {
    /// What kind of value a field edits.
    public enum Kind: Sendable, Equatable {
        /// One line of text.
        case text
        /// A list of mail addresses.
        case addressList
        /// Several lines of text.
        case multilineText
        /// A list of files.
        case attachmentList
        /// One of the given choices.
        case choice([String])
        /// Text shown but not edited.
        case preview
    }

    /// The key the value is reported under (`subject`, `to`).
    public var id: String
    /// The label shown beside the field.
    public var label: String
    /// The kind of value.
    public var kind: Kind
    /// The value the field starts with.
    public var initialValue: String
    /// Where a text field's cursor starts, in characters of `initialValue`
    /// (`nil`: at its end). Mail's body puts it on a fresh line after the
    /// shared content, before the signature.
    public var initialCursor: Int?

    /// Creates a field.
    public init(id: String, label: String, kind: Kind, initialValue: String = "", initialCursor: Int? = nil) {
        self.id = id
        self.label = label
        self.kind = kind
        self.initialValue = initialValue
        self.initialCursor = initialCursor
    }
}

/// What became of one submission of a form.
public enum FormSubmission: Sendable, Equatable {
    /// The activity finished: the form closes with this result.
    case finished(ActivityResult)
    /// The activity refused or failed but nothing is lost: the form stays
    /// open, showing this message (a bad address, the server's words).
    case retry(String)
}

/// Shows an activity's form until it is submitted for good or cancelled.
///
/// The terminal front end conforms (the compose screen); tests can
/// conform with scripted answers. The presenter calls `submit` with the
/// field values each time the person submits (Send, Save); when `submit`
/// answers `.retry`, the form stays open with the message. The presenter
/// returns the result that closed the form: `submit`'s, or a cancelled
/// one.
@MainActor
public protocol ActivityFormPresenter: AnyObject {
    /// Shows `form` for `activity` and waits for the person.
    func present(_ form: ActivityForm, for activity: any Activity,
                 submit: @escaping @MainActor ([String: String]) async -> FormSubmission) async -> ActivityResult
}

/// An activity whose form is saved while it is being filled in, so nothing
/// typed is lost to a crash, a `kill -9` or a closed terminal.
@MainActor
public protocol FormAutosaving: Activity {
    /// Saves the values as they are now (they may be incomplete or invalid),
    /// replacing the previous autosave; returns where they went.
    func autosave(_ values: [String: String]) throws -> String
    /// Forgets the autosave (the form was sent, saved for good, or discarded).
    func discardAutosave()
}
