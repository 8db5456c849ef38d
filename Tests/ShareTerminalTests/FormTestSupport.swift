import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

/// Mail's form, as `MailActivity.makeForm()` declares it, with fixed
/// identities, addresses and attachments for the compose screen's tests.
enum MailForm {
    static let identities = ["김민수 <kim@example.com>", "Minsu Kim <minsu@work.example>"]

    static let twoRecipients = "Lee Jiwon <jiwon@example.org>, 박지성 <park@example.kr>"
    static let koreanSubject = "3분기 보고서 검토 부탁드립니다"

    /// A body with a wrapped English line, a quoted line and a signature.
    static let body = """
        지원 씨, 안녕하세요.

        3분기 보고서와 현장 사진을 보냅니다. The numbers in section 2 changed since the draft you saw last week.

        > On Monday, Lee Jiwon wrote:
        > 보고서 초안은 언제 받을 수 있을까요?

        -- \n김민수 · Example Corp.
        """

    static let report = AttachmentRow(file: AttachedFile(line: "/home/minsu/문서/분기 보고서 2024-Q3.pdf\t1234567\t1727000000000000000"),
                                      contentType: "application/pdf")
    static let photo = AttachmentRow(file: AttachedFile(line: "/home/minsu/사진/제주 현장 사진.jpg\t48213\t1727000100500000000"),
                                     contentType: "image/jpeg")

    /// Mail's actions, as `MailActivity` declares them.
    static let send = FormAction(id: "send", label: "Send", progress: "Sending…", role: .primary)
    static let saveDraft = FormAction(id: "save", label: "Save draft", progress: "Saving…", role: .secondary)

    /// The Mail form with the given initial values.
    static func form(from: String = identities[0], to: String = "", cc: String = "", bcc: String = "", subject: String = "",
                     body: String = "", identities: [String] = identities) -> ActivityForm {
        var bodyField = FormField(id: "body", label: "", kind: .multilineText, initialValue: body)
        bodyField.placeholder = "Write your message here"
        return ActivityForm(title: "New Message", fields: [
            FormField(id: "from", label: "From", kind: .choice(identities), initialValue: from),
            FormField(id: "to", label: "To", kind: .addressList, initialValue: to),
            FormField(id: "cc", label: "Cc", kind: .addressList, initialValue: cc),
            FormField(id: "bcc", label: "Bcc", kind: .addressList, initialValue: bcc),
            FormField(id: "subject", label: "Subject", kind: .text, initialValue: subject),
            bodyField,
            FormField(id: "attachments", label: "Attachments", kind: .attachmentList),
        ], actions: [send, saveDraft])
    }

    /// An empty form's first state.
    static func empty(width: Int = 80, height: Int = 24, colors: Bool = true) -> FormState {
        FormState(form: form(), width: width, height: height, colors: colors)
    }

    /// The prefilled mail of the view snapshots: two recipients, a Korean
    /// subject, a body with a quote and a signature, two attachments;
    /// focused on To (set directly, so the snapshot does not depend on the
    /// starting field).
    static func prefilled(width: Int = 80, height: Int = 24, colors: Bool = true, focus: String = "to") -> FormState {
        var state = FormState(form: form(to: twoRecipients, subject: koreanSubject, body: body),
                              attachments: [report, photo], width: width, height: height, colors: colors)
        state.focus(on: focus)
        return state
    }
}

// MARK: - Driving the form

/// Sends `events` as input, in order; returns every effect they yielded.
@discardableResult
func press(_ events: InputEvent..., in state: inout FormState) -> [FormEffect] {
    events.flatMap { FormUpdate.update(&state, .input($0)) }
}

/// Types `text` one grapheme at a time (Enter for a line break).
@discardableResult
func typeText(_ text: String, into state: inout FormState) -> [FormEffect] {
    text.flatMap { FormUpdate.update(&state, .input($0.isNewline ? .enter : .character($0))) }
}

/// Delivers an answer from the run loop.
@discardableResult
func deliver(_ messages: FormMessage..., to state: inout FormState) -> [FormEffect] {
    messages.flatMap { FormUpdate.update(&state, $0) }
}

extension FormState {
    /// The field with `id` (the test fails loudly when there is none).
    func field(_ id: String) -> FormFieldState {
        guard let index = index(of: id) else {
            Issue.record("no field \(id)")
            return fields[0]
        }
        return fields[index]
    }

    /// The text of field `id`.
    func text(_ id: String) -> String { field(id).editor.text }

    /// The id of the focused field.
    var focusedID: String { fields[focus].field.id }

    /// Focuses field `id` directly (for tests that are not about focus).
    mutating func focus(on id: String) {
        guard let index = index(of: id) else {
            Issue.record("no field \(id)")
            return
        }
        focus = index
    }

    /// Puts the cursor of field `id` at `position`.
    mutating func moveCursor(of id: String, to position: Int) {
        guard let index = index(of: id) else { return }
        fields[index].editor.moveCursor(to: position)
    }

    /// The form's frame.
    var frame: Frame { FormView.view(self) }
}

extension FormEffect {
    /// The values an effect carries (submit).
    var values: [String: String]? {
        switch self {
        case .submit(_, let values, _): values
        default: nil
        }
    }
}

/// The column where every header field's value starts (after the labels).
let valueColumn = 11

/// Checks that the frame's cursor, if shown, is on a cell of the frame.
func expectCursorInside(_ frame: Frame, sourceLocation: SourceLocation = #_sourceLocation) {
    guard let cursor = frame.cursor else { return }
    #expect(cursor.x >= 0 && cursor.x < frame.width && cursor.y >= 0 && cursor.y < frame.height,
            "cursor (\(cursor.x), \(cursor.y)) outside \(frame.width)×\(frame.height)", sourceLocation: sourceLocation)
}

/// The row (y) on which `label` is drawn at column 1, as a header label is.
func labelRow(_ label: String, in frame: Frame) -> Int? {
    frame.occurrences(of: label + ":").first { $0.x == 1 }?.y
}
