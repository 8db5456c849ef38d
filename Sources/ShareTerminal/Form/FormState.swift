import ShareCore

/// A file in a form's attachment list, as shown: the file (its one codec,
/// ``AttachedFile``), its name and its detected type.
public struct AttachmentRow: Sendable, Equatable {
    /// The file, with the size and time it was attached with.
    public var file: AttachedFile
    /// Its detected MIME type.
    public var contentType: String

    /// Creates a row.
    public init(file: AttachedFile, contentType: String) {
        self.file = file
        self.contentType = contentType
    }

    /// Where the file is.
    public var path: String { file.path }
    /// The name shown.
    public var name: String { file.name }
    /// Its size in bytes when attached.
    public var size: Int64 { file.stamp?.size ?? 0 }
}

/// One field of a form on screen.
public struct FormFieldState: Sendable, Equatable {
    /// The declaration.
    public let field: FormField
    /// The text of text, address and multi-line fields.
    public var editor: TextEditor
    /// The chosen option of a choice field.
    public var choice: Int
    /// The files of an attachment list.
    public var attachments: [AttachmentRow]
    /// The selected row of an attachment list.
    public var selectedAttachment: Int
    /// What is wrong with the value (an invalid address), shown beside it.
    public var problem: String?
    /// How much of its limit the value uses (a post's 280), when counted.
    public var count: FieldCount?

    /// The field with its initial value.
    public init(_ field: FormField, attachments: [AttachmentRow] = []) {
        self.field = field
        editor = TextEditor(field.initialValue, multiline: field.kind == .multilineText)
        if let cursor = field.initialCursor { editor.moveCursor(to: cursor) }
        if case .choice(let options) = field.kind {
            choice = max(0, options.firstIndex(of: field.initialValue) ?? 0)
        } else {
            choice = 0
        }
        self.attachments = attachments
        selectedAttachment = 0
    }

    /// The value reported for this field.
    public var value: String {
        switch field.kind {
        case .choice(let options): options.indices.contains(choice) ? options[choice] : ""
        case .attachmentList: AttachedFile.value(attachments.map(\.file))
        default: editor.text
        }
    }

    /// Whether the field takes keyboard focus (a preview does not).
    public var isFocusable: Bool { field.kind != .preview }

    /// Whether the field has no value yet.
    public var isEmpty: Bool {
        switch field.kind {
        case .attachmentList: attachments.isEmpty
        case .choice: false
        default: editor.isEmpty
        }
    }
}

/// A question the form is asking, over the fields.
public enum FormDialog: Sendable, Equatable {
    /// Go ahead with the action although: the warnings listed. y goes ahead, n or Esc goes back.
    case confirmAction(FormAction, [String])
    /// The form changed: s runs the secondary action (Save draft), d discards, Esc keeps editing.
    case confirmCancel
    /// Choose one option of the choice field at `field`: typing filters,
    /// ↑↓ select among the matches, Enter chooses.
    case chooser(field: Int, filter: TextEditor, selected: Int)
    /// Remove this attachment? y removes.
    case confirmRemove(Int)
    /// Attach a file: a path, with Tab completion.
    case attachPath(TextEditor, completions: [String])
    /// An action asked for, waiting out its undo window: the values it
    /// runs with, and the seconds left.
    case countdown(FormAction, [String: String], seconds: Int)
    /// When to run an action done later (Send later): the values it runs
    /// with, the time as typed, and what the activity reads in it (the
    /// time in words, or why it is none when `isProblem`).
    case time(FormAction, [String: String], TextEditor, note: String?, isProblem: Bool)
}

/// Everything a form screen shows, as a value.
public struct FormState: Sendable, Equatable {
    /// The heading (`New Message`).
    public var title: String
    /// The fields, in order.
    public var fields: [FormFieldState]
    /// The focused field.
    public var focus: Int
    /// An open question, if any.
    public var dialog: FormDialog?
    /// One line of news for the person (errors in red, progress).
    public var status: String?
    /// Whether the status is an error.
    public var statusIsError = false
    /// What the form offers besides cancelling (Send, Save draft).
    public var actions: [FormAction]
    /// The form's toggles (``FormToggle``), as they are now.
    public var toggles: [FormToggle] = []
    /// The action running (Sending…), if any; input waits meanwhile.
    public var running: FormAction?
    /// Whether an action is running.
    public var isBusy: Bool { running != nil }
    /// What the running action says it is doing, in place of its ``FormAction/progress``.
    public var runningNews: String?
    /// Keys typed while busy, in order: they take effect when the submission is answered.
    public var typedWhileBusy: [InputEvent] = []
    /// How far the spinner has turned.
    public var spinner = 0
    /// Whether anything changed since the form opened or was last saved.
    public var changed = false
    /// Address completions for the focused field, and the chosen one.
    public var completions: [String] = []
    public var completionIndex = 0
    /// The field whose text the pending completions are for.
    public var completionField: String?
    /// The body's first row on screen (a line and a row of it), so that a
    /// keystroke reads the rows shown, not the whole body.
    public var bodyTop = TextEditor.RowPosition(line: 0, row: 0)
    public var width: Int
    public var height: Int
    public var colors: Bool
    /// The command keys (`[keys]` in the config).
    public var keys: KeyMap<FormCommand> = .form

    /// The form's first state: focus on the first empty field that takes focus.
    public init(form: ActivityForm, attachments: [AttachmentRow] = [], width: Int, height: Int, colors: Bool = true) {
        title = form.title
        actions = form.actions
        toggles = form.toggles
        // Recovered work is never thrown away without asking.
        changed = form.isRecovered
        status = form.notice
        let fields = form.fields.map { field in
            FormFieldState(field, attachments: field.kind == .attachmentList ? attachments : [])
        }
        self.fields = fields
        self.width = width
        self.height = height
        self.colors = colors
        // Start in the first empty field that matters: the first address list
        // (To), text fields and the body; Cc and Bcc are optional.
        let firstAddressList = fields.firstIndex { $0.field.kind == .addressList }
        let editable = fields.indices.filter { index in
            let kind = fields[index].field.kind
            guard fields[index].isFocusable, kind != .attachmentList, !isChoice(kind) else { return false }
            return kind != .addressList || index == firstAddressList
        }
        // A form of choices only (a printer, a contact) starts on the first of them, never on a preview.
        focus = editable.first { fields[$0].isEmpty } ?? editable.first ?? fields.indices.first { fields[$0].isFocusable } ?? 0
    }

    /// The values by field id, and each toggle's `on` or `off`.
    public var values: [String: String] {
        Dictionary(uniqueKeysWithValues: fields.map { ($0.field.id, $0.value) } + toggles.map { ($0.id, $0.value) })
    }

    /// The title with the toggles that are on: `New Message · Markdown`.
    public var shownTitle: String {
        ([title] + toggles.filter(\.isOn).map(\.title)).joined(separator: " · ")
    }

    /// The index of the body (the multi-line text field), if the form has
    /// one; found without copying a field (a keystroke asks three times).
    public var bodyIndex: Int? {
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                if case .multilineText = fields[index].field.kind { return index }
            }
            return nil
        }
    }

    /// The index of the field with `id`.
    public func index(of id: String) -> Int? {
        // Read in place: no field copied for the look (a keystroke's change is looked up so).
        fields.withUnsafeBufferPointer { fields in fields.indices.first { fields[$0].field.id == id } }
    }

    /// The action with `role`, if the form offers one.
    public func action(_ role: FormAction.Role) -> FormAction? { actions.first { $0.role == role } }
}

func isChoice(_ kind: FormField.Kind) -> Bool {
    if case .choice = kind { return true }
    return false
}
