import ShareCore

/// The text of `share --help` and `share --version`.
enum HelpText {
    static let version = "share 0.1.0"

    static var usage: String { """
    share — the share sheet for the terminal

    Usage: share [OPTIONS] [ITEM ...]

    Items:
      ITEM                 a path, a URL (https://…, mailto:…), a file:// URL, or -
                           for standard input (text when UTF-8, a file otherwise)
      --text TEXT          share TEXT as text (repeatable)
      --url URL            share URL as a URL (repeatable)
      --file PATH          share PATH as a file (repeatable)
      --subject TEXT       subject offered to activities (Mail's subject line)
      --title TEXT         title of the preview header

    Choosing activities:
      --exclude TYPE,...   never show these activity types (repeatable)
      --only TYPE,...      show only these activity types (repeatable)
      --activity TYPE      skip the picker and start TYPE
      --list               print the eligible activities: TYPE<TAB>TITLE per line
      --explain            print every activity, eligible or not, and why
      --json               JSON for --list/--explain; otherwise print the
                           completion object on stdout when done

    Mail (--activity mail, or --send / --save-draft alone):
      --to ADDR            recipients (repeatable; comma lists ok)
      --cc ADDR            copy recipients (repeatable)
      --bcc ADDR           blind copies: in the envelope, never in the sent headers
      --from ADDR          send as this configured identity
      --body TEXT          body text (an item, first in the body)
      --body-file PATH     body text from a UTF-8 file
      --html               the body is HTML (sent with a plain-text part first)
      --attach PATH        attach a file (repeatable)
      --send               send without the compose screen
      --save-draft         save to drafts without sending
      --flush              deliver the messages waiting in the outbox
      --resume             reopen the compose screen left unfinished (after a
                           crash, a kill or a closed terminal)

    Print (--activity print; --printer skips the form):
      --printer NAME       the CUPS destination (`lpstat -e` lists them)
      --copies N           copies, 1 to 999 (default 1)
      --pages RANGE        pages such as 1-3,7 or 5- (default all)
      --sides SIDES        one, two or two-short-edge (default the printer's)

    Assign to Contact (--activity assignToContact):
      --contact NAME|UID   the contact whose photo the image becomes: a full
                           name, an address or a UID (else chosen in a form)

    Reading list:
      --reading-list       print the reading list, newest first (with --json: JSON)

    Other:
      --config PATH        read settings from PATH instead of
                           $XDG_CONFIG_HOME/share/config
      --no-color           draw without colours (NO_COLOR is honoured too)
      --version            print the version
      -h, --help           print this help

    Activity types:
    \(typeLines)
      or a custom reverse-DNS name such as com.example.upload

    Files:
      $XDG_CONFIG_HOME/share/config        settings (INI; see man share)
      $XDG_CONFIG_HOME/share/activities/   plugins: *.activity manifests
      $XDG_DATA_HOME/share/                drafts, sent, outbox, reading list
      $XDG_STATE_HOME/share/compose.json   the unfinished message (--resume)
      XDG_PICTURES_DIR, else ~/Pictures    where Save to Pictures keeps images
      [contacts] vcard-dir, else ~/.contacts   the vCards Assign to Contact changes

    Exit codes:
      0 completed   1 not completed (cancelled, saved, queued)
      2 usage or bad input   3 the activity failed   4 no activity is eligible

    Examples:
      share --explain report.pdf https://example.com
      share --list --json photo.png | jq -r '.[].type'
      echo "PIN 4821" | share --list -
      share --send --to kim@example.com --subject Q4 --attach "Q4 Projections.pdf"
    """ }

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
