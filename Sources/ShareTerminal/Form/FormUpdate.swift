import ShareCore
import ShareSupport

/// What the form screen hears: keys, and answers from the run loop.
public enum FormMessage: Sendable, Equatable {
    /// A key, mouse or resize event.
    case input(InputEvent)
    /// Address completions for the focused field.
    case completions([String])
    /// Path completions for the attach prompt.
    case pathCompletions([String])
    /// A file was checked and can be attached.
    case attached(AttachmentRow)
    /// Something to tell the person; `isError` shows it as a problem.
    case status(String, isError: Bool)
    /// The validation of a field (nil: fine).
    case problem(field: String, String?)
    /// How much of its limit a field's value uses (nil: not counted).
    case count(field: String, FieldCount?)
    /// The activity's warnings before an action: ask the person first.
    case confirm(FormAction, warnings: [String])
    /// The external editor returned text (nil: it failed, keep the old text).
    case edited(field: String, text: String?)
    /// An action began (with it) or ended (nil); when it ends, keys typed meanwhile take effect.
    case busy(FormAction?)
    /// A submission is still running: the spinner turns.
    case tick
    /// A second of an action's undo window went by.
    case countdownTick
    /// The action passed its checks and waits out its undo window.
    case countdown(FormAction, [String: String])
    /// An action done later passed its checks: ask when.
    case askTime(FormAction, [String: String])
    /// What the activity reads in the time typed: the time in words, or
    /// (`isProblem`) why it is none; `nil` says nothing.
    case timeNote(String?, isProblem: Bool)
    /// The activity took the time typed (`value`): the action runs with it.
    case timeAccepted(FormAction, [String: String], value: String)
    /// What the running submission is doing now (`Uploading photo.jpg 40 %`).
    case progress(String)
    /// The values were saved (autosave or Save): nothing is unsaved any more.
    case saved
}

/// What the form screen asks the run loop to do.
public enum FormEffect: Sendable, Equatable {
    /// Run `action` with the values; `confirmed` once the person has
    /// answered the activity's warnings (else the run loop asks for them).
    case submit(FormAction, [String: String], confirmed: Bool)
    /// Close without sending or saving.
    case discard
    /// A field's value changed: autosave the form and check the field
    /// (the values are read from the state when needed, never copied on
    /// each keystroke).
    case changed(field: String)
    /// Look up completions for an address being typed.
    case completeAddress(String)
    /// Look up completions for a path being typed.
    case completePath(String)
    /// Check and attach the file at this path.
    case attach(String)
    /// Edit this field's text in `$EDITOR`.
    case openEditor(field: String, text: String)
    /// Ask the running submission to stop (Esc while a stoppable action runs).
    case stop
    /// Run the action now: its undo window ended, or its time was taken.
    case run(FormAction, [String: String])
    /// Ask the activity what the time typed for `action` means, as it is typed.
    case readTime(FormAction, String)
    /// Run `action` with the values at the time typed, if the activity takes it.
    case schedule(FormAction, [String: String], String)
}

/// The form screen's update: pure, like the picker's.
public enum FormUpdate {
    /// Completions shown at most (all of them are on screen).
    public static let visibleCompletions = 6

    /// Applies a message.
    public static func update(_ state: inout FormState, _ message: FormMessage) -> [FormEffect] {
        let effects = apply(&state, message)
        keepBodyCursorVisible(&state)
        return effects
    }

    private static func apply(_ state: inout FormState, _ message: FormMessage) -> [FormEffect] {
        switch message {
        case .input(let event): return input(&state, event)
        case .completions(let list):
            // Late answers for a field the person has left are dropped.
            guard let field = state.completionField, state.fields.indices.contains(state.focus),
                  state.fields[state.focus].field.id == field else { return [] }
            state.completions = Array(list.prefix(FormUpdate.visibleCompletions))
            state.completionIndex = 0
        case .pathCompletions(let list):
            if case .attachPath(var editor, _) = state.dialog {
                if list.count == 1, let only = list.first {
                    editor.setText(only)
                    state.dialog = .attachPath(editor, completions: [])
                } else {
                    if let prefix = commonPrefix(list), prefix.count > editor.text.count { editor.setText(prefix) }
                    state.dialog = .attachPath(editor, completions: Array(list.prefix(12)))
                }
            }
        case .attached(let row):
            guard let index = attachmentField(state) else { return [] }
            state.fields[index].attachments.append(row)
            state.fields[index].selectedAttachment = state.fields[index].attachments.count - 1
            state.dialog = nil
            setStatus(&state, Localization.text("Attached %@", row.name), error: false)
            return changed(&state, field: state.fields[index].field.id)
        case .status(let text, let isError): setStatus(&state, text, error: isError)
        case .problem(let field, let text):
            if let index = state.index(of: field) { state.fields[index].problem = text }
        case .count(let field, let count):
            if let index = state.index(of: field) { state.fields[index].count = count }
        case .edited(let field, let text):
            guard let index = state.index(of: field) else { return [] }
            guard let text else {
                setStatus(&state, Localization.text("The editor failed; the text is as it was"), error: true)
                return []
            }
            state.fields[index].editor.setText(text)
            return changed(&state, field: field)
        case .confirm(let action, let warnings):
            state.dialog = .confirmAction(action, warnings)
        case .busy(let action):
            let ended = state.running, news = state.runningNews
            state.running = action
            state.runningNews = nil
            if let action {
                state.spinner = 0
                setStatus(&state, action.progress, error: false)
                return []
            }
            if let ended, let status = state.status, status.hasPrefix(ended.progress) || news.map(status.hasPrefix) == true {
                state.status = nil
            }
            let typed = state.typedWhileBusy
            state.typedWhileBusy = []
            return typed.flatMap { input(&state, $0) }
        case .tick:
            guard let running = state.running else { return [] }
            state.spinner += 1
            setStatus(&state, (state.runningNews ?? running.progress) + " " + Spinner.frame(state.spinner), error: false)
        case .countdown(let action, let values):
            state.dialog = .countdown(action, values, seconds: action.undoWindow)
        case .askTime(let action, let values):
            state.dialog = .time(action, values, TextEditor(""), note: nil, isProblem: false)
        case .timeNote(let note, let isProblem):
            guard case .time(let action, let values, let editor, _, _)? = state.dialog else { return [] }
            state.dialog = .time(action, values, editor, note: note, isProblem: isProblem)
        case .timeAccepted(let action, var values, let value):
            guard case .time? = state.dialog else { return [] }
            state.dialog = nil
            values[FormAction.timeKey] = value
            return [.run(action, values)]
        case .countdownTick:
            guard case .countdown(let action, let values, let seconds)? = state.dialog else { return [] }
            guard seconds > 1 else {
                state.dialog = nil
                return [.run(action, values)]
            }
            state.dialog = .countdown(action, values, seconds: seconds - 1)
        case .progress(let news):
            guard state.running != nil else { return [] }
            state.runningNews = news
            setStatus(&state, news + " " + Spinner.frame(state.spinner), error: false)
        case .saved: state.changed = false
        }
        return []
    }

    // MARK: - Keys

    private static func input(_ state: inout FormState, _ event: InputEvent) -> [FormEffect] {
        if case .resize(let width, let height) = event {
            state.width = width
            state.height = height
            return []
        }
        let command = state.keys.action(for: event)
        if let running = state.running {
            if running.stoppable && (command == .cancel || command == .interrupt) {
                state.runningNews = Localization.text("Stopping…")
                setStatus(&state, Localization.text("Stopping…"), error: false)
                return [.stop]
            }
            // Keys wait their turn: they take effect once the submission is answered.
            state.typedWhileBusy.append(event)
            return []
        }
        if let dialog = state.dialog { return answer(dialog, &state, event) }
        // A toggle's key is a chord (M-m): typed text never looks one up.
        if command == nil, !state.toggles.isEmpty, event.isChord,
           let index = state.toggles.firstIndex(where: { KeyNames.event($0.key) == event }) {
            state.toggles[index].advance()
            let toggle = state.toggles[index]
            setStatus(&state, toggle.isOn ? Localization.text("%@ on", toggle.title) : Localization.text("%@ off", toggle.label), error: false)
            return changed(&state, field: toggle.id)
        }
        switch command {
        case .primary: return request(.primary, &state)
        case .secondary: return request(.secondary, &state)
        case .later: return request(.later, &state)
        case .attach:
            guard attachmentField(state) != nil else { return [] }
            // Where the person is, as a shell's prompt: a name is taken from the current folder.
            state.dialog = .attachPath(TextEditor(""), completions: [])
            return []
        case .editor:
            let field = state.fields[state.focus]
            guard field.field.kind == .multilineText || field.field.kind == .text || field.field.kind == .addressList else { return [] }
            return [.openEditor(field: field.field.id, text: field.editor.text)]
        case .cancel:
            if !state.completions.isEmpty {
                state.completions = []
                // Answers still on their way for this token are not wanted either.
                state.completionField = nil
                return []
            }
            return leave(&state)
        case .interrupt: return leave(&state)
        case .next:
            if !state.completions.isEmpty { return acceptCompletion(&state) }
            move(&state, by: 1)
            return []
        case .previous:
            move(&state, by: -1)
            return []
        case nil: break
        }
        return fieldInput(&state, event)
    }

    /// Leaves the form: asks first when something changed.
    private static func leave(_ state: inout FormState) -> [FormEffect] {
        if state.changed {
            state.dialog = .confirmCancel
            return []
        }
        return [.discard]
    }

    /// Keys for the focused field.
    private static func fieldInput(_ state: inout FormState, _ event: InputEvent) -> [FormEffect] {
        let index = state.focus
        // The field is read in place: a copy of it would share the body's lines, and the edit would then copy them.
        switch state.fields[index].field.kind {
        case .choice(let options):
            if options.count <= 1, event != .up, event != .down, event != .enter { return [] }
            let choice = state.fields[index].choice
            switch event {
            case .left: state.fields[index].choice = (choice + options.count - 1) % max(1, options.count)
            case .right: state.fields[index].choice = (choice + 1) % max(1, options.count)
            case .up: move(&state, by: -1); return []
            case .down: move(&state, by: 1); return []
            case .enter:
                if options.count <= 1 { move(&state, by: 1); return [] }
                state.dialog = .chooser(field: index, filter: TextEditor(), selected: choice)
                return []
            case .character(let character):
                // Typing on a choice opens the chooser, filtered by what is typed.
                var filter = TextEditor()
                filter.insert(String(character))
                let matches = Chooser.matches(options, filter: filter.text)
                state.dialog = .chooser(field: index, filter: filter, selected: matches.first ?? choice)
                return []
            default: return []
            }
            return changed(&state, field: state.fields[index].field.id)
        case .attachmentList:
            let selected = state.fields[index].selectedAttachment, count = state.fields[index].attachments.count
            switch KeyMap.attachmentList.action(for: event) {
            case .previous: state.fields[index].selectedAttachment = max(0, selected - 1)
            case .next: state.fields[index].selectedAttachment = min(max(0, count - 1), selected + 1)
            case .remove:
                if (0..<count).contains(selected) { state.dialog = .confirmRemove(selected) }
            case nil: break
            }
            return []
        case .preview:
            return []
        case .text, .addressList:
            if !state.completions.isEmpty {
                switch event {
                case .down:
                    state.completionIndex = (state.completionIndex + 1) % state.completions.count
                    return []
                case .up:
                    state.completionIndex = (state.completionIndex + state.completions.count - 1) % state.completions.count
                    return []
                case .enter: return acceptCompletion(&state)
                default: break
                }
            }
            switch event {
            case .enter, .down: move(&state, by: 1); return []
            case .up: move(&state, by: -1); return []
            default: break
            }
            return edit(&state, index, event)
        case .multilineText:
            if event == .pageUp || event == .pageDown {
                // A page is the rows on screen, less one kept for context; the view moves with the cursor.
                let layout = FormLayout(state)
                let page = max(1, layout.bodyHeight - 1) * (event == .pageUp ? -1 : 1)
                let editor = state.fields[index].editor
                state.bodyTop = editor.position(editor.clamped(state.bodyTop, width: layout.bodyWidth), movedBy: page,
                                                width: layout.bodyWidth)
                state.fields[index].editor.moveByRows(page, width: layout.bodyWidth)
                return []
            }
            return edit(&state, index, event)
        }
    }

    private static func edit(_ state: inout FormState, _ index: Int, _ event: InputEvent) -> [FormEffect] {
        let before = state.fields[index].editor.edits
        guard state.fields[index].editor.handle(event) else { return [] }
        guard state.fields[index].editor.edits != before else { return [] }
        state.fields[index].problem = nil
        var effects = changed(&state, field: state.fields[index].field.id)
        if state.fields[index].field.kind == .addressList {
            let token = currentAddressToken(state.fields[index].editor)
            if token.count >= 2 {
                state.completionField = state.fields[index].field.id
                effects.append(.completeAddress(token))
            } else {
                state.completions = []
            }
        }
        return effects
    }

    // MARK: - Dialogs

    private static func answer(_ dialog: FormDialog, _ state: inout FormState, _ event: InputEvent) -> [FormEffect] {
        switch dialog {
        case .confirmAction(let action, _):
            switch KeyMap.confirmation.action(for: event) {
            case .confirm:
                state.dialog = nil
                return [.submit(action, state.values, confirmed: true)]
            case .back: state.dialog = nil
            default: break
            }
        case .chooser(let index, let filter, let selected):
            return choose(in: index, filter: filter, selected: selected, &state, event)
        case .countdown(let action, _, _):
            // u (or Esc) takes it back; every other key waits for the countdown.
            guard event == .character("u") || event == .escape else { return [] }
            state.dialog = nil
            setStatus(&state, Localization.text("%@ undone: the message is back", action.label), error: false)
        case .confirmCancel:
            switch KeyMap.unsavedChanges.action(for: event) {
            case .save:
                guard let secondary = state.action(.secondary) else { break }
                state.dialog = nil
                return [.submit(secondary, state.values, confirmed: false)]
            case .discard:
                state.dialog = nil
                return [.discard]
            case .back: state.dialog = nil
            default: break
            }
        case .confirmRemove(let row):
            if KeyMap.removal.action(for: event) == .confirm, let index = attachmentField(state),
               state.fields[index].attachments.indices.contains(row) {
                let removed = state.fields[index].attachments.remove(at: row)
                state.fields[index].selectedAttachment = max(0, min(row, state.fields[index].attachments.count - 1))
                state.dialog = nil
                setStatus(&state, Localization.text("Removed %@", removed.name), error: false)
                return changed(&state, field: state.fields[index].field.id)
            }
            state.dialog = nil
        case .time(let action, let values, var editor, let note, let isProblem):
            switch KeyMap.timePrompt.action(for: event) {
            case .back: state.dialog = nil
            case .confirm:
                let text = editor.text.trimmingWhitespace()
                return text.isEmpty ? [] : [.schedule(action, values, text)]
            default:
                let before = editor.edits
                guard editor.handle(event) else { return [] }
                guard editor.edits != before else {
                    state.dialog = .time(action, values, editor, note: note, isProblem: isProblem)
                    return []
                }
                // The text changed: what it meant is read again, and a problem with the old text goes.
                state.dialog = .time(action, values, editor, note: nil, isProblem: false)
                return [.readTime(action, editor.text)]
            }
        case .attachPath(var editor, _):
            switch KeyMap.attachPrompt.action(for: event) {
            case .back: state.dialog = nil
            case .confirm:
                let path = editor.text
                return path.isEmpty ? [] : [.attach(path)]
            case .complete: return [.completePath(editor.text)]
            default:
                if editor.handle(event) { state.dialog = .attachPath(editor, completions: []) }
            }
        }
        return []
    }

    // MARK: - Actions

    /// The form's action with `role`, to run once the activity's warnings
    /// (if any) are answered.
    static func request(_ role: FormAction.Role, _ state: inout FormState) -> [FormEffect] {
        guard let action = state.action(role) else { return [] }
        return [.submit(action, state.values, confirmed: false)]
    }

    // MARK: - The chooser

    /// Keys in a choice field's chooser (``Chooser``).
    private static func choose(in index: Int, filter: TextEditor, selected: Int, _ state: inout FormState,
                               _ event: InputEvent) -> [FormEffect] {
        guard state.fields.indices.contains(index), case .choice(let options) = state.fields[index].field.kind else {
            state.dialog = nil
            return []
        }
        var chooser = Chooser(options: options, filter: filter, selected: selected)
        switch chooser.handle(event) {
        case .closed:
            state.dialog = nil
        case .chosen(let chosen):
            state.dialog = nil
            guard chosen != state.fields[index].choice else { return [] }
            state.fields[index].choice = chosen
            return changed(&state, field: state.fields[index].field.id)
        case nil:
            state.dialog = .chooser(field: index, filter: chooser.filter, selected: chooser.selected)
        }
        return []
    }

    /// Scrolls the body so that its cursor stays on screen, moving the page
    /// only when the cursor leaves it.
    static func keepBodyCursorVisible(_ state: inout FormState) {
        guard let index = state.bodyIndex else { return }
        let layout = FormLayout(state)
        state.bodyTop = bodyTop(state.fields[index].editor, from: state.bodyTop, visible: max(1, layout.bodyHeight),
                                width: layout.bodyWidth)
    }

    /// The body's first row on screen: `top` unless the cursor would be
    /// off screen (then the fewest rows that bring it back), and never
    /// empty rows at the bottom while rows are hidden above. Reads only the
    /// rows between `top` and the cursor, at most a screenful.
    static func bodyTop(_ editor: TextEditor, from top: TextEditor.RowPosition, visible: Int,
                        width: Int) -> TextEditor.RowPosition {
        var top = editor.clamped(top, width: width)
        let cursor = editor.cursorPosition(width: width).position
        if cursor < top {
            top = cursor
        } else if editor.rows(from: top, to: cursor, limit: visible, width: width) == nil {
            top = editor.position(cursor, movedBy: -(visible - 1), width: width)
        }
        // Each line is a row at least: with a screenful of lines below the top, no counting.
        guard editor.lines.count - top.line < visible else { return top }
        let shown = editor.rowCount(from: top, limit: visible, width: width)
        if shown < visible { top = editor.position(top, movedBy: shown - visible, width: width) }
        return top
    }

    // MARK: - Helpers

    private static func changed(_ state: inout FormState, field: String) -> [FormEffect] {
        state.changed = true
        return [.changed(field: field)]
    }

    private static func move(_ state: inout FormState, by step: Int) {
        state.completions = []
        state.completionField = nil
        var index = state.focus
        for _ in state.fields.indices {
            index = (index + step + state.fields.count) % state.fields.count
            if state.fields[index].isFocusable { break }
        }
        state.focus = index
    }

    private static func acceptCompletion(_ state: inout FormState) -> [FormEffect] {
        let index = state.focus
        guard state.completions.indices.contains(state.completionIndex) else { return [] }
        let choice = state.completions[state.completionIndex]
        var editor = state.fields[index].editor
        // Replace what was typed of this address (from the comma before the
        // cursor up to the cursor); whatever follows the cursor is kept.
        let characters = Array(editor.text)
        let cursor = min(editor.cursorIndex, characters.count)
        var start = cursor
        while start > 0 && characters[start - 1] != "," { start -= 1 }
        let before = String(characters[..<start]).trimmingWhitespace(includingNewlines: true)
        let after = String(characters[cursor...]).trimmingWhitespace(includingNewlines: true)
        let head = (before.isEmpty ? "" : before + " ") + choice + ", "
        editor.setText(head + after)
        editor.moveCursor(to: Array(head).count)
        state.fields[index].editor = editor
        state.completions = []
        state.completionField = nil
        return changed(&state, field: state.fields[index].field.id)
    }

    /// The address being typed: the text after the last comma, trimmed.
    public static func currentAddressToken(_ editor: TextEditor) -> String {
        let text = String(editor.text.prefix(editor.cursorIndex))
        let token = text.split(separator: ",", omittingEmptySubsequences: false).last.map(String.init) ?? text
        return token.trimmingWhitespace(includingNewlines: true)
    }

    private static func attachmentField(_ state: FormState) -> Int? {
        state.fields.firstIndex { $0.field.kind == .attachmentList }
    }

    private static func setStatus(_ state: inout FormState, _ text: String, error: Bool) {
        state.status = text
        state.statusIsError = error
    }

    private static func commonPrefix(_ list: [String]) -> String? {
        guard var prefix = list.first else { return nil }
        for item in list.dropFirst() {
            while !item.hasPrefix(prefix) { prefix.removeLast() }
        }
        return prefix
    }
}
