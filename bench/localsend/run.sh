#!/usr/bin/env bash
# bench/localsend: one file sent to a LocalSend receiver (the tests' own,
# Tests/Support/localsend_servers.py, HTTPS, in a network namespace of its
# own so that nothing leaves the machine) by share's Nearby
# (`--device 127.0.0.1:53317`: register, SHA-256 of the file,
# prepare-upload, upload streamed from disk), beside
# `curl --data-binary @FILE` to the same upload endpoint (after a
# prepare-upload of its own), in one run: time, throughput, peak memory.
# curl 7.88 reads a --data-binary file into memory and refuses one of
# 1 GiB or more ("out of memory"): from 1024 MiB on, curl sends the same
# request with `-T FILE -X POST`, streamed.
#   SIZE_MB   the file's size (default 1024)
#   RUNS      runs per tool, alternating; the median is reported (default 3)
# Needs: root (ip netns), curl, openssl and GNU time, a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-1024}
RUNS=${RUNS:-3}
SHARE=${SHARE:-$PWD/.build/release/share}
for tool in curl openssl ip /usr/bin/time "$SHARE"; do
  command -v "$tool" >/dev/null || { echo "bench/localsend: $tool not found" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/share-bench-localsend.XXXXXX)
chmod 755 "$WORK"
NS="share-ls-$$-bench"
SERVER=""
cleanup() {
  exec 3>&- 2>/dev/null || true
  [ -n "$SERVER" ] && wait "$SERVER" 2>/dev/null
  ip netns del "$NS" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The receiver serves until its stdin (this pipe) closes; its first line is READY.
mkfifo "$WORK/in"
/usr/bin/python3 Tests/Support/localsend_servers.py serve "$NS" own "$WORK/receiver" <"$WORK/in" >"$WORK/events.log" 2>"$WORK/receiver.err" &
SERVER=$!
exec 3>"$WORK/in"
for _ in $(seq 300); do grep -q READY "$WORK/events.log" 2>/dev/null && break; sleep 0.1; done
grep -q READY "$WORK/events.log" || { echo "bench/localsend: the receiver did not start:" >&2; cat "$WORK/receiver.err" >&2; exit 1; }

head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom > "$WORK/big.bin"
HASH=$(openssl dgst -sha256 -r "$WORK/big.bin" | cut -d' ' -f1)
mkdir -p "$WORK/home"
printf '[nearby]\nbind = lo\n' > "$WORK/config"
URL=https://127.0.0.1:53317/api/localsend/v2
if [ "$SIZE_MB" -lt 1024 ]; then CURL_BODY=(--data-binary @"$WORK/big.bin"); CURL_SHOWN="--data-binary @big.bin"
else CURL_BODY=(-T "$WORK/big.bin" -X POST); CURL_SHOWN="-T big.bin -X POST"; fi

# one NAME COMMAND...: "seconds peak_rss_kib" of one run, timed inside the namespace; the received file is checked, then removed.
one() {
  local name=$1; shift
  sync
  ip netns exec "$NS" /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || {
    echo "bench/localsend: $name failed:" >&2; cat "$WORK/err.txt" "$WORK/out.txt" >&2; exit 1; }
  cmp -s "$WORK/big.bin" "$WORK/receiver/received/big.bin" || { echo "bench/localsend: $name: what arrived differs from the file" >&2; exit 1; }
  rm -f "$WORK/receiver/received/big.bin"
  tail -1 "$WORK/time.txt"
}

# curl's session: a prepare-upload (not timed), then the upload alone.
curl_upload() {
  local answer session token
  answer=$(ip netns exec "$NS" curl -sS -k --fail -H 'Content-Type: application/json' --data-binary @- "$URL/prepare-upload" <<JSON
{"info": {"alias": "curl", "version": "2.1", "deviceModel": "curl", "deviceType": "headless", "fingerprint": "curl-bench", "port": 53317, "protocol": "https", "download": false},
 "files": {"f": {"id": "f", "fileName": "big.bin", "size": $((SIZE_MB * 1024 * 1024)), "fileType": "application/octet-stream", "sha256": "$HASH", "preview": null}}}
JSON
)
  session=$(printf '%s' "$answer" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["sessionId"])')
  token=$(printf '%s' "$answer" | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["files"]["f"])')
  one curl curl -sS -k --fail -H 'Content-Type: application/octet-stream' "${CURL_BODY[@]}" \
    "$URL/upload?sessionId=$session&fileId=f&token=$token"
}

share_times=(); share_rss=(); curl_times=(); curl_rss=(); hash_times=()
for _ in $(seq "$RUNS"); do
  read -r t m < <(one share env HOME="$WORK/home" XDG_STATE_HOME="$WORK/home/state" XDG_CONFIG_HOME="$WORK/home/config" \
    "$SHARE" --config "$WORK/config" --activity airDrop --device 127.0.0.1:53317 --json "$WORK/big.bin")
  share_times+=("$t"); share_rss+=("$m")
  read -r t m < <(curl_upload)
  curl_times+=("$t"); curl_rss+=("$m")
  /usr/bin/time -f "%e" -o "$WORK/hash.txt" openssl dgst -sha256 "$WORK/big.bin" >/dev/null
  hash_times+=("$(tail -1 "$WORK/hash.txt")")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
st=$(median "${share_times[@]}"); ct=$(median "${curl_times[@]}"); ht=$(median "${hash_times[@]}")
sr=$(printf '%s\n' "${share_rss[@]}" | sort -n | tail -1); cr=$(printf '%s\n' "${curl_rss[@]}" | sort -n | tail -1)
mibs() { awk -v s="$1" -v m="$SIZE_MB" 'BEGIN { printf "%.0f", m / s }'; }
echo "# bench/localsend — $(date -u +%Y-%m-%d) — $(nproc) cores, SIZE_MB=$SIZE_MB RUNS=$RUNS, the tests' receiver over HTTPS on a namespace's loopback"
echo
echo "| tool | command | seconds (median) | MiB/s | peak RSS (MiB, max) |"
echo "|---|---|---:|---:|---:|"
echo "| share | \`share --activity airDrop --device 127.0.0.1:53317 big.bin\` | $st | $(mibs "$st") | $((sr / 1024)) |"
echo "| curl | \`curl -k $CURL_SHOWN https://127.0.0.1:53317/api/localsend/v2/upload?…\` | $ct | $(mibs "$ct") | $((cr / 1024)) |"
echo
awk -v s="$st" -v c="$ct" 'BEGIN { r = c / s; printf "- throughput: share %.2f× curl (target ≥ 0.90×: %s)\n", r, (r >= 0.9 ? "met" : "missed") }'
echo "- share's time includes its start, the register, and the file's SHA-256 that prepare-upload carries (openssl dgst alone: $ht s, median); curl's is the upload alone"
echo "- peak memory: share $((sr / 1024)) MiB for a ${SIZE_MB} MiB file (each run's times: share ${share_times[*]}; curl ${curl_times[*]})"
