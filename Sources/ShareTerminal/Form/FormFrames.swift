#if canImport(Glibc)
import Glibc
#endif
import ShareCore

/// The frames of a form screen, each drawn from the one before where only
/// the body changed: a keystroke in a long body redraws the rows it
/// changed and moves the cursor, and leaves the header, the attachment
/// list, the status and the help bar as they were drawn.
///
/// Every frame is the one ``FormView/view(_:)`` draws for the same state
/// (a test holds it to that after each key of many sequences). Anything
/// else that changes (a field, the focus, a dialog, completions, the
/// status, the size) draws the frame whole.
public struct FormFrames {
    /// The last frame, the state it was drawn for without the body's text
    /// and first row (what the rest of the screen depends on), its layout,
    /// and the body's rows on it. Kept in this value and reached through
    /// mutating methods, so that a keystroke reads them in place: a class's
    /// property handed to a function is copied first, and a copied state
    /// retains and releases every reference it holds.
    private struct Drawn {
        let chrome: FormState
        let layout: FormLayout
        var bodyRows: [String]
        var frame: Frame

        /// The frame for `state` drawn over this one, when only the body
        /// changed; nil when anything else did.
        mutating func redrawn(for state: FormState, field index: Int) -> Frame? {
            // A frame drawn over many times keeps the graphemes of the rows drawn over: drawn whole now and then.
            guard FormFrames.sameOutsideBody(chrome, state, body: index), frame.clusterCount <= state.width * state.height else {
                return nil
            }
            return redrawBody(of: state, field: index)
        }

        /// The last frame with the body's rows that changed redrawn, and the cursor moved.
        private mutating func redrawBody(of state: FormState, field index: Int) -> Frame {
            let body = FormView.body(state, layout, field: index)
            for (offset, y) in (layout.bodyTop..<layout.bodyBottom).enumerated() {
                let row = body.rows.indices.contains(offset) ? body.rows[offset] : nil
                let was = bodyRows.indices.contains(offset) ? bodyRows[offset] : nil
                guard !FormFrames.sameBytes(row, was) else { continue }
                frame.fill(x: 0, y: y, width: state.width, height: 1, style: .plain)
                if let row { FormView.drawBodyRow(row, y: y, into: &frame) }
            }
            // The body's cursor when it has focus; else a header field's, which is part of what did not change.
            if let cursor = body.cursor { frame.cursor = cursor }
            bodyRows = body.rows
            return frame
        }
    }

    private var last: Drawn?
    /// How many frames were drawn whole (the rest were the last one with body rows redrawn).
    private(set) var wholeFrames = 0

    /// No frame drawn yet.
    public init() {}

    /// The frame for `state`.
    public mutating func frame(for state: FormState) -> Frame {
        // Only the body's own rows are redrawn alone: the placeholder, a dialog and the completions draw over them.
        guard let index = state.bodyIndex, !state.fields[index].editor.isEmpty, state.dialog == nil,
              state.completions.isEmpty else {
            last = nil
            wholeFrames += 1
            return FormView.view(state)
        }
        // The rest as it was drawn: the same layout too.
        if let frame = last?.redrawn(for: state, field: index) { return frame }
        let layout = FormLayout(state)
        guard !layout.tooSmall, layout.bodyBottom > layout.bodyTop else {
            last = nil
            wholeFrames += 1
            return FormView.view(state)
        }
        let drawn = FormView.drawn(state)
        wholeFrames += 1
        last = Drawn(chrome: FormFrames.chrome(of: state, body: index), layout: layout, bodyRows: drawn.bodyRows, frame: drawn.frame)
        return drawn.frame
    }

    /// What the screen but the body's rows is drawn from, kept with a
    /// frame drawn whole: the state with the body's text and first row set aside.
    static func chrome(of state: FormState, body index: Int) -> FormState {
        var chrome = state
        chrome.fields[index].editor = FormFrames.setAside
        chrome.bodyTop = TextEditor.RowPosition(line: 0, row: 0)
        return chrome
    }

    private static let setAside = TextEditor(multiline: true)

    /// Whether two rows hold the same bytes: "é" and "e" with an accent
    /// are equal Strings but other cells.
    private static func sameBytes(_ a: String?, _ b: String?) -> Bool {
        guard var a, var b else { return a == nil && b == nil }
        guard a.utf8.count == b.utf8.count else { return false }
        // Native strings are contiguous UTF-8: one memcmp, not a walk of two views.
        return a.withUTF8 { x in b.withUTF8 { y in x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0 } }
    }

    /// Whether `state` draws as `chrome` (made by ``chrome(of:body:)``)
    /// does but for the body's rows and cursor: every stored property of
    /// the two compared but the body's text and first row, in place (a
    /// keystroke copies no state and no field). A test lists the
    /// properties, so that one added is added here too.
    static func sameOutsideBody(_ chrome: FormState, _ state: FormState, body index: Int) -> Bool {
        guard chrome.title == state.title, chrome.focus == state.focus, chrome.dialog == state.dialog,
              chrome.status == state.status, chrome.statusIsError == state.statusIsError, chrome.actions == state.actions,
              chrome.running == state.running, chrome.runningNews == state.runningNews,
              chrome.typedWhileBusy == state.typedWhileBusy, chrome.spinner == state.spinner, chrome.changed == state.changed,
              chrome.completions == state.completions, chrome.completionIndex == state.completionIndex,
              chrome.completionField == state.completionField, chrome.width == state.width, chrome.height == state.height,
              chrome.colors == state.colors, chrome.keys == state.keys, chrome.toggles == state.toggles,
              chrome.fields.count == state.fields.count else { return false }
        return chrome.fields.withUnsafeBufferPointer { old in
            state.fields.withUnsafeBufferPointer { new in
                guard let old = old.baseAddress, let new = new.baseAddress else { return true }
                return (0..<state.fields.count).allSatisfy { drawAlike(old + $0, new + $0, withText: $0 != index) }
            }
        }
    }

    /// Whether two fields draw alike, their text aside unless `withText`.
    /// Through pointers, so that both are read where they are: an element
    /// handed on as a value, or a property of one handed to `==`, is copied
    /// first (each reference in it retained and released).
    private static func drawAlike(_ a: UnsafePointer<FormFieldState>, _ b: UnsafePointer<FormFieldState>, withText: Bool) -> Bool {
        sameDeclaration(a, b) && a.pointee.choice == b.pointee.choice
            && a.pointee.attachments == b.pointee.attachments && a.pointee.selectedAttachment == b.pointee.selectedAttachment
            && a.pointee.problem == b.pointee.problem && a.pointee.count == b.pointee.count
            && (!withText || a.pointee.editor == b.pointee.editor)
    }

    /// Whether two fields have the same declaration. It is set when the
    /// state is made and copied from state to state, never changed: the
    /// same bytes, compared in place, are the same declaration (it holds
    /// strings, arrays, an enum and optionals: values whose bytes are
    /// their identity, no floating point); else `==` says.
    private static func sameDeclaration(_ a: UnsafePointer<FormFieldState>, _ b: UnsafePointer<FormFieldState>) -> Bool {
        if let offset = MemoryLayout<FormFieldState>.offset(of: \.field),
           memcmp(UnsafeRawPointer(a) + offset, UnsafeRawPointer(b) + offset, MemoryLayout<FormField>.size) == 0 {
            return true
        }
        return a.pointee.field == b.pointee.field
    }
}
