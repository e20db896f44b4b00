# A coordinator and two workers over TCP on loopback, as on separate
# machines. The coordinator is killed (SIGKILL) in mid-tournament and
# started again: the workers notice its silence and reconnect by
# themselves, every game ends with exactly one result, the standings are
# those of an undisturbed run, and all three exit 0 once the coordinator
# says BYE.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
# The e2e tournament with 3 s of game time, so a game whose GAME message
# died with the first coordinator comes back on lease expiry within
# 2 * 3 s * 2 + 60 s (coordinator/dispatch.h).
spec="$scratch/spec.yaml"
sed -e "s|^tournament: .*|tournament: wire|" \
	-e "s|game_ms: .*|game_ms: 3000|" \
	-e "s|folder: |folder: $here/e2e/|" \
	-e "s|^  - \([a-z]*\.dc\)$|  - $here/e2e/\1|" \
	"$here/e2e/spec.yaml" > "$spec"
grep -q "game_ms: 3000" "$spec" || fail "cannot make the test spec"
w1= w2= c1=
trap 'kill $w1 $w2 $c1 2>/dev/null || true; cleanup' EXIT
endpoint="tcp://127.0.0.1:$((20000 + RANDOM % 20000))"

"$ARENA" worker --connect "$endpoint" --name w1 --data "$scratch/w1" \
	2> "$scratch/w1.err" &
w1=$!
"$ARENA" worker --connect "$endpoint" --name w2 --slots 2 \
	--data "$scratch/w2" 2> "$scratch/w2.err" &
w2=$!
"$ARENA" coordinator "$spec" --bind "$endpoint" 2> "$scratch/c1.err" &
c1=$!
for _ in $(seq 600); do
	grep -q "games [0-9]*/" "$scratch/c1.err" && break
	sleep 0.1
done
expect_match "$scratch/c1.err" "games [0-9]+/48"
kill -9 "$c1"
wait "$c1" 2>/dev/null || true

"$ARENA" coordinator "$spec" --bind "$endpoint" 2> "$scratch/c2.err" ||
	{ cat "$scratch/c2.err" >&2; fail "second coordinator failed"; }
expect_match "$scratch/c2.err" "tournament finished; 2 workers"
wait "$w1" || { cat "$scratch/w1.err" >&2; fail "worker w1 failed"; }
wait "$w2" || { cat "$scratch/w2.err" >&2; fail "worker w2 failed"; }
expect_match "$scratch/w1.err" "coordinator silent, reconnecting"
expect_match "$scratch/w2.err" "the tournament is over"

"$ARENA" standings "$spec" --format csv | diff -u "$here/e2e/expected.csv" - ||
	fail "standings differ from an undisturbed run"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 72 ] || fail "expected 72 games, got $games"
cut -d, -f4 "$scratch/games.csv" | sort | uniq -d | grep -q . &&
	fail "a game is listed twice"
echo "coordinator and workers: ok"
