#!/usr/bin/env bash
# bench/imap: APPEND a big message to a local dovecot folder, share beside
# curl -T, in one run (the same server, the same folder, turns alternated).
#   SIZE_MB   the message's size (default 100)
#   RUNS      runs per tool, the median is reported (default 5)
# share's APPEND is measured as share --flush storing a sent copy kept in
# imap-pending (what a send does after the SMTP server accepted): the
# process's whole run, start-up and login included, as curl's is.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-5}
SHARE=${SHARE:-.build/release/share}
PY=/usr/bin/python3
WORK=$(mktemp -d /tmp/share-bench-imap.XXXXXX)
chmod 755 "$WORK"
cleanup() { exec 3>&- 2>/dev/null || true; sleep 0.5; rm -rf "$WORK"; }
trap cleanup EXIT

openssl req -x509 -newkey rsa:2048 -nodes -keyout "$WORK/key.pem" -out "$WORK/cert.pem" -days 1 -subj /CN=localhost \
  -addext subjectAltName=DNS:localhost,IP:127.0.0.1 2>/dev/null
exec 3> >($PY Tests/Support/imap_server.py "$WORK/dovecot" --cert "$WORK/cert.pem" "$WORK/key.pem" --user kim:bench > "$WORK/ready.txt" 2>"$WORK/server.log")
for _ in $(seq 100); do grep -q '^TLS' "$WORK/ready.txt" 2>/dev/null && break; sleep 0.1; done
PORT=$(awk '/^READY/ {print $2}' "$WORK/ready.txt")
[ -n "$PORT" ] || { echo "dovecot did not start:" >&2; cat "$WORK/server.log" >&2; exit 1; }

# A message of SIZE_MB MiB: headers, then base64 lines of random bytes, CRLF.
$PY - "$WORK/msg.eml" "$SIZE_MB" <<'PYEOF'
import base64, os, sys
path, size = sys.argv[1], int(sys.argv[2]) << 20
with open(path, "wb") as f:
    f.write(b"From: Kim <kim@example.com>\r\nTo: park@example.com\r\nSubject: bench\r\n"
            b"Message-ID: <bench@example.com>\r\nMIME-Version: 1.0\r\nContent-Type: application/octet-stream\r\n"
            b"Content-Transfer-Encoding: base64\r\n\r\n")
    while f.tell() < size:
        raw = base64.encodebytes(os.urandom(57 * 1024)).replace(b"\n", b"\r\n")
        f.write(raw[: size - f.tell()] if f.tell() + len(raw) > size else raw)
PYEOF

printf 'bench\n' > "$WORK/password"
cat > "$WORK/config" <<CONF
[mail]
from = Kim <kim@example.com>
imap = imap://kim@127.0.0.1:$PORT
tls = off
password-command = cat $WORK/password
sent = imap:INBOX
drafts = $WORK/Drafts
outbox = $WORK/Outbox
CONF
export XDG_DATA_HOME="$WORK/data" HOME="$WORK"
PENDING="$WORK/data/share/imap-pending"
mkdir -p "$PENDING/cur" "$PENDING/new" "$PENDING/tmp"

empty_inbox() {  # the folder emptied between runs, so that each APPEND meets the same folder
  $PY - "$PORT" <<'PYEOF'
import imaplib, sys
c = imaplib.IMAP4("127.0.0.1", int(sys.argv[1])); c.login("kim", "bench"); c.select("INBOX")
c.store("1:*", "+FLAGS", "\\Deleted") if c.search(None, "ALL")[1][0] else None
c.expunge(); c.logout()
PYEOF
}

once() {  # once NAME: one run, prints "seconds maxrss_kib"
  empty_inbox
  # The copy is made before the sync: its dirty pages would otherwise be
  # written back inside the run, when dovecot's fsync commits the journal.
  [ "$1" = share ] && cp "$WORK/msg.eml" "$PENDING/cur/bench.eml:2,S"
  sync
  if [ "$1" = share ]; then
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$SHARE" --config "$WORK/config" --flush >"$WORK/out.txt" 2>"$WORK/err.txt" \
      || { echo "share failed:" >&2; cat "$WORK/out.txt" "$WORK/err.txt" >&2; exit 1; }
    grep -q '^stored' "$WORK/out.txt" || { echo "share stored nothing:" >&2; cat "$WORK/out.txt" "$WORK/err.txt" >&2; exit 1; }
  else
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" curl -s -u kim:bench "imap://127.0.0.1:$PORT/INBOX" -T "$WORK/msg.eml" \
      || { echo "curl failed" >&2; exit 1; }
  fi
  tail -1 "$WORK/time.txt"
}

declare -a share_t curl_t share_m curl_m
for _ in $(seq "$RUNS"); do
  read -r t m < <(once curl); curl_t+=("$t"); curl_m+=("$m")
  read -r t m < <(once share); share_t+=("$t"); share_m+=("$m")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
max() { printf '%s\n' "$@" | sort -n | tail -1; }
CT=$(median "${curl_t[@]}"); ST=$(median "${share_t[@]}")
echo "# bench/imap — $(date -u +%Y-%m-%dT%H:%MZ) — $(nproc) cores, a ${SIZE_MB} MiB message APPENDed to dovecot over imap:// on 127.0.0.1, RUNS=$RUNS (median seconds, max peak RSS)"
echo
echo "| tool | command | seconds | vs curl | peak RSS (MiB) | runs (s) |"
echo "|---|---|---:|---:|---:|---|"
printf '| curl | `curl imap://…/INBOX -T msg.eml` | %s | 1.00× | %.1f | %s |\n' "$CT" "$(awk -v k="$(max "${curl_m[@]}")" 'BEGIN { print k / 1024 }')" "${curl_t[*]}"
printf '| share | `share --flush` (the copy kept in imap-pending) | %s | %s | %.1f | %s |\n' "$ST" \
  "$(awk -v c="$CT" -v t="$ST" 'BEGIN { printf "%.2f×", c / t }')" "$(awk -v k="$(max "${share_m[@]}")" 'BEGIN { print k / 1024 }')" "${share_t[*]}"
