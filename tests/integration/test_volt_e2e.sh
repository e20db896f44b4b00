# Volt end to end: a private PostgreSQL, a coordinator and a worker play a
# round robin of the house bots and both kits on the duel map from both
# sides (6 pairs x 2 = 12 games), with persistent team processes in the
# sandbox. The flag holder must top the standings, no game may end on a
# fault or see an illegal answer, and every result must replay from its
# moves.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

S=$ARENA_SOURCE_DIR
cat > "$scratch/spec.yaml" <<YAML
tournament: volt e2e
game: volt
seed: 6
datasets:
  - $S/schedules/volt/duel.map
entries:
  - name: holder
    folder: $S/games/volt/bots
    build: cc -O2 -o holder holder.c vtbot.c
    run: ./holder
  - name: walker
    folder: $S/games/volt/bots
    build: cc -O2 -o walker walker.c vtbot.c
    run: ./walker
  - name: kitc
    folder: $S/games/volt/kits/c
    build: cc -O2 -o bot bot.c
    run: ./bot
  - name: kitpy
    folder: $S/games/volt/kits/python
    run: python3 bot.py
limits:
  call_ms: 1000
  game_ms: 60000
stages:
  - name: league
    format: round_robin
YAML
spec=$scratch/spec.yaml

"$ARENA" check "$spec" > "$scratch/check.out"
expect_match "$scratch/check.out" "4 entries.*12 games"

"$ARENA" run "$spec" --workers 1 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }

"$ARENA" standings "$spec" --format csv > "$scratch/standings.csv"
sed -n 2p "$scratch/standings.csv" | grep -q ',holder,' ||
	{ cat "$scratch/standings.csv" >&2; fail "holder is not first"; }

"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 12 ] || fail "expected 12 games, got $games"
expect_match "$scratch/games.csv" "team_dead|steps"
grep -q ',fault' "$scratch/games.csv" && { cat "$scratch/games.csv" >&2; fail "a game ended on a fault"; }
expect_no_sandbox_left

game=$(awk -F, 'NR == 2 { print $4 }' "$scratch/games.csv")
"$ARENA" show game "$game" --replay > "$scratch/show.out"
expect_match "$scratch/show.out" "^ *A [a-z]+( [0-9]+)?, [a-z]+"
grep -q ' WA\| illegal [1-9]' "$scratch/show.out" &&
	{ cat "$scratch/show.out" >&2; fail "an illegal answer"; }

"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ cat "$scratch/verify.out" >&2; fail "verify found a mismatch"; }
expect_match "$scratch/verify.out" "^12 games verified, 12 match, 0 do not$"
echo "volt e2e: ok"
