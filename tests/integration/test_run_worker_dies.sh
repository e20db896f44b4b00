# `arena run` survives a local worker killed (SIGKILL) in mid-game: the
# worker is started again, the game it held goes back to the queue at once
# (not after its lease), its bots die with it, and the standings are the
# ones of an undisturbed run.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
spec="$here/e2e/spec.yaml"

"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" &
run=$!
trap 'kill $run 2>/dev/null || true; cleanup' EXIT

# A worker is in mid-game when it has a child (the game's process).
victim=
for _ in $(seq 300); do
	for w in $(pgrep -f "arena worker --connect ipc://.* --data $ARENA_DATA" || true); do
		if pgrep -P "$w" > /dev/null; then
			victim=$w
			break 2
		fi
	done
	sleep 0.05
done
[ -n "$victim" ] || fail "no worker was ever seen playing"
game=$(pgrep -P "$victim" | head -n 1)
kill -9 "$victim"

wait "$run" || { cat "$scratch/run.err" >&2; fail "arena run failed"; }
expect_match "$scratch/run.err" "worker local-[12] died"
expect_match "$scratch/run.err" "of lost worker 'local-[12]' requeued"
! kill -0 "$game" 2> /dev/null || fail "the dead worker's game lives on"
expect_no_sandbox_left
"$ARENA" standings "$spec" --format csv | diff -u "$here/e2e/expected.csv" - ||
	fail "standings differ from an undisturbed run"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 72 ] || fail "expected 72 games, got $games"
echo "run survives a worker's death: ok"
