# Shared by the integration tests: a scratch folder whose private
# PostgreSQL is stopped and removed at exit, and small assertions.
set -euo pipefail

: "${ARENA:?ARENA must name the arena binary}"
: "${ARENA_SOURCE_DIR:?ARENA_SOURCE_DIR must name the source tree}"

scratch=$(mktemp -d /tmp/arena-test.XXXXXX)
# As root the private cluster runs as the postgres user, who must be able
# to reach it.
chmod 755 "$scratch"
export ARENA_DATA="$scratch/data"
unset ARENA_DB

cleanup() {
	"$ARENA" db stop >/dev/null 2>&1 || true
	rm -rf "$scratch"
}
trap cleanup EXIT

fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# expect_no_sandbox_left: no process runs as a sandbox uid (bots run as
# 200000 + slot, their namespace's init as 300000 + slot; see
# sandbox/sandbox.h) and no slot's cgroup is left. Machine-wide: the tests
# run one at a time (ctest without -j).
expect_no_sandbox_left() {
	local left

	left=$(ps -eo uid=,pid=,args= | awk '$1 >= 199999 && $1 < 400000')
	[ -z "$left" ] || fail "sandboxed processes left behind: $left"
	left=$(find /sys/fs/cgroup -maxdepth 6 -type d -path '*/arena/slot-*' \
		2>/dev/null || true)
	[ -z "$left" ] || fail "sandbox cgroups left behind: $left"
}

# expect_match FILE REGEX: FILE has a line matching REGEX.
expect_match() {
	grep -Eq -- "$2" "$1" || { cat "$1" >&2; fail "'$1' lacks /$2/"; }
}
