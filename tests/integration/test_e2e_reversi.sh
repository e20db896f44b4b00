# Reversi end to end (issue 5). First the shipped evaluation,
# schedules/reversi-gauntlet.yaml, as `arena run` plays it: the two
# starter kits against the four house AIs, 5 games per colour each; the
# per-opponent columns must follow from the games themselves (games lost,
# weight x (10 - lost) / 10). Then a round robin of bots that break the
# protocol against ai1: one passes while it has a move, one answers
# twice, one writes after the game ended, one prints garbage. Each gets
# its verdict and the tournament goes on. Every game's replay verifies.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
sql() { psql "$("$ARENA" db url)" -qAtX -F '|' -v ON_ERROR_STOP=1 -c "$1"; }

# --- the shipped gauntlet ---
spec="$ARENA_SOURCE_DIR/schedules/reversi-gauntlet.yaml"
"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ tail -n 20 "$scratch/run.err" >&2; fail "arena run failed"; }
expect_match "$scratch/run.out" "^ +1 +starter-(cpp|python) "
expect_match "$scratch/run.out" "^ +2 +starter-(cpp|python) "
"$ARENA" standings "$spec" --format csv > "$scratch/standings.csv"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
[ "$(($(wc -l < "$scratch/games.csv") - 1))" -eq 80 ] ||
	fail "expected 80 games"
# games.csv: stage,group,match,game,dataset,first,second,s1,s2,winner,end
for entry in starter-cpp starter-python; do
	row=$(grep ",$entry," "$scratch/standings.csv")
	total=0 lost_all=0 col=5 weight=10
	for ai in ai1 ai2 ai3 ai4; do
		lost=$(awk -F, -v e="$entry" -v o="$ai" 'NR > 1 &&
		    (($6 == e && $7 == o) || ($6 == o && $7 == e)) &&
		    $10 == o' "$scratch/games.csv" | wc -l)
		points=$(awk -v w="$weight" -v l="$lost" \
		    'BEGIN { printf "%.3f", w * (10 - l) / 10 }')
		got=$(cut -d, -f"$col","$((col + 1))" <<< "$row")
		[ "$got" = "$lost,$points" ] ||
			fail "$entry against $ai: $got, expected $lost,$points"
		total=$(awk -v a="$total" -v b="$points" \
		    'BEGIN { printf "%.3f", a + b }')
		lost_all=$((lost_all + lost))
		col=$((col + 2)) weight=$((weight + 10))
	done
	[ "$(cut -d, -f13- <<< "$row")" = "40,$lost_all,$total" ] ||
		fail "$entry's totals: $row, expected 40,$lost_all,$total"
done
"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ tail -n 5 "$scratch/verify.out" >&2; fail "a gauntlet game does not verify"; }
expect_match "$scratch/verify.out" "^80 games verified, 80 match, 0 do not$"

# --- bots that break the protocol ---
bad="$scratch/bad"
mkdir -p "$bad"
cp "$ARENA_SOURCE_DIR/games/reversi/kits/python/bot.py" "$bad/kit.py"
cat > "$bad/bad.py" <<'PY'
# The starter kit's player, broken as argv[1] says.
import sys
import kit

mode, board, me = sys.argv[1], None, None
for line in sys.stdin:
    words = line.split()
    if words[0] == 'reversi':
        me = 'X' if words[1] == 'black' else 'O'
        board = [list(words[3][8 * r:8 * r + 8]) for r in range(8)]
        continue
    if words[0] != 'start' and int(words[0]) >= 0:
        kit.play(board, int(words[0]), int(words[1]), 'O' if me == 'X' else 'X')
    move = kit.choose(board, me, 0)
    if mode == 'pass' or move is None:
        answer = '-1 -1'
    elif mode == 'garbage':
        answer = 'e4, please'
    else:
        kit.play(board, move[0], move[1], me)
        answer = '%d %d' % move
    print(answer, flush=True)
    if mode == 'twice':
        print(answer, flush=True)
if mode == 'after':
    print('0 0', flush=True)
PY
spec="$scratch/bad.yaml"
{
	cat <<YAML
tournament: reversi protocol breakers
game: reversi
seed: 5
datasets:
  - $ARENA_SOURCE_DIR/schedules/reversi/standard.rv
entries:
  - name: ai1
    folder: $ARENA_SOURCE_DIR/games/reversi
    build: cc -O2 -o ai1 bots/ai1.c bots/rvbot.c rvboard.c
    run: ./ai1
YAML
	for mode in pass twice after garbage; do
		printf '  - name: %s\n    folder: %s\n    run: python3 bad.py %s\n' \
		    "$mode" "$bad" "$mode"
	done
	cat <<YAML
limits:
  call_ms: 1000
  game_ms: 10000
stages:
  - name: all
    format: round_robin
YAML
} > "$spec"
"$ARENA" run "$spec" --workers 2 > "$scratch/bad.out" 2> "$scratch/bad.err" ||
	{ tail -n 20 "$scratch/bad.err" >&2; fail "the tournament did not go on"; }
for e in ai1 pass twice after garbage; do
	expect_match "$scratch/bad.out" "^ +[0-9]+ +$e "
done
# Each breaker's seat in its two games against ai1: verdict, the game's
# end, its score and the result's detail.
seats() {
	sql "SELECT h.verdict, r.end_reason, h.score, r.detail
	FROM tournaments t
	JOIN entries e ON e.tournament_id = t.id AND e.name = '$1'
	JOIN entries a ON a.tournament_id = t.id AND a.name = 'ai1'
	JOIN game_seats s ON s.entry_id = e.id
	JOIN game_seats o ON o.game_id = s.game_id AND o.entry_id = a.id
	JOIN games g ON g.id = s.game_id
	JOIN results r ON r.id = g.result_id
	JOIN result_seats h ON h.result_id = r.id AND h.seat = s.seat
	WHERE t.name = 'reversi protocol breakers'"
}
expect_rows() {	# ENTRY REGEX: both games' rows match
	seats "$1" > "$scratch/$1.rows"
	[ "$(grep -Ec -- "$2" "$scratch/$1.rows")" -eq 2 ] ||
		{ cat "$scratch/$1.rows" >&2; fail "$1: expected 2 rows like /$2/"; }
}
expect_rows pass '^WA\|illegal\|0\|'
expect_rows garbage '^WA\|illegal\|0\|'
# A second answer still in the pipe is "answered twice"; one the bot had
# not yet written when it was frozen comes out after the next request and
# is taken as the next answer (no one can tell them apart), so the game
# ends on that illegal move and the real answer is "after the game".
expect_rows twice '^WA\|(WA|illegal)\|0\|.*(answered twice|wrote after the game ended)'
expect_rows after '^WA\|(board_full|no_moves)\|[0-9]+\|.*wrote after the game ended'
"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ cat "$scratch/verify.out" >&2; fail "a breaker's game does not verify"; }
expect_match "$scratch/verify.out" "^20 games verified, 20 match, 0 do not$"
expect_no_sandbox_left
echo "e2e reversi: ok"
