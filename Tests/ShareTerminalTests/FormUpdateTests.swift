import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

// MARK: - Focus

struct FormFocusTests {
    @Test func anEmptyMessageStartsInTo() {
        #expect(MailForm.empty().focusedID == "to")
    }

    /// SPEC §7: "starts in To (or in the first empty field)": with To
    /// given, the cursor waits where the person has to write next, the
    /// subject, not in the optional Cc.
    @Test func aGivenRecipientStartsInTheSubject() {
        let state = FormState(form: MailForm.form(to: MailForm.twoRecipients), width: 80, height: 24)
        #expect(state.focusedID == "subject")
    }

    @Test func aGivenRecipientAndSubjectStartInTheBody() {
        let state = FormState(form: MailForm.form(to: MailForm.twoRecipients, subject: MailForm.koreanSubject),
                              width: 80, height: 24)
        #expect(state.focusedID == "body")
    }

    @Test func aGivenSubjectAloneStillStartsInTo() {
        let state = FormState(form: MailForm.form(subject: MailForm.koreanSubject, body: "본문"), width: 80, height: 24)
        #expect(state.focusedID == "to")
    }

    @Test func neverStartsOnTheChoiceOrTheAttachments() {
        let full = FormState(form: MailForm.form(to: "a@example.com", cc: "b@example.com", bcc: "c@example.com",
                                                 subject: "Hi", body: "Text"),
                             attachments: [MailForm.report], width: 80, height: 24)
        #expect(full.focusedID == "to")
    }

    @Test func tabMovesThroughTheFieldsInOrderAndShiftTabBack() {
        var state = MailForm.empty()
        var order = [state.focusedID]
        for _ in 0..<5 {
            #expect(press(.tab, in: &state) == [])
            order.append(state.focusedID)
        }
        #expect(order == ["to", "cc", "bcc", "subject", "body", "attachments"])
        var back = [state.focusedID]
        for _ in 0..<6 {
            #expect(press(.backTab, in: &state) == [])
            back.append(state.focusedID)
        }
        #expect(back == ["attachments", "body", "subject", "bcc", "cc", "to", "from"])
        press(.tab, in: &state)
        #expect(state.focusedID == "to")
    }

    @Test func enterAndDownInAHeaderFieldMoveToTheNext() {
        var state = MailForm.empty()
        press(.enter, in: &state)
        #expect(state.focusedID == "cc")
        press(.down, in: &state)
        #expect(state.focusedID == "bcc")
        press(.up, in: &state)
        #expect(state.focusedID == "cc")
    }

    @Test func leftAndRightChangeTheSendingIdentity() {
        var state = MailForm.empty()
        press(.backTab, in: &state)
        #expect(state.focusedID == "from")
        #expect(state.values["from"] == MailForm.identities[0])
        let effects = press(.right, in: &state)
        #expect(state.values["from"] == MailForm.identities[1])
        #expect(effects == [.changed(field: "from")])
        press(.right, in: &state)
        #expect(state.values["from"] == MailForm.identities[0], "the choice wraps around")
        press(.left, in: &state)
        #expect(state.values["from"] == MailForm.identities[1])
        press(.left, in: &state)
        #expect(state.values["from"] == MailForm.identities[0])
        #expect(state.focusedID == "from", "left and right do not leave the field")
    }

    @Test func typingOnTheChoiceDoesNothing() {
        var state = MailForm.empty()
        press(.backTab, in: &state)
        #expect(press(.character("x"), .backspace, .control("k"), in: &state) == [])
        #expect(!state.changed)
    }

    /// With one identity there is nothing to choose: Left/Right change
    /// nothing, so they must not report a change (which would make Esc ask
    /// about unsaved changes and trigger an autosave of an untouched form).
    @Test func oneIdentityCannotChange() {
        var state = FormState(form: MailForm.form(identities: ["김민수 <kim@example.com>"]), width: 80, height: 24)
        press(.backTab, in: &state)
        #expect(state.focusedID == "from")
        let effects = press(.right, .left, .character(" "), in: &state)
        #expect(effects.isEmpty, "\(effects.count) changes reported for a choice that cannot change")
        let changed = state.changed
        #expect(!changed, "the untouched form counts as changed")
        let escape = press(.escape, in: &state)
        #expect(escape == [.discard], "Esc asks about changes nobody made")
    }
}

// MARK: - Editing

/// One editing key in the Subject field: the text and cursor before, the
/// key, the text and cursor after.
struct EditCase: Sendable, CustomTestStringConvertible {
    let key: InputEvent
    let cursor: Int
    let text: String
    let newCursor: Int
    var testDescription: String { "\(key) at \(cursor)" }
}

/// "보고서 초안 v2": 보0 고1 서2 ␠3 초4 안5 ␠6 v7 2₈, nine graphemes.
private let subjectText = "보고서 초안 v2"

struct FormEditingTests {
    @Test(arguments: [
        EditCase(key: .control("a"), cursor: 5, text: subjectText, newCursor: 0),
        EditCase(key: .home, cursor: 5, text: subjectText, newCursor: 0),
        EditCase(key: .control("e"), cursor: 2, text: subjectText, newCursor: 9),
        EditCase(key: .end, cursor: 2, text: subjectText, newCursor: 9),
        EditCase(key: .control("b"), cursor: 9, text: subjectText, newCursor: 8),
        EditCase(key: .left, cursor: 9, text: subjectText, newCursor: 8),
        EditCase(key: .control("b"), cursor: 0, text: subjectText, newCursor: 0),
        EditCase(key: .control("f"), cursor: 0, text: subjectText, newCursor: 1),
        EditCase(key: .right, cursor: 0, text: subjectText, newCursor: 1),
        EditCase(key: .control("f"), cursor: 9, text: subjectText, newCursor: 9),
        EditCase(key: .control("d"), cursor: 0, text: "고서 초안 v2", newCursor: 0),
        EditCase(key: .delete, cursor: 3, text: "보고서초안 v2", newCursor: 3),
        EditCase(key: .control("d"), cursor: 9, text: subjectText, newCursor: 9),
        EditCase(key: .backspace, cursor: 3, text: "보고 초안 v2", newCursor: 2),
        EditCase(key: .backspace, cursor: 0, text: subjectText, newCursor: 0),
        EditCase(key: .control("k"), cursor: 3, text: "보고서", newCursor: 3),
        EditCase(key: .control("u"), cursor: 3, text: " 초안 v2", newCursor: 0),
        EditCase(key: .control("w"), cursor: 9, text: "보고서 초안 ", newCursor: 7),
        EditCase(key: .control("w"), cursor: 7, text: "보고서 v2", newCursor: 4),
        EditCase(key: .alt("b"), cursor: 9, text: subjectText, newCursor: 7),
        EditCase(key: .alt("b"), cursor: 6, text: subjectText, newCursor: 4),
        EditCase(key: .alt("f"), cursor: 0, text: subjectText, newCursor: 3),
        EditCase(key: .alt("f"), cursor: 3, text: subjectText, newCursor: 6),
    ])
    func emacsKeysInTheSubject(_ edit: EditCase) {
        var state = FormState(form: MailForm.form(to: "a@example.com", subject: subjectText), width: 80, height: 24)
        state.focus(on: "subject")
        state.moveCursor(of: "subject", to: edit.cursor)
        let effects = press(edit.key, in: &state)
        #expect(state.text("subject") == edit.text)
        #expect(state.field("subject").editor.cursorIndex == edit.newCursor)
        #expect(state.focusedID == "subject", "an editing key keeps the focus")
        if edit.text == subjectText {
            #expect(effects == [], "moving the cursor is no change")
        } else {
            #expect(effects == [.changed(field: "subject")])
        }
        // The cursor on screen is after the columns before it (Hangul: 2 each).
        let before = String(Array(edit.text)[..<edit.newCursor])
        let frame = state.frame
        #expect(frame.cursor?.x == valueColumn + DisplayWidth.of(before))
        #expect(frame.cursor?.y == labelRow("Subject", in: frame))
    }

    /// Typing "박지성" puts the cursor six columns after the value's start.
    @Test func koreanTypedInTheSubjectIsShownWithTheCursorAfterIt() throws {
        var state = FormState(form: MailForm.form(to: "a@example.com"), width: 80, height: 24)
        state.focus(on: "subject")
        let effects = typeText("박지성", into: &state)
        #expect(state.text("subject") == "박지성")
        #expect(effects.count == 3)
        #expect(effects.last == .changed(field: "subject"))
        let frame = state.frame
        let row = try #require(labelRow("Subject", in: frame))
        let shown = try #require(frame.locate("박지성"))
        #expect(shown.x == valueColumn && shown.y == row)
        #expect(frame.text(x: valueColumn, y: row, count: 6) == "박지성")
        #expect(frame.cursor?.x == valueColumn + 6)
        #expect(frame.cursor?.y == row)
        expectWellFormed(frame)
    }

    @Test func koreanAndEmojiInAnAddressField() throws {
        var state = MailForm.empty()
        typeText("김민수 👋 <kim@example.com>", into: &state)
        #expect(state.text("to") == "김민수 👋 <kim@example.com>")
        let frame = state.frame
        let row = try #require(labelRow("To", in: frame))
        #expect(frame.locate("김민수 👋 <kim@example.com>")?.x == valueColumn)
        #expect(frame.cursor?.x == valueColumn + DisplayWidth.of("김민수 👋 <kim@example.com>"))
        #expect(frame.cursor?.y == row)
    }

    @Test func emacsKeysWorkInAddressFields() {
        var state = MailForm.empty()
        typeText("kim@example.com, lee@example.org", into: &state)
        press(.control("w"), in: &state)
        #expect(state.text("to") == "kim@example.com, lee@example.")
        press(.alt("b"), .alt("b"), .control("k"), in: &state)
        #expect(state.text("to") == "kim@example.com, ")
        press(.control("a"), .control("d"), .control("e"), .backspace, .backspace, in: &state)
        #expect(state.text("to") == "im@example.com")
        press(.control("u"), in: &state)
        #expect(state.text("to") == "")
    }

    @Test func enterInTheBodyBreaksTheLineAndLineKeysActOnTheCurrentLine() {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText("첫째 줄\n둘째 줄", into: &state)
        #expect(state.text("body") == "첫째 줄\n둘째 줄")
        #expect(state.focusedID == "body", "Enter stays in the body")
        press(.control("a"), in: &state)
        #expect(state.field("body").editor.cursorIndex == 5, "C-a goes to the start of the current line")
        press(.control("e"), in: &state)
        #expect(state.field("body").editor.cursorIndex == 9)
        press(.control("u"), in: &state)
        #expect(state.text("body") == "첫째 줄\n")
        press(.backspace, in: &state)
        #expect(state.text("body") == "첫째 줄")
        press(.control("a"), .control("f"), .control("f"), .control("k"), in: &state)
        #expect(state.text("body") == "첫째")
        typeText("\n끝", into: &state)
        press(.up, .control("e"), .control("k"), in: &state)
        #expect(state.text("body") == "첫째끝", "C-k at the end of a line joins the next")
    }

    @Test func upAndDownInTheBodyKeepTheColumn() {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText("abcdef\n가나다\nxyz", into: &state)
        press(.up, in: &state)
        #expect(state.field("body").editor.cursorIndex == 8, "column 3 on 가나다 falls inside 나: the cursor stays after 가")
        press(.up, in: &state)
        #expect(state.field("body").editor.cursorIndex == 2)
        #expect(state.focusedID == "body", "Up in the body moves within it")
    }

    @Test func everyEditReportsTheValuesForAutosave() {
        var state = MailForm.empty()
        state.focus(on: "subject")
        #expect(!state.changed)
        #expect(press(.character("안"), in: &state) == [.changed(field: "subject")])
        #expect(state.changed)
        #expect(state.values["subject"] == "안")
        state.focus(on: "body")
        #expect(typeText("x", into: &state) == [.changed(field: "body")])
        #expect(press(.backspace, in: &state) == [.changed(field: "body")])
        #expect(press(.backspace, in: &state) == [], "nothing to delete is no change")
        #expect(press(.left, .right, .home, .end, in: &state) == [])
    }

    @Test func savedClearsTheChangeSoEscDiscards() {
        var state = MailForm.empty()
        typeText("a", into: &state)
        #expect(state.changed)
        deliver(.saved, to: &state)
        #expect(!state.changed)
        #expect(press(.escape, in: &state) == [.discard])
    }

    @Test func theExternalEditorReplacesTheBody() {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText("draft", into: &state)
        #expect(press(.control("g"), in: &state) == [.openEditor(field: "body", text: "draft")])
        #expect(deliver(.edited(field: "body", text: "final\n본문"), to: &state) == [.changed(field: "body")])
        #expect(state.text("body") == "final\n본문")
        #expect(deliver(.edited(field: "body", text: nil), to: &state) == [])
        #expect(state.text("body") == "final\n본문", "a failed editor keeps the text")
        #expect(state.statusIsError)
    }

    @Test func aResizeChangesTheFrame() {
        var state = MailForm.empty()
        #expect(press(.resize(width: 100, height: 30), in: &state) == [])
        let frame = state.frame
        #expect(frame.width == 100 && frame.height == 30)
    }
}

// MARK: - Send

struct FormSendTests {
    /// A message ready to go: recipients, subject, no attachment words.
    private func complete(attachments: [AttachmentRow] = [], body: String = "Hello,\nsee you on Monday.\n-- \n민수")
        -> FormState {
        var state = FormState(form: MailForm.form(to: MailForm.twoRecipients, cc: "cc@example.com", bcc: "bcc@example.com",
                                                  subject: MailForm.koreanSubject, body: body),
                              attachments: attachments, width: 80, height: 24)
        state.focus(on: "to")
        return state
    }

    @Test func aCompleteMessageSendsWithEveryField() {
        var state = complete(attachments: [MailForm.report, MailForm.photo])
        let effects = press(.control("x"), in: &state)
        #expect(state.dialog == nil)
        #expect(effects == [.submit(MailForm.send, [
            "from": "김민수 <kim@example.com>",
            "to": "Lee Jiwon <jiwon@example.org>, 박지성 <park@example.kr>",
            "cc": "cc@example.com",
            "bcc": "bcc@example.com",
            "subject": "3분기 보고서 검토 부탁드립니다",
            "body": "Hello,\nsee you on Monday.\n-- \n민수",
            "attachments": "/home/minsu/문서/분기 보고서 2024-Q3.pdf\t1234567\t1727000000000000000\n"
                + "/home/minsu/사진/제주 현장 사진.jpg\t48213\t1727000100500000000",
        ], confirmed: false)], "the activity's warnings are asked for before anything goes")
    }

    @Test func attachmentValuesDecodeBack() throws {
        let state = complete(attachments: [MailForm.report, MailForm.photo])
        let files = AttachedFile.list(try #require(state.values["attachments"]))
        #expect(files == [MailForm.report.file, MailForm.photo.file])
        #expect(files.map(\.stamp?.modified) == [1_727_000_000_000_000_000, 1_727_000_100_500_000_000])
    }

    /// The run loop asks the activity (Mail: "The subject is empty.") and
    /// hands its warnings back as a question.
    static let warnings = ["The subject is empty.", "The message mentions an attachment, but nothing is attached."]

    @Test func theActivitysWarningsAskFirstAndYGoesAhead() {
        var state = FormState(form: MailForm.form(to: "a@example.com", body: "See attached."), width: 80, height: 24)
        #expect(press(.control("x"), in: &state) == [.submit(MailForm.send, state.values, confirmed: false)])
        deliver(.confirm(MailForm.send, warnings: Self.warnings), to: &state)
        #expect(state.dialog == .confirmAction(MailForm.send, Self.warnings))
        #expect(state.frame.shows("Send anyway?  y send   n go back"))
        #expect(Self.warnings.allSatisfy { state.frame.shows($0) })
        #expect(press(.character("y"), in: &state) == [.submit(MailForm.send, state.values, confirmed: true)])
        #expect(state.dialog == nil)
    }

    @Test(arguments: [InputEvent.character("n"), .escape])
    func nOrEscGoesBackWithNoEffect(_ key: InputEvent) {
        var state = FormState(form: MailForm.form(to: "a@example.com", body: "Hi"), width: 80, height: 24)
        state.focus(on: "to")
        let before = state.values
        press(.control("x"), in: &state)
        deliver(.confirm(MailForm.send, warnings: ["The subject is empty."]), to: &state)
        #expect(press(key, in: &state) == [])
        #expect(state.dialog == nil)
        #expect(state.values == before)
        #expect(state.focusedID == "to")
        typeText("x", into: &state)
        #expect(state.text("to") == "a@example.comx", "editing goes on")
    }

    @Test func otherKeysKeepTheQuestionOpen() {
        var state = FormState(form: MailForm.form(to: "a@example.com", body: "Hi"), width: 80, height: 24)
        press(.control("x"), in: &state)
        deliver(.confirm(MailForm.send, warnings: ["The subject is empty."]), to: &state)
        #expect(press(.character("q"), .enter, .tab, .control("x"), in: &state) == [])
        #expect(state.dialog == .confirmAction(MailForm.send, ["The subject is empty."]))
        #expect(state.text("to") == "a@example.com")
    }

    @Test func whileBusyKeysWaitUntilTheSubmissionEnds() {
        var state = complete()
        #expect(press(.control("x"), in: &state) == [.submit(MailForm.send, state.values, confirmed: false)])
        deliver(.busy(MailForm.send), to: &state)
        #expect(state.isBusy)
        #expect(state.frame.shows("Sending…"))
        let before = state
        #expect(press(.character("x"), .tab, in: &state) == [], "nothing happens while sending")
        #expect(state.values == before.values && state.focus == before.focus)
        #expect(state.typedWhileBusy == [.character("x"), .tab])
        // Once the submission is answered, the keys take effect in order.
        let effects = FormUpdate.update(&state, .busy(nil))
        #expect(!state.isBusy && state.typedWhileBusy.isEmpty)
        #expect(state.values["to"] == before.values["to"].map { $0 + "x" })
        #expect(state.focus == state.index(of: "cc"))
        #expect(effects.contains(.changed(field: "to")))
        state.focus(on: "subject")
        #expect(typeText("!", into: &state) == [.changed(field: "subject")])
    }

    @Test func aStoppableActionShowsItsProgressAndEscOrCtrlCAsksItToStop() {
        let upload = FormAction(id: "post", label: "Post", progress: "Posting…", stoppable: true)
        for key in [InputEvent.escape, .control("c")] {
            var state = complete()
            deliver(.busy(upload), .progress("Uploading clip.mp4 (1 of 1) 42 %"), to: &state)
            #expect(state.frame.shows("Uploading clip.mp4 (1 of 1) 42 %"))
            #expect(press(key, in: &state) == [.stop], "\(key)")
            #expect(state.frame.shows("Stopping…") && state.typedWhileBusy.isEmpty && state.dialog == nil)
            deliver(.busy(nil), to: &state)
            #expect(!state.frame.shows("Stopping…") && !state.frame.shows("Uploading"), "the news ends with the action")
        }
        // Mail's Send is not stoppable: Esc waits its turn as any key does.
        var mail = complete()
        deliver(.busy(MailForm.send), to: &mail)
        #expect(press(.escape, in: &mail) == [])
        #expect(mail.typedWhileBusy == [.escape])
    }

    /// "Sending…" describes the busy state: once the submission has ended it
    /// must not stay on screen (the person would think it is still sending).
    @Test func sendingGoesAwayWhenTheSubmissionEnds() {
        var state = complete()
        deliver(.busy(MailForm.send), to: &state)
        #expect(state.frame.shows("Sending…"))
        deliver(.busy(nil), to: &state)
        #expect(!state.frame.shows("Sending…"), "still says Sending… after busy(false)")
    }

    @Test func theServersWordsAreShown() throws {
        var state = complete()
        deliver(.busy(MailForm.send), to: &state)
        let words = "550 5.1.1 <park@example.kr>: Recipient address rejected"
        deliver(.busy(nil), .status(words, isError: true), to: &state)
        let frame = state.frame
        let shown = try #require(frame.locate(words))
        #expect(shown.y == frame.height - 2)
        #expect(frame[shown.x, shown.y].style.foreground == .red)
        #expect(!frame.shows("Sending…"))
    }
}

// MARK: - Save and cancel

struct FormSaveAndCancelTests {
    @Test func ctrlOSavesADraft() {
        var state = FormState(form: MailForm.form(to: "a@example.com", subject: "초안"), width: 80, height: 24)
        #expect(press(.control("o"), in: &state) == [.submit(MailForm.saveDraft, state.values, confirmed: false)])
        #expect(state.dialog == nil)
        #expect(state.values["subject"] == "초안")
    }

    @Test func escOnAnUnchangedFormDiscards() {
        var state = MailForm.prefilled()
        #expect(press(.escape, in: &state) == [.discard])
    }

    /// A message recovered with --resume is work that is not saved for
    /// good: Esc asks before it throws the draft away.
    @Test func escOnARecoveredFormAsks() {
        var form = MailForm.form(to: "kim@example.com", subject: "복구된 메일")
        form.isRecovered = true
        var state = FormState(form: form, width: 80, height: 24)
        #expect(press(.escape, in: &state) == [])
        #expect(state.dialog == .confirmCancel)
        #expect(press(.character("s"), in: &state) == [.submit(MailForm.saveDraft, state.values, confirmed: false)])
    }

    @Test func escOnAChangedFormAsks() {
        var state = MailForm.empty()
        typeText("kim@example.com", into: &state)
        #expect(press(.escape, in: &state) == [])
        #expect(state.dialog == .confirmCancel)
    }

    @Test func sInTheCancelQuestionSaves() {
        var state = MailForm.empty()
        typeText("kim@example.com", into: &state)
        press(.escape, in: &state)
        #expect(press(.character("s"), in: &state) == [.submit(MailForm.saveDraft, state.values, confirmed: false)])
        #expect(state.values["to"] == "kim@example.com")
        #expect(state.dialog == nil)
    }

    @Test func dInTheCancelQuestionDiscards() {
        var state = MailForm.empty()
        typeText("kim@example.com", into: &state)
        press(.escape, in: &state)
        #expect(press(.character("d"), in: &state) == [.discard])
    }

    @Test func escInTheCancelQuestionKeepsEditingWithNothingLost() {
        var state = MailForm.empty()
        typeText("kim@example.com", into: &state)
        let before = state.values
        press(.escape, in: &state)
        #expect(press(.escape, in: &state) == [])
        #expect(state.dialog == nil)
        #expect(state.values == before)
        #expect(state.changed, "still changed: a later Esc asks again")
        #expect(state.focusedID == "to")
        #expect(state.field("to").editor.cursorIndex == 15)
        press(.escape, in: &state)
        #expect(state.dialog == .confirmCancel)
    }

    @Test func otherKeysInTheCancelQuestionDoNothing() {
        var state = MailForm.empty()
        typeText("kim", into: &state)
        press(.escape, in: &state)
        #expect(press(.character("x"), .enter, .character("y"), in: &state) == [])
        #expect(state.dialog == .confirmCancel)
        #expect(state.text("to") == "kim")
    }
}

// MARK: - Address completion

struct FormAddressCompletionTests {
    private let kim = "Kim Minsu <kim@example.com>"
    private let jiyeon = "Kim Jiyeon <jiyeon.kim@example.org>"
    private let younghee = "김영희 <younghee@example.kr>"

    @Test func twoCharactersAskForCompletions() {
        var state = MailForm.empty()
        #expect(typeText("k", into: &state) == [.changed(field: "to")])
        #expect(typeText("i", into: &state) == [.changed(field: "to"), .completeAddress("ki")])
        #expect(typeText("m", into: &state) == [.changed(field: "to"), .completeAddress("kim")])
    }

    @Test func theTokenIsWhatFollowsTheLastComma() {
        var state = FormState(form: MailForm.form(to: "Lee Jiwon <jiwon@example.org>, 박지성 <park@example.kr>, "),
                              width: 80, height: 24)
        state.focus(on: "to")
        #expect(typeText("김", into: &state) == [.changed(field: "to")])
        #expect(typeText("민", into: &state) == [.changed(field: "to"), .completeAddress("김민")])
    }

    @Test func completionsInCcAndBccToo() {
        var state = MailForm.empty()
        state.focus(on: "cc")
        #expect(typeText("le", into: &state).last == .completeAddress("le"))
        state.focus(on: "bcc")
        #expect(typeText("pa", into: &state).last == .completeAddress("pa"))
    }

    @Test func noCompletionsForTheSubjectOrBody() {
        var state = MailForm.empty()
        state.focus(on: "subject")
        #expect(!typeText("kim", into: &state).contains { if case .completeAddress = $0 { true } else { false } })
        state.focus(on: "body")
        #expect(!typeText("kim", into: &state).contains { if case .completeAddress = $0 { true } else { false } })
    }

    private func showingCompletions() -> FormState {
        var state = FormState(form: MailForm.form(to: "Lee Jiwon <jiwon@example.org>, "), width: 80, height: 24)
        state.focus(on: "to")
        typeText("ki", into: &state)
        deliver(.completions([kim, jiyeon, younghee]), to: &state)
        return state
    }

    @Test func downAndUpChooseAndEnterAccepts() {
        var state = showingCompletions()
        #expect(state.completionIndex == 0)
        press(.down, .down, in: &state)
        #expect(state.completionIndex == 2)
        press(.up, in: &state)
        #expect(state.completionIndex == 1)
        #expect(state.focusedID == "to", "Down and Up choose instead of moving between fields")
        let effects = press(.enter, in: &state)
        #expect(state.text("to") == "Lee Jiwon <jiwon@example.org>, \(jiyeon), ")
        #expect(effects == [.changed(field: "to")])
        #expect(state.completions.isEmpty)
        #expect(state.focusedID == "to")
    }

    @Test func tabAcceptsKeepingEarlierAddresses() {
        var state = showingCompletions()
        press(.tab, in: &state)
        #expect(state.text("to") == "Lee Jiwon <jiwon@example.org>, Kim Minsu <kim@example.com>, ")
        #expect(state.focusedID == "to", "Tab accepts instead of moving on")
        #expect(state.field("to").editor.cursorIndex == state.field("to").editor.text.count)
        press(.tab, in: &state)
        #expect(state.focusedID == "cc", "with the list gone, Tab moves on")
    }

    @Test func acceptingTheFirstAddress() {
        var state = MailForm.empty()
        typeText("ki", into: &state)
        deliver(.completions([kim]), to: &state)
        press(.enter, in: &state)
        #expect(state.text("to") == "Kim Minsu <kim@example.com>, ")
    }

    @Test func escHidesTheListAndKeepsTheText() {
        var state = showingCompletions()
        #expect(press(.escape, in: &state) == [])
        #expect(state.completions.isEmpty)
        #expect(state.dialog == nil, "the first Esc closes the list, not the form")
        #expect(state.text("to") == "Lee Jiwon <jiwon@example.org>, ki")
        #expect(!state.frame.shows(kim))
        deliver(.completions([kim]), to: &state)
        #expect(state.completions.isEmpty, "an answer arriving after Esc does not bring the list back")
    }

    @Test func theListIsDrawnUnderTheField() throws {
        let state = showingCompletions()
        let frame = state.frame
        let toRow = try #require(labelRow("To", in: frame))
        for (offset, completion) in [kim, jiyeon, younghee].enumerated() {
            let shown = try #require(frame.locate(completion), "\(completion) is listed")
            #expect(shown.y == toRow + 2 + offset, "inside the frame that starts under To")
            #expect(shown.x == valueColumn + 1)
        }
        // The frame starts in the gap after the labels: every label stays whole.
        #expect(frame[valueColumn - 1, toRow + 1].text == "╭")
        for label in ["Cc:", "Bcc:", "Subject:"] { #expect(labelRow(String(label.dropLast()), in: frame) != nil, "\(label) is still shown") }
        let chosen = try #require(frame.locate(kim))
        #expect(frame[chosen.x, chosen.y].style.reverse, "the chosen completion is highlighted")
        let other = try #require(frame.locate(jiyeon))
        #expect(!frame[other.x, other.y].style.reverse)
        #expect(frame.cursor?.y == toRow, "the cursor stays in the field")
    }

    @Test func typingOnAfterTheListKeepsAsking() {
        var state = showingCompletions()
        #expect(typeText("m", into: &state) == [.changed(field: "to"), .completeAddress("kim")])
        press(.backspace, .backspace, in: &state)
        #expect(state.completions.isEmpty, "one character left: the list goes")
    }

    /// Eight completions are kept but fewer are drawn: the chosen one must
    /// still be on screen, or Enter accepts an address the person cannot see.
    @Test func theChosenCompletionIsAlwaysOnScreen() throws {
        var state = MailForm.empty()
        typeText("ex", into: &state)
        let many = (1...8).map { "Person \($0) <p\($0)@example.com>" }
        deliver(.completions(many), to: &state)
        for step in 0..<8 {
            let chosen = many[state.completionIndex]
            let frame = state.frame
            let shown = frame.locate(chosen)
            #expect(shown != nil, "step \(step): the chosen “\(chosen)” is not drawn")
            if let shown { #expect(frame[shown.x, shown.y].style.reverse, "step \(step): it is highlighted") }
            press(.down, in: &state)
        }
    }

    /// Completions answer the field that asked. When they arrive after the
    /// person has moved to the Subject, they must not be offered there: Enter
    /// in the Subject must not replace its text with an address.
    @Test func lateCompletionsAreNotOfferedInTheSubject() {
        var state = MailForm.empty()
        #expect(typeText("ki", into: &state).last == .completeAddress("ki"))
        press(.tab, .tab, .tab, in: &state)
        #expect(state.focusedID == "subject")
        typeText("안녕", into: &state)
        deliver(.completions([kim]), to: &state)
        #expect(!state.frame.shows(kim), "no address list under the Subject")
        press(.enter, in: &state)
        #expect(state.text("subject") == "안녕", "the subject is not replaced by an address")
        #expect(state.focusedID == "body", "Enter moves on as usual")
    }

    /// A late answer must never rewrite the body: Tab there moves on.
    @Test func lateCompletionsNeverTouchTheBody() {
        var state = MailForm.empty()
        #expect(typeText("ki", into: &state).last == .completeAddress("ki"))
        state.focus(on: "body")
        typeText("Hello, here is the long paragraph I wrote", into: &state)
        deliver(.completions([kim]), to: &state)
        press(.tab, in: &state)
        #expect(state.text("body") == "Hello, here is the long paragraph I wrote", "the body was rewritten")
        #expect(state.focusedID == "attachments", "Tab moves on from the body")
    }

    /// The address being completed is the one at the cursor: completing
    /// an address typed before an existing one must not drop the existing one.
    @Test func completingBeforeAnExistingAddressKeepsIt() {
        var state = FormState(form: MailForm.form(to: "Lee Jiwon <jiwon@example.org>"), width: 80, height: 24)
        state.focus(on: "to")
        press(.control("a"), in: &state)
        #expect(typeText("ki", into: &state).last == .completeAddress("ki"))
        deliver(.completions([kim]), to: &state)
        press(.enter, in: &state)
        let to = state.text("to")
        #expect(to.contains("Lee Jiwon <jiwon@example.org>"), "the existing address is lost: “\(to)”")
        #expect(to.contains(kim))
        #expect(!to.contains("kiLee"), "the typed token is replaced: “\(to)”")
    }
}

// MARK: - Attachments

struct FormAttachmentTests {
    private func attachPromptText(_ state: FormState) -> String? {
        if case .attachPath(let editor, _) = state.dialog { return editor.text }
        return nil
    }

    private func attachPromptCompletions(_ state: FormState) -> [String]? {
        if case .attachPath(_, let completions) = state.dialog { return completions }
        return nil
    }

    @Test func ctrlTOpensThePromptInTheCurrentFolder() {
        var state = MailForm.empty()
        #expect(press(.control("t"), in: &state) == [])
        #expect(attachPromptText(state) == "")
        #expect(attachPromptCompletions(state) == [])
    }

    @Test func tabAsksForPathCompletions() {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        #expect(press(.tab, in: &state) == [.completePath("")])
        typeText("~/문", into: &state)
        #expect(attachPromptText(state) == "~/문")
        #expect(press(.tab, in: &state) == [.completePath("~/문")])
        #expect(state.text("to") == "", "typing in the prompt does not reach the field")
    }

    @Test func oneCompletionCompletesTheText() {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        typeText("문", into: &state)
        deliver(.pathCompletions(["~/문서/"]), to: &state)
        #expect(attachPromptText(state) == "~/문서/")
        #expect(attachPromptCompletions(state) == [])
    }

    @Test func severalCompletionsShowAListAndCompleteTheCommonPart() throws {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        typeText("문", into: &state)
        let list = ["~/문서/분기 보고서.pdf", "~/문서/사진/", "~/문서/회의록.txt"]
        deliver(.pathCompletions(list), to: &state)
        #expect(attachPromptText(state) == "~/문서/")
        #expect(attachPromptCompletions(state) == list)
        let frame = state.frame
        for path in list { #expect(frame.shows(path), "\(path) is listed") }
        let prompt = try #require(frame.locate("~/문서/"))
        #expect(frame.cursor?.y == prompt.y)
        #expect(frame.cursor?.x == prompt.x + DisplayWidth.of("~/문서/"))
    }

    @Test func emacsKeysInThePrompt() {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        typeText("Documents/report.pdf", into: &state)
        press(.control("w"), in: &state)
        #expect(attachPromptText(state) == "Documents/report.")
        press(.control("u"), in: &state)
        #expect(attachPromptText(state) == "")
    }

    @Test func enterAttachesAndTheAnswerAddsTheRowAndClosesThePrompt() {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        typeText("문서/분기 보고서 2024-Q3.pdf", into: &state)
        #expect(press(.enter, in: &state) == [.attach("문서/분기 보고서 2024-Q3.pdf")], "taken from the current folder by the screen")
        #expect(attachPromptText(state) != nil, "the prompt waits for the answer")
        let effects = deliver(.attached(MailForm.report), to: &state)
        #expect(state.dialog == nil)
        #expect(state.field("attachments").attachments == [MailForm.report])
        #expect(effects == [.changed(field: "attachments")])
        #expect(state.values["attachments"] == MailForm.report.file.line)
        #expect(state.frame.shows("분기 보고서 2024-Q3.pdf"))
    }

    @Test func escClosesThePromptWithoutAttaching() {
        var state = MailForm.empty()
        press(.control("t"), in: &state)
        #expect(press(.escape, in: &state) == [])
        #expect(state.dialog == nil)
        #expect(state.field("attachments").attachments.isEmpty)
        #expect(!state.changed)
    }

    private func withTwoAttachments() -> FormState {
        var state = MailForm.prefilled(focus: "body")
        press(.tab, in: &state)
        return state
    }

    @Test func downAndUpSelectInTheList() {
        var state = withTwoAttachments()
        #expect(state.focusedID == "attachments")
        #expect(state.field("attachments").selectedAttachment == 0)
        press(.down, in: &state)
        #expect(state.field("attachments").selectedAttachment == 1)
        press(.down, in: &state)
        #expect(state.field("attachments").selectedAttachment == 1, "stops at the last")
        press(.up, .up, in: &state)
        #expect(state.field("attachments").selectedAttachment == 0, "stops at the first")
    }

    @Test func dAsksAndYRemoves() {
        var state = withTwoAttachments()
        press(.down, in: &state)
        #expect(press(.character("d"), in: &state) == [])
        #expect(state.dialog == .confirmRemove(1))
        #expect(state.frame.shows("Remove 제주 현장 사진.jpg?"))
        let effects = press(.character("y"), in: &state)
        #expect(state.dialog == nil)
        #expect(state.field("attachments").attachments == [MailForm.report])
        #expect(state.field("attachments").selectedAttachment == 0)
        #expect(effects == [.changed(field: "attachments")])
    }

    @Test(arguments: [InputEvent.character("n"), .escape, .character("x"), .enter])
    func anythingElseKeepsTheFile(_ key: InputEvent) {
        var state = withTwoAttachments()
        press(.character("d"), in: &state)
        #expect(press(key, in: &state) == [])
        #expect(state.dialog == nil)
        #expect(state.field("attachments").attachments == [MailForm.report, MailForm.photo])
    }

    @Test func dOnAnEmptyListAsksNothing() {
        var state = MailForm.empty()
        state.focus(on: "attachments")
        #expect(press(.character("d"), in: &state) == [])
        #expect(state.dialog == nil)
    }
}

// MARK: - Problems and status

struct FormProblemTests {
    private let message = "invalid address “kim@@example.com”: two @ signs"

    @Test func aProblemMarksTheLabelAndShowsWhenFocused() throws {
        var state = FormState(form: MailForm.form(to: "kim@@example.com"), width: 80, height: 24)
        state.focus(on: "to")
        let plain = state.frame
        deliver(.problem(field: "to", message), to: &state)
        let frame = state.frame
        let row = try #require(labelRow("To", in: frame))
        #expect(frame[1, row].style.foreground == .red, "the To label is red")
        #expect(plain[1, row].style.foreground != .red)
        let shown = try #require(frame.locate(message))
        #expect(shown.y == frame.height - 2, "the message is on the status line")
        #expect(frame[shown.x, shown.y].style.foreground == .red)
    }

    @Test func anUnfocusedProblemMarksTheLabelOnly() throws {
        var state = FormState(form: MailForm.form(to: "kim@@example.com"), width: 80, height: 24)
        state.focus(on: "subject")
        let plain = state.frame
        deliver(.problem(field: "to", message), to: &state)
        let frame = state.frame
        let row = try #require(labelRow("To", in: frame))
        #expect(frame.styleMap[row] != plain.styleMap[row], "the style map shows the mark")
        #expect(frame[1, row].style.foreground == .red)
        #expect(!frame.shows(message), "the message waits until To is focused")
        press(.backTab, .backTab, .backTab, in: &state)
        #expect(state.focusedID == "to")
        #expect(state.frame.shows(message))
    }

    @Test func editingTheFieldClearsItsProblem() {
        var state = FormState(form: MailForm.form(to: "kim@@example.com"), width: 80, height: 24)
        state.focus(on: "to")
        deliver(.problem(field: "to", message), to: &state)
        press(.control("a"), .control("f"), .control("f"), .control("f"), .control("d"), in: &state)
        #expect(state.text("to") == "kim@example.com")
        #expect(state.field("to").problem == nil)
        #expect(!state.frame.shows(message))
    }

    @Test func aNilProblemClearsIt() {
        var state = MailForm.empty()
        deliver(.problem(field: "to", message), .problem(field: "to", nil), to: &state)
        #expect(state.field("to").problem == nil)
    }

    @Test func aProblemForAnUnknownFieldIsIgnored() {
        var state = MailForm.empty()
        let before = state
        #expect(deliver(.problem(field: "reply-to", message), to: &state) == [])
        #expect(state == before)
    }
}

/// A form's toggles: a key flips one, the title names it when on, the
/// values carry it, the help bar lists its key, and a text field's own
/// keys (Ctrl-K kills to the line's end) stay theirs.
struct FormToggleTests {
    static func state(on: Bool = false) -> FormState {
        var form = ActivityForm(title: "New Message", fields: [
            FormField(id: "subject", label: "Subject", kind: .text, initialValue: "abc"),
        ], actions: [.done])
        form.toggles = [FormToggle(id: "markdown", label: "Markdown", key: "M-m", isOn: on)]
        return FormState(form: form, width: 80, height: 24)
    }

    @Test func altMFlipsMarkdownAndTheTitleAndValuesSaySo() {
        var state = Self.state()
        #expect(state.values["markdown"] == "off" && FormView.view(state).lines[0].hasPrefix(" New Message") && !FormView.view(state).lines[0].contains("Markdown"))
        #expect(FormView.view(state).lines[23].contains("M-m Markdown"), "\(FormView.view(state).lines[23])")
        let effects = FormUpdate.update(&state, .input(.alt("m")))
        #expect(effects == [.changed(field: "markdown")] && state.changed)
        #expect(state.values["markdown"] == "on" && state.status == "Markdown on")
        #expect(FormView.view(state).lines[0].hasPrefix(" New Message · Markdown"))
        _ = FormUpdate.update(&state, .input(.alt("m")))
        #expect(state.values["markdown"] == "off" && !FormView.view(state).lines[0].contains("Markdown"))
    }

    @Test func ctrlKStillKillsToTheLineEnd() {
        var state = Self.state(on: true)
        _ = FormUpdate.update(&state, .input(.home))
        _ = FormUpdate.update(&state, .input(.control("k")))
        #expect(state.values["subject"] == "" && state.values["markdown"] == "on")
    }
}

/// An action with an undo window (Mail's undo send): a countdown on screen,
/// `u` takes it back, and it runs when the last second goes.
struct FormCountdownTests {
    static var send: FormAction {
        var action = FormAction(id: "send", label: "Send", progress: "Sending…")
        action.undoWindow = 3
        return action
    }

    static func state() -> FormState {
        FormState(form: ActivityForm(title: "New Message", fields: [FormField(id: "subject", label: "Subject", kind: .text, initialValue: "hi")],
                                     actions: [Self.send]), width: 80, height: 24)
    }

    @Test func theActionRunsWhenTheCountdownEnds() {
        var state = Self.state()
        #expect(FormUpdate.update(&state, .countdown(Self.send, state.values)).isEmpty)
        #expect(FormView.view(state).shows("Send in 3 s") && FormView.view(state).shows("u undo"))
        #expect(FormUpdate.update(&state, .countdownTick).isEmpty && FormView.view(state).shows("Send in 2 s"))
        #expect(FormUpdate.update(&state, .input(.character("x"))).isEmpty, "keys wait for the countdown")
        #expect(state.values["subject"] == "hi")
        #expect(FormUpdate.update(&state, .countdownTick).isEmpty)
        #expect(FormUpdate.update(&state, .countdownTick) == [.run(Self.send, ["subject": "hi"])])
        #expect(state.dialog == nil)
    }

    @Test func uTakesItBackAndALateTickDoesNothing() {
        var state = Self.state()
        _ = FormUpdate.update(&state, .countdown(Self.send, state.values))
        #expect(FormUpdate.update(&state, .input(.character("u"))).isEmpty)
        #expect(state.dialog == nil && state.status == "Send undone: the message is back")
        #expect(FormUpdate.update(&state, .countdownTick).isEmpty, "the timer still due finds no countdown")
    }
}

/// An action done later (Mail's Send later): its key asks the time once the
/// checks pass, the activity's reading of what is typed shows under it, a
/// refused time keeps the question open, and a time taken runs the action
/// with it.
struct FormLaterTests {
    static let later = FormAction(id: "send", label: "Send later", progress: "Scheduling…", role: .later)

    static func state(actions: [FormAction] = [MailForm.send, MailForm.saveDraft, later]) -> FormState {
        FormState(form: ActivityForm(title: "New Message", fields: [FormField(id: "subject", label: "Subject", kind: .text, initialValue: "hi")],
                                     actions: actions), width: 80, height: 24)
    }

    @Test func ctrlLAsksWhenAndATimeTakenRunsTheActionWithIt() {
        var state = Self.state()
        #expect(FormUpdate.update(&state, .input(.control("l"))) == [.submit(Self.later, ["subject": "hi"], confirmed: false)])
        #expect(state.dialog == nil, "the checks come first, then the question")
        #expect(FormUpdate.update(&state, .askTime(Self.later, state.values)).isEmpty)
        #expect(FormView.view(state).shows("Send later: when? (Enter schedules, Esc goes back)"))
        #expect(FormUpdate.update(&state, .input(.enter)).isEmpty, "nothing typed, nothing asked")
        var effects: [FormEffect] = []
        for character in "in 2h" { effects = FormUpdate.update(&state, .input(.character(character))) }
        #expect(effects == [.readTime(Self.later, "in 2h")])
        #expect(state.values["subject"] == "hi", "what is typed goes to the question, not the form")
        _ = FormUpdate.update(&state, .timeNote("today 12:30", isProblem: false))
        #expect(FormView.view(state).shows("→ today 12:30"))
        #expect(FormUpdate.update(&state, .input(.enter)) == [.schedule(Self.later, ["subject": "hi"], "in 2h")])
        #expect(FormUpdate.update(&state, .timeAccepted(Self.later, ["subject": "hi"], value: "2026-12-04T12:30:00+09:00"))
                == [.run(Self.later, ["subject": "hi", FormAction.timeKey: "2026-12-04T12:30:00+09:00"])])
        #expect(state.dialog == nil)
    }

    @Test func aRefusedTimeKeepsTheQuestionOpenUntilItIsTypedAgain() {
        var state = Self.state()
        _ = FormUpdate.update(&state, .askTime(Self.later, state.values))
        for character in "soon" { _ = FormUpdate.update(&state, .input(.character(character))) }
        #expect(FormUpdate.update(&state, .input(.enter)) == [.schedule(Self.later, ["subject": "hi"], "soon")])
        _ = FormUpdate.update(&state, .timeNote("cannot read 'soon' as a time", isProblem: true))
        #expect(FormView.view(state).shows("⚠ cannot read 'soon' as a time"))
        // A move keeps the reason; an edit reads the new text and drops it.
        #expect(FormUpdate.update(&state, .input(.left)).isEmpty && FormView.view(state).shows("⚠ cannot read"))
        #expect(FormUpdate.update(&state, .input(.control("u"))) == [.readTime(Self.later, "n")])
        #expect(!FormView.view(state).shows("⚠"))
        // Esc goes back to the form, which is as it was.
        #expect(FormUpdate.update(&state, .input(.escape)).isEmpty)
        #expect(state.dialog == nil && state.values["subject"] == "hi")
        #expect(FormUpdate.update(&state, .timeAccepted(Self.later, ["subject": "hi"], value: "x")).isEmpty, "a late answer finds no question")
    }

    @Test func theHelpBarOffersItOnlyWhereTheFormHasIt() {
        var state = Self.state()
        #expect(FormView.helpBar(state).hasSuffix("Esc Cancel  ^L Send later"), "\(FormView.helpBar(state))")
        state.toggles = [FormToggle(id: "markdown", label: "Markdown", key: "M-m", isOn: false)]
        #expect(FormView.helpBar(state).hasSuffix("Esc Cancel  M-m Markdown  ^L Send later"), "after the toggles: \(FormView.helpBar(state))")
        state.keys.rebind(.later, to: [.alt("l")])
        #expect(FormView.helpBar(state).hasSuffix("M-l Send later"), "\(FormView.helpBar(state))")
        var plain = Self.state(actions: [MailForm.send, MailForm.saveDraft])
        #expect(!FormView.helpBar(plain).contains("later"))
        #expect(FormUpdate.update(&plain, .input(.control("l"))).isEmpty, "no action done later, nothing to ask")
    }
}
