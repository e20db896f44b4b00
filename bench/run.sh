#!/bin/bash
# Sandbox benchmark (issue 3): spawn-to-exit of /bin/true directly, under
# the arena sandbox (cold, prepared ahead, and run again in one sandbox as
# a per-turn bot's calls are) and under bwrap, and the per-move round trip
# of a persistent bot through plain pipes vs the sandbox with thaw and
# freeze.
# Prints one table with ratios against fork+exec measured in the same run
# and PASS/MISS against the two targets. Needs root (cgroups, namespaces).
#
# Usage: bench/run.sh [-n SPAWNS] [-m MOVES]    (defaults 300 and 2000)
# BUILD_DIR (default /tmp/build-bench) is configured Release if new.

set -euo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-/tmp/build-bench}

if [ "$(id -u)" -ne 0 ]; then
	echo "run.sh: needs root (cgroups, namespaces, id-mapped mounts)" >&2
	exit 2
fi
if ! command -v bwrap >/dev/null; then
	echo "run.sh: installing bubblewrap (the reference)" >&2
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >&2 ||
	{ apt-get update -q >&2 &&
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap >&2; }
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release >&2
fi
make -C "$build" -j2 sandbox_bench bench_echo_bot >&2

# bwrap is timed by the same fork+exec+wait harness as the baseline.
exec "$build/bench/sandbox_bench" --bwrap "$(command -v bwrap)" "$@"
