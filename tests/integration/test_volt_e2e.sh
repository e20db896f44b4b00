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

# Undecided games go to the spare maps: two teams that only stay score
# nothing and both survive, so each game on the duel map is undecided and
# is replaced, in the transaction that records it, by one on the first
# spare; undecided again, by one on the second; undecided on the last
# spare, it counts as a draw. The replaced games stay, for audit.
mkdir -p "$scratch/idle"
cat > "$scratch/idle/idle.sh" <<'SH'
while read -r word rest; do
	[ "$word" = step ] && echo "stay, stay"
done
SH
cat > "$scratch/spare.yaml" <<YAML
tournament: volt spares
game: volt
seed: 7
datasets:
  - $S/schedules/volt/duel.map
spare_datasets:
  - $S/schedules/volt/spare.map
  - $S/schedules/volt/fortress.map
entries:
  - name: idle1
    folder: $scratch/idle
    run: sh idle.sh
  - name: idle2
    folder: $scratch/idle
    run: sh idle.sh
limits:
  call_ms: 1000
  game_ms: 60000
stages:
  - name: league
    format: round_robin
YAML
"$ARENA" run "$scratch/spare.yaml" --workers 2 > "$scratch/spare.out" \
    2> "$scratch/spare.err" || { cat "$scratch/spare.err" >&2; fail "arena run of the spares failed"; }
"$ARENA" export games "$scratch/spare.yaml" --format csv > "$scratch/spare.csv"
[ "$(grep -c ',fortress.map,idle[12],idle[12],0,0,,undecided$' "$scratch/spare.csv")" -eq 2 ] ||
	{ cat "$scratch/spare.csv" >&2; fail "expected the 2 counted games on the last spare, drawn"; }
[ "$(wc -l < "$scratch/spare.csv")" -eq 3 ] ||
	{ cat "$scratch/spare.csv" >&2; fail "replaced games are counted"; }
expect_match "$scratch/spare.out" "^ +1 +idle1 +1 +0 +1 +0 +1 "
first=$(psql "$("$ARENA" db url)" -qAtX -c "SELECT min(g.id) FROM games g
	JOIN datasets d ON d.id = g.dataset_id WHERE d.name = 'duel.map'
	AND d.tournament_id = (SELECT id FROM tournaments
	WHERE name = 'volt spares')")
"$ARENA" show game "$first" > "$scratch/replaced.out"
expect_match "$scratch/replaced.out" "undecided: replaced by game [0-9]+"
"$ARENA" verify --all "$scratch/spare.yaml" > "$scratch/spare.verify" ||
	{ cat "$scratch/spare.verify" >&2; fail "a spare game does not verify"; }
expect_no_sandbox_left
echo "volt e2e: ok"
