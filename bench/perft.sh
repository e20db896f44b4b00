#!/bin/bash
# Reversi perft beyond the unit test's depth 9: depths 1..MAX (default 11)
# against games/reversi/perft.tsv (Bik's column), with leaves per second.
# Not run by ctest. Depth 11 takes about 15 s on one core (Debug or Release:
# the target is always -O2).
#
# Usage: bench/perft.sh [MAX]
# BUILD_DIR (default /tmp/build-bench) is configured Release if new.
set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/build-bench}
max=${1:-11}

if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >&2
fi
make -C "$build" -j2 bench_perft >&2

status=0
while IFS=$'\t' read -r depth bik _; do
	case $depth in ''|\#*|depth) continue ;; esac
	[ "$depth" -le "$max" ] || break
	"$build/bench/bench_perft" "$depth" "$bik" || status=1
done < "$src/games/reversi/perft.tsv"
exit $status
