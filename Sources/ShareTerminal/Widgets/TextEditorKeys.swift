/// What a key asks of a text editor; characters are typed, not bound.
public enum EditorAction: Sendable, Equatable {
    /// A line break (in multi-line text).
    case newline
    /// Delete the grapheme before the cursor, or after it.
    case deleteBackward, deleteForward
    /// One grapheme back or on.
    case backward, forward
    /// The start or the end of the line.
    case lineStart, lineEnd
    /// Delete to the end of the line (joining the next one at its end), or to its start.
    case killToLineEnd, killToLineStart
    /// Delete the word before the cursor, or after it.
    case deleteWordBackward, deleteWordForward
    /// The start of the word before, or the end of the word after.
    case wordBackward, wordForward
    /// The line above or below, keeping the column (in multi-line text).
    case lineUp, lineDown
}

extension KeyMap where Action == EditorAction {
    /// The text editor's keys, Emacs's and readline's: C-a C-e C-b C-f
    /// C-d C-k C-u C-w M-b M-f M-d, Backspace, Delete, Home, End, the
    /// arrows. No help shows them. Made once: a keystroke looks it up.
    public static var editor: KeyMap { editorKeys }
}

private let editorKeys = KeyMap<EditorAction>([
    KeyBinding(.newline, [.enter]),
    KeyBinding(.deleteBackward, [.backspace]),
    KeyBinding(.deleteForward, [.delete, .control("d")]),
    KeyBinding(.backward, [.left, .control("b")]),
    KeyBinding(.forward, [.right, .control("f")]),
    KeyBinding(.lineStart, [.home, .control("a")]),
    KeyBinding(.lineEnd, [.end, .control("e")]),
    KeyBinding(.killToLineEnd, [.control("k")]),
    KeyBinding(.killToLineStart, [.control("u")]),
    KeyBinding(.deleteWordBackward, [.control("w")]),
    KeyBinding(.wordBackward, [.alt("b")]),
    KeyBinding(.wordForward, [.alt("f")]),
    KeyBinding(.deleteWordForward, [.alt("d")]),
    KeyBinding(.lineUp, [.up]),
    KeyBinding(.lineDown, [.down]),
])
