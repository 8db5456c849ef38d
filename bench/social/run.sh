#!/usr/bin/env bash
# bench/social: a video posted through Vimeo's tus upload by share, beside
# curl streaming the same file to the same kind of upload link, against the
# tests' Vimeo API on 127.0.0.1 (bench/social/social_bench.py): peak memory
# must stay flat as the file grows.
#   SIZES   file sizes in MiB (default "64,1024")
#   RUNS    posts per program and size (default 3)
# Needs: tmux, curl, GNU time, openssl, /usr/bin/python3, and the release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARE=${SHARE:-$PWD/.build/release/share}
[ -x "$SHARE" ] || { echo "bench/social: $SHARE not found (make bench builds it)" >&2; exit 1; }
exec /usr/bin/python3 bench/social/social_bench.py --share "$SHARE" --sizes "${SIZES:-64,1024}" --runs "${RUNS:-3}"
