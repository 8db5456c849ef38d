#!/usr/bin/env bash
# bench/compose: what one keystroke costs in a long body, share's compose
# screen beside nano and vim -u NONE editing the same text, in one run, each
# in a fresh 100×30 pseudo-terminal (bench/compose/keys_bench.py says exactly
# what is measured).
#
# The text: LINES lines, every third one Korean, the rest ASCII, none wider
# than the screen. Each program starts with the cursor at the middle line:
# nano and vim with +LINE; share with the first half as the body (--body-file)
# and the second half as the signature (up to the signature's 1 MiB), below
# the cursor, and four Tabs
# (unmeasured) from To, where a form with every field given starts, to the
# body. Then the same 200
# keys: ten rounds of ten typed characters (ASCII and Hangul), the four
# arrows, PageDown and PageUp, Ctrl-K twice, Enter and Backspace. Ctrl-K is
# nano's cut line and share's kill to the end of the line; vim, in insert
# mode, gets it mapped to <C-o>D.
#   RUNS    runs per program and size (default 1): every key of every run counts
#   SIZES   body lengths in lines (default "500 5000 50000")
#   RAW     if set, a file for every key's figures (TSV)
# Then 200 attachments listed, scrolled and removed (share alone: no peer
# has an attachment list), and the address-completion bench
# (addresses_bench.py: 10,000 vCards, beside khard).
# Needs: nano, vim, khard (Debian packages), /usr/bin/python3, and the release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-1}
SIZES=${SIZES:-500 5000 50000}
SHARE=${SHARE:-$PWD/.build/release/share}
PY=/usr/bin/python3
for tool in "$SHARE" nano vim khard; do
  command -v "$tool" >/dev/null || { echo "bench/compose: $tool not found" >&2; exit 1; }
done
WORK=$(mktemp -d /tmp/share-bench-compose.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# The keys: one a line (keys_bench.py's names).
for round in $(seq 10); do
  printf '%s\n' a b " " 가 나 " " x 1 다 " " Down Right Up Left PgDn PgUp C-k C-k Enter BSpace
done > "$WORK/keys"

cases=()
for n in $SIZES; do
  "$PY" bench/compose/texts.py "$n" "$WORK/$n"
  middle=$((n / 2 + 1))
  cases+=(--setup "Tab Tab Tab Tab" --case "share $n" "New Message" -- "$SHARE" --config "$WORK/$n/config" --activity mail
          --to park@example.com --subject Q4 --body-file "$WORK/$n/first.txt" ";;")
  cases+=(--case "nano $n" "Help" -- nano --ignorercfiles "+$middle" "$WORK/$n/body.txt" ";;")
  cases+=(--case "vim $n" "-- INSERT --" -- vim -N -u NONE -n -c 'inoremap <C-k> <C-o>D' -c startinsert
          "+$middle" "$WORK/$n/body.txt" ";;")
done

echo "bench/compose: $RUNS runs, 200 keys each, 100×30; $(date -u +%Y-%m-%dT%H:%MZ)"
"$PY" bench/compose/keys_bench.py --runs "$RUNS" --keys "$WORK/keys" ${RAW:+--raw "$RAW"} "${cases[@]}" \
  | tee "$WORK/results.tsv" | column -t -s $'\t'

echo
echo "share ÷ nano (time median, time p95, bytes median):"
awk -F'\t' 'NR > 1 { split($1, w, " "); v[w[1], w[2]] = $2 " " $3 " " $4; sizes[w[2]] = 1 }
  END { for (n in sizes) { split(v["share", n], s, " "); split(v["nano", n], o, " ");
        printf "  %6d lines: %.2f× %.2f× %.2f×\n", n, s[1] / o[1], s[2] / o[2], s[3] / o[3] } }' "$WORK/results.tsv" | sort -n -k1

# Many attachments: 200 files (Korean and Latin names, text, PDF-like and
# PNG-like contents) given as items; five Tabs from To to the attachment
# list, then 60 arrows down and 20 up through it, then ten removals (d, y).
mkdir -p "$WORK/files"
for i in $(seq -w 1 200); do
  case $((10#$i % 3)) in
    0) printf 'line %s\n' "$i" > "$WORK/files/보고서-$i.txt" ;;
    1) printf '%%PDF-1.4\n%% %s\n' "$i" > "$WORK/files/quarterly-numbers-$i.pdf" ;;
    2) printf '\x89PNG\r\n\x1a\n%s' "$i" > "$WORK/files/photo_$i.png" ;;
  esac
done
{ for _ in $(seq 5); do echo Tab; done; for _ in $(seq 60); do echo Down; done; for _ in $(seq 20); do echo Up; done
  for _ in $(seq 10); do echo d; echo y; done; } > "$WORK/attachment-keys"
printf '[mail]\nfrom = 김민수 <kim@example.com>\n' > "$WORK/config-attach"
echo
echo "200 attachments: 5 Tabs to the list, 60 down, 20 up, 10 removals (d y)"
"$PY" bench/compose/keys_bench.py --runs "$RUNS" --keys "$WORK/attachment-keys" \
  --case "share 200 attachments" "New Message" -- "$SHARE" --config "$WORK/config-attach" --activity mail \
    --to park@example.com --subject Q4 --body "The files." "$WORK"/files/* ";;" | column -t -s $'\t'

echo
echo "Address completion: 10,000 vCards"
"$PY" bench/compose/addresses_bench.py --share "$SHARE" --runs "$((RUNS < 3 ? 3 : RUNS))" | column -t -s $'\t'
