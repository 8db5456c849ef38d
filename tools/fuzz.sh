#!/usr/bin/env bash
# Runs every fuzz target (or those named in FUZZ_TARGETS) for FUZZ_SECONDS
# each, on a copy of its seed corpus (Fuzz/corpus/TARGET) that grows in
# .build/fuzz/corpus/TARGET. Prints executions per target; exits 1 when a
# target failed, leaving the input in .build/fuzz/crashes/.
# FUZZ_EXECUTIONS=N also ends a target's run after N executions, whichever
# limit comes first (the long runs recorded in bench/RESULTS.md).
# With FUZZ_RUNS=N instead, each target runs N inputs from its seeds alone
# with a fixed seed: the same inputs every time (make test).
# Needs the fuzzing build: make fuzz (which runs this).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${FUZZ_BIN:-.build/fuzz/release/share-fuzz}
SECONDS_EACH=${FUZZ_SECONDS:-60}
TARGETS=${FUZZ_TARGETS:-address mailto ini vcard keys mime thumbnail photo metadata}
WORK=${FUZZ_WORK:-.build/fuzz}
mkdir -p "$WORK/crashes" "$WORK/logs"
failed=0
printf '%-9s %12s %8s %s\n' target executions corpus result
for target in $TARGETS; do
  corpus="$WORK/corpus/$target"
  if [ -n "${FUZZ_RUNS:-}" ]; then
    rm -rf "$corpus"
    limits=(-runs="$FUZZ_RUNS" -seed=1)
  else
    limits=(-max_total_time="$SECONDS_EACH")
    if [ -n "${FUZZ_EXECUTIONS:-}" ]; then limits+=(-runs="$FUZZ_EXECUTIONS"); fi
  fi
  mkdir -p "$corpus"
  cp -n Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
  log="$WORK/logs/$target.log"
  # The Swift runtime's backtracer would stop each crash for half a minute.
  # Recording where each block was allocated costs a third of the speed; a
  # failing input is kept, and run alone it shows them (Fuzz/README.md).
  if SHARE_FUZZ_TARGET=$target SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0:malloc_context_size=0 \
     "$BIN" "${limits[@]}" -max_len=4096 -print_final_stats=1 \
       -artifact_prefix="$WORK/crashes/$target-" "$corpus" >"$log" 2>&1; then
    result=held
  else
    result="FAILED (see $log)"
    failed=1
  fi
  executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  printf '%-9s %12s %8s %s\n' "$target" "${executions:-?}" "$(ls "$corpus" | wc -l)" "$result"
done
exit $failed
