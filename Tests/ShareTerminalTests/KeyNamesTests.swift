import ShareCore
import Testing
@testable import ShareTerminal

struct KeyNamesTests {
    @Test(arguments: [
        ("C-x", InputEvent.control("x")), ("Ctrl-S", .control("s")), ("^o", .control("o")), ("M-f", .alt("f")),
        ("Alt-b", .alt("b")), ("Enter", .enter), ("esc", .escape), ("Tab", .tab), ("S-Tab", .backTab), ("Up", .up),
        ("PageDown", .pageDown), ("Space", .character(" ")), ("q", .character("q")), ("/", .character("/")),
    ])
    func namesBecomeEvents(name: String, event: InputEvent) {
        #expect(KeyNames.event(name) == event)
    }

    @Test func nonsenseIsNoKey() {
        for name in ["", "C-", "Ctrl-xx", "Hyper-x", "enter please", "C-1"] { #expect(KeyNames.event(name) == nil, "\(name)") }
    }

    @Test func configuredKeysReplaceTheDefaults() {
        var picker = KeyMap.picker
        var form = KeyMap.form
        KeyActions.apply(["send": [.control("s")], "pick": [.character(" ")], "cancel": [.alt("q")]], picker: &picker, form: &form)
        #expect(form.keys(for: .primary) == [.control("s")])
        #expect(form.keys(for: .cancel) == [.alt("q"), .escape], "Esc cancels forms whatever cancel's keys")
        var state = MailForm.empty()
        state.keys = form
        #expect(FormView.helpBar(state) == "^S Send  ^O Save draft  ^T Attach  ^G $EDITOR  Tab Next  M-q Cancel",
                "the help bar shows the keys bound now")
        #expect(picker.action(for: .character(" ")) == .pick)
        #expect(picker.action(for: .enter) == nil, "Enter no longer picks once pick is rebound")
        #expect(picker.action(for: .alt("q")) == .cancel)
        #expect(picker.action(for: .character("q")) == nil)
        #expect(picker.action(for: .left) == .left, "other actions keep their keys")
    }

    @Test func anActionListsItsKeysInBindingOrder() {
        #expect(KeyMap.picker.keys(for: .cancel) == [.escape, .character("q"), .control("c")])
        #expect(KeyMap.picker.keys(for: .left) == [.left, .character("h")])
        #expect(KeyMap.picker.keys(for: .pick) == [.enter])
        let shadowed = KeyMap([KeyBinding(PickerAction.pick, [.character("x")]), KeyBinding(.cancel, [.character("x"), .escape])])
        #expect(shadowed.keys(for: .cancel) == [.escape], "a key whose first binding is another action does not cancel")
    }

    @Test func rebindingKeepsTheConfiguredOrderAndTheRest() {
        var keys = KeyMap.picker
        keys.rebind(.cancel, to: [.alt("q"), .escape, .alt("q")])
        #expect(keys.keys(for: .cancel) == [.alt("q"), .escape, .control("c")], "in the order given, once each; Ctrl-C always cancels")
        #expect(keys.action(for: .character("q")) == nil)
        keys.rebind(.pick, to: [.character(" "), .tab])
        #expect(keys.keys(for: .pick) == [.character(" "), .tab])
        #expect(keys.keys(for: .nextRow).isEmpty, "Tab left next-row for pick")
        #expect(keys.keys(for: .left) == [.left, .character("h")], "other actions keep their keys")
        var expected = KeyMap.picker
        expected.rebind(.cancel, to: [.alt("q"), .escape])
        expected.rebind(.pick, to: [.character(" "), .tab])
        #expect(keys == expected)
        #expect(keys != KeyMap.picker)
    }

    @Test func aFixedKeyKeepsItsActionWhateverIsRebound() {
        var keys = KeyMap.picker
        keys.rebind(.pick, to: [.control("c"), .character(" ")])
        #expect(keys.action(for: .control("c")) == .cancel, "Ctrl-C always cancels")
        #expect(keys.fixedAction(for: .control("c")) == .cancel)
        #expect(keys.keys(for: .pick) == [.character(" ")])
        keys.rebind(.cancel, to: [.alt("q")])
        #expect(keys.keys(for: .cancel) == [.alt("q"), .control("c")])
        #expect(keys.fixedAction(for: .alt("q")) == nil, "a configured key is not fixed")
    }

    @Test func applyingTheConfigIsDeterministic() {
        let config: [String: [InputEvent]] = ["pick": [.character("p"), .enter], "cancel": [.character("p"), .alt("q")],
                                              "filter": [.character("f")], "help": [.character("?"), .character("H")]]
        var first = KeyMap.picker
        var form = KeyMap.form
        KeyActions.apply(config, picker: &first, form: &form)
        // pick comes after cancel in KeyActions.all, so p picks.
        #expect(first.keys(for: .pick) == [.character("p"), .enter])
        #expect(first.keys(for: .cancel) == [.alt("q"), .control("c")])
        #expect(first.keys(for: .help) == [.character("?"), .character("H")])
        for _ in 0..<20 {
            var again = KeyMap.picker
            // The same bindings through a dictionary built in another order.
            let shuffled = Dictionary(uniqueKeysWithValues: config.shuffled())
            KeyActions.apply(shuffled, picker: &again, form: &form)
            #expect(again == first)
        }
    }

    @Test @MainActor func theComposeScreenUsesItsKeys() {
        let form = ActivityForm(title: "New Message", fields: [
            FormField(id: "to", label: "To", kind: .addressList, initialValue: "kim@example.com"),
            FormField(id: "subject", label: "Subject", kind: .text, initialValue: "Q4"),
            FormField(id: "body", label: "", kind: .multilineText, initialValue: "Numbers."),
        ], actions: [MailForm.send])
        var state = FormState(form: form, width: 80, height: 24)
        state.keys.rebind(.primary, to: [.control("s")])
        #expect(FormUpdate.update(&state, .input(.control("x"))).isEmpty, "^X is no longer Send")
        #expect(FormUpdate.update(&state, .input(.control("s"))) == [.submit(MailForm.send, state.values, confirmed: false)])
        #expect(FormUpdate.update(&state, .input(.control("o"))).isEmpty, "a form with no secondary action has nothing on ^O")
        #expect(FormView.view(state).lines.last?.hasPrefix("^S Send  ^G $EDITOR  Tab Next  Esc Cancel") == true,
                "no Save draft and no Attach in a form without them")
    }

    @Test @MainActor func aFormTakesEveryKeyConfiguredAndEscStillCancels() {
        var keys = KeyMap.form
        var picker = KeyMap.picker
        KeyActions.apply(["send": [.control("s"), .control("x")], "cancel": [.control("q")]], picker: &picker, form: &keys)
        var state = MailForm.empty()
        state.keys = keys
        #expect(FormUpdate.update(&state, .input(.control("s"))).first.map { if case .submit = $0 { true } else { false } } == true)
        #expect(FormUpdate.update(&state, .input(.control("x"))).first.map { if case .submit = $0 { true } else { false } } == true,
                "each key listed for send sends")
        #expect(FormUpdate.update(&state, .input(.control("q"))) == [.discard])
        #expect(FormUpdate.update(&state, .input(.escape)) == [.discard], "Esc cancels whatever keys cancel has")
        #expect(FormView.helpBar(state).hasSuffix("^Q Cancel"), "\(FormView.helpBar(state))")

        // A key given to another command leaves the one it had.
        keys = KeyMap.form
        KeyActions.apply(["send": [.escape], "save": [.tab]], picker: &picker, form: &keys)
        #expect(keys.action(for: .escape) == .primary)
        #expect(keys.action(for: .tab) == .secondary)
        state.keys = keys
        #expect(FormView.helpBar(state) == "Esc Send  Tab Save draft  ^T Attach  ^G $EDITOR", "no key left for Next nor Cancel")
    }

    @Test func everyConfigActionNamesABinding() {
        let names = Set(KeyMap.picker.names + KeyMap.form.names)
        #expect(Set(KeyActions.all.map(\.name)) == names)
        #expect(KeyActions.all.count == names.count, "each name once")
    }
}
