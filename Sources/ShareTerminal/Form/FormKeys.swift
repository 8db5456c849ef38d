import ShareCore
import ShareSupport

/// What a key asks of a form, whatever field has focus. (Not a
/// ``FormAction``: that is what the form offers, Send or Save draft,
/// which `primary` and `secondary` run.)
public enum FormCommand: Sendable, Equatable {
    /// Run the form's primary action (Send, Post, Print).
    case primary
    /// Run its secondary action (Save draft).
    case secondary
    /// Run its action done at a time the person gives (Send later), asking the time.
    case later
    /// Ask for a file to attach.
    case attach
    /// Edit the focused field in `$EDITOR`.
    case editor
    /// The next field, or the completion offered.
    case next
    /// The field before.
    case previous
    /// Close the completions, else leave the form (asking first when something changed).
    case cancel
    /// Leave the form (asking first when something changed).
    case interrupt
}

extension KeyMap where Action == FormCommand {
    /// A form's command keys (SPEC §7), the compose screen's and every
    /// activity's form's; the config's `[keys]` rebinds the named ones
    /// (not to plain characters, which are typed text).
    ///
    /// The bar: `^X Send  ^O Save draft  ^T Attach  ^G $EDITOR  Tab Next  Esc Cancel`,
    /// each command only where the form has it, then the toggles, then
    /// `^L Send later` (``FormView``).
    public static var form: KeyMap {
        KeyMap([
            KeyBinding(.primary, [.control("x")], name: "send", bar: .given),
            KeyBinding(.secondary, [.control("o")], name: "save", bar: .given),
            KeyBinding(.later, [.control("l")], name: "later", bar: .given),
            KeyBinding(.attach, [.control("t")], name: "attach", bar: .words(Localization.text("Attach"))),
            KeyBinding(.editor, [.control("g")], name: "editor", bar: .words("$EDITOR")),
            KeyBinding(.next, [.tab], bar: .words(Localization.text("Next"))),
            KeyBinding(.previous, [.backTab]),
            KeyBinding(.cancel, [.escape], name: "cancel", bar: .words(Localization.text("Cancel"))),
            // Esc cancels whatever keys cancel has, unless [keys] gives it to another command.
            KeyBinding(.cancel, [.escape], bar: .with(.cancel)),
            KeyBinding(.interrupt, [.control("c")]),
        ])
    }
}

/// What a key asks of a choice field's chooser: the filter takes the rest.
public enum ChooserAction: Sendable, Equatable {
    /// The match above, or below (round).
    case previous, next
    /// Choose the selected match.
    case choose
    /// Close the chooser, changing nothing.
    case close
}

extension KeyMap where Action == ChooserAction {
    /// The chooser's keys: `↑↓ select  Enter choose  Esc close`.
    public static var chooser: KeyMap {
        KeyMap([
            KeyBinding(.previous, [.up], bar: .words(Localization.text("select"))),
            KeyBinding(.next, [.down], bar: .with(.previous)),
            KeyBinding(.choose, [.enter, .tab], bar: .words(Localization.text("choose"))),
            KeyBinding(.close, [.escape], bar: .words(Localization.text("close"))),
        ])
    }
}

/// What a key asks of the attachment list when it has focus.
public enum AttachmentListAction: Sendable, Equatable {
    /// The attachment above, or below.
    case previous, next
    /// Remove the selected attachment, after asking.
    case remove
}

extension KeyMap where Action == AttachmentListAction {
    /// The attachment list's keys: `↑↓ select  d remove` (after asking).
    public static var attachmentList: KeyMap {
        KeyMap([
            KeyBinding(.previous, [.up, .character("k")], bar: .words(Localization.text("select"))),
            KeyBinding(.next, [.down, .character("j")], bar: .with(.previous)),
            KeyBinding(.remove, [.character("d"), .delete, .backspace], bar: .words(Localization.text("remove"))),
        ])
    }
}

/// What a key asks of one of a form's questions; each question's map
/// binds the answers it takes.
public enum DialogAction: Sendable, Equatable {
    /// Yes: run the action asked about, or remove the attachment; in the
    /// attach prompt, attach the file typed.
    case confirm
    /// Close the question, changing nothing.
    case back
    /// Save a draft (unsaved changes).
    case save
    /// Leave without saving (unsaved changes).
    case discard
    /// Complete the path typed (the attach prompt).
    case complete
}

extension KeyMap where Action == DialogAction {
    /// The time prompt's keys (Send later): `Enter schedules, Esc goes back`;
    /// the time's editor takes the rest.
    public static var timePrompt: KeyMap {
        KeyMap([
            KeyBinding(.confirm, [.enter], bar: .words(Localization.text("schedules"))),
            KeyBinding(.back, [.escape], bar: .words(Localization.text("goes back"))),
        ])
    }
}

extension KeyMap where Action == DialogAction {
    /// The keys of the question before an action with warnings:
    /// `y send   n go back` (the action's own words).
    public static var confirmation: KeyMap {
        KeyMap([
            KeyBinding(.confirm, [.character("y"), .character("Y")], bar: .given),
            KeyBinding(.back, [.character("n"), .character("N"), .escape], bar: .words(Localization.text("go back"))),
        ])
    }

    /// The keys of the question on leaving with unsaved changes:
    /// `s save draft   d discard   Esc keep editing` (save where the form can).
    public static var unsavedChanges: KeyMap {
        KeyMap([
            KeyBinding(.save, [.character("s"), .character("S")], bar: .given),
            KeyBinding(.discard, [.character("d"), .character("D")], bar: .words(Localization.text("discard"))),
            KeyBinding(.back, [.escape, .character("k"), .character("K")], bar: .words(Localization.text("keep editing"))),
        ])
    }

    /// The keys of the question before removing an attachment: `y remove   n keep`
    /// (any other key keeps it too).
    public static var removal: KeyMap {
        KeyMap([
            KeyBinding(.confirm, [.character("y"), .character("Y")], bar: .words(Localization.text("remove"))),
            KeyBinding(.back, [.character("n")], bar: .words(Localization.text("keep"))),
        ])
    }

    /// The attach prompt's keys: `Tab completes, Enter attaches, Esc closes`;
    /// the path's editor takes the rest.
    public static var attachPrompt: KeyMap {
        KeyMap([
            KeyBinding(.complete, [.tab], bar: .words(Localization.text("completes"))),
            KeyBinding(.confirm, [.enter], bar: .words(Localization.text("attaches"))),
            KeyBinding(.back, [.escape], bar: .words(Localization.text("closes"))),
        ])
    }
}
