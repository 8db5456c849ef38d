import Foundation
import ShareCore
import Testing
@testable import ShareTerminal

// MARK: - Snapshots

struct FormViewSnapshotTests {
    /// The prefilled mail at 80×24, focused on To.
    @Test func prefilled80x24() throws {
        let frame = MailForm.prefilled().frame
        assertSnapshot(frame, named: "form-prefilled-80x24")
        expectWellFormed(frame)
        // Labels in one column, values in the next.
        for (label, value) in [("From", MailForm.identities[0]), ("To", MailForm.twoRecipients),
                               ("Subject", MailForm.koreanSubject)] {
            let row = try #require(labelRow(label, in: frame), "\(label) is drawn")
            #expect(frame.locate(value)?.x == valueColumn, "\(label)'s value starts in the value column")
            #expect(frame.locate(value)?.y == row)
        }
        let toRow = try #require(labelRow("To", in: frame))
        #expect(frame.cursor?.x == valueColumn + DisplayWidth.of(MailForm.twoRecipients))
        #expect(frame.cursor?.y == toRow)
        #expect(frame.shows("분기 보고서 2024-Q3.pdf  application/pdf   1.2 MB"))
        #expect(frame.shows("제주 현장 사진.jpg       image/jpeg       48.2 KB"))
        // Name, type and size in columns by display width (the Korean names are two columns a syllable).
        let pdf = try #require(frame.locate("application/pdf")), jpeg = try #require(frame.locate("image/jpeg"))
        #expect(pdf.x == jpeg.x)
        let small = try #require(frame.locate("1.2 MB")), large = try #require(frame.locate("48.2 KB"))
        #expect(small.x + DisplayWidth.of("1.2 MB") == large.x + DisplayWidth.of("48.2 KB"), "sizes right-aligned")
        #expect(frame.shows("> 보고서 초안은 언제 받을 수 있을까요?"))
        #expect(frame.shows("김민수 · Example Corp."))
    }

    /// The same mail at 100×30 with the cursor in the body.
    @Test func prefilledFocusedOnTheBody100x30() throws {
        var state = MailForm.prefilled(width: 100, height: 30, focus: "body")
        state.moveCursor(of: "body", to: 3)
        let frame = state.frame
        assertSnapshot(frame, named: "form-body-100x30")
        expectWellFormed(frame)
        let first = try #require(frame.locate("지원 씨, 안녕하세요."))
        #expect(first.x == 1)
        #expect(frame.cursor?.x == 1 + DisplayWidth.of("지원 "))
        #expect(frame.cursor?.y == first.y)
    }

    @Test func confirmSendDialog() {
        var state = FormState(form: MailForm.form(to: MailForm.twoRecipients, body: "보고서를 첨부합니다."),
                              width: 80, height: 24)
        press(.control("x"), in: &state)
        deliver(.confirm(MailForm.send, warnings: ["The subject is empty.",
                                                   "The message mentions an attachment, but nothing is attached."]), to: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-confirm-send-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("The subject is empty."))
        #expect(frame.shows("The message mentions an attachment, but nothing is attached."))
        #expect(frame.shows("y send") && frame.shows("n go back"))
        #expect(frame.cursor == nil, "no text cursor behind a question")
    }

    @Test func confirmCancelDialog() {
        var state = MailForm.prefilled()
        typeText(", x", into: &state)
        press(.escape, in: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-confirm-cancel-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("s save draft") && frame.shows("d discard") && frame.shows("Esc keep editing"))
        #expect(frame.cursor == nil)
    }

    @Test func attachPromptWithCompletions() {
        var state = MailForm.prefilled(focus: "body")
        press(.control("t"), in: &state)
        typeText("문", into: &state)
        deliver(.pathCompletions(["~/문서/분기 보고서 2024-Q4 최종본 (수정).pdf", "~/문서/사진/", "~/문서/회의록.txt"]), to: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-attach-prompt-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("~/문서/회의록.txt"))
    }

    @Test func completionsUnderTo() {
        var state = FormState(form: MailForm.form(to: "Lee Jiwon <jiwon@example.org>, ", subject: MailForm.koreanSubject),
                              width: 80, height: 24)
        state.focus(on: "to")
        typeText("ki", into: &state)
        deliver(.completions(["Kim Minsu <kim@example.com>", "Kim Jiyeon <jiyeon.kim@example.org>",
                              "김영희 <younghee@example.kr>"]), to: &state)
        press(.down, in: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-completions-to-80x24")
        expectWellFormed(frame)
    }

    /// An invalid To is marked, whether To or the subject has the focus.
    @Test(arguments: [("to", "form-problem-to-80x24"), ("subject", "form-problem-to-unfocused-80x24")])
    func toWithAProblem(focus: String, snapshot: String) {
        var state = FormState(form: MailForm.form(to: "kim@@example.com, 박지성 <park@example.kr>",
                                                  subject: MailForm.koreanSubject),
                              width: 80, height: 24)
        state.focus(on: focus)
        deliver(.problem(field: "to", "invalid address “kim@@example.com”: two @ signs"), to: &state)
        let frame = state.frame
        assertSnapshot(frame, named: snapshot)
        expectWellFormed(frame)
    }

    @Test func narrow40x12() {
        let frame = MailForm.prefilled(width: 40, height: 12, focus: "subject").frame
        assertSnapshot(frame, named: "form-narrow-40x12")
        expectWellFormed(frame)
        expectCursorInside(frame)
    }

    @Test func monochrome80x24() throws {
        var state = MailForm.prefilled(colors: false, focus: "attachments")
        press(.down, in: &state)
        deliver(.problem(field: "cc", "invalid address “lee@”"), to: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-monochrome-80x24")
        expectWellFormed(frame)
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                #expect(frame[x, y].style.foreground == nil && frame[x, y].style.background == nil, "colour at (\(x), \(y))")
            }
        }
        let photo = try #require(frame.locate("제주 현장 사진.jpg"))
        #expect(frame[photo.x, photo.y].style.reverse, "the selected attachment shows without colour")
        let report = try #require(frame.locate("분기 보고서 2024-Q3.pdf"))
        #expect(!frame[report.x, report.y].style.reverse)
    }

    @Test func busySending() {
        var state = MailForm.prefilled()
        deliver(.busy(MailForm.send), to: &state)
        let frame = state.frame
        #expect(frame.lines[frame.height - 2].hasPrefix(" Sending…"))
    }
}

// MARK: - Layout

struct FormViewLayoutTests {
    @Test func theCursorIsInTheFocusedFieldFromTheStart() throws {
        let frame = MailForm.empty().frame
        let row = try #require(labelRow("To", in: frame))
        #expect(frame.cursor?.x == valueColumn && frame.cursor?.y == row)
    }

    @Test func theEmptyBodyShowsAHintUntilFocused() {
        var state = MailForm.empty()
        #expect(state.frame.shows("Write your message here"))
        state.focus(on: "body")
        #expect(!state.frame.shows("Write your message here"))
    }

    @Test func theHelpBarIsOnTheLastLine() {
        let frame = MailForm.empty().frame
        #expect(frame.lines[23] == "^X Send  ^O Save draft  ^T Attach  ^G $EDITOR  Tab Next  Esc Cancel")
    }

    @Test func aLongBodyLineWrapsAtSpacesWithinTheWidth() {
        var state = MailForm.empty()
        state.focus(on: "body")
        let words = (1...30).map { "word\($0)" }.joined(separator: " ")
        typeText(words, into: &state)
        let frame = state.frame
        let rows = frame.lines.filter { $0.hasPrefix(" word") }
        #expect(rows.count >= 3, "the line wraps: \(rows)")
        for row in rows {
            #expect(DisplayWidth.of(row) <= frame.width - 1)
            #expect(!row.trimmingCharacters(in: .whitespaces).hasSuffix("word"), "no word is cut: \(row)")
        }
        let joined = rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(joined == words, "every word is shown once, in order")
    }

    @Test func aWrappedKoreanLineNeverSplitsASyllable() {
        var state = MailForm.empty(width: 41, height: 24)
        state.focus(on: "body")
        typeText(String(repeating: "가", count: 45), into: &state)
        let frame = state.frame
        expectWellFormed(frame)
        let rows = frame.lines.filter { $0.hasPrefix(" 가") }
        #expect(rows.map { $0.dropFirst().count } == [19, 19, 7])
        #expect(frame.cursor?.x == 1 + 14)
    }

    /// Forty lines at 80×24: the last lines are shown, the first scrolled
    /// away, and the cursor is on screen after the last typed character.
    @Test func aLongBodyScrollsToKeepTheCursorVisible() throws {
        var state = MailForm.empty()
        state.focus(on: "body")
        let lines = (1...40).map { String(format: "Line %02d 줄", $0) }
        typeText(lines.joined(separator: "\n"), into: &state)
        let frame = state.frame
        expectWellFormed(frame)
        let cursor = try #require(frame.cursor)
        expectCursorInside(frame)
        let last = try #require(frame.locate("Line 40 줄"), "the last line is shown")
        #expect(cursor.y == last.y)
        #expect(cursor.x == last.x + DisplayWidth.of("Line 40 줄"))
        #expect(!frame.shows("Line 01"), "the first lines are scrolled away")
        #expect(frame.shows("Subject:"), "the header stays")
        #expect(cursor.y < frame.height - 2, "the cursor is above the status line and the attachment list")
        let shown = (1...40).filter { frame.shows(String(format: "Line %02d", $0)) }
        #expect(shown == Array(shown.first!...40), "a contiguous run of lines ending with the last: \(shown)")
        #expect(shown.count >= 10)
    }

    /// Moving up inside the visible part of the body moves the cursor, not
    /// the text: the view scrolls only when the cursor would leave it.
    @Test func movingUpWithinTheVisibleBodyDoesNotScroll() throws {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText((1...40).map { String(format: "Line %02d", $0) }.joined(separator: "\n"), into: &state)
        let before = state.frame
        let top = try #require(before.lines.first { $0.hasPrefix(" Line ") })
        let cursorBefore = try #require(before.cursor)
        press(.up, .up, .up, in: &state)
        let after = state.frame
        #expect(after.lines.first { $0.hasPrefix(" Line ") } == top, "the text stays where it was")
        #expect(after.cursor?.y == cursorBefore.y - 3, "the cursor moves up three rows")
    }

    /// PageUp and PageDown in the body move a screenful less one row, and
    /// the text moves with the cursor.
    @Test func pageUpAndPageDownMoveAScreenful() throws {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText((1...200).map { String(format: "Line %03d 줄", $0) }.joined(separator: "\n"), into: &state)
        for _ in 0..<199 { press(.up, in: &state) }
        press(.home, .right, .right, in: &state)
        let top = state.frame
        let first = try #require(top.locate("Line 001"))
        let shownAtTop = (1...200).filter { top.shows(String(format: "Line %03d", $0)) }
        let page = shownAtTop.count - 1
        #expect(page >= 5, "rows: \(shownAtTop)")
        press(.pageDown, in: &state)
        let down = state.frame
        let target = try #require(down.locate(String(format: "Line %03d", 1 + page)), "screen:\n\(down.lines.joined(separator: "\n"))")
        #expect(down.cursor?.y == target.y && down.cursor?.x == target.x + 2,
                "the cursor keeps its column: \(String(describing: down.cursor)), page \(page):\n\(down.lines.joined(separator: "\n"))")
        #expect(!down.shows("Line 001"), "the text moved with the cursor")
        press(.pageDown, .pageDown, in: &state)
        #expect(state.frame.locate(String(format: "Line %03d", 1 + 3 * page)).map { $0.y } == state.frame.cursor?.y)
        press(.pageUp, .pageUp, .pageUp, in: &state)
        let back = state.frame
        #expect(back.cursor?.y == first.y && back.cursor?.x == first.x + 2, "three pages up is the start again")
        #expect(back.shows("Line 001"))
        // Past the end: the last character.
        for _ in 0..<100 { press(.pageDown, in: &state) }
        let end = try #require(state.frame.locate("Line 200 줄"))
        #expect(state.frame.cursor?.y == end.y && state.frame.cursor?.x == end.x + DisplayWidth.of("Line 200 줄"))
        #expect(state.values["body"]?.hasSuffix("Line 200 줄") == true, "nothing typed by the keys")
    }

    @Test func scrollingBackToTheTopShowsTheFirstLine() throws {
        var state = MailForm.empty()
        state.focus(on: "body")
        typeText((1...40).map { String(format: "Line %02d", $0) }.joined(separator: "\n"), into: &state)
        for _ in 0..<39 { press(.up, in: &state) }
        let frame = state.frame
        let first = try #require(frame.locate("Line 01"))
        #expect(frame.cursor?.y == first.y)
    }

    @Test func aLongSubjectScrollsToKeepTheCursorInTheField() throws {
        var state = MailForm.empty()
        state.focus(on: "subject")
        typeText(String(repeating: "보고서 ", count: 20) + "끝", into: &state)
        let frame = state.frame
        expectWellFormed(frame)
        let row = try #require(labelRow("Subject", in: frame))
        let cursor = try #require(frame.cursor)
        #expect(cursor.y == row)
        #expect(cursor.x < frame.width)
        #expect(frame.text(x: cursor.x - 2, y: row, count: 2) == "끝", "the last character is just before the cursor")
    }

    /// A field that is not focused and does not fit shows its beginning,
    /// cut with "…" (SPEC §7: truncated by display width with "…").
    @Test func anUnfocusedFieldThatDoesNotFitShowsItsStartWithAnEllipsis() throws {
        let frame = MailForm.prefilled(width: 40, height: 12, focus: "subject").frame
        let row = try #require(labelRow("To", in: frame))
        let shown = frame.text(x: valueColumn, y: row, count: frame.width - valueColumn)
            .trimmingCharacters(in: .whitespaces)
        #expect(shown.hasPrefix("Lee Jiwon"), "To shows its first address: “\(shown)”")
        #expect(shown.hasSuffix("…"), "and says it is cut: “\(shown)”")
    }

    @Test func attachmentsShowNameTypeAndSize() throws {
        let frame = MailForm.prefilled().frame
        let heading = try #require(frame.locate("Attachments (2)"))
        let report = try #require(frame.locate("📎 분기 보고서 2024-Q3.pdf"))
        let photo = try #require(frame.locate("📎 제주 현장 사진.jpg"))
        #expect(report.y == heading.y + 1 && photo.y == heading.y + 2)
        #expect(report.x == photo.x)
        #expect(photo.y < frame.height - 2)
    }

    @Test func focusOnAChoiceHidesTheCursorAndShowsArrows() {
        var state = MailForm.empty()
        state.focus(on: "from")
        let frame = state.frame
        #expect(frame.cursor == nil)
        #expect(frame.shows("김민수 <kim@example.com>  ◂ ▸"))
    }

    /// An escape sequence in the Subject is shown as symbols, and the cursor
    /// after it is after the last symbol drawn.
    @Test func controlCharactersInTheSubjectNeverReachACell() throws {
        var state = FormState(form: MailForm.form(to: "a@example.com", subject: "\u{1B}[31mRed\u{7}"), width: 80, height: 24)
        state.focus(on: "subject")
        let frame = state.frame
        expectWellFormed(frame)
        #expect(frame.shows("␛[31mRed␇"))
        let row = try #require(labelRow("Subject", in: frame))
        let drawn = DisplayWidth.of("␛[31mRed␇")
        #expect(frame.cursor?.x == valueColumn + drawn, "the cursor follows what is drawn")
        #expect(frame.cursor?.y == row)
    }

    /// A tab in a shared text: drawn as a symbol, so the wrap and the cursor
    /// must count it as the symbol's column.
    @Test func aTabInTheBodyKeepsTheCursorAfterIt() throws {
        var state = FormState(form: MailForm.form(to: "a@example.com", subject: "s", body: "a\tb"), width: 80, height: 24)
        state.focus(on: "body")
        let frame = state.frame
        expectWellFormed(frame)
        let shown = try #require(frame.locate("a␉b"))
        #expect(frame.cursor?.x == shown.x + 3)
    }
}

// MARK: - Marks that must survive the style map and monochrome

struct FormViewMarkTests {
    private let message = "invalid address “kim@@example.com”: two @ signs"

    /// The style map (and so a monochrome terminal) tells a focused label
    /// with a problem from a focused label without one.
    @Test(arguments: [true, false])
    func aProblemOnTheFocusedFieldShowsInTheStyleMap(_ colors: Bool) throws {
        var state = FormState(form: MailForm.form(to: "kim@@example.com"), width: 80, height: 24, colors: colors)
        state.focus(on: "to")
        let plain = state.frame
        deliver(.problem(field: "to", message), to: &state)
        let marked = state.frame
        let row = try #require(labelRow("To", in: marked))
        #expect(marked.styleMap[row] != plain.styleMap[row],
                "the To label looks the same with and without a problem: “\(marked.styleMap[row])”")
        #expect(marked.shows(message))
    }

    /// Without colours, the completion list must still look like a list over
    /// the fields, not like values typed into Cc, Bcc and Subject.
    @Test func completionsStandOutWithoutColour() throws {
        var state = FormState(form: MailForm.form(), width: 80, height: 24, colors: false)
        typeText("ki", into: &state)
        deliver(.completions(["Kim Minsu <kim@example.com>", "Kim Jiyeon <jiyeon.kim@example.org>"]), to: &state)
        let frame = state.frame
        let other = try #require(frame.locate("Kim Jiyeon <jiyeon.kim@example.org>"))
        #expect(frame[other.x, other.y].style != .plain,
                "an unchosen completion is plain text in the Cc/Bcc rows: “\(frame.lines[other.y])”")
    }

    /// At 40×12 the body is still there to write in.
    @Test func theBodyIsEditableAt40x12() throws {
        var state = MailForm.prefilled(width: 40, height: 12, focus: "body")
        typeText("끝", into: &state)
        let frame = state.frame
        #expect(frame.shows("끝"), "the body is not drawn at 40×12\n\(frame.testDescription)")
        let cursor = try #require(frame.cursor, "no cursor in the focused body at 40×12")
        #expect(frame.text(x: cursor.x - 2, y: cursor.y, count: 2) == "끝")
    }
}

// MARK: - Properties

/// States the property checks render at every size.
private func sampleStates(width: Int, height: Int) -> [(String, FormState)] {
    var states: [(String, FormState)] = []
    for focus in ["from", "to", "cc", "bcc", "subject", "body", "attachments"] {
        states.append(("prefilled, \(focus)", MailForm.prefilled(width: width, height: height, focus: focus)))
    }
    var empty = FormState(form: MailForm.form(), width: width, height: height)
    states.append(("empty", empty))
    empty.focus(on: "body")
    states.append(("empty, body", empty))

    var hostile = FormState(form: MailForm.form(to: "\u{1B}]0;pwned\u{7} <a@example.com>", subject: "\u{1B}[31m빨강\u{1B}[0m\r\n",
                                                body: "\u{1B}[2J\u{8}\u{8}line\u{0}\n\u{9B}31m\u{202E}gpj.exe"),
                            attachments: [AttachmentRow(file: AttachedFile(line: "/tmp/a\u{1B}[1mb\nc.txt\t12\t0"),
                                                        contentType: "text/plain")],
                            width: width, height: height)
    hostile.focus(on: "subject")
    states.append(("control characters, subject", hostile))
    hostile.focus(on: "body")
    states.append(("control characters, body", hostile))

    var long = MailForm.prefilled(width: width, height: height, focus: "body")
    typeText((1...60).map { "문단 \($0): " + String(repeating: "가나다라 abc ", count: $0 % 9) }.joined(separator: "\n"),
             into: &long)
    states.append(("long body", long))

    var completions = MailForm.prefilled(width: width, height: height, focus: "to")
    typeText(", ki", into: &completions)
    deliver(.completions((1...8).map { "아주 긴 이름을 가진 사람 \($0) <person.\($0)@example.com>" }), to: &completions)
    states.append(("completions", completions))

    var send = FormState(form: MailForm.form(to: "a@example.com", body: "첨부합니다"), width: width, height: height)
    press(.control("x"), in: &send)
    states.append(("confirm send", send))

    var cancel = MailForm.prefilled(width: width, height: height)
    typeText("x", into: &cancel)
    press(.escape, in: &cancel)
    states.append(("confirm cancel", cancel))

    var attach = MailForm.prefilled(width: width, height: height)
    press(.control("t"), in: &attach)
    typeText(String(repeating: "아주/깊은/폴더/", count: 8), into: &attach)
    deliver(.pathCompletions((1...12).map { "~/문서/파일 \($0) 이름이 아주 긴 보고서.pdf" }), to: &attach)
    states.append(("attach prompt", attach))

    var remove = MailForm.prefilled(width: width, height: height, focus: "attachments")
    press(.character("d"), in: &remove)
    states.append(("confirm remove", remove))

    var problem = MailForm.prefilled(width: width, height: height, focus: "to")
    deliver(.problem(field: "to", String(repeating: "잘못된 주소 ", count: 20)), to: &problem)
    states.append(("problem", problem))

    var busy = MailForm.prefilled(width: width, height: height)
    deliver(.busy(MailForm.send), to: &busy)
    states.append(("busy", busy))
    return states
}

private let propertySizes: [(Int, Int)] = [(10, 5), (19, 7), (20, 8), (24, 9), (30, 10), (40, 12), (41, 13), (60, 16), (80, 24),
                                           (100, 30), (132, 43), (200, 60)]

struct FormViewPropertyTests {
    @Test(arguments: propertySizes)
    func everyFrameIsWellFormedWithTheCursorInside(_ width: Int, _ height: Int) {
        for (name, state) in sampleStates(width: width, height: height) {
            let frame = state.frame
            #expect(frame.width == width && frame.height == height, "\(name)")
            expectWellFormed(frame)
            for (y, line) in frame.lines.enumerated() {
                #expect(DisplayWidth.of(line) <= width, "\(name): line \(y) is wider than \(width)")
            }
            if let cursor = frame.cursor {
                #expect(cursor.x >= 0 && cursor.x < width && cursor.y >= 0 && cursor.y < height,
                        "\(name) at \(width)×\(height): cursor (\(cursor.x), \(cursor.y)) outside the frame")
            }
        }
    }

    @Test(arguments: propertySizes)
    func noControlCharacterReachesACell(_ width: Int, _ height: Int) {
        for (name, state) in sampleStates(width: width, height: height) {
            let frame = state.frame
            for y in 0..<height {
                for x in 0..<width {
                    let bad = frame[x, y].text.unicodeScalars.filter {
                        $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || (0x202A...0x202E).contains($0.value)
                    }
                    #expect(bad.isEmpty, "\(name) at \(width)×\(height): \(frame[x, y].text.debugDescription) in (\(x), \(y))")
                }
            }
        }
    }

    /// Wherever the form is drawn at all, a focused text field shows its
    /// cursor on the row of that field: the person always sees where they type.
    @Test(arguments: propertySizes)
    func theFocusedTextFieldAlwaysShowsItsCursor(_ width: Int, _ height: Int) {
        for focus in ["to", "cc", "bcc", "subject", "body"] {
            let frame = MailForm.prefilled(width: width, height: height, focus: focus).frame
            if frame.lines.first?.hasPrefix("Make") == true { continue }  // too small: the form asks for room
            guard let cursor = frame.cursor else {
                Issue.record("\(focus) focused at \(width)×\(height): no cursor\n\(frame.testDescription)")
                continue
            }
            #expect(cursor.x < width && cursor.y < height)
            if focus != "body" {
                let label = ["to": "To", "cc": "Cc", "bcc": "Bcc", "subject": "Subject"][focus] ?? ""
                #expect(labelRow(label, in: frame) == cursor.y,
                        "\(focus) at \(width)×\(height): the cursor row \(cursor.y) is not the \(label) row\n\(frame.testDescription)")
            } else {
                #expect(frame.shows("김민수 · Example Corp."), "the end of the body is shown at \(width)×\(height)")
            }
        }
    }
}

// MARK: - Forms of other activities

/// The form knows nothing of Mail: a form with one text field and a Post
/// action, and one with a choice of printer, render and work with the same
/// widgets.
struct GenericFormTests {
    static let post = FormAction(id: "post", label: "Post", progress: "Posting…")
    static let print = FormAction(id: "print", label: "Print", progress: "Printing…")
    static let printers = ["office", "lab-color", "home-inkjet", "Canon_MF644", "Brother_HL-L2350DW"]

    static func postForm() -> FormState {
        FormState(form: ActivityForm(title: "New Post", fields: [FormField(id: "status", label: "Status", kind: .text)],
                                     actions: [post]), width: 80, height: 24)
    }

    static func printForm() -> FormState {
        var state = FormState(form: ActivityForm(title: "Print 2 files", fields: [
            FormField(id: "printer", label: "Printer", kind: .choice(printers), initialValue: "office"),
            FormField(id: "copies", label: "Copies", kind: .text, initialValue: "1"),
            FormField(id: "pages", label: "Pages", kind: .text),
        ], actions: [print]), width: 80, height: 24)
        state.focus(on: "printer")
        return state
    }

    @Test func aTextFieldAndAPostAction() {
        var state = Self.postForm()
        #expect(state.focusedID == "status")
        typeText("Hello from the terminal", into: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-post-80x24")
        expectWellFormed(frame)
        #expect(frame.lines[23] == "^X Post  Esc Cancel", "only what this form offers is in the help bar")
        #expect(press(.control("o"), .control("t"), in: &state) == [], "no draft, no attachments in this form")
        #expect(state.dialog == nil)
        #expect(press(.control("x"), in: &state) == [.submit(Self.post, ["status": "Hello from the terminal"], confirmed: false)])
        deliver(.busy(Self.post), to: &state)
        #expect(state.frame.shows("Posting…"))
        deliver(.busy(nil), to: &state)
        #expect(!state.frame.shows("Posting…"))
    }

    @Test func aCancelledPostWithChangesOffersNoDraft() {
        var state = Self.postForm()
        typeText("x", into: &state)
        press(.escape, in: &state)
        #expect(state.dialog == .confirmCancel)
        #expect(state.frame.shows("d discard   Esc keep editing") && !state.frame.shows("s save"))
        #expect(press(.character("s"), in: &state) == [], "there is nothing to save a draft with")
        #expect(press(.character("d"), in: &state) == [.discard])
    }

    @Test func aChoiceOfPrinter() {
        var state = Self.printForm()
        let frame = state.frame
        assertSnapshot(frame, named: "form-printer-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("office  ◂ ▸"))
        #expect(frame.lines[23] == "^X Print  Tab Next  Esc Cancel")
        press(.right, in: &state)
        #expect(state.values["printer"] == "lab-color", "→ takes the next printer")
    }

    @Test func theChooserFiltersAsYouType() {
        var state = Self.printForm()
        #expect(press(.enter, in: &state) == [])
        guard case .chooser = state.dialog else {
            Issue.record("Enter on a choice opens the chooser")
            return
        }
        typeText("e", into: &state)
        let frame = state.frame
        assertSnapshot(frame, named: "form-printer-chooser-80x24")
        expectWellFormed(frame)
        #expect(frame.shows("▸ office") && frame.shows("home-inkjet") && frame.shows("Brother_HL-L2350DW"))
        #expect(!frame.shows("lab-color") && !frame.shows("Canon_MF644"), "only the printers with an e are listed")
        typeText("z", into: &state)
        #expect(state.frame.shows("no printer matches"))
        #expect(press(.enter, in: &state) == [], "nothing to choose")
        press(.backspace, .backspace, in: &state)
        typeText("ink", into: &state)
        #expect(state.frame.shows("▸ home-inkjet"), "the only match is selected")
        #expect(press(.enter, in: &state) == [.changed(field: "printer")])
        #expect(state.values["printer"] == "home-inkjet")
        #expect(state.dialog == nil)
    }

    @Test func typingOnAChoiceOpensTheChooserAndEscKeepsTheChoice() {
        var state = Self.printForm()
        typeText("l", into: &state)
        #expect(state.frame.shows("▸ lab-color"), "the first printer with an l is selected")
        press(.down, in: &state)
        #expect(state.frame.shows("▸ Brother_HL-L2350DW"), "↓ moves among the matches")
        press(.down, in: &state)
        #expect(state.frame.shows("▸ lab-color"), "and wraps around")
        #expect(press(.escape, in: &state) == [])
        #expect(state.dialog == nil && state.values["printer"] == "office")
    }
}
