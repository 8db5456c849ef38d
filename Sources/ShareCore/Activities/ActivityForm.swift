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

    /// Creates a field.
    public init(id: String, label: String, kind: Kind, initialValue: String = "") {
        self.id = id
        self.label = label
        self.kind = kind
        self.initialValue = initialValue
    }
}

/// How a person left a form.
public enum FormResponse: Sendable, Equatable {
    /// They submitted these values, by field id.
    case submitted([String: String])
    /// They cancelled.
    case cancelled
}

/// Shows an activity's form and returns how the person left it.
///
/// The terminal front end conforms; tests can conform with scripted answers.
@MainActor
public protocol ActivityFormPresenter: AnyObject {
    /// Shows `form` for `activity` and waits for the person.
    func present(_ form: ActivityForm, for activity: any Activity) async -> FormResponse
}
