import ShareCore

/// The man page, `share.1`: its OPTIONS section made from ``OptionTable``,
/// the rest written here. `make man` writes it; a test fails when the
/// checked-in file differs from what this makes.
public enum ManPage {
    /// The page, in roff (man macros).
    public static var roff: String {
        var page = head + "\n"
        page += ".SH OPTIONS\n"
        for group in OptionTable.groups {
            page += ".SS \(escape(group.title))\n"
            for spec in OptionTable.all where spec.group == group {
                page += ".TP\n" + synopsis(spec) + "\n" + escape(spec.manual ?? spec.help) + "\n"
            }
        }
        return page + tail + "\n"
    }

    /// `.BI \-\-to " ADDR"`, or `.B \-\-list`; `\-h ", " \-\-help` for a short form.
    static func synopsis(_ spec: OptionSpec) -> String {
        let names = (spec.short.map { "\\-\($0) \", \" " } ?? "") + escape(spec.name)
        guard let value = spec.value else { return ".B " + names }
        return ".BI " + names + " \" " + escape(value) + "\""
    }

    /// Text safe in roff: backslashes doubled, hyphens as minus signs (they
    /// are options and paths), and no line starting with a control character.
    public static func escape(_ text: String) -> String {
        var escaped = text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
        if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
        return escaped
    }

    static let head = #"""
.TH SHARE 1 "2026-12-02" "share 0.1.0" "User Commands"
.SH NAME
share \- the share sheet for the terminal
.SH SYNOPSIS
.B share
[\fIOPTIONS\fR] [\fIITEM\fR ...]
.SH DESCRIPTION
.B share
takes text, URLs, images and files, shows the activities that can take
them (Mail, Copy, Add to Reading List, Save to Pictures, and more as they are built) as a
grid of tiles on the terminal, and drives the one you pick to a real
result: a mail delivered, text on the clipboard, a link saved.
The picker and the compose screen are drawn on
.IR /dev/tty ,
so standard output carries only the
.B \-\-json
result and standard input can be an item.
.SH ITEMS
.TP
.I path
an existing file; an image when its bytes say image/* (libmagic), else a file
.TP
.I URL
a word with a scheme (https://, mailto:); file:// URLs are files
.TP
.B \-
standard input: text when it is UTF-8, a file otherwise
.PP
A word that is neither an existing path nor a URL is an error
(use \fB\-\-text\fR for text).
.SH MESSAGE
.B share \-\-activity message \-\-to
.I JID|NAME
sends the items over XMPP ([message] jid and password-command) or to a team
chat by webhook ([message.NAME]); without \fB\-\-to\fR a form asks, and its
To offers the vCard folder's XMPP addresses (IMPP:xmpp:, X-JABBER) and the
webhooks as you type. Text and URLs become one chat message; each file is
uploaded through the server's HTTP File Upload (XEP-0363) and sent as its
link. TLS is required and verified (ca-file for a private server; server =
xmpps://HOST:PORT for direct TLS). Sent means the server took the messages
(it answered a ping sent after them); a recipient it refused is named on
standard error while the others count as sent. The webhook types: slack
({"text": ...}, text only), ntfy (the text, then each file as an
attachment), json ({"subject", "text", "urls", "files": [{"name", "type",
"size", "base64"}]}); the address is url, or the first line of url-command.
.SH MAIL ACCOUNTS
Each [mail.NAME] section is an account with any key of [mail], taking the
ones it does not set from [mail] (but not its from); [mail] default = NAME
is the account used when nothing says. A message goes through the account
whose identity is its From: the compose screen's From offers every
account's identities, \fB\-\-from\fR picks one by address (or an account by
its name), and \fB\-\-flush\fR sends each queued message the same way.
auth = oauth2 (or xoauth2, oauthbearer) logs in with the access token that
token-command prints (oama access ADDRESS, mutt_oauth2.py TOKENFILE,
pizauth show ACCOUNT), handed to libcurl, never in a command line, a log or
a message; a token the server refuses is asked for once more, then the
result is unauthorized, naming the key to check. imap = imaps://USER@HOST
with sent = imap:FOLDER (imap:auto: the server's \\Sent folder) stores the
sent copy there after the server accepted the message (flagged \\Seen);
drafts = imap:FOLDER (imap:auto: \\Drafts) keeps each draft there too, one
per message, and \fB\-\-resume\fR offers the newest. The IMAP login is the
account's token, else imap-password-command, else password-command. A copy
the server could not take is a warning: it is kept in
.I $XDG_DATA_HOME/share/imap-pending
and stored by the next \fB\-\-flush\fR, never twice.
.SH NEARBY
Nearby (airDrop) serves the items on the local network and shows the link
and its QR code: one file as a download (its name, type, length, byte
ranges), text and URLs as a page, several items as a page and one zip made
as it is sent. It listens on the address of the default route's interface
(or --bind ADDR|IFACE, [nearby] bind) on a free port, under a token of 128
random bits; only GET and HEAD for the shared items are answered, and 20
requests for a wrong link stop it. Each client address may hold 8
connections, 64 in all; a request must come whole within 10 seconds, and a
connection silent for 30 seconds is closed. Names in the zip are made safe
to unpack on any system (the page shows the real ones). A file that gets
shorter while it is sent ends that download with an error; it never counts
as done. The first complete download ends it
(performed); --keep serves until Esc; Esc first is cancelled; --timeout
SECONDS with nobody downloading is failed. When wormhole (magic-wormhole)
is installed, a code for wormhole receive is offered too, through
[nearby] wormhole-relay and wormhole-transit when set. Without a terminal
the link and the news go to standard error.
.PP
LocalSend devices around (phones and computers with the LocalSend app
open) appear beside the link as they answer share's multicast announcement
(UDP 224.0.0.167:53317; [nearby] localsend\-scan = on also asks each
address of the /24), and a number key sends to one: each file with its
SHA\-256, taken while the device is found and picked, then streamed from
disk. \-\-device NAME|ADDR[:PORT] sends without a screen. A device that
asks for a PIN gets \-\-pin PIN, else SHARE_PIN, else the screen asks for
it. When Nearby ends while a send runs (Esc, \-\-timeout, the first
complete download of the link) the send stops, the device is told to
cancel, and the outcome says so.
.SH SOCIAL POSTS
The services named in [social] enabled (twitter, facebook, weibo, mastodon
with [social] mastodon = HOST, bluesky) get a tile. Their form holds the
post, counted as the service counts it (X 280 with a link as 23, Mastodon
500 graphemes, Bluesky 300 graphemes); Ctrl-X builds the service's share
link and opens it: each command of $BROWSER in turn (colon-separated; %s is
the link, %% a %, else the link comes last; a command ending in " &" is
started detached and not waited for), else xdg-open when DISPLAY or WAYLAND_DISPLAY is
set and not over SSH. Otherwise the screen shows the link and its QR code to
finish on a phone (c copies the link). The outcome is performed with the
link as the returned item. A share link carries no local image, and
Facebook's one URL only: --explain says why a service is hidden.
.PP
With an account in a [social.SERVICE] section (mastodon, bluesky, twitter,
flickr, vimeo) the service posts directly through its API instead, pictures
and videos too, and the outcome is sent with the post's page as the
returned item; --explain says which way each service takes. Secrets come
from commands (token-command; for X and Flickr consumer-secret-command and
token-secret-command beside consumer-key and token; Bluesky's handle with
its app password as token-command), read when Post is pressed and never
stored. Uploads stream from the file and show their percentage; Esc stops
them (cancelled, nothing posted). A refused token is unauthorized, a rate
limit rate-limited (with when to try again), a refused file media-rejected.
Flickr and Vimeo have no share link and need an account; Tencent Weibo
closed in 2020 and stays unavailable.
"""#

    static let tail = #"""
.SH KEYS
Picker: arrows or hjkl move, Tab switches row, Enter picks, 1\(en9 pick by
position, / filters (Esc clears), ? shows the keys, Esc, q or Ctrl-C cancel;
a click picks, the wheel scrolls.
.PP
Compose screen and every activity's form: Tab and Shift-Tab move between
fields, Ctrl-X runs the form's action (Send), Ctrl-O its second one (Save
draft), Ctrl-T attaches a file, Ctrl-G edits in $EDITOR, Esc cancels
(asking first when something changed); on a choice, Enter or typing opens a
chooser that filters as you type; Emacs line keys in every field. In Mail,
Ctrl-L sends later: it asks when (in 2h, tomorrow 9:00, an ISO time) and
the message waits in the outbox until then. The help bar shows the keys
bound now.
.SH EXIT STATUS
.TP
.B 0
completed (performed, sent)
.TP
.B 1
not completed (cancelled, saved as a draft, queued)
.TP
.B 2
usage or bad input; nothing was done
.TP
.B 3
the activity failed; the error is on standard error and nothing was lost
.TP
.B 4
no activity is eligible for these items
.SH INTEGRATIONS
.B share \-\-integration
.I NAME
prints what to add to each program's configuration (the same text make
install puts in
.IR PREFIX/share/share/integrations );
each gives share the terminal and takes it back when share ends.
.TP
.B ranger
ys shares the selected files, or the file under the cursor (~/.config/ranger/rc.conf)
.TP
.B nnn
a plugin, ~/.config/nnn/plugins/share, bound with NNN_PLUG='s:share': ;s
shares the selection, or the file under the cursor
.TP
.B lf
S shares the selected files, or the file under the cursor (~/.config/lf/lfrc)
.TP
.B vifm
S shares the selected files, or the file under the cursor (~/.config/vifm/vifmrc)
.TP
.BR vim ", " nvim
:Share shares the buffer's file; :'<,'>Share the selected lines as text,
with the file name and the line numbers (notes.txt:3\-7) as the subject.
Installed in PREFIX/share/vim/vimfiles/plugin and
PREFIX/share/nvim/site/plugin; Neovim runs share in a terminal tab of its own
.TP
.B tmux
in copy mode, S shares the selection, in a window of its own (~/.tmux.conf)
.TP
.B mailto
make install puts share\-mail.desktop in PREFIX/share/applications;
share \-\-integration mailto makes it the mailto: handler (xdg\-mime), so
xdg\-email and xdg\-open open share's compose screen in a terminal
.TP
.B share\-portal
the desktop's Email portal backend (org.freedesktop.impl.portal.Email): an
application's "send by email" through xdg\-desktop\-portal opens share's
compose screen in the terminal of [portal] terminal (x\-terminal\-emulator
\-e), with the attachments read from the descriptors the application passed;
the application learns whether the mail went (0), was cancelled or kept as a
draft (1), or neither (2). make install puts share\-portal (a link to share)
in PREFIX/libexec, share.portal in PREFIX/share/xdg\-desktop\-portal/portals
and its D\-Bus service file in PREFIX/share/dbus\-1/services
.SH ENVIRONMENT
.TP
.B SHARE_PIN
the PIN a LocalSend device asks for, when \-\-pin is not given (\-\-pin
wins); unlike an argument, ps does not show it to other users. Empty is
the same as unset.
.SH FILES
.TP
.I $XDG_CONFIG_HOME/share/config
settings (INI): [mail] from, transport, tls, ca-file, password-command,
auth, token-command, imap, imap-password-command, default,
sendmail, command-timeout, drafts, sent, outbox, signature-file; [mail.NAME] an account, the keys of [mail]; [contacts] vcard-dir,
aliases, query-command; [picker] pinned, exclude, suggestions; [social] enabled, mastodon;
[social.SERVICE] token-command, handle, consumer-key, consumer-secret-command, token,
token-secret-command, api, ca-file, command-timeout; [history] keep;
[reading-list] fetch-titles; [message] jid, password-command, server, ca-file,
command-timeout; [message.NAME] type, url, url-command, ca-file;
[keys] send, save, later, attach, editor, cancel, pick, filter, help, pin, next-row,
previous-row, left, right, up, down = key names such as C-s, Enter, Space;
[portal] terminal = the command share\-portal opens the compose screen with
.TP
.I $XDG_DATA_HOME/share/
drafts, sent and outbox Maildirs; reading-list.tsv. A message sent later
waits in the outbox with its time in an X-Share-Send-At header, which
never leaves the machine
.TP
.I PREFIX/lib/systemd/user/share-flush.timer
runs share \-\-flush (share-flush.service) every five minutes, which sends
what is due: systemctl \-\-user enable \-\-now share-flush.timer
.TP
.I XDG_PICTURES_DIR
(from $XDG_CONFIG_HOME/user-dirs.dirs, else ~/Pictures) where Save to
Pictures keeps images, never over another file
.TP
.I ~/.contacts
(or [contacts] vcard-dir) the vCard folder whose cards Assign to Contact
gives a photo; only the PHOTO lines change
.TP
.I $XDG_STATE_HOME/share/compose.json
the compose screen's autosaved fields, for \-\-resume
.TP
.I $XDG_STATE_HOME/share/reopened/
the attachments of drafts reopened by \-\-resume, written from the
draft, a folder a draft
.TP
.I $XDG_STATE_HOME/share/history.jsonl
the share history, one JSON object a line: when, the activity, how it
ended, the items' names, types and sizes (never contents or message
bodies), recipients and what the activity handed back; kept for
[history] keep (90 days by default, or off); \-\-forget clears it
.TP
.I $XDG_STATE_HOME/share/pins
activities pinned from the picker (p), one type a line, after the
config's [picker] pinned
.TP
.I $XDG_STATE_HOME/share/localsend/identity.pem
the key (mode 0600) and self\-signed certificate share shows LocalSend
devices, made the first time; phones know share by the certificate's
SHA\-256
.TP
.I PREFIX/share/locale/LANG/LC_MESSAGES/share.mo
the translations (GNU gettext) of the screens and messages, chosen by
LANGUAGE, LC_ALL, LC_MESSAGES and LANG (Korean: LANG=ko_KR.UTF-8);
\-\-list, \-\-json, the history and the exit codes never change with the
language
.SH EXAMPLES
.nf
share report.pdf https://example.com
share \-\-activity print \-\-printer Office \-\-copies 2 report.pdf
share \-\-activity assignToContact \-\-contact "Kim Minji" face.png
echo "PIN 4821" | share \-\-json \-
share \-\-send \-\-to park@example.com \-\-subject Q4 \-\-attach report.pdf
share \-\-send\-at "tomorrow 9:00" \-\-to park@example.com \-\-body "Good morning"
share \-\-list \-\-json photo.png | jq \-r '.[].type'
.fi
.SH SEE ALSO
.BR mutt (1),
.BR neomutt (1),
.BR fzf (1)
"""#
}
