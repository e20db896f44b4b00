# Slime end to end: a private PostgreSQL, a coordinator and a worker play
# one combination of 4 entries in all 4 seat rotations on the standard
# 8x8 board, with per-turn bots (a new process per call, the board as its
# argument): the C house bots, the Python kit and a bot that answers junk.
# lookahead must top the standings, junk must be marked WA but still be
# called to the end, and every result must replay from its moves.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

S=$ARENA_SOURCE_DIR
mkdir -p "$scratch/junk"
printf '#!/bin/sh\necho up and away\n' > "$scratch/junk/junk.sh"
cat > "$scratch/spec.yaml" <<YAML
tournament: slime e2e
game: slime
seed: 5
datasets:
  - $S/schedules/slime/board8.txt
entries:
  - name: lookahead
    folder: $S/games/slime/bots
    build: cc -O2 -o lookahead lookahead.c slbot.c
    run: ./lookahead
  - name: random
    folder: $S/games/slime/bots
    build: cc -O2 -o random random.c slbot.c
    run: ./random
  - name: kitpy
    folder: $S/games/slime/kits/python
    run: python3 bot.py
  - name: junk
    folder: junk
    run: sh junk.sh
limits:
  call_ms: 100
  game_ms: 60000
stages:
  - name: koth
    format: combinations
    seats: 4
    rotation: true
YAML
spec=$scratch/spec.yaml

"$ARENA" check "$spec" > "$scratch/check.out"
expect_match "$scratch/check.out" "4 entries"

"$ARENA" run "$spec" --workers 1 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }

"$ARENA" standings "$spec" --format csv > "$scratch/standings.csv"
sed -n 2p "$scratch/standings.csv" | grep -q ',lookahead,' ||
	{ cat "$scratch/standings.csv" >&2; fail "lookahead is not first"; }

"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 4 ] || fail "expected 4 games, got $games"
expect_match "$scratch/games.csv" "board_full|turn_limit"
grep -q ',fault' "$scratch/games.csv" && fail "a game ended on a fault"
expect_no_sandbox_left

# junk's seat is WA in every game, yet the game went on to its end.
game=$(awk -F, 'NR == 2 { print $4 }' "$scratch/games.csv")
"$ARENA" show game "$game" --replay > "$scratch/show.out"
expect_match "$scratch/show.out" "junk .*WA"
expect_match "$scratch/show.out" "end (board_full|turn_limit)"

# The viewer shows the board move by move, ending on the result.
"$ARENA" replay "$game" --delay 10 > "$scratch/replay.out"
expect_match "$scratch/replay.out" "^call [0-9]+: scores [0-9]+ [0-9]+ [0-9]+ [0-9]+, over: (board_full|turn_limit)"
expect_match "$scratch/replay.out" "^[.1-4]{8}$"

"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ cat "$scratch/verify.out" >&2; fail "verify found a mismatch"; }
expect_match "$scratch/verify.out" "^4 games verified, 4 match, 0 do not$"
echo "slime koth: ok"
