import ShareCore

/// The text of `share --help` and `share --version`.
enum HelpText {
    static let version = "share 0.1.0"

    /// The help, its option lines made from ``OptionTable`` and wrapped to `width` columns.
    static func usage(width: Int = 80) -> String {
        let width = max(60, width)
        var text = """
        share — the share sheet for the terminal

        Usage: share [OPTIONS] [ITEM ...]

        Items:
          ITEM                 a path, a URL (https://…, mailto:…), a file:// URL, or -
                               for standard input (text when UTF-8, a file otherwise)

        """
        for group in OptionTable.groups {
            let specs = OptionTable.all.filter { $0.group == group }
            if group != .items { text += "\n\(group.title):\n" }
            for spec in specs { text += optionLines(spec, width: width) }
        }
        text += """

        Activity types:
        \(typeLines)
          or a custom reverse-DNS name such as com.example.upload

        Files:
          $XDG_CONFIG_HOME/share/config        settings (INI; see man share)
          $XDG_CONFIG_HOME/share/activities/   plugins: *.activity manifests
          $XDG_DATA_HOME/share/                drafts, sent, outbox, reading list
          $XDG_STATE_HOME/share/compose.json   the unfinished message (--resume)
          $XDG_STATE_HOME/share/history.jsonl  the share history (--history, --undo)
          $XDG_STATE_HOME/share/pins           activities pinned in the picker (p)
          XDG_PICTURES_DIR, else ~/Pictures    where Save to Pictures keeps images
          [contacts] vcard-dir, else ~/.contacts   the vCards Assign to Contact changes
          PREFIX/share/locale/*/LC_MESSAGES/share.mo   translations (LANG=ko_KR.UTF-8)

        Environment:
          BROWSER          opens a post's share link (a:b tried in turn, %s the link,
                           %% a %, a trailing " &" starts it detached)
          VISUAL, EDITOR   the editor Ctrl-G opens in a form (else vi)

        Exit codes:
          0 completed   1 not completed (cancelled, saved, queued)
          2 usage or bad input   3 the activity failed   4 no activity is eligible

        Examples:
          share --explain report.pdf https://example.com
          share --list --json photo.png | jq -r '.[].type'
          echo "PIN 4821" | share --list -
          share --send --to kim@example.com --subject Q4 --attach "Q4 Projections.pdf"
          share --activity print --printer Office --copies 2 report.pdf
          source <(share --completions bash)
        """
        return text
    }

    /// Where option help starts.
    static let helpColumn = 23

    /// `  --to ADDR            recipients …`, wrapped to `width`.
    static func optionLines(_ spec: OptionSpec, width: Int) -> String {
        let head = "  " + spec.synopsis
        let indent = String(repeating: " ", count: helpColumn)
        var lines: [String] = []
        var line = head.count + 1 <= helpColumn ? head + String(repeating: " ", count: helpColumn - head.count) : head
        if head.count + 1 > helpColumn {
            lines.append(line)
            line = indent
        }
        var empty = true
        for word in spec.help.split(separator: " ") {
            if !empty, line.count + 1 + word.count > width {
                lines.append(line)
                line = indent
                empty = true
            }
            line += (empty ? "" : " ") + word
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
