#!/usr/bin/env bash
# bench/tui: the picker's first paint and the cost of one arrow key, side by
# side in one run with whiptail --menu, dialog --menu and fzf listing the same
# entries ("Activity 1" …), each in a fresh 100×30 pseudo-terminal
# (bench/tui/pty_bench.py says exactly what is measured).
#   RUNS      runs per tool and size, the median is reported (default 20)
#   WARMUP    runs per tool and size before those, not counted (default 1)
#   SIZES     entries to list (default "15 1000")
#   FIXTURE   the share command line with extra activities
#             (default .build/release/share-activities-fixture)
#   RAW       if set, a file for every run's figures (TSV)
#   DUMP      if set, a folder for each case's first-paint and arrow-key bytes
# Needs: whiptail dialog fzf (Debian packages), /usr/bin/python3, and
# `swift build -c release --static-swift-stdlib` for the fixture.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-20}
WARMUP=${WARMUP:-1}
SIZES=${SIZES:-15 1000}
FIXTURE=${FIXTURE:-.build/release/share-activities-fixture}
SHARE=${SHARE:-.build/release/share}
PY=/usr/bin/python3
COLS=100
ROWS=30
for tool in "$FIXTURE" whiptail dialog fzf; do
  command -v "$tool" >/dev/null || { echo "bench/tui: $tool not found" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/share-bench-tui.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# With a URL item share also offers Mail, Copy, Add to Reading List and Save to Pictures.
SHARE_OWN=4
cases=()
for n in $SIZES; do
  menu=()
  for i in $(seq "$n"); do menu+=("$i" "Activity $i"); done
  seq -f 'Activity %g' "$n" > "$WORK/list-$n.txt"
  # share draws its help bar last, ending in "Esc cancel"; whiptail and dialog
  # draw their buttons last; fzf's match counter shows n/n once it has read
  # every line. fzf's default layout starts on the bottom line, where Down does
  # nothing: --layout=reverse lists top-down, so Down moves to entry 2 as in
  # the others.
  cases+=(--case "share $n" "Esc cancel" - -- "$FIXTURE" --count "$((n - SHARE_OWN))" -- https://example.com ";;")
  # The same number of tiles from plugin manifests (generated for the run), read at start-up.
  mkdir -p "$WORK/plugins-$n/share/activities"
  for i in $(seq "$((n - SHARE_OWN))"); do
    printf '[Activity]\nType=com.example.plugin%d\nName=Activity %d\nCategory=action\nAccepts=url;\nExec=/bin/true\n' \
      "$i" "$i" > "$WORK/plugins-$n/share/activities/p$i.activity"
  done
  cases+=(--case "share-plugins $n" "Esc cancel" - -- XDG_CONFIG_HOME="$WORK/plugins-$n" "$SHARE" https://example.com ";;")
  cases+=(--case "whiptail $n" "<Cancel>" - -- whiptail --menu Share "$ROWS" "$COLS" "$((ROWS - 8))" "${menu[@]}" ";;")
  cases+=(--case "dialog $n" "<Cancel>" - -- dialog --menu Share "$ROWS" "$COLS" "$((ROWS - 8))" "${menu[@]}" ";;")
  cases+=(--case "fzf $n" "$n/$n" "$WORK/list-$n.txt" -- fzf --layout=reverse ";;")
done

echo "# bench/tui — $(date -u +%Y-%m-%d) — $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), ${COLS}×${ROWS} pty, RUNS=$RUNS (medians)"
echo
echo "share $(git rev-parse --short HEAD 2>/dev/null || echo ?), whiptail $(dpkg-query -W -f '${Version}' whiptail)," \
     "dialog $(dpkg-query -W -f '${Version}' dialog), fzf $(dpkg-query -W -f '${Version}' fzf)"
echo
start=$(date +%s)
$PY bench/tui/pty_bench.py --runs "$RUNS" --warmup "$WARMUP" --cols "$COLS" --rows "$ROWS" \
    --raw "${RAW:-$WORK/raw.tsv}" ${DUMP:+--dump "$DUMP"} "${cases[@]}" > "$WORK/medians.tsv"
secs=$(( $(date +%s) - start ))

# medians.tsv: name paint_ms paint_bytes arrow_bytes arrow_ms good failed by_esc arrow_sent marker_ms
get() { awk -F'\t' -v n="$1" -v c="$2" '$1 == n { print $c }' "$WORK/medians.tsv"; }
command_text() {  # command_text TOOL N
  local n=$2 last="$2 \"Activity $2\""
  case $1 in
    share) echo "share-activities-fixture --count $((n - SHARE_OWN)) -- https://example.com" ;;
    share-plugins) echo "XDG_CONFIG_HOME=<$((n - SHARE_OWN)) manifests> share https://example.com" ;;
    whiptail|dialog) echo "$1 --menu Share $ROWS $COLS $((ROWS - 8)) 1 \"Activity 1\" … $last" ;;
    fzf) echo "seq -f 'Activity %g' $n \| fzf --layout=reverse" ;;  # \| keeps the Markdown table whole
  esac
}
echo "| tool | entries | command | first paint (ms) | vs whiptail (15) / fzf (1,000) | first-paint bytes | bytes per arrow key | marker seen (ms) | arrow reply (ms) | runs ok / failed |"
echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|"
for n in $SIZES; do
  if [ "$n" -le 100 ]; then base=whiptail; else base=fzf; fi
  base_ms=$(get "$base $n" 2)
  for tool in share share-plugins whiptail dialog fzf; do
    ms=$(get "$tool $n" 2)
    ratio=$(awk -v t="$ms" -v b="$base_ms" 'BEGIN { printf "%.2f× %s", (b > 0 ? t / b : 0), "'"$base"'" }')
    printf '| %s | %s | `%s` | %s | %s | %s | %s | %s | %s | %s / %s |\n' "$tool" "$n" "$(command_text "$tool" "$n")" \
      "$ms" "$ratio" "$(get "$tool $n" 3)" "$(get "$tool $n" 4)" "$(get "$tool $n" 10)" "$(get "$tool $n" 5)" \
      "$(get "$tool $n" 6)" "$(get "$tool $n" 7)"
  done
done
echo
echo "First paint: spawn to the last byte of the first burst holding the tool's last-drawn text (share \"Esc cancel\"," \
     "whiptail/dialog \"<Cancel>\", fzf \"n/n\"), a burst ending at 100 ms without output; the 100 ms is not counted;" \
     "marker seen: spawn to the read that completed that text." \
     "Arrow key: the bytes written in reply to one Down (ESC [ B, or ESC O B when the tool has set application cursor keys)," \
     "until 100 ms without output. Whole run: ${secs} s."
awk -F'\t' '$8 < $6 { printf "- %s: %d of %d runs did not end on Esc and were killed\n", $1, $6 - $8, $6 }' "$WORK/medians.tsv"
echo
# Targets: first paint ≤ 1.0× whiptail at 15 entries and ≤ 1.0× fzf at 1,000; ≤ 80 bytes per arrow key.
# The verdict is the ratio of the medians; the paired ratio (median over rounds
# of share/peer, with a 95 % bootstrap interval, bench/tui/paired.py) says how
# much of it the machine's noise leaves open.
for n in $SIZES; do
  if [ "$n" -le 100 ]; then base=whiptail; else base=fzf; fi
  for tool in share share-plugins; do
    IFS=$'\t' read -r _ pm plo phi _ < <($PY bench/tui/paired.py "${RAW:-$WORK/raw.tsv}" "$base $n" "$tool $n")
    awk -v t="$tool" -v n="$n" -v b="$base" -v s="$(get "$tool $n" 2)" -v p="$(get "$base $n" 2)" -v a="$(get "$tool $n" 4)" \
        -v pm="$pm" -v lo="$plo" -v hi="$phi" 'BEGIN {
      printf "- %s at %s entries: first paint %.2f× %s (target ≤ 1.00×: %s; paired %.2f×, 95%% interval %.2f–%.2f); %d bytes per arrow key (target ≤ 80: %s)\n",
        t, n, s / p, b, (s <= p ? "met" : "missed"), pm, lo, hi, a, (a <= 80 ? "met" : "missed") }'
  done
done
