#!/usr/bin/env bash
# make screenshots: PNGs of the real picker and forms, in screenshots/.
#
# Builds the release binaries, runs them in detached tmux sessions (one
# server per shot, no tmux config), waits for the screen to be drawn and
# settled, captures it with colours (capture-pane -e -p) and renders each
# capture cell by cell with tools/ansi_to_png.py.
#
# Needs: tmux, /usr/bin/python3 with python3-pil, fonts-dejavu-core,
# fonts-nanum (Hangul); fonts-symbola is optional (symbols and emoji,
# else an empty box). Environment: SWIFT (the swift driver), RELEASE_FLAGS
# (swift build's flags), SCRATCH (a build folder instead of .build, e.g.
# while another build uses it).
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-$(command -v swift 2>/dev/null || echo /opt/swift/usr/bin/swift)}
PYTHON=/usr/bin/python3
OUT=$ROOT/screenshots

fail() { echo "screenshots: $*" >&2; exit 1; }
command -v tmux >/dev/null || fail "tmux is needed: apt-get install tmux"
"$PYTHON" -c 'import PIL' 2>/dev/null || fail "Debian's python3-pil is needed: apt-get install python3-pil"
[ -e /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || fail "apt-get install fonts-dejavu-core"
[ -e /usr/share/fonts/truetype/nanum/NanumGothicCoding.ttf ] || fail "apt-get install fonts-nanum"

# RELEASE_FLAGS: the Makefile's release flags, so the shots show the binary make build makes.
read -r -a BUILD <<< "${RELEASE_FLAGS:--c release --static-swift-stdlib -Xswiftc -warnings-as-errors}"
[ -n "${SCRATCH:-}" ] && BUILD+=(--scratch-path "$SCRATCH")
"$SWIFT" build "${BUILD[@]}"
BIN_DIR=$("$SWIFT" build "${BUILD[@]}" --show-bin-path)
SHARE=$BIN_DIR/share
FIXTURE=$BIN_DIR/share-activities-fixture
[ -x "$SHARE" ] && [ -x "$FIXTURE" ] || fail "no binaries in $BIN_DIR"

WORK=$(mktemp -d /tmp/share-screenshots.XXXXXX)
# Searchable by others: the print shot's cupsd runs its filters as the user lp.
chmod 755 "$WORK"
SOCKETS=()
cleanup() {
    for socket in "${SOCKETS[@]}"; do tmux -S "$socket" kill-server 2>/dev/null || true; done
    [ -n "${KEEP_CAPTURES:-}" ] && echo "captures kept in $WORK" || rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$WORK/home" "$WORK/config" "$WORK/data" "$WORK/state" "$WORK/cache" "$OUT"

# tmux with a clean environment: no user config, no user data.
tm() {
    local socket=$1; shift
    env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/config" \
        XDG_DATA_HOME="$WORK/data" XDG_STATE_HOME="$WORK/state" XDG_CACHE_HOME="$WORK/cache" \
        XDG_DATA_DIRS="$WORK/data" LANG=C.UTF-8 tmux -S "$socket" -f /dev/null "$@"
}

# One word for /bin/sh.
quote() { local s=${1//\'/\'\\\'\'}; printf "'%s'" "$s"; }

# Polls the screen until it contains TEXT (deadline 20 s).
wait_for() {
    local socket=$1 text=$2 deadline=$((SECONDS + 20))
    until tm "$socket" capture-pane -p 2>/dev/null | grep -qF -- "$text"; do
        [ $SECONDS -lt $deadline ] || fail "timed out waiting for '$text'; screen:
$(tm "$socket" capture-pane -p 2>/dev/null || true)
$(cat "$WORK"/*.err 2>/dev/null || true)"
        sleep 0.05
    done
}

# Polls until the coloured screen is the same for 10 polls in a row (0.5 s):
# the header thumbnail is drawn after the first paint.
wait_settled() {
    local socket=$1 previous="" current same=0 deadline=$((SECONDS + 20))
    while [ $same -lt 10 ]; do
        current=$(tm "$socket" capture-pane -e -p)
        if [ "$current" = "$previous" ]; then same=$((same + 1)); else same=0; previous=$current; fi
        [ $SECONDS -lt $deadline ] || fail "the screen did not settle"
        sleep 0.05
    done
}

# shot NAME COLS ROWS READY-TEXT [KEY AFTER-TEXT] -- COMMAND...
shot() {
    local name=$1 cols=$2 rows=$3 ready=$4 key="" after=""
    shift 4
    if [ "$1" != "--" ]; then key=$1; after=$2; shift 2; fi
    shift
    local socket=$WORK/$name.sock command="" word
    for word in "$@"; do command+="$(quote "$word") "; done
    SOCKETS+=("$socket")
    tm "$socket" new-session -d -x "$cols" -y "$rows" -c "$ROOT" \
        "env TERM=xterm-256color $command>/dev/null 2>$(quote "$WORK/$name.err")"
    wait_for "$socket" "$ready"
    if [ -n "$key" ]; then
        tm "$socket" send-keys "$key"
        wait_for "$socket" "$after"
    fi
    wait_settled "$socket"
    tm "$socket" capture-pane -e -p -N >"$WORK/$name.ans"
    local cursor
    cursor=$(tm "$socket" display -p '#{cursor_flag} #{cursor_x},#{cursor_y}')
    tm "$socket" kill-server 2>/dev/null || true
    local cursor_option=()
    [ "${cursor%% *}" = 1 ] && cursor_option=(--cursor "${cursor#* }")
    "$PYTHON" "$ROOT/tools/ansi_to_png.py" --cols "$cols" --rows "$rows" "${cursor_option[@]}" \
        "$WORK/$name.ans" "$OUT/$name.png"
    echo "screenshots/$name.png"
}

DEMO=(--title Demo --text "PIN 4821" https://nshipster.com Demo/mustache.png "Demo/Q4 Projections.pdf")

shot picker-100x30 100 30 Mail -- "$SHARE" "${DEMO[@]}"
shot picker-narrow-40x12 40 12 Mail -- "$SHARE" "${DEMO[@]}"
shot picker-help 100 30 Mail '?' ' Keys ' -- "$SHARE" "${DEMO[@]}"
shot picker-options 100 30 Mail o 'Location always removed' -- "$SHARE" "${DEMO[@]}"

printf '%s\n' "연락처에 지정하기 정말 긴 제목" "사진 앱에 저장" "Share 👨‍👩‍👧 family" "메모에 추가하기" \
    "I ❤️ it" "미리 알림" >"$WORK/titles.txt"
shot picker-korean-titles 100 30 Mail -- "$FIXTURE" --titles "$WORK/titles.txt" -- \
    --title "4분기 전망 자료" --text "회의는 정오에" Demo/mustache.png

# The People row, from a history of mail sent to three people.
mkdir -p "$WORK/state/share"
now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
for who in "박지성 <park@example.com>" "박지성 <park@example.com>" "Lee Jiwoo <lee@example.com>" "minsu@example.org"; do
    printf '{"activity":"mail","id":"%s","items":[],"outcome":"sent","recipients":["%s"],"returned":[],"time":"%s"}\n' \
        "$RANDOM" "$who" "$now" >>"$WORK/state/share/history.jsonl"
done
shot picker-people 100 30 '박지성' -- "$SHARE" "${DEMO[@]}"
rm -f "$WORK/state/share/history.jsonl"

# Mail's compose screen: no transport (nothing can be sent by accident), an
# identity with a Korean name, a signature; the body has a quoted line.
printf '%s\n' "김민수 · 재무팀" "+82 2 555 0142" >"$WORK/signature"
cat >"$WORK/mail.conf" <<EOF
[mail]
from = 김민수 <kim@example.com>
signature-file = $WORK/signature
EOF
BODY="박지성 님,

3분기 보고서와 표지 그림을 보내드립니다.

> 금요일까지 최종본을 받을 수 있을까요?

네, 4쪽의 수치도 고쳤습니다. 검토 부탁드립니다."
shot compose-100x30 100 30 'New Message' -- "$SHARE" --config "$WORK/mail.conf" --activity mail \
    --to park@example.com --subject "3분기 보고서" --text "$BODY" Demo/mustache.png "Demo/Q4 Projections.pdf"
# Ctrl-X with a body that mentions an attachment and nothing attached: the warning.
shot compose-warning 100 30 'New Message' C-x 'Send anyway?' -- "$SHARE" --config "$WORK/mail.conf" --activity mail \
    --to park@example.com --subject "3분기 보고서" --text "박지성 님, 3분기 보고서를 첨부합니다. 검토 부탁드립니다."

# OpenPGP: a keyring made by the tests' tool; --sign --encrypt starts the form signed and encrypted.
"$PYTHON" "$ROOT/Tests/Support/pgp_tool.py" keys "$WORK/home/.gnupg" >/dev/null || fail "no keyring: apt-get install gnupg"
shot compose-pgp 100 30 'Signed · Encrypted' -- "$SHARE" --config "$WORK/mail.conf" --activity mail --sign --encrypt \
    --to lee@example.com --subject "계약서 초안" --text "이 아래 계약 조건을 확인해 주세요." "Demo/Q4 Projections.pdf"
"$PYTHON" "$ROOT/Tests/Support/pgp_tool.py" stop "$WORK/home/.gnupg"
# Undo send: Ctrl-X starts the countdown, u takes the message back.
{ cat "$WORK/mail.conf"; echo "undo-send = 60"; } >"$WORK/undo.conf"
shot compose-countdown 100 30 'New Message' C-x 'Send in' -- "$SHARE" --config "$WORK/undo.conf" --activity mail \
    --to park@example.com --subject "3분기 보고서" --text "$BODY" "Demo/Q4 Projections.pdf"

# In Korean: the catalog make locale compiled (.build/locale, beside the
# binaries' folder) in a ko_KR.UTF-8 locale made here by localedef.
[ -e "$ROOT/.build/locale/ko/LC_MESSAGES/share.mo" ] || fail "no Korean catalog: make locale"
[ -n "${SCRATCH:-}" ] && cp -r "$ROOT/.build/locale" "$SCRATCH/"
mkdir -p "$WORK/locales"
localedef -i ko_KR -f UTF-8 "$WORK/locales/ko_KR.UTF-8" || fail "localedef failed: apt-get install locales"
KOREAN=(env LANG=ko_KR.UTF-8 LOCPATH="$WORK/locales")
shot picker-ko 100 30 '메일' -- "${KOREAN[@]}" "$SHARE" "${DEMO[@]}"
shot compose-ko 100 30 '새로운 메시지' -- "${KOREAN[@]}" "$SHARE" --config "$WORK/mail.conf" --activity mail \
    --to park@example.com --subject "3분기 보고서" --text "$BODY" Demo/mustache.png "Demo/Q4 Projections.pdf"
shot compose-warning-ko 100 30 '새로운 메시지' C-x '그래도 계속할까요?' -- "${KOREAN[@]}" "$SHARE" --config "$WORK/mail.conf" \
    --activity mail --to park@example.com --subject "3분기 보고서" --text "박지성 님, 3분기 보고서를 첨부합니다. 검토 부탁드립니다."

# Print's form, against a private CUPS scheduler with three file queues
# (the test's cups_server.py; cupsd must run as root): nothing reaches a
# real printer.
if [ "$(id -u)" -eq 0 ] && [ -x /usr/sbin/cupsd ]; then
    mkfifo "$WORK/cups.stdin"
    "$PYTHON" "$ROOT/Tests/Support/cups_server.py" "$WORK/cups" --default Office \
        --queue "Office:$WORK/office.out" --queue "Studio-Colour:$WORK/studio.out" --queue "Front-Desk:$WORK/front.out" \
        <"$WORK/cups.stdin" >"$WORK/cups.ready" 2>"$WORK/cups.log" &
    exec 8>"$WORK/cups.stdin"
    until grep -q READY "$WORK/cups.ready" 2>/dev/null; do
        kill -0 $! 2>/dev/null || fail "cups_server.py did not start: $(cat "$WORK/cups.log")"
        sleep 0.05
    done
    CUPS_SERVER=127.0.0.1:$(cut -d' ' -f2 "$WORK/cups.ready")
    shot print-form 100 30 'Scaling:' -- env CUPS_SERVER="$CUPS_SERVER" "$SHARE" --activity print "Demo/Q4 Projections.pdf"
    exec 8>&-
    wait
else
    echo "screenshots: print-form skipped: cupsd must run as root (and cups-daemon be installed)" >&2
fi

# Assign to Contact's chooser over a vCard folder of four cards.
mkdir -p "$WORK/home/.contacts/default"
card() { printf 'BEGIN:VCARD\r\nVERSION:%s\r\nUID:%s\r\nFN:%s\r\nEMAIL:%s\r\n%bEND:VCARD\r\n' "$@" >"$WORK/home/.contacts/default/$2.vcf"; }
card 3.0 park-jisung "박지성" "park@example.com" "X-JABBER:park@jabber.example\r\n"
card 4.0 kim-minji "김민지" "minji@example.com" "PHOTO:https://example.com/minji.jpg\r\n"
card 3.0 lee-jun "Lee Jun" "jun@example.com" ""
card 4.0 ana-souza "Ana Souza" "ana@example.org" "IMPP:xmpp:ana@jabber.example\r\n"
shot contact-chooser 100 30 'Contact:' Enter 'Choose Contact' -- "$SHARE" --activity assignToContact Demo/mustache.png

# Message's form over the same cards: To offers their XMPP addresses and the
# team chats together as one types (the shot ends before anything is sent).
printf '%s\n' "[message]" "jid = kim@example.com" "password-command = false" "" \
    "[message.team-standup]" "type = slack" "url = https://hooks.example.com/services/T0/B0/standup" "" \
    "[message.phone]" "type = ntfy" "url = https://ntfy.example.com/kim-phone" >"$WORK/message.conf"
shot message-chooser 100 30 'To:' 'an' 'team-standup' -- "$SHARE" --config "$WORK/message.conf" --activity message \
    --text "Q4 numbers are in: see the attached projections." "Demo/Q4 Projections.pdf"
# Message's To offering Matrix rooms (as the last look at the homeserver left them beside the
# account's token) and a contact's Matrix ID, beside the webhooks.
card 4.0 seo-yuna "서유나" "yuna@example.org" "IMPP:matrix:u/yuna:matrix.example.org\r\n"
mkdir -p "$WORK/state/share/matrix"
printf '%s\n' "Team standup <#standup:matrix.example.org>" "Swift on Linux <#swift-linux:matrix.example.org>" \
    "Terminal tools <#tui:matrix.example.org>" >"$WORK/state/share/matrix/chat.rooms"
{ cat "$WORK/message.conf"; printf '%s\n' "" "[message.chat]" "type = matrix" "homeserver = http://127.0.0.1:9" \
    "user = @kim:matrix.example.org" "token-command = printf token"; } >"$WORK/matrix.conf"
shot message-rooms 100 30 'To:' 'sw' 'Swift on Linux' -- "$SHARE" --config "$WORK/matrix.conf" --activity message \
    --text "Release notes for 2.0: https://example.com/notes"

# A post to X: the form with its count and what was left out, then (no
# browser here) the link as a QR code to finish on a phone.
printf '%s\n' "[social]" "enabled = twitter, mastodon, bluesky" "mastodon = mastodon.social" >"$WORK/social.conf"
POST=(--config "$WORK/social.conf" --activity postToTwitter --subject "Mustaches, explained" --text "오늘의 읽을거리 ☕ #swift"
      https://nshipster.com Demo/mustache.png)
shot post-form 100 30 'of 280' -- env -u BROWSER "$SHARE" "${POST[@]}"
shot post-qr 100 40 'of 280' C-x 'No browser here' -- env -u BROWSER -u DISPLAY -u WAYLAND_DISPLAY -u SSH_CONNECTION "$SHARE" "${POST[@]}"

# A direct post to Bluesky with an account: the picture goes too, with its
# alt text (the shot ends before anything is posted: the token is never read).
printf '%s\n' "[social]" "enabled = bluesky" "" "[social.bluesky]" "handle = kim.bsky.social" \
    "token-command = pass show bluesky-app-password" >"$WORK/direct.conf"
shot post-direct 100 30 'of 300' -- "$SHARE" --config "$WORK/direct.conf" --activity postToBluesky \
    --text "남산에서 본 서울의 밤 🌃 https://nshipster.com/image-resizing/" Demo/mustache.png

# Nearby on this machine only (a stable interface name), with magic-wormhole's
# own mailbox server and transit relay on 127.0.0.1 as the tests run them, so
# that both offers show; the token and the code are new each run.
mkfifo "$WORK/wormhole.in"
"$PYTHON" "$ROOT/Tests/Support/wormhole_servers.py" <"$WORK/wormhole.in" >"$WORK/wormhole.ports" 2>/dev/null &
WORMHOLE_SERVERS=$!
exec 8>"$WORK/wormhole.in"
for _ in $(seq 300); do grep -q TRANSIT "$WORK/wormhole.ports" 2>/dev/null && break; sleep 0.1; done
printf '%s\n' "[nearby]" "wormhole-relay = ws://127.0.0.1:$(sed -n 's/^READY //p' "$WORK/wormhole.ports")/v1" \
    "wormhole-transit = tcp:127.0.0.1:$(sed -n 's/^TRANSIT //p' "$WORK/wormhole.ports")" "localsend = off" >"$WORK/nearby.conf"
shot nearby 100 40 'Anywhere (magic-wormhole)' -- "$SHARE" --config "$WORK/nearby.conf" --activity airDrop --bind lo \
    "Demo/Q4 Projections.pdf"
exec 8>&-
wait "$WORMHOLE_SERVERS" || true

# Nearby with a LocalSend device around: the tests' receiver as "Kim's Pixel",
# magic-wormhole's servers and share, all in a network namespace of their own
# (as root), so that the one device is the one shown and nothing leaves the machine.
if [ "$(id -u)" = 0 ] && [ -x /usr/sbin/ip ]; then
    NS=share-ls-$$-shot
    mkfifo "$WORK/localsend.in" "$WORK/wormhole-ns.in"
    "$PYTHON" "$ROOT/Tests/Support/localsend_servers.py" serve "$NS" own "$WORK/localsend" --alias "Kim's Pixel" \
        <"$WORK/localsend.in" >"$WORK/localsend.events" 2>/dev/null &
    LOCALSEND=$!
    exec 7>"$WORK/localsend.in"
    for _ in $(seq 300); do grep -q READY "$WORK/localsend.events" 2>/dev/null && break; sleep 0.1; done
    /usr/sbin/ip netns exec "$NS" "$PYTHON" "$ROOT/Tests/Support/wormhole_servers.py" <"$WORK/wormhole-ns.in" \
        >"$WORK/wormhole-ns.ports" 2>/dev/null &
    WORMHOLE_NS=$!
    exec 6>"$WORK/wormhole-ns.in"
    for _ in $(seq 300); do grep -q TRANSIT "$WORK/wormhole-ns.ports" 2>/dev/null && break; sleep 0.1; done
    printf '%s\n' "[nearby]" "bind = lo" "wormhole-relay = ws://127.0.0.1:$(sed -n 's/^READY //p' "$WORK/wormhole-ns.ports")/v1" \
        "wormhole-transit = tcp:127.0.0.1:$(sed -n 's/^TRANSIT //p' "$WORK/wormhole-ns.ports")" >"$WORK/nearby-localsend.conf"
    shot nearby-localsend 100 40 'Anywhere (magic-wormhole)' -- /usr/sbin/ip netns exec "$NS" "$SHARE" \
        --config "$WORK/nearby-localsend.conf" --activity airDrop "Demo/Q4 Projections.pdf"
    exec 6>&- 7>&-
    wait "$WORMHOLE_NS" "$LOCALSEND" || true
fi

# Link to a termbin place: Debian's fiche on 127.0.0.1, as the tests run it.
if [ -x /usr/bin/fiche ]; then
    FICHE_PORT=$("$PYTHON" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$WORK/fiche"
    /usr/bin/fiche -d 127.0.0.1:8080 -p "$FICHE_PORT" -o "$WORK/fiche" >/dev/null 2>&1 &
    FICHE=$!
    for _ in $(seq 100); do "$PYTHON" -c "import socket; socket.create_connection(('127.0.0.1', $FICHE_PORT)).close()" 2>/dev/null && break; sleep 0.1; done
    printf '%s\n' "[link.termbin]" "type = termbin" "host = 127.0.0.1" "port = $FICHE_PORT" >"$WORK/link.conf"
    shot link 100 30 'Esc close' -- "$SHARE" --config "$WORK/link.conf" --activity link --subject "build log" \
        --text "$(printf 'error: 3 tests failed\n  DraftTests.everyLineEndComesBackAsLF\n')"
    kill "$FICHE" 2>/dev/null || true
fi
