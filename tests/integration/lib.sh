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

# expect_no_sandbox_left: no process of a sandbox uid and no slot cgroup
# is left whose slot nobody holds (tests/hostile/machine.sh), so sandboxes
# that other runs have open right now do not count.
. "$ARENA_SOURCE_DIR/tests/hostile/machine.sh"
expect_no_sandbox_left() {
	local left

	left=$(slot_leaks)
	[ -z "$left" ] || fail "sandbox left behind: $left"
}

# expect_match FILE REGEX: FILE has a line matching REGEX.
expect_match() {
	grep -Eq -- "$2" "$1" || { cat "$1" >&2; fail "'$1' lacks /$2/"; }
}
