import ShareCore
import Testing
@testable import ShareTerminal

/// A fixed sequence of pseudo-random numbers (SplitMix64), so that a
/// failing sequence of keys is found again from its seed.
struct SeededNumbers: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

struct FormFramesTests {
    /// A body of many lines: Korean, lines wider than the screen, quoted
    /// lines, an emoji sequence, a letter with a combining accent, tabs.
    static let longBody: String = (1...120).map { number in
        switch number % 6 {
        case 0: "\(number) 3분기 보고서의 수치를 다시 확인했습니다 — 매출이 지난 분기보다 조금 늘었고, 비용은 줄었습니다"
        case 1: "> \(number) quoted: the numbers in section 2 changed since the draft you saw last week, see the table"
        case 2: "\(number) 👩‍💻 café e\u{301}t\u{E9} 🇰🇷 \tend"
        case 3: ""
        default: "\(number) The quick brown fox jumps over the lazy dog"
        }
    }.joined(separator: "\n")

    static let keys: [InputEvent] = [
        .character("a"), .character(" "), .character("가"), .character("😀"), .character("\u{301}"), .character("x"),
        .enter, .backspace, .delete, .left, .right, .up, .down, .pageUp, .pageDown, .home, .end,
        .control("k"), .control("u"), .control("w"), .alt("b"), .alt("f"),
    ]

    /// Now and then something besides the body: focus, a dialog, a
    /// status, completions, a new size.
    static func rareEvent(_ numbers: inout SeededNumbers) -> FormMessage {
        switch Int.random(in: 0..<9, using: &numbers) {
        case 0: .input(.tab)
        case 1: .input(.backTab)
        case 2: .input(.escape)
        case 3: .status("Saved a draft", isError: false)
        case 4: .completions(["Lee Jiwon <jiwon@example.org>", "박지성 <park@example.kr>"])
        case 5: .input(.resize(width: Int.random(in: 20...120, using: &numbers), height: Int.random(in: 4...40, using: &numbers)))
        case 6: .input(.character("d"))
        case 7: .input(.control("k"))
        default: .input(.character("n"))
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func everyFrameIsTheWholeViewOfItsState(seed: UInt64) {
        var numbers = SeededNumbers(seed: seed)
        var state = FormState(form: MailForm.form(to: MailForm.twoRecipients, subject: MailForm.koreanSubject, body: Self.longBody),
                              attachments: [MailForm.report], width: 80, height: 24, colors: seed % 2 == 0)
        state.focus(on: "body")
        var frames = FormFrames()
        for step in 0..<400 {
            let message: FormMessage = Int.random(in: 0..<12, using: &numbers) == 0
                ? Self.rareEvent(&numbers) : .input(Self.keys.randomElement(using: &numbers)!)
            _ = FormUpdate.update(&state, message)
            let drawn = frames.frame(for: state)
            let whole = FormView.view(state)
            // Byte for byte too: Frame's == compares cells' text as Strings, which takes "é" for "e" and an accent.
            let same = drawn == whole && drawn.lines.map { Array($0.utf8) } == whole.lines.map { Array($0.utf8) }
            #expect(same, "seed \(seed), step \(step), after \(message): \(zip(drawn.lines, whole.lines).filter { $0 != $1 })")
            guard same else { return }
        }
    }

    /// A row that becomes the same text in another form (a precomposed
    /// "é" in place of "e" and an accent, as lines move up) is drawn again.
    @Test func aRowOfCanonicallyEqualTextIsDrawnAgain() {
        var state = FormState(form: MailForm.form(to: MailForm.twoRecipients, subject: "Q4", body: "x\ncafe\u{301}\ncaf\u{E9}"),
                              width: 40, height: 16)
        state.focus(on: "body")
        state.moveCursor(of: "body", to: 0)
        var frames = FormFrames()
        // A first edit marks the form changed, which draws the frame whole.
        press(.character("y"), .backspace, in: &state)
        _ = frames.frame(for: state)
        let whole = frames.wholeFrames
        press(.control("k"), .control("k"), in: &state)
        let drawn = frames.frame(for: state), view = FormView.view(state)
        #expect(frames.wholeFrames == whole, "the rows were redrawn alone")
        #expect(drawn.lines.map { Array($0.utf8) } == view.lines.map { Array($0.utf8) }, "\(drawn.lines) against \(view.lines)")
    }

    @Test func keysInTheBodyRedrawOnlyTheBodyAfterTheFirstFrame() {
        var state = FormState(form: MailForm.form(to: MailForm.twoRecipients, subject: MailForm.koreanSubject, body: Self.longBody),
                              width: 80, height: 24)
        state.focus(on: "body")
        var frames = FormFrames()
        _ = frames.frame(for: state)
        // The first edit marks the form changed (the header does not show it, but it is part of the state).
        typeText("a", into: &state)
        _ = frames.frame(for: state)
        let before = frames.wholeFrames
        for event in [InputEvent.character("b"), .character("한"), .enter, .backspace, .left, .up, .down, .pageDown, .pageUp,
                      .control("k")] {
            press(event, in: &state)
            #expect(frames.frame(for: state) == state.frame)
        }
        #expect(frames.wholeFrames == before)
        // A change outside the body draws the frame whole.
        deliver(.status("Saved a draft", isError: false), to: &state)
        #expect(frames.frame(for: state) == state.frame)
        #expect(frames.wholeFrames == before + 1)
    }
}

struct FormFramesComparisonTests {
    /// FormFrames.sameOutsideBody compares these one by one: a property
    /// added to the state must be added there too, or a change of it
    /// would not be drawn.
    @Test func theComparisonKnowsEveryStoredPropertyOfTheState() {
        let state = MailForm.prefilled()
        #expect(Mirror(reflecting: state).children.compactMap(\.label) == [
            "title", "fields", "focus", "dialog", "status", "statusIsError", "actions", "toggles", "running", "runningNews",
            "typedWhileBusy", "spinner", "changed", "completions", "completionIndex", "completionField", "bodyTop",
            "width", "height", "colors", "keys",
        ], "FormFrames.sameOutsideBody compares each of these: compare a new one there, then list it here")
        #expect(Mirror(reflecting: state.fields[0]).children.compactMap(\.label) == [
            "field", "editor", "choice", "attachments", "selectedAttachment", "problem", "count",
        ], "FormFrames.sameOutsideBody compares each of these: compare a new one there, then list it here")
    }

    @Test func aChangeOfAnyPropertyButTheBodyIsSeen() {
        let base = MailForm.prefilled(focus: "body")
        let body = base.index(of: "body")!
        let changes: [(String, (inout FormState) -> Void)] = [
            ("title", { $0.title = "Re: 보고서" }), ("focus", { $0.focus(on: "to") }), ("status", { $0.status = "Saved" }),
            ("statusIsError", { $0.statusIsError = true }), ("spinner", { $0.spinner += 1 }), ("changed", { $0.changed.toggle() }),
            ("running news", { $0.runningNews = "Uploading" }), ("typed", { $0.typedWhileBusy = [.enter] }),
            ("completion index", { $0.completionIndex = 1 }), ("completion field", { $0.completionField = "to" }),
            ("colors", { $0.colors.toggle() }), ("keys", { $0.keys.rebind(.primary, to: [.control("s")]) }),
            ("a header field", { $0.fields[1].editor.insert("x") }), ("the body's problem", { $0.fields[body].problem = "too long" }),
            ("the body's count", { $0.fields[body].count = FieldCount(used: 3, limit: 280) }),
            ("attachments", { $0.fields[6].selectedAttachment = 1 }),
        ]
        for (name, change) in changes {
            var changed = base
            change(&changed)
            let chrome = FormFrames.chrome(of: base, body: body)
            #expect(!FormFrames.sameOutsideBody(chrome, changed, body: body), "\(name)")
        }
        // The body's text and first row are what is left out.
        var typed = base
        typed.fields[body].editor.insert("안녕")
        typed.bodyTop = TextEditor.RowPosition(line: 1, row: 0)
        #expect(FormFrames.sameOutsideBody(FormFrames.chrome(of: base, body: body), typed, body: body))
    }

    /// The declarations are compared by their bytes first, then with `==`:
    /// the same form made again with its strings in other storage (other
    /// bytes) is the same, a field declared otherwise is not.
    @Test func aFieldDeclaredOtherwiseIsSeenAndOneDeclaredAlikeIsNot() {
        let base = MailForm.prefilled(focus: "body")
        let body = base.index(of: "body")!
        let chrome = FormFrames.chrome(of: base, body: body)
        func state(_ form: ActivityForm) -> FormState {
            var state = FormState(form: form, attachments: [MailForm.report, MailForm.photo], width: 80, height: 24, colors: true)
            state.focus(on: "body")
            return state
        }
        func copied(_ text: String) -> String { String(decoding: Array(text.utf8), as: UTF8.self) }
        let again = MailForm.form(to: copied(MailForm.twoRecipients), subject: copied(MailForm.koreanSubject), body: copied(MailForm.body))
        #expect(FormFrames.sameOutsideBody(chrome, state(again), body: body))
        var relabelled = MailForm.form(to: MailForm.twoRecipients, subject: MailForm.koreanSubject, body: MailForm.body)
        relabelled.fields[4].label = "Betreff"
        #expect(!FormFrames.sameOutsideBody(chrome, state(relabelled), body: body))
    }

    /// `FormFrames.sameDeclaration` takes the same bytes of two
    /// declarations for the same declaration: true of strings, arrays,
    /// enums and optionals of them, not of a class whose object changes or
    /// a floating-point number. A property added must be one of those, or
    /// the comparison must change.
    @Test func aDeclarationHoldsOnlyValuesWhoseBytesAreTheirIdentity() {
        let field = MailForm.form().fields[0]
        #expect(Mirror(reflecting: field).children.compactMap(\.label) == [
            "id", "label", "kind", "initialValue", "placeholder", "suggestions", "initialCursor",
        ], "FormFrames.sameDeclaration compares a declaration by its bytes first: see there before listing a new property here")
    }
}
