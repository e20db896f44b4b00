# Bots travel by content hash: the e2e tournament, copied to a scratch
# folder, is opened by a coordinator (which packs every entry into
# PostgreSQL); then the copied folders are moved away, so the worker that
# starts only now cannot read any of them. It fetches each artifact over
# ZeroMQ, checks it, unpacks and builds it, and the tournament ends with
# the hand-computed standings. `arena show game` names each seat's sha256.
# A resume after an entry changed packs it again and says so.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
src="$scratch/src"
mkdir -p "$src/tests/integration" "$src/games/dreamcity"
cp -a "$here/e2e" "$src/tests/integration/e2e"
cp -a "$ARENA_SOURCE_DIR/games/dreamcity/kits" \
	"$ARENA_SOURCE_DIR/games/dreamcity/bots" "$src/games/dreamcity/"
# Build outputs from other runs would only make the artifacts larger.
find "$src" \( -name '*.o' -o -name a.out \) -delete
spec="$src/tests/integration/e2e/spec.yaml"
sed -i "s|^tournament: .*|tournament: artifacts|" "$spec"
w1= c1=
trap 'kill $w1 $c1 2>/dev/null || true; cleanup' EXIT
endpoint="tcp://127.0.0.1:$((20000 + RANDOM % 20000))"

"$ARENA" coordinator "$spec" --bind "$endpoint" 2> "$scratch/c1.err" &
c1=$!
for _ in $(seq 600); do
	[ "$(grep -c "entry '.*' packed: [0-9a-f]\{64\}" "$scratch/c1.err")" -eq 8 ] &&
		grep -q "stage '.*' expanded" "$scratch/c1.err" && break
	kill -0 "$c1" 2>/dev/null || { cat "$scratch/c1.err" >&2; fail "coordinator died"; }
	sleep 0.1
done
expect_match "$scratch/c1.err" "stage '.*' expanded"
mv "$src" "$scratch/away"
[ ! -e "$spec" ] || fail "the entries are still reachable"

"$ARENA" worker --connect "$endpoint" --name w1 --slots 2 \
	--data "$scratch/w1" 2> "$scratch/w1.err" &
w1=$!
wait "$c1" || { cat "$scratch/c1.err" >&2; fail "coordinator failed"; }
wait "$w1" || { cat "$scratch/w1.err" >&2; fail "worker failed"; }
expect_match "$scratch/c1.err" "tournament finished"
expect_match "$scratch/w1.err" "artifact [0-9a-f]{64} stored"
n=$(ls "$scratch/w1/artifacts" | grep -c '^[0-9a-f]\{64\}\.tar$')
# kitc, kitpy, the house bots' folder and the e2e bots' folder.
[ "$n" -eq 4 ] || fail "expected 4 artifacts in the worker's cache, got $n"

mv "$scratch/away" "$src"
"$ARENA" standings "$spec" --format csv | diff -u "$here/e2e/expected.csv" - ||
	fail "standings differ from the hand-computed table"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 72 ] || fail "expected 72 games, got $games"
"$ARENA" show game 1 > "$scratch/show.out"
[ "$(grep -cE '^    bot sha256 [0-9a-f]{64}$' "$scratch/show.out")" -eq 2 ] ||
	{ cat "$scratch/show.out" >&2; fail "show game lacks the bots' hashes"; }

# An entry changed between a run and a resume is packed anew, and said so.
echo "# changed" >> "$src/tests/integration/e2e/bots/passer.sh"
"$ARENA" coordinator "$spec" --bind "$endpoint" 2> "$scratch/c2.err" ||
	{ cat "$scratch/c2.err" >&2; fail "resumed coordinator failed"; }
expect_match "$scratch/c2.err" "changed since it was packed: [0-9a-f]{64} -> [0-9a-f]{64}"
echo "artifacts: ok"
