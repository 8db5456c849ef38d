#!/usr/bin/env bash
# bench/nearby: share's Nearby server beside nginx (sendfile on) and
# python3 -m http.server, the same file downloaded by curl over loopback,
# the servers taking turns in each run (bench/nearby/nearby_bench.py).
#   SIZES   file sizes in MiB (default "256,1024")
#   RUNS    downloads per server and size (default 5)
# Needs: nginx (nginx-light), curl, /usr/bin/python3, and the release build.
set -euo pipefail
cd "$(dirname "$0")/../.."
SHARE=${SHARE:-$PWD/.build/release/share}
[ -x "$SHARE" ] || { echo "bench/nearby: $SHARE not found (make bench builds it)" >&2; exit 1; }
exec /usr/bin/python3 bench/nearby/nearby_bench.py --share "$SHARE" --sizes "${SIZES:-256,1024}" --runs "${RUNS:-5}"
