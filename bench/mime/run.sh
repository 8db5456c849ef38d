#!/usr/bin/env bash
# bench/mime: build a message with a big attachment to a file, and send one
# to a fast local SMTP sink; share side by side with its peers in one run.
#   SIZE_MB   attachment size for the build (default 1024)
#   SEND_MB   attachment size for the send (default 100)
#   RUNS      runs per tool, the median is reported (default 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-1024}
SEND_MB=${SEND_MB:-100}
RUNS=${RUNS:-3}
SHARE=${SHARE:-.build/release/share}
WORK=$(mktemp -d /tmp/share-bench-mime.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PY=/usr/bin/python3

measure() {  # measure NAME OUTPUT_FILE_OR_- COMMAND...: prints "seconds maxrss_kib"
  local name=$1 out=$2; shift 2
  local times=() rss=()
  for _ in $(seq "$RUNS"); do
    rm -rf "$WORK/out" && mkdir -p "$WORK/out"
    sync
    local rc=0
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >/dev/null 2>"$WORK/err.txt" || rc=$?
    # share --save-draft exits 1 by contract (saved, not sent).
    if [ "$rc" -ne 0 ] && ! { [ "$name" = share-draft ] && [ "$rc" -eq 1 ]; }; then
      echo "$name failed ($rc):" >&2; cat "$WORK/err.txt" >&2; exit 1
    fi
    read -r t m < <(tail -1 "$WORK/time.txt")
    times+=("$t"); rss+=("$m")
  done
  local mt mr
  mt=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (RUNS + 1) / 2 ))p")
  mr=$(printf '%s\n' "${rss[@]}" | sort -n | tail -1)
  echo "$mt $mr"
}

echo "# bench/mime — $(date -u +%Y-%m-%d) — $(nproc) cores, SIZE_MB=$SIZE_MB SEND_MB=$SEND_MB RUNS=$RUNS (median time, max peak RSS)"
head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom > "$WORK/big.bin"
printf 'The numbers are attached.\n' > "$WORK/body.txt"
cat > "$WORK/config" <<CONF
[mail]
from = Kim Minsu <kim@example.com>
drafts = $WORK/out/Drafts
sent = $WORK/out/Sent
outbox = $WORK/out/Outbox
CONF
# mutt's "sendmail" is a command it runs with the message on stdin: keep the message.
cat > "$WORK/keep.sh" <<KEEP
#!/bin/sh
cat > "$WORK/out/mutt.eml"
KEEP
chmod +x "$WORK/keep.sh"

echo
echo "## Build a message with a ${SIZE_MB} MiB attachment to a file"
echo
echo "| tool | command | seconds | MiB/s of attachment | vs base64 | peak RSS (MiB) |"
echo "|---|---|---:|---:|---:|---:|"
row() {  # row NAME COMMAND_TEXT "seconds rss"
  local secs=${3% *} rss=${3#* }
  local rate; rate=$(awk -v s="$SIZE_MB" -v t="$secs" 'BEGIN { printf "%.0f", (t > 0 ? s / t : 0) }')
  local ratio; ratio=$(awk -v b="$BASE" -v t="$secs" 'BEGIN { printf "%.2f×", (t > 0 ? b / t : 0) }')
  printf '| %s | `%s` | %s | %s | %s | %.1f |\n' "$1" "$2" "$secs" "$rate" "$ratio" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}
r=$(measure base64 - sh -c "base64 '$WORK/big.bin' > '$WORK/out/b64'"); BASE=${r% *}
row "coreutils base64" "base64 big.bin >file" "$r"
r=$(measure share-draft - "$SHARE" --config "$WORK/config" --save-draft --to park@example.com --subject "Q4 numbers" --body-file "$WORK/body.txt" --attach "$WORK/big.bin")
row "share" "share --save-draft --to … --attach big.bin" "$r"
r=$(measure mutt - sh -c "mutt -n -F /dev/null -e 'set sendmail=$WORK/keep.sh' -e 'set from=kim@example.com' -e 'set record=' -s 'Q4 numbers' -a '$WORK/big.bin' -- park@example.com < '$WORK/body.txt'")
row "mutt (batch)" "mutt -s … -a big.bin -- park@example.com < body" "$r"
r=$(measure python - "$PY" bench/mime/python_email.py "$WORK/big.bin" "$WORK/out/py.eml")
row "Python email" "python_email.py big.bin out.eml" "$r"
rm -f "$WORK/big.bin"

echo
echo "## Send a ${SEND_MB} MiB attachment to a local SMTP sink"
echo
head -c "$((SEND_MB * 1024 * 1024))" /dev/urandom > "$WORK/send.bin"
exec 3> >($PY bench/mime/smtp_sink.py > "$WORK/sink.txt")
for _ in $(seq 50); do grep -q READY "$WORK/sink.txt" 2>/dev/null && break; sleep 0.1; done
PORT=$(awk '{print $2}' "$WORK/sink.txt")
cat >> "$WORK/config" <<CONF
transport = smtp://127.0.0.1:$PORT
tls = off
CONF
# The message the peers upload: the one share builds, saved as a draft first.
rm -rf "$WORK/out"; "$SHARE" --config "$WORK/config" --save-draft --to park@example.com --subject "Q4" --body-file "$WORK/body.txt" --attach "$WORK/send.bin" >/dev/null 2>&1 || true
cp "$(ls "$WORK"/out/Drafts/cur/* | head -1)" "$WORK/send.eml"
echo "| tool | command | seconds | vs curl |"
echo "|---|---|---:|---:|"
r=$(measure curl - curl -s "smtp://127.0.0.1:$PORT" --mail-from kim@example.com --mail-rcpt park@example.com --upload-file "$WORK/send.eml"); CURL=${r% *}
printf '| curl | `curl smtp://… --upload-file msg.eml` | %s | 1.00× |\n' "$CURL"
r=$(measure msmtp - sh -c "msmtp --host=127.0.0.1 --port=$PORT --from=kim@example.com park@example.com < '$WORK/send.eml'")
printf '| msmtp | `msmtp --host … < msg.eml` | %s | %s |\n' "${r% *}" "$(awk -v c="$CURL" -v t="${r% *}" 'BEGIN { printf "%.2f×", c / t }')"
r=$(measure share - "$SHARE" --config "$WORK/config" --send --to park@example.com --subject "Q4" --body-file "$WORK/body.txt" --attach "$WORK/send.bin")
printf '| share (build + draft + send + sent copy) | `share --send --attach send.bin` | %s | %s |\n' "${r% *}" "$(awk -v c="$CURL" -v t="${r% *}" 'BEGIN { printf "%.2f×", c / t }')"
exec 3>&-
