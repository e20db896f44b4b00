# 10,000 sandboxed runs of /bin/true in a row (issue 3): every one must
# end OK, and afterwards the machine must be as before: no cgroup and no
# process of a slot nobody holds (machine.sh), no new mount in our
# namespace, no more than one lock file per slot. Uses `arena sandbox
# --repeat N` when the command has it (one process, so the loop measures
# the sandbox, not our start-up), else one `arena sandbox` per run.
# HOSTILE_LOOP_RUNS changes the count.
here=$(cd "$(dirname "$0")" && pwd)
. "$ARENA_SOURCE_DIR/tests/integration/lib.sh"
runs=${HOSTILE_LOOP_RUNS:-10000}
budget_s=170

"$ARENA" sandbox --help > "$scratch/help" 2>&1 || true
grep -q -- '--dir' "$scratch/help" ||
    fail "no arena sandbox with --dir: $(head -n 3 "$scratch/help")"

mkdir "$scratch/box"
chmod 777 "$scratch/box"
host_mounts > "$scratch/mounts"
start=$(date +%s)
if grep -q -- '--repeat' "$scratch/help"; then
	"$ARENA" sandbox --repeat "$runs" --dir "$scratch/box" -- /bin/true \
	    > "$scratch/out" 2>&1 ||
	    { tail "$scratch/out" >&2; fail "arena sandbox --repeat failed"; }
	how="--repeat"
else
	for ((i = 1; i <= runs; i++)); do
		# The verdict line goes to stderr.
		"$ARENA" sandbox --dir "$scratch/box" -- /bin/true \
		    >> "$scratch/out" 2>&1 ||
		    { tail -n 3 "$scratch/out" >&2; fail "run $i failed"; }
		if [ $((i % 500)) -eq 0 ] &&
		    [ $(($(date +%s) - start)) -gt "$budget_s" ]; then
			fail "too slow: $i runs in more than ${budget_s} s"
		fi
	done
	how="one arena sandbox per run"
fi
elapsed=$(($(date +%s) - start))
ok=$(grep -cw OK "$scratch/out")
[ "$ok" -eq "$runs" ] ||
    fail "$ok of $runs runs say OK; first other: $(grep -vw OK \
	"$scratch/out" | head -n 1)"

for ((i = 0; i < 30; i++)); do
	[ -z "$(slot_leaks)" ] && host_mounts | cmp -s - "$scratch/mounts" &&
	    break
	sleep 0.1
done
slot_leaks >&2
host_mounts | diff "$scratch/mounts" - >&2 || fail "the mounts changed"
[ -z "$(slot_leaks)" ] || fail "sandboxes left things behind"
locks=$(find /run/arena/sandbox -maxdepth 1 -name 'slot-*' 2>/dev/null |
    wc -l)
[ "$locks" -le 256 ] || fail "$locks slot lock files in /run/arena/sandbox"
echo "sandbox loop: ok ($runs runs of /bin/true in ${elapsed} s, $how)"
