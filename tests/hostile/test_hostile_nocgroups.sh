# The sandbox's fallback where the kernel offers no usable cgroups
# (issue 3): ARENA_CGROUPS=none makes arena use it on this machine too.
# The hostile cases that cgroups would otherwise handle (time, CPU on the
# opponent's time, fork and thread bombs, daemons, memory, kill(-1),
# leftovers) and a per-turn few run through real games as in
# test_hostile.sh; limits then come from rlimits (RLIMIT_NPROC per slot
# uid, RLIMIT_DATA), freezing from SIGSTOP and usage from /proc.
here=$(cd "$(dirname "$0")" && pwd)
export ARENA_CGROUPS=none
if ! "$ARENA" doctor 2>&1 | grep -q '^cgroups: none$'; then
	echo "FAIL: ARENA_CGROUPS=none did not select the fallback" >&2
	exit 1
fi
HOSTILE_CASES="spin spin_threads ponder pauser sigstop fork_bomb daemon \
thread_bomb heap_bomb static_bomb hoard kill_all persist turn_spin \
turn_fork_bomb turn_daemon symlink_trap" exec bash "$here/test_hostile.sh"
