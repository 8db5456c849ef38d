#!/usr/bin/env bash
# bench/link: one file to a WebDAV place (`rclone serve webdav` on
# 127.0.0.1) through share's Link activity, beside `curl -T` to the same
# server, in one run: throughput and peak memory, and their ratios.
#   SIZE_MB   the file's size (default 1024)
#   RUNS      runs per tool, alternating; the median is reported (default 3)
# Needs: rclone, curl and GNU time (Debian packages), a release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZE_MB=${SIZE_MB:-1024}
RUNS=${RUNS:-3}
SHARE=${SHARE:-.build/release/share}
for tool in rclone curl /usr/bin/time "$SHARE"; do
  command -v "$tool" >/dev/null || { echo "bench/link: $tool not found" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/share-bench-link.XXXXXX)
SERVER=""
cleanup() { [ -n "$SERVER" ] && kill "$SERVER" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT

PORT=$(/usr/bin/python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$WORK/dav/up" "$WORK/home"
rclone serve webdav "$WORK/dav" --addr "127.0.0.1:$PORT" --user bench --pass secret >"$WORK/rclone.log" 2>&1 &
SERVER=$!
for _ in $(seq 100); do curl -s -o /dev/null -u bench:secret "http://127.0.0.1:$PORT/" && break; sleep 0.1; done

head -c "$((SIZE_MB * 1024 * 1024))" /dev/urandom > "$WORK/big.bin"
cat > "$WORK/config" <<CONF
[link.dav]
type = webdav
url = http://127.0.0.1:$PORT/up/
user = bench
password-command = echo secret
timeout = 600
CONF

# one NAME COMMAND...: "seconds peak_rss_kib" of one run; the upload is removed after it.
one() {
  local name=$1; shift
  sync
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || {
    echo "bench/link: $name failed:" >&2; cat "$WORK/err.txt" >&2; exit 1; }
  cmp -s "$WORK/big.bin" "$WORK/dav/up/big.bin" || { echo "bench/link: $name: the upload differs from the file" >&2; exit 1; }
  rm -f "$WORK/dav/up/big.bin"
  tail -1 "$WORK/time.txt"
}

share_times=(); share_rss=(); curl_times=(); curl_rss=()
for _ in $(seq "$RUNS"); do
  read -r t m < <(one share env HOME="$WORK/home" XDG_STATE_HOME="$WORK/home/state" XDG_DATA_HOME="$WORK/home/data" \
    "$SHARE" --config "$WORK/config" --activity link --place dav --json "$WORK/big.bin")
  share_times+=("$t"); share_rss+=("$m")
  read -r t m < <(one curl curl -sS --fail -u bench:secret -T "$WORK/big.bin" "http://127.0.0.1:$PORT/up/big.bin")
  curl_times+=("$t"); curl_rss+=("$m")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p"; }
st=$(median "${share_times[@]}"); ct=$(median "${curl_times[@]}")
sr=$(printf '%s\n' "${share_rss[@]}" | sort -n | tail -1); cr=$(printf '%s\n' "${curl_rss[@]}" | sort -n | tail -1)
mibs() { awk -v s="$1" -v m="$SIZE_MB" 'BEGIN { printf "%.0f", m / s }'; }
echo "# bench/link — $(date -u +%Y-%m-%d) — $(nproc) cores, SIZE_MB=$SIZE_MB RUNS=$RUNS, rclone $(rclone version | head -1 | awk '{print $2}') serve webdav on 127.0.0.1"
echo
echo "| tool | command | seconds (median) | MiB/s | peak RSS (MiB, max) |"
echo "|---|---|---:|---:|---:|"
echo "| share | \`share --activity link --place dav --json big.bin\` | $st | $(mibs "$st") | $((sr / 1024)) |"
echo "| curl | \`curl -T big.bin http://127.0.0.1:PORT/up/big.bin\` | $ct | $(mibs "$ct") | $((cr / 1024)) |"
echo
awk -v s="$st" -v c="$ct" 'BEGIN { r = c / s; printf "- throughput: share %.2f× curl (target ≥ 0.90×: %s)\n", r, (r >= 0.9 ? "met" : "missed") }'
echo "- peak memory: share $((sr / 1024)) MiB for a ${SIZE_MB} MiB file (each run's times: share ${share_times[*]}; curl ${curl_times[*]})"
