#!/usr/bin/env bash
# bench/options: metadata stripped from a folder of camera-like JPEGs (EXIF
# with GPS and a thumbnail, XMP, IPTC, a comment; grain so each is
# megabytes) by share's --no-metadata and --no-location, beside
# `exiftool -all= -o DIR`, `exiftool -gps:all= -o DIR` and `mat2` (when
# installed), in one run: seconds, pictures per second and the ratios.
#   COUNT   pictures (default 500)
#   WIDTH, HEIGHT   their size (default 4032×3024, a phone's 12 MP)
#   RUNS    runs per tool, alternating; the median is reported (default 3;
#           mat2, twenty times slower than the others, runs once)
# Two folders: every picture upright (orientation 1), and a phone's mix
# with three in ten to be turned (orientation 6), which --no-metadata
# turns upright (losslessly: 4032×3024 is whole blocks) and exiftool -all=
# leaves lying on their side.
# share gets the pictures through a plugin that does nothing (`true %F`):
# what is timed is share reading each picture, writing its changed copy
# into its private folder and removing the copies at exit; exiftool and
# mat2 write theirs and the same shell command removes them, so each
# timed run ends where it began.
# Needs: exiftool (libimage-exiftool-perl), python3-pil, GNU time, a
# release build; mat2 is optional.
set -euo pipefail
cd "$(dirname "$0")/../.."
COUNT=${COUNT:-500}
WIDTH=${WIDTH:-4032}
HEIGHT=${HEIGHT:-3024}
RUNS=${RUNS:-3}
SHARE=${SHARE:-.build/release/share}
for tool in exiftool /usr/bin/time /usr/bin/python3 "$SHARE"; do
  command -v "$tool" >/dev/null || { echo "bench/options: $tool not found" >&2; exit 1; }
done
MAT2=$(command -v mat2 || true)
WORK=$(mktemp -d /tmp/share-bench-options.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Ten different pictures as a phone leaves them (Tests/Support/image_tool.py camera), copied to COUNT.
mkdir -p "$WORK/upright" "$WORK/mixed" "$WORK/home/share/activities" "$WORK/tmp"
for n in $(seq 0 9); do
  /usr/bin/python3 Tests/Support/image_tool.py camera "$WORK/up$n.jpg" "$WIDTH" "$HEIGHT" 1 $((85 + n)) noise
  /usr/bin/python3 Tests/Support/image_tool.py camera "$WORK/mix$n.jpg" "$WIDTH" "$HEIGHT" $((n < 7 ? 1 : 6)) $((85 + n)) noise
done
for i in $(seq "$COUNT"); do
  cp "$WORK/up$((i % 10)).jpg" "$WORK/upright/IMG_$(printf %04d "$i").jpg"
  cp "$WORK/mix$((i % 10)).jpg" "$WORK/mixed/IMG_$(printf %04d "$i").jpg"
done
MIB=$(( $(du -sb "$WORK/upright" | cut -f1) / 1048576 ))
cat > "$WORK/home/share/activities/nothing.activity" <<'MANIFEST'
[Activity]
Type=com.example.bench
Name=Nothing
Accepts=image;
Exec=true %F
MANIFEST

# one NAME COMMAND...: the seconds of one run, its pictures read into the page cache first (a run
# after mat2's copies would otherwise read from the disk what the next tool finds in memory).
one() {
  local name=$1; shift
  cat "$WORK"/upright/*.jpg "$WORK"/mixed/*.jpg > /dev/null
  sync
  /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt" || {
    echo "bench/options: $name failed:" >&2; cat "$WORK/err.txt" >&2; exit 1; }
  tail -1 "$WORK/time.txt" | cut -d' ' -f1
}
# share OPTION FOLDER
share() {
  one share env HOME="$WORK/home" XDG_CONFIG_HOME="$WORK/home" XDG_STATE_HOME="$WORK/home/state" XDG_DATA_HOME="$WORK/home/data" \
    TMPDIR="$WORK/tmp" "$SHARE" --activity com.example.bench "$1" --json "$WORK/$2"/*.jpg
}
# exiftool TAGS FOLDER
exif() {
  mkdir -p "$WORK/out"
  one exiftool sh -c 'exiftool -q "$1" -o "$2/" "$3"/*.jpg && rm -rf "$2"' sh "$1" "$WORK/out" "$WORK/$2"
}
mat2() {
  rm -rf "$WORK/mat2"; cp -r "$WORK/upright" "$WORK/mat2"
  one mat2 sh -c '"$1" "$2"/*.jpg && rm -f "$2"/*.cleaned.jpg' sh "$MAT2" "$WORK/mat2"
}

# What share leaves, on one picture of each folder: its copy through Save to Pictures, which stores what it is given.
for folder in upright mixed; do
  env HOME="$WORK/check" XDG_STATE_HOME="$WORK/check/state" "$SHARE" --activity saveToCameraRoll --no-metadata --json \
    "$WORK/$folder/IMG_0009.jpg" >/dev/null
  left=$(exiftool -q -q -EXIF:all -XMP:all -IPTC:all -Comment "$WORK/check/Pictures/IMG_0009.jpg" | wc -l)
  [ "$left" -eq 0 ] || { echo "bench/options: share left $left tags in $folder" >&2; exit 1; }
  rm -rf "$WORK/check"
done

declare -A times
for _ in $(seq "$RUNS"); do
  times[share_all]+="$(share --no-metadata upright) "
  times[exif_all]+="$(exif -all= upright) "
  times[share_gps]+="$(share --no-location upright) "
  times[exif_gps]+="$(exif -gps:all= upright) "
  times[share_mixed]+="$(share --no-metadata mixed) "
  times[exif_mixed]+="$(exif -all= mixed) "
done
# mat2 takes two minutes a run, twenty times the others: one run.
if [ -n "$MAT2" ]; then times[mat2]="$(mat2)"; fi
median() { printf '%s\n' $1 | sort -n | sed -n "$(( ($(printf '%s\n' $1 | wc -l) + 1) / 2 ))p"; }
rate() { awk -v s="$1" -v n="$COUNT" 'BEGIN { printf "%.0f", n / s }'; }
row() { local m; m=$(median "${times[$1]}"); echo "| $2 | \`$3\` | $m | $(rate "$m") |"; }
ratio() { awk -v a="$(median "${times[$1]}")" -v b="$(median "${times[$2]}")" 'BEGIN { printf "%.2f", b / a }'; }

echo "# bench/options — $(date -u +%Y-%m-%d) — $(nproc) cores, COUNT=$COUNT ${WIDTH}×${HEIGHT} JPEGs ($MIB MiB a folder), RUNS=$RUNS, exiftool $(exiftool -ver)${MAT2:+, $("$MAT2" --version)}"
echo
echo "| folder, tool | command | seconds (median) | pictures/s |"
echo "|---|---|---:|---:|"
row share_all "upright: share" "share --no-metadata IMG_*.jpg"
row exif_all "upright: exiftool" "exiftool -all= -o out/ IMG_*.jpg; rm -rf out"
if [ -n "$MAT2" ]; then row mat2 "upright: mat2" "mat2 IMG_*.jpg; rm IMG_*.cleaned.jpg"; fi
row share_gps "upright: share" "share --no-location IMG_*.jpg"
row exif_gps "upright: exiftool" "exiftool -gps:all= -o out/ IMG_*.jpg; rm -rf out"
row share_mixed "mixed: share (turns 3 in 10)" "share --no-metadata IMG_*.jpg"
row exif_mixed "mixed: exiftool (leaves them sideways)" "exiftool -all= -o out/ IMG_*.jpg; rm -rf out"
echo
mat2_ratio=""
if [ -n "$MAT2" ]; then mat2_ratio=", $(ratio share_all mat2)× the speed of mat2"; fi
echo "- all metadata, upright pictures: share runs at $(ratio share_all exif_all)× the speed of exiftool$mat2_ratio"
echo "- the location only: share runs at $(ratio share_gps exif_gps)× the speed of exiftool"
echo "- all metadata, three in ten turned upright: share runs at $(ratio share_mixed exif_mixed)× the speed of exiftool (which turns none)"
runs="- each run's seconds:"
for key in share_all exif_all mat2 share_gps exif_gps share_mixed exif_mixed; do
  if [ -n "${times[$key]:-}" ]; then runs+=" $key ${times[$key]% };"; fi
done
echo "$runs"
