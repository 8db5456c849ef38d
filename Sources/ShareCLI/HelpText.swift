import ShareCore
import ShareSupport
import ShareTerminal

/// The text of `share --help` and `share --version`.
///
/// The help is in the reader's language: its headings and descriptions go
/// through ``Localization`` (an option's help and its group's title as
/// declared, looked up in the catalog like any message). What is typed
/// stays as it is typed: option names, value names (ADDR, PATH), activity
/// types, paths, variables and the examples' commands.
enum HelpText {
    static let version = "share 0.1.0"

    /// The help, its option lines made from ``OptionTable`` and wrapped to `width` columns.
    static func usage(width: Int = 80) -> String {
        let width = max(60, width)
        var text = Localization.text("share — the share sheet for the terminal") + "\n\n"
            + Localization.text("Usage: share [OPTIONS] [ITEM ...]") + "\n\n"
            + heading(OptionSpec.Group.items.title)
            + entry("ITEM", Localization.text("a path, a URL (https://…, mailto:…), a file:// URL, or - for standard input (text when UTF-8, a file otherwise)"),
                    column: helpColumn, width: width)
        for group in OptionTable.groups {
            let specs = OptionTable.all.filter { $0.group == group }
            if group != .items { text += "\n" + heading(group.title) }
            for spec in specs { text += optionLines(spec, width: width) }
        }
        text += "\n" + Localization.text("Activity types") + ":\n" + typeLines + "\n"
            + entry("", Localization.text("or a custom reverse-DNS name such as com.example.upload"), column: 2, width: width)
        text += "\n" + Localization.text("Files") + ":\n"
        for (path, what) in [
            ("$XDG_CONFIG_HOME/share/config", Localization.text("settings (INI; see man share)")),
            ("$XDG_CONFIG_HOME/share/activities/", Localization.text("plugins: *.activity manifests")),
            ("$XDG_DATA_HOME/share/", Localization.text("drafts, sent, outbox, reading list")),
            ("$XDG_STATE_HOME/share/compose.json", Localization.text("the unfinished message (--resume)")),
            ("$XDG_STATE_HOME/share/reopened/", Localization.text("attachments of drafts reopened (--resume)")),
            ("$XDG_STATE_HOME/share/history.jsonl", Localization.text("the share history (--history, --undo)")),
            ("$XDG_STATE_HOME/share/pins", Localization.text("activities pinned in the picker (p)")),
            (Localization.text("XDG_PICTURES_DIR, else ~/Pictures"), Localization.text("where Save to Pictures keeps images")),
            (Localization.text("[contacts] vcard-dir, else ~/.contacts"), Localization.text("the vCards Assign to Contact changes")),
            ("PREFIX/share/locale/*/LC_MESSAGES/share.mo", Localization.text("translations (LANG=ko_KR.UTF-8)")),
        ] {
            text += entry(path, what, column: 39, width: width)
        }
        text += "\n" + Localization.text("Environment") + ":\n"
            + entry("BROWSER", Localization.text("opens a post's share link (a:b tried in turn, %s the link, %% a %, a trailing \" &\" starts it detached)"),
                    column: 19, width: width)
            + entry("VISUAL, EDITOR", Localization.text("the editor Ctrl-G opens in a form (else vi)"), column: 19, width: width)
        text += "\n" + Localization.text("Exit codes") + ":\n"
            + "  0 " + Localization.text("completed") + "   1 " + Localization.text("not completed (cancelled, saved, queued)") + "\n"
            + "  2 " + Localization.text("usage or bad input") + "   3 " + Localization.text("the activity failed")
            + "   4 " + Localization.text("no activity is eligible") + "\n"
        text += "\n" + Localization.text("Examples") + ":\n" + """
          share --explain report.pdf https://example.com
          share --list --json photo.png | jq -r '.[].type'
          echo "PIN 4821" | share --list -
          share --send --to kim@example.com --subject Q4 --attach "Q4 Projections.pdf"
          share --activity print --printer Office --copies 2 report.pdf
          source <(share --completions bash)
        """
        return text
    }

    /// An option group's heading (`Print (--activity print; …):`), its
    /// title as declared looked up in the catalogs.
    static func heading(_ title: String) -> String {
        Localization.text(title) + ":\n"
    }

    /// Where option help starts.
    static let helpColumn = 23

    /// `  --to ADDR            recipients …`, wrapped to `width`, the
    /// option's help in the reader's language.
    static func optionLines(_ spec: OptionSpec, width: Int) -> String {
        entry(spec.synopsis, Localization.text(spec.help), column: helpColumn, width: width, ownLine: true)
    }

    /// `  TERM   description`: the description from `column` on, wrapped by
    /// words to `width` display columns (Korean takes two a character).
    /// A term too long for its column puts the description on the next
    /// line when `ownLine`, else three spaces after it.
    static func entry(_ term: String, _ description: String, column: Int, width: Int, ownLine: Bool = false) -> String {
        let head = "  " + term
        let indent = String(repeating: " ", count: column)
        var lines: [String] = []
        var line: String
        var used: Int
        if term.isEmpty {
            (line, used) = (indent, column)
        } else if DisplayWidth.of(head) + 1 <= column {
            line = head + String(repeating: " ", count: column - DisplayWidth.of(head))
            used = column
        } else if ownLine {
            lines.append(head)
            (line, used) = (indent, column)
        } else {
            line = head + "   "
            used = DisplayWidth.of(line)
        }
        var empty = true
        for word in description.split(separator: " ") {
            let size = DisplayWidth.of(word)
            if !empty, used + 1 + size > width {
                lines.append(line)
                (line, used) = (indent, column)
                empty = true
            }
            line += (empty ? "" : " ") + word
            used += (empty ? 0 : 1) + size
            empty = false
        }
        lines.append(line)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The system type names, wrapped to fit 80 columns.
    private static var typeLines: String {
        var lines: [String] = []
        var line = " "
        for name in ActivityType.system.map(\.rawValue) {
            if line.count + name.count + 1 > 76 { lines.append(line); line = " " }
            line += " " + name
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
