#!/usr/bin/env bash
# Writes tools/first-paint.order: the Swift functions the picker runs from
# its start to a Down arrow and Esc, as the linker's section names
# (.text.FUNCTION), sorted. Release builds compile each function into a
# section of its own and the linker puts these together (Makefile,
# RELEASE_FLAGS; DECISIONS.md, "Start-up: how release builds are made"),
# so the first paint maps a few pages of code instead of one or two in
# every object file. A function missing from the list (new code) is only
# placed elsewhere; run this again (make first-paint-order) when the
# start-up path changes.
#
# The two cases bench/tui measures, each once under valgrind's callgrind
# in a 100×30 pseudo-terminal (bench/tui/pty_bench.py): the activities
# fixture with a URL and 11 activities of its own, and share with a URL
# and 11 plugin manifests. valgrind 3.19 cannot read Swift 6's DWARF 5,
# so it runs copies without debug information.
# Needs: a release build (make build), valgrind, /usr/bin/python3.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release}
WORK=$(mktemp -d /tmp/share-first-paint-order.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
for tool in valgrind objcopy; do
  command -v "$tool" >/dev/null || { echo "first-paint-order: $tool not found" >&2; exit 1; }
done
objcopy --strip-debug "$BIN/share-activities-fixture" "$WORK/fixture"
objcopy --strip-debug "$BIN/share" "$WORK/share"
mkdir -p "$WORK/plugins/share/activities"
for i in $(seq 11); do
  printf '[Activity]\nType=com.example.plugin%d\nName=Activity %d\nCategory=action\nAccepts=url;\nExec=/bin/true\n' \
    "$i" "$i" > "$WORK/plugins/share/activities/p$i.activity"
done
callgrind=(valgrind --tool=callgrind --callgrind-out-file="$WORK/out.%p")
# Valgrind's start makes the first paint slow: a longer timeout than the benchmark's.
/usr/bin/python3 bench/tui/pty_bench.py --runs 1 --warmup 0 --timeout 60 \
  --case fixture "Esc cancel" - -- "${callgrind[@]}" "$WORK/fixture" --count 11 -- https://example.com ";;" \
  --case plugins "Esc cancel" - -- XDG_CONFIG_HOME="$WORK/plugins" "${callgrind[@]}" "$WORK/share" https://example.com ";;" \
  > "$WORK/runs.tsv"
# Each run's profile names every function it ran ("fn=(id) name" the first
# time, callees as "cfn="); Swift's mangled names start with $s.
cat "$WORK"/out.* | sed -n 's/^c\{0,1\}fn=([0-9]*) \(\$s.*\)$/.text.\1/p' | LC_ALL=C sort -u > tools/first-paint.order
echo "tools/first-paint.order: $(wc -l < tools/first-paint.order) functions"
