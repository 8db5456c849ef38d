#!/usr/bin/env bash
# bench/smtp: send a big attachment to a local SMTP sink, share beside its
# peers in one run (turns alternated, the same sink, the same attachment):
#   curl        uploads the message share built, already encoded
#   msmtp       the same message on its standard input
#   mutt+msmtp  builds the message from the attachment and hands it to msmtp
#   share       builds it, writes and fsyncs the draft, sends it, files the sent copy
#   SIZE_MB   the attachment's size (default 100)
#   RUNS      runs per tool, the median is reported (default 5)
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-100}
RUNS=${RUNS:-5}
SHARE=${SHARE:-.build/release/share}
PY=/usr/bin/python3
WORK=$(mktemp -d /tmp/share-bench-smtp.XXXXXX)
trap 'exec 3>&- 2>/dev/null || true; rm -rf "$WORK"' EXIT

exec 3> >($PY bench/mime/smtp_sink.py > "$WORK/sink.txt")
for _ in $(seq 50); do grep -q READY "$WORK/sink.txt" 2>/dev/null && break; sleep 0.1; done
PORT=$(awk '{print $2}' "$WORK/sink.txt")
head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom > "$WORK/send.bin"
printf 'The numbers are attached.\n' > "$WORK/body.txt"
cat > "$WORK/config" <<CONF
[mail]
from = Kim Minsu <kim@example.com>
transport = smtp://127.0.0.1:$PORT
tls = off
drafts = $WORK/out/Drafts
sent = $WORK/out/Sent
outbox = $WORK/out/Outbox
CONF
# The message curl and msmtp upload: the one share builds, saved as a draft.
"$SHARE" --config "$WORK/config" --save-draft --to park@example.com --subject "Q4" --body-file "$WORK/body.txt" --attach "$WORK/send.bin" >/dev/null 2>&1 || true
cp "$(ls "$WORK"/out/Drafts/cur/* | head -1)" "$WORK/send.eml"
MSMTP="msmtp --host=127.0.0.1 --port=$PORT --auth=off --tls=off --from=kim@example.com"

once() {  # once TOOL: prints "seconds maxrss_kib"
  rm -rf "$WORK/out"; mkdir -p "$WORK/out"
  sync
  case "$1" in
    curl) set -- curl -s "smtp://127.0.0.1:$PORT" --mail-from kim@example.com --mail-rcpt park@example.com --upload-file "$WORK/send.eml" ;;
    msmtp) set -- sh -c "$MSMTP park@example.com < '$WORK/send.eml'" ;;
    mutt) set -- sh -c "mutt -n -F /dev/null -e 'set sendmail=\"$MSMTP\"' -e 'set from=kim@example.com' -e 'set record=' \
                        -s Q4 -a '$WORK/send.bin' -- park@example.com < '$WORK/body.txt'" ;;
    share) set -- "$SHARE" --config "$WORK/config" --send --to park@example.com --subject Q4 --body-file "$WORK/body.txt" --attach "$WORK/send.bin" ;;
  esac
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/err.txt" || { echo "$1 failed:" >&2; cat "$WORK/err.txt" >&2; exit 1; }
  tail -1 "$WORK/time.txt"
}

declare -A times rss
TOOLS="curl msmtp mutt share"
for _ in $(seq "$RUNS"); do
  for tool in $TOOLS; do
    read -r t m < <(once "$tool")
    times[$tool]="${times[$tool]:-} $t"; rss[$tool]="${rss[$tool]:-} $m"
  done
done
median() { printf '%s\n' $1 | sort -n | sed -n "$(( ($(printf '%s\n' $1 | wc -l) + 1) / 2 ))p"; }
max() { printf '%s\n' $1 | sort -n | tail -1; }
CT=$(median "${times[curl]}")
echo "# bench/smtp — $(date -u +%Y-%m-%dT%H:%MZ) — $(nproc) cores, a ${SIZE_MB} MiB attachment to a local SMTP sink, RUNS=$RUNS, turns alternated (median seconds, max peak RSS)"
echo
echo "| tool | what it does | seconds | vs curl | peak RSS (MiB) | runs (s) |"
echo "|---|---|---:|---:|---:|---|"
for tool in $TOOLS; do
  what=$(case $tool in curl) echo "uploads the built message";; msmtp) echo "sends the built message";;
         mutt) echo "builds the message, msmtp sends it";; share) echo "builds it, draft written and fsynced, sends, files the sent copy";; esac)
  t=$(median "${times[$tool]}")
  printf '| %s | %s | %s | %s | %.1f | %s |\n' "$tool" "$what" "$t" "$(awk -v c="$CT" -v t="$t" 'BEGIN { printf "%.2f×", c / t }')" \
    "$(awk -v k="$(max "${rss[$tool]}")" 'BEGIN { print k / 1024 }')" "${times[$tool]# }"
done
