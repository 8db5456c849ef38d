import ShareSupport

/// A form an activity declares: the fields the front end shows before
/// `perform` (the compose screen is Mail's form), and what the person can
/// do with it besides cancelling.
public struct ActivityForm: Sendable, Equatable {
    /// The heading shown above the fields.
    public var title: String
    /// The fields, in order.
    public var fields: [FormField]
    /// What the form offers: one primary action (Send, Post, Print), and
    /// at most one secondary one (Save draft).
    public var actions: [FormAction]
    /// Whether the values were recovered from a run that did not finish
    /// (`--resume`): they count as unsaved work, so leaving asks first.
    public var isRecovered = false
    /// What the status line says when the form opens, before anything is
    /// typed (Mail without a transport: Send puts the message in the outbox).
    public var notice: String?
    /// Settings flipped by a key, shown in the title when on (Markdown in
    /// Mail's compose screen); in the values as `on` or `off` by their ids.
    public var toggles: [FormToggle] = []

    /// Creates a form; without actions it offers ``FormAction/done``.
    public init(title: String, fields: [FormField], actions: [FormAction] = [.done]) {
        self.title = title
        self.fields = fields
        self.actions = actions
    }

    /// The action with `role`, if the form offers one.
    public func action(_ role: FormAction.Role) -> FormAction? { actions.first { $0.role == role } }
}

/// Something a form lets the person do: Send, Save draft, Post, Print.
///
/// The front end binds the primary action to its primary key (Ctrl-X by
/// default) and the secondary one to its secondary key (Ctrl-O), labels
/// them in its help bar, and shows `progress` while the action runs. The
/// activity learns which one was chosen from ``ActivitySession/formAction``.
public struct FormAction: Sendable, Equatable {
    /// Which key the front end offers the action on.
    public enum Role: Sendable, Equatable {
        /// The form's purpose: Send, Post, Print.
        case primary
        /// Keep the work for later: Save draft. A changed form that is
        /// cancelled offers it.
        case secondary
        /// The work done at a time the person gives (Send later): the front
        /// end asks the time once the checks pass, the activity reads it
        /// (``FormScheduling``), and the submission carries it under
        /// ``FormAction/timeKey``.
        case later
    }

    /// The name the activity receives (`send`, `save`).
    public var id: String
    /// The words in the help bar (`Send`, `Save draft`).
    public var label: String
    /// What the screen says while it runs (`Sending…`).
    public var progress: String
    /// The key it is offered on.
    public var role: Role
    /// Whether Esc while it runs asks the activity to stop (an upload
    /// that watches ``ActivitySession/display``); otherwise keys wait.
    public var stoppable: Bool
    /// Seconds the action waits after it is asked for, a countdown on the
    /// screen, during which `u` takes it back (Mail's undo send); 0 runs it
    /// at once.
    public var undoWindow = 0

    /// Creates an action.
    public init(id: String, label: String, progress: String, role: Role = .primary, stoppable: Bool = false) {
        self.id = id
        self.label = label
        self.progress = progress
        self.role = role
        self.stoppable = stoppable
    }

    /// The action of a form that declares none: `Done`.
    public static let done = FormAction(id: "done", label: Localization.text("Done"), progress: Localization.text("Working…"))

    /// The value under which a submission of a ``Role/later`` action
    /// carries the time it was given, as ``FormScheduling`` wrote it.
    public static let timeKey = "at"
}

/// A form the person submitted: the action chosen and the values by field id.
public struct SubmittedForm: Sendable, Equatable {
    /// The action (its ``FormAction/id``).
    public var action: String
    /// The values, by field id.
    public var values: [String: String]
    /// Where the activity shows its progress while it performs, and hears
    /// that the person wants it to stop (the form's Esc); not compared.
    public var display: LiveDisplay?
    /// Lends the terminal to what must use it while the form waits (gpg-agent's
    /// pinentry): the front end leaves its screen, runs the work, and comes back.
    public var lendTerminal: TerminalLender?

    /// Creates a submission.
    public init(action: String, values: [String: String], display: LiveDisplay? = nil, lendTerminal: TerminalLender? = nil) {
        self.action = action
        self.values = values
        self.display = display
        self.lendTerminal = lendTerminal
    }

    public static func == (lhs: SubmittedForm, rhs: SubmittedForm) -> Bool {
        lhs.action == rhs.action && lhs.values == rhs.values
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
    /// Shown dimmed in an empty multi-line field that is not focused
    /// ("Write your message here"); none by default.
    public var placeholder: String?
    /// What an address list completes from instead of the address book
    /// (Message's XMPP contacts and webhooks); `nil` for the address book.
    /// Typing filters them: each one holding what is typed, case aside.
    public var suggestions: [String]?
    /// Where a text field's cursor starts, in characters of `initialValue`;
    /// by default (`nil`) at its end. Mail's body puts it on a fresh line
    /// after the shared content, before the signature.
    public var initialCursor: Int?

    /// Creates a field.
    public init(id: String, label: String, kind: Kind, initialValue: String = "") {
        self.id = id
        self.label = label
        self.kind = kind
        self.initialValue = initialValue
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
/// chosen action and the field values each time the person submits (Send,
/// Save draft), after the person confirmed the activity's warnings
/// (``FormValidating``); when `submit` answers `.retry`, the form stays
/// open with the message. The presenter returns the result that closed the
/// form: `submit`'s, or a cancelled one.
@MainActor
public protocol ActivityFormPresenter: AnyObject {
    /// Shows `form` for `activity` and waits for the person.
    func present(_ form: ActivityForm, for activity: any Activity,
                 submit: @escaping @MainActor (SubmittedForm) async -> FormSubmission) async -> ActivityResult

    /// Shows that `activity`'s items are being computed by `providers`
    /// while `work` runs, with their progress; the person may cancel, which
    /// cancels the providers (and `work` then throws
    /// ``ItemProviderError/cancelled``). Returns what `work` returns.
    func prepare(_ activity: any Activity, providers: [ItemProvider],
                 work: @escaping @MainActor () async throws -> [ShareItem]) async throws -> [ShareItem]
}

extension ActivityFormPresenter {
    /// By default the items are computed with nothing shown.
    public func prepare(_ activity: any Activity, providers: [ItemProvider],
                        work: @escaping @MainActor () async throws -> [ShareItem]) async throws -> [ShareItem] {
        try await work()
    }
}

/// An activity that checks its form's values as they are typed and warns
/// before an action goes ahead; the front end shows what it says and knows
/// nothing of the fields' meaning.
@MainActor
public protocol FormValidating: Activity {
    /// What is wrong with `value` in `field` (an address that does not
    /// parse), or `nil`; shown beside the field as it is typed.
    func problem(in field: FormField, value: String) -> String?
    /// What stops `action` until the person changes the form (no
    /// recipient), in the form's words: shown on the status line, asked
    /// before any warning; `nil`, and the warnings come next.
    func refusal(before action: FormAction, values: [String: String]) -> String?
    /// What the person should confirm before `action` goes ahead (an empty
    /// subject); none, and it goes ahead at once.
    func warnings(before action: FormAction, values: [String: String]) -> [String]
}

extension FormValidating {
    /// By default nothing stops an action before its warnings.
    public func refusal(before action: FormAction, values: [String: String]) -> String? { nil }
}

/// An activity whose form counts a field against a limit as it is typed
/// (a post's characters against the service's 280); the front end shows
/// the count beside the field and knows nothing of how it is counted.
@MainActor
public protocol FormCounting: Activity {
    /// How much of its limit `value` uses in `field`, or `nil` for a field
    /// not counted. Called at each change of the field: it must be cheap
    /// for a value of the size the limit allows.
    func count(in field: FormField, value: String) -> FieldCount?
}

/// How much of a limit a field's value uses.
public struct FieldCount: Sendable, Equatable {
    /// What the value counts as (characters, with each link as 23).
    public var used: Int
    /// The most the service takes.
    public var limit: Int

    /// Creates a count.
    public init(used: Int, limit: Int) {
        self.used = used
        self.limit = limit
    }

    /// Whether the value is over the limit.
    public var isOver: Bool { used > limit }
}

/// An activity whose form is saved while it is being filled in, so nothing
/// typed is lost to a crash, a `kill -9` or a closed terminal.
///
/// Saving is split in two so that typing never waits for it: the activity
/// hands out a job (cheaply, on the main actor), the screen runs it off the
/// main actor with the values as they are, and tells the activity where
/// they went.
@MainActor
public protocol FormAutosaving: Activity {
    /// The work of saving values as they are (they may be incomplete or
    /// invalid): run anywhere, it returns where they went, and removes the
    /// autosave it replaces.
    func autosaveJob() -> AutosaveJob
    /// Where a job saved is now the autosave.
    func autosaved(at place: String)
    /// Forgets the autosave (the form was sent, saved for good, or discarded).
    func discardAutosave()
}

/// Saves a form's values and returns where they went; runs off the main actor.
public typealias AutosaveJob = @Sendable (_ values: [String: String]) throws -> String

/// An activity whose form has an action done at a time the person gives
/// (``FormAction/Role/later``: Mail's Send later): it reads the time as
/// typed, and the front end knows nothing of times.
@MainActor
public protocol FormScheduling: Activity {
    /// What `text` means as the time of `action`, read now: the value the
    /// submission carries (``FormAction/timeKey``) and the time in words,
    /// or why it is not one, in the form's words.
    func time(_ text: String, for action: FormAction) -> FormTime
}

/// A time typed for a ``FormAction/Role/later`` action, as the activity read it.
public enum FormTime: Sendable, Equatable {
    /// A time it takes: the value submitted, and the time as a person reads it (`tomorrow 09:00`).
    case accepted(value: String, shown: String)
    /// Not a time it takes (unreadable, or past), and why.
    case refused(String)
}

/// A setting of a form that its key moves to the next state (on/off, or
/// a few in a cycle: OpenPGP's none, signed, signed and encrypted,
/// encrypted): not a field, so it takes no line of the screen; the title
/// names the state when it is not the first.
public struct FormToggle: Sendable, Equatable {
    /// One state: its value among the form's values, and the words the
    /// title and the status line show for it (empty for the first).
    public struct State: Sendable, Equatable {
        public var value: String
        public var title: String

        public init(value: String, title: String) {
            self.value = value
            self.title = title
        }
    }

    public var id: String
    /// Its name (`Markdown`), as the help bar shows it beside its key.
    public var label: String
    /// Its key as the config's `[keys]` writes keys (`M-m` for Alt-M).
    public var key: String
    /// The states, in the order the key goes through them; the first is "off".
    public var states: [State]
    /// The state it is in.
    public var selected: Int

    /// An on/off toggle: values `off` and `on`, the title showing `label` when on.
    public init(id: String, label: String, key: String, isOn: Bool) {
        self.init(id: id, label: label, key: key, states: [State(value: "off", title: ""), State(value: "on", title: label)],
                  selected: isOn ? 1 : 0)
    }

    /// A toggle that cycles through `states`, in `selected` (the first when out of range).
    public init(id: String, label: String, key: String, states: [State], selected: Int) {
        self.id = id
        self.label = label
        self.key = key
        self.states = states
        self.selected = states.indices.contains(selected) ? selected : 0
    }

    /// Whether it is past its first state.
    public var isOn: Bool { selected != 0 }
    /// Its state's value.
    public var value: String { states.indices.contains(selected) ? states[selected].value : "" }
    /// Its state's words.
    public var title: String { states.indices.contains(selected) ? states[selected].title : "" }

    /// Moves to the next state, after the last back to the first.
    public mutating func advance() {
        selected = states.isEmpty ? 0 : (selected + 1) % states.count
    }
}

/// Runs work on the plain terminal, the front end's screen left while it
/// runs and drawn again after (on the main actor, so nothing else reads
/// the keys meanwhile).
public typealias TerminalLender = @MainActor (_ work: () -> Void) -> Void
