#!/bin/bash
# Dispatch benchmark (issue 4): games per second through the coordinator
# and PostgreSQL with instant fake workers (1, 2 and 4 of them), the
# coordinator's and the database's CPU per game, and the time inside each
# database call, with ratios against baselines of the same run (a wire
# round trip, SELECT 1 and a one-row UPDATE through libpq). PASS/MISS
# against 2,000 games/s. Starts and removes its own PostgreSQL cluster.
#
# Usage: bench/dispatch.sh [-e ENTRIES] [-s SLOTS] [-w 1,2,4] [-n ROUNDS] [-a] [-W]
#   -e 60 (default): 3,540 games a run; -e 142: 20,022
#   -a: synchronous_commit off on the coordinator's connection
#   -W: no warm-up tournament (played first, not reported)
# BUILD_DIR (default /tmp/build-dbench) is configured Release if new.

set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/build-dbench}

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >&2
fi
make -C "$build" -j2 dispatch_bench >&2
exec "$build/bench/dispatch_bench" "$@"
