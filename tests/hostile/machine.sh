# Sourced by the hostile tests: what a sandbox could leave behind on this
# machine, told apart from the sandboxes other runs have open right now.
# A sandbox holds a lock on /run/arena/sandbox/slot-N.lock for its whole
# life (sandbox/sandbox.c), so a slot cgroup (<own group>/arena/slot-N,
# sandbox/cgroup.c) or a process of a slot's uid whose lock nobody holds
# was left behind.

slot_lock_dir=/run/arena/sandbox

# The outside uids of the slots, from sandbox/sandbox.h.
uid_base() {
	sed -n "s/^#define $1[[:space:]]*\([0-9][0-9]*\).*/\1/p" \
	    "$ARENA_SOURCE_DIR"/sandbox/*.h | head -n 1
}
setup_uid=$(uid_base SANDBOX_SETUP_UID_BASE)
bot_uid=$(uid_base SANDBOX_BOT_UID_BASE)
: "${setup_uid:?no SANDBOX_SETUP_UID_BASE in sandbox/sandbox.h}"
: "${bot_uid:?no SANDBOX_BOT_UID_BASE in sandbox/sandbox.h}"

# Whether slot $1 is in use by a live sandbox.
slot_busy() {
	[ -e "$slot_lock_dir/slot-$1.lock" ] &&
	    ! flock -n "$slot_lock_dir/slot-$1.lock" true 2>/dev/null
}

# Prints every slot cgroup and every live process of a slot uid whose
# slot is not in use.
slot_leaks() {
	local dir uid pid stat comm n

	while read -r dir; do
		slot_busy "${dir##*/slot-}" || echo "cgroup left: $dir"
	done < <(find /sys/fs/cgroup -maxdepth 10 -type d \
	    -path '*/arena/slot-*' 2>/dev/null)
	while read -r uid pid stat comm; do
		case $stat in Z*) continue ;; esac
		if [ "$uid" -ge "$setup_uid" ] &&
		    [ "$uid" -lt $((setup_uid + 256)) ]; then
			n=$((uid - setup_uid))
		elif [ "$uid" -ge "$bot_uid" ] &&
		    [ "$uid" -lt $((bot_uid + 256)) ]; then
			n=$((uid - bot_uid))
		else
			continue
		fi
		slot_busy "$n" ||
		    echo "process left: pid $pid uid $uid $comm (slot $n)"
	done < <(ps -eo uid=,pid=,stat=,comm=)
}

# The mounts of our own mount namespace: a sandbox mounts only in its own.
host_mounts() {
	awk '{ print $5, $9 }' /proc/self/mountinfo | sort
}
