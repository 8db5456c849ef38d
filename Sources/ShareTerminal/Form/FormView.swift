import ShareCore
import ShareSupport

/// The form screen's view: state → frame, pure.
public enum FormView {
    /// The header labels' column: 10 wide, wider for longer labels (as
    /// in some languages), up to a third of the screen.
    static func labelWidth(_ state: FormState, _ layout: FormLayout) -> Int {
        let longest = layout.headerFields.map { DisplayWidth.of(state.fields[$0].field.label) }.max() ?? 0
        return max(10, min(state.width / 3, longest + 2))
    }

    /// Draws `state`.
    public static func view(_ state: FormState) -> Frame { drawn(state).frame }

    /// Draws `state`; with the frame, the body's rows on screen (empty
    /// without a body), which ``FormFrames`` keeps to redraw only the rows
    /// a keystroke changes.
    static func drawn(_ state: FormState) -> (frame: Frame, bodyRows: [String]) {
        var frame = Frame(width: state.width, height: state.height)
        var bodyRows: [String] = []
        let layout = FormLayout(state)
        guard !layout.tooSmall else {
            frame.put(DisplayWidth.truncate(Localization.text("Make the terminal larger for this form"), to: max(0, state.width)), x: 0, y: 0)
            return (frame, [])
        }
        let accent = CellStyle(foreground: .cyan, bold: true)
        let problem = CellStyle(foreground: .red, bold: true)
        frame.fill(x: 0, y: 0, width: state.width, height: 1, style: CellStyle(reverse: true))
        frame.put(" " + state.shownTitle, x: 0, y: 0, style: CellStyle(bold: true, reverse: true))

        var y = 1
        var cursor: (x: Int, y: Int)?
        var completionAnchor: (x: Int, y: Int)?
        let labelWidth = labelWidth(state, layout)
        for index in layout.headerFields {
            let field = state.fields[index]
            let focused = index == state.focus && state.dialog == nil
            let labelStyle = field.problem != nil ? problem : focused ? accent : CellStyle(dim: true)
            // A problem is marked with "!" as well as colour, for monochrome terminals.
            if field.problem != nil { frame.put("!", x: 0, y: y, style: problem) }
            frame.put(DisplayWidth.truncate(field.field.label + ":", to: labelWidth - 1), x: 1, y: y, style: labelStyle)
            let x = labelWidth + 1
            let room = state.width - x - 1
            switch field.field.kind {
            case .choice(let options):
                let value = options.indices.contains(field.choice) ? options[field.choice] : ""
                let marker = options.count > 1 ? (focused ? "  ◂ ▸" : "") : ""
                frame.put(DisplayWidth.truncate(value, to: max(0, room - DisplayWidth.of(marker))) + marker, x: x, y: y,
                          style: focused ? CellStyle(bold: true) : .plain)
            default:
                if focused {
                    let (text, cursorColumn) = window(field.editor, width: room)
                    frame.put(text, x: x, y: y)
                    cursor = (x + cursorColumn, y)
                    completionAnchor = (x, y + 1)
                } else {
                    frame.put(DisplayWidth.truncate(TerminalText.sanitized(field.editor.text), to: room), x: x, y: y)
                }
            }
            y += 1
        }

        let bottomReserved = 2  // status and help bar
        let attachmentLines = layout.attachmentLines
        frame.put(repeating: "─", count: state.width, x: 0, y: y, style: CellStyle(dim: true))
        if let count = state.fields.lazy.compactMap(\.count).first {
            // The count against the limit, at the right of the line over the body; over it, marked as a problem.
            let text = " " + (count.isOver ? "⚠ " : "") + Localization.text("%@ of %@", String(count.used), String(count.limit)) + " "
            frame.put(text, x: max(0, state.width - DisplayWidth.of(text) - 1), y: y, style: count.isOver ? problem : CellStyle(dim: true))
        }
        let bodyTop = layout.bodyTop
        let bodyBottom = layout.bodyBottom
        if let bodyIndex = state.bodyIndex, bodyBottom > bodyTop {
            let field = state.fields[bodyIndex]
            let body = body(state, layout, field: bodyIndex)
            for (offset, row) in body.rows.enumerated() { drawBodyRow(row, y: bodyTop + offset, into: &frame) }
            bodyRows = body.rows
            if let placeholder = field.field.placeholder, field.editor.isEmpty && bodyIndex != state.focus {
                frame.put(DisplayWidth.truncate(placeholder, to: layout.bodyWidth), x: 1, y: bodyTop, style: CellStyle(dim: true))
            }
            if let bodyCursor = body.cursor { cursor = bodyCursor }
        }
        if let attachmentIndex = state.fields.firstIndex(where: { $0.field.kind == .attachmentList }) {
            let field = state.fields[attachmentIndex]
            let focused = attachmentIndex == state.focus && state.dialog == nil
            var row = state.height - bottomReserved - attachmentLines
            let keys = focused ? KeyMap.attachmentList.helpBar()
                : state.keys.keys(for: .attach).first.map { Localization.text("%@ to add", KeyNames.label($0)) } ?? ""
            let heading = "\(field.field.label) (\(field.attachments.count))" + (keys.isEmpty ? "" : "  " + keys)
            frame.put(repeating: "─", count: state.width, x: 0, y: row, style: CellStyle(dim: true))
            frame.put(" " + heading + " ", x: 2, y: row, style: focused ? accent : CellStyle(dim: true))
            row += 1
            let first = max(0, min(field.selectedAttachment - 3, field.attachments.count - 4))
            let shown = layout.attachmentsCompact ? 0 : 4
            // Name, type and size in columns, by display width: names padded
            // to the longest shown (cut to leave room), types to the longest,
            // sizes right-aligned.
            let visible = Array(field.attachments.dropFirst(first).prefix(shown))
            let sizes = visible.map { ByteCount.words($0.size) }
            let typeWidth = visible.map { DisplayWidth.of($0.contentType) }.max() ?? 0
            let sizeWidth = sizes.map { DisplayWidth.of($0) }.max() ?? 0
            let nameRoom = max(4, state.width - 6 - (2 + typeWidth + 2 + sizeWidth))
            let nameWidth = min(nameRoom, visible.map { DisplayWidth.of($0.name) }.max() ?? 0)
            func padded(_ text: String, to width: Int) -> String {
                text + String(repeating: " ", count: max(0, width - DisplayWidth.of(text)))
            }
            for (offset, attachment) in visible.enumerated() {
                let index = first + offset
                let selected = focused && index == field.selectedAttachment
                let size = sizes[offset]
                let line = "📎 " + padded(DisplayWidth.truncate(attachment.name, to: nameWidth), to: nameWidth)
                    + "  " + padded(attachment.contentType, to: typeWidth)
                    + "  " + String(repeating: " ", count: sizeWidth - DisplayWidth.of(size)) + size
                if selected { frame.fill(x: 0, y: row + offset, width: state.width, height: 1, style: CellStyle(reverse: true)) }
                frame.put(line, x: 2, y: row + offset, style: selected ? CellStyle(reverse: true) : .plain)
            }
        }

        // Status: the focused field's problem first, then the latest news.
        let statusY = state.height - 2
        let focusedProblem = state.fields.indices.contains(state.focus) ? state.fields[state.focus].problem : nil
        if let text = focusedProblem ?? state.status {
            let isError = focusedProblem != nil || state.statusIsError
            frame.put(DisplayWidth.truncate((isError ? "⚠ " : "") + text, to: state.width - 2), x: 1, y: statusY,
                      style: isError ? problem : CellStyle(bold: true))
        }
        frame.put(DisplayWidth.truncate(helpBar(state), to: state.width), x: 0, y: state.height - 1, style: CellStyle(dim: true))

        if let anchor = completionAnchor, !state.completions.isEmpty, state.dialog == nil {
            drawCompletions(state, at: anchor, into: &frame)
        }
        if let dialog = state.dialog {
            cursor = drawDialog(dialog, state, into: &frame)
        }
        frame.cursor = cursor
        return (state.colors ? frame : frame.monochrome, bodyRows)
    }

    /// The body (field `index`) as drawn: the text of each row on screen,
    /// from the first row the update keeps, and the cursor when the body
    /// has focus and no dialog covers it.
    static func body(_ state: FormState, _ layout: FormLayout, field index: Int) -> (rows: [String], cursor: (x: Int, y: Int)?) {
        let editor = state.fields[index].editor
        let visible = layout.bodyBottom - layout.bodyTop, width = layout.bodyWidth
        // The update keeps the first row so that the cursor is on screen; a state made
        // otherwise (or a stale first row) gets one worked out here.
        var top = editor.clamped(state.bodyTop, width: width)
        let (position, column) = editor.cursorPosition(width: width)
        var row = editor.rows(from: top, to: position, limit: visible, width: width)
        if row == nil {
            top = FormUpdate.bodyTop(editor, from: top, visible: visible, width: width)
            row = editor.rows(from: top, to: position, limit: visible, width: width)
        }
        let rows = editor.rows(from: top, count: visible, width: width).map(\.text)
        guard index == state.focus && state.dialog == nil else { return (rows, nil) }
        return (rows, (1 + column, layout.bodyTop + (row ?? 0)))
    }

    /// One row of the body at line `y`: a quoted line dimmed. No colour,
    /// so that it is the same with colours off.
    static func drawBodyRow(_ text: String, y: Int, into frame: inout Frame) {
        frame.put(text, x: 1, y: y, style: text.hasPrefix(">") ? CellStyle(dim: true) : .plain)
    }

    /// The help bar: each command the form offers, with the key bound to
    /// it now; the toggles; and last the action done later (Send later),
    /// so that on 80 columns what is cut is the least needed.
    static func helpBar(_ state: FormState) -> String {
        let commands = state.keys.helpBar { command, words in
            switch command {
            case .primary: state.action(.primary)?.label
            case .secondary: state.action(.secondary)?.label
            case .later: nil
            case .attach: state.fields.contains { $0.field.kind == .attachmentList } ? words : nil
            case .editor: state.bodyIndex != nil ? words : nil
            case .next: state.fields.lazy.filter(\.isFocusable).dropFirst().first != nil ? words : nil
            default: words
            }
        }
        // The toggles after the actions' keys: `M-m Markdown`.
        let toggles = state.toggles.compactMap { toggle in KeyNames.event(toggle.key).map { KeyNames.label($0) + " " + toggle.label } }
        let later = state.keys.helpBar { command, _ in command == .later ? state.action(.later)?.label : nil }
        return ([commands] + toggles + [later]).filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// The question of an action done later (Send later): the time typed,
    /// what it means or why it is none, and the ways to write one; returns
    /// the cursor.
    private static func drawTimePrompt(_ action: FormAction, _ editor: TextEditor, note: String?, isProblem: Bool, _ state: FormState,
                                       into frame: inout Frame) -> (x: Int, y: Int)? {
        let title = Localization.text("%@: when? (%@)", action.label, KeyMap.timePrompt.helpBar(separator: ", "))
        let hint = Localization.text("in 2h · in 30m · tomorrow 9:00 · mon 9:00 · 2026-12-05 09:00")
        let shownNote = note.map { (isProblem ? "⚠ " : "→ ") + $0 } ?? ""
        let width = min(state.width - 4, max(44, [title, hint, shownNote].map { DisplayWidth.of($0) }.max() ?? 0) + 4)
        let height = min(state.height - 2, 6)
        let x = (state.width - width) / 2
        let y = max(1, (state.height - height) / 2)
        frame.box(x: x, y: y, width: width, height: height)
        let room = width - 4
        frame.put(DisplayWidth.truncate(title, to: room), x: x + 2, y: y + 1, style: CellStyle(bold: true))
        let (text, column) = window(editor, width: room)
        frame.put(text, x: x + 2, y: y + 2)
        let rows = [(shownNote, isProblem ? CellStyle(foreground: .red, bold: true) : CellStyle(bold: true)), (hint, CellStyle(dim: true))]
        for (offset, (line, style)) in rows.enumerated() where y + 3 + offset < y + height - 1 {
            frame.put(DisplayWidth.truncate(line, to: room), x: x + 2, y: y + 3 + offset, style: style)
        }
        return (x + 2 + column, y + 2)
    }

    /// The chooser of a choice field; returns the cursor.
    private static func drawChooser(_ field: FormFieldState, filter: TextEditor, selected: Int, _ state: FormState,
                                    into frame: inout Frame) -> (x: Int, y: Int)? {
        guard case .choice(let options) = field.field.kind else { return nil }
        return Chooser(options: options, filter: filter, selected: selected)
            .draw(title: Localization.text("Choose %@", field.field.label),
                  none: Localization.text("no %@ matches", field.field.label.lowercased()), into: &frame)
    }

    /// The part of a one-line field that fits, keeping the cursor in view.
    static func window(_ editor: TextEditor, width: Int) -> (String, Int) {
        // A one-line field: its one line.
        let characters = Array(editor.text)
        let cursor = min(editor.cursorIndex, characters.count)
        let cursorColumn = TextEditor.columns(characters[..<cursor])
        guard width > 2 else { return ("", 0) }
        let text = TerminalText.sanitized(editor.text)
        if TextEditor.columns(characters) < width { return (text, cursorColumn) }
        // Scroll so the cursor sits within the field; "…" marks text hidden on the left.
        var start = 0
        var column = cursorColumn
        while column > width - 1 && start < characters.count {
            column -= TextEditor.cellWidth(characters[start])
            start += 1
        }
        var shown = ""
        var used = 0
        if start > 0 {
            // Make room for the "…" by hiding one more character when needed.
            while used < 1 && start < cursor {
                column -= TextEditor.cellWidth(characters[start])
                start += 1
                used = 1
            }
            shown = "…"
            used = 1
            column += 1
        }
        for character in characters[start...] {
            let w = TextEditor.cellWidth(character)
            if used + w > width { break }
            shown += TerminalText.sanitized(String(character))
            used += w
        }
        return (shown, column)
    }

    /// The suggestions under the field being typed in, in a frame that
    /// starts in the gap after the labels (so none is covered) and ends
    /// above the status line: a list, not more fields.
    private static func drawCompletions(_ state: FormState, at anchor: (x: Int, y: Int), into frame: inout Frame) {
        let width = min(state.width - anchor.x - 1, max(20, state.completions.map { DisplayWidth.of($0) }.max() ?? 0) + 2)
        let rows = min(6, state.completions.count, state.height - 2 - anchor.y - 2)
        guard rows > 0 else { return }
        frame.box(x: anchor.x - 1, y: anchor.y, width: width + 2, height: rows + 2)
        for (offset, completion) in state.completions.prefix(rows).enumerated() {
            let y = anchor.y + 1 + offset
            let selected = offset == state.completionIndex
            // The chosen one in reverse video with a marker, the others underlined:
            // the list stands out from the fields under it without colour too.
            let style = selected ? CellStyle(bold: true, reverse: true) : CellStyle(underline: true)
            frame.fill(x: anchor.x, y: y, width: width, height: 1, style: style)
            frame.put((selected ? "▸" : " ") + DisplayWidth.truncate(completion, to: width - 2), x: anchor.x, y: y, style: style)
        }
    }

    /// Draws a dialog box; returns where the cursor goes (the attach prompt).
    private static func drawDialog(_ dialog: FormDialog, _ state: FormState, into frame: inout Frame) -> (x: Int, y: Int)? {
        var lines: [String]
        var prompt: TextEditor?
        switch dialog {
        case .confirmAction(let action, let warnings):
            let keys = KeyMap.confirmation.helpBar(separator: "   ") { answer, words in answer == .confirm ? action.label.lowercased() : words }
            lines = warnings + ["", Localization.text("%@ anyway?", action.label) + "  " + keys]
        case .confirmCancel:
            let keys = KeyMap.unsavedChanges.helpBar(separator: "   ") { answer, words in
                answer == .save ? state.action(.secondary)?.label.lowercased() : words
            }
            lines = [Localization.text("There are unsaved changes."), "", keys]
        case .chooser(let index, let filter, let selected):
            return drawChooser(state.fields[index], filter: filter, selected: selected, state, into: &frame)
        case .countdown(let action, _, let seconds):
            lines = [Localization.text("%@ in %@ s", action.label, String(seconds)), "", Localization.text("u undo")]
        case .time(let action, _, let editor, let note, let isProblem):
            return drawTimePrompt(action, editor, note: note, isProblem: isProblem, state, into: &frame)
        case .confirmRemove(let row):
            let name = state.fields.first { $0.field.kind == .attachmentList }.flatMap { field in
                field.attachments.indices.contains(row) ? field.attachments[row].name : nil
            } ?? Localization.text("this file")
            lines = [Localization.text("Remove %@?", name), "", KeyMap.removal.helpBar(separator: "   ")]
        case .attachPath(let editor, let completions):
            lines = [Localization.text("Attach a file (%@):", KeyMap.attachPrompt.helpBar(separator: ", ")), ""] + completions.prefix(8).map { "  " + $0 }
            prompt = editor
        }
        let width = min(state.width - 4, max(44, (lines.map { DisplayWidth.of($0) }.max() ?? 0) + 4))
        let height = min(state.height - 2, lines.count + 2 + (prompt == nil ? 0 : 1))
        let x = (state.width - width) / 2
        let y = max(1, (state.height - height) / 2)
        frame.box(x: x, y: y, width: width, height: height)
        var row = y + 1
        if let prompt {
            frame.put(DisplayWidth.truncate(lines[0], to: width - 4), x: x + 2, y: row, style: CellStyle(bold: true))
            row += 1
            let (text, column) = window(prompt, width: width - 4)
            frame.put(text, x: x + 2, y: row)
            let cursor = (x + 2 + column, row)
            row += 1
            for line in lines.dropFirst(2) where row < y + height - 1 {
                frame.put(DisplayWidth.truncate(line, to: width - 4), x: x + 2, y: row, style: CellStyle(dim: true))
                row += 1
            }
            return cursor
        }
        for line in lines where row < y + height - 1 {
            frame.put(DisplayWidth.truncate(line, to: width - 4), x: x + 2, y: row, style: CellStyle(bold: true))
            row += 1
        }
        return nil
    }
}
