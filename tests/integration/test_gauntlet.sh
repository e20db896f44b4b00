# A gauntlet with real Dream City games: kitc, passer and crasher each play
# greedy (scored by weight 10) and garbage (scored by a points table), one
# game per side on each of the e2e datasets, then the top 2 play a final.
# Every game's result follows from who moves first (e2e/expected.md):
#
#	kitc-greedy: 2 won, 2 lost	10 * (4 - 2) / 4 = 5.000
#	kitc-garbage: 4 won		points[0] = 20
#	passer-greedy: 4 lost		10 * 0 / 4 = 0.000
#	passer-garbage: 4 drawn (0-0)	points[0] = 20 (a draw is not lost)
#	crasher-greedy: 4 lost		0.000
#	crasher-garbage: 4 lost		points[4] = 0
#
# kitc 25.000, passer 20.000, crasher 0.000; the final kitc-passer is
# kitc's 4-0 (net 20).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
spec="$scratch/gauntlet.yaml"
dc="$ARENA_SOURCE_DIR/games/dreamcity"

cat > "$spec" <<YAML
tournament: gauntlet-e2e
game: dreamcity
seed: 3
datasets:
  - $here/e2e/strip.dc
  - $here/e2e/short.dc
entries:
  - {name: kitc, folder: $dc/kits/c, build: cc -O2 -o bot bot.c, run: ./bot}
  - {name: passer, folder: $here/e2e/bots, run: sh passer.sh}
  - {name: crasher, folder: $here/e2e/bots, run: sh crasher.sh}
  - name: greedy
    folder: $dc/bots
    build: cc -O2 -o greedy greedy.c dcbot.c
    run: ./greedy
  - {name: garbage, folder: $here/e2e/bots, run: sh garbage.sh}
stages:
  - name: evaluation
    format: gauntlet
    games_per_side: 1
    opponents:
      - {entry: greedy, weight: 10}
      - {entry: garbage, points: [20, 15, 10, 5, 0]}
    advance: 2
  - name: final
    format: final
YAML

# The game's rules: Dream City is played by two, so no 3-seat subsets.
sed 's/format: gauntlet/format: combinations\n    seats: 3/; /games_per_side/,/garbage, points/d' \
	"$spec" > "$scratch/koth.yaml"
if "$ARENA" check "$scratch/koth.yaml" 2> "$scratch/koth.err"; then
	fail "3 seats of Dream City passed the check"
fi
expect_match "$scratch/koth.err" "koth.yaml:19:12: stage 'evaluation' seats 3 per game; game 'dreamcity' is played by 2 to 2$"

"$ARENA" plan "$spec" > "$scratch/plan.out"
expect_match "$scratch/plan.out" "stage 'evaluation' \(gauntlet\): 5 entrants, opponents greedy, garbage, top 2 advance, 6 matches, 24 games"

"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }

"$ARENA" standings "$spec" --stage evaluation --format csv > "$scratch/eval.csv"
cat > "$scratch/want.csv" <<CSV
stage,group,rank,entry,greedy lost,greedy points,garbage lost,garbage points,played,lost,points
evaluation,A,1,kitc,2,5.000,0,20,8,2,25.000
evaluation,A,2,passer,4,0.000,0,20,8,4,20.000
evaluation,A,3,crasher,4,0.000,4,0,8,8,0.000
CSV
diff -u "$scratch/want.csv" "$scratch/eval.csv" ||
	fail "gauntlet standings differ from the hand-computed table"

"$ARENA" standings "$spec" --stage final --format csv > "$scratch/final.csv"
cat > "$scratch/want.csv" <<CSV
stage,group,rank,entry,played,won,drawn,lost,points,games_won,net_points
final,A,1,kitc,1,1,0,0,3,4,20
final,A,2,passer,1,0,0,1,0,0,0
CSV
diff -u "$scratch/want.csv" "$scratch/final.csv" ||
	fail "the final is not the gauntlet's top 2"

# Every stage at once: one table per stage, in stage order.
"$ARENA" standings "$spec" > "$scratch/all.txt"
expect_match "$scratch/all.txt" "^evaluation, group A$"
expect_match "$scratch/all.txt" "^final, group A$"
"$ARENA" standings "$spec" --format json > "$scratch/all.json"
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
assert [r["entry"] for r in d[0]] == ["kitc", "passer", "crasher"], d
assert d[0][0]["garbage points"] == 20 and d[1][0]["points"] == 3, d
' "$scratch/all.json" || fail "standings as JSON are not one document"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 28 ] || fail "expected 24 + 4 games, got $games"
expect_no_sandbox_left
