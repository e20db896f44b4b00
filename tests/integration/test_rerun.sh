# A dispute: the e2e tournament is played, then the passer bot is replaced
# by one that places (the "right version"), and its groups match against
# garbage is rerun with a reason. The new result supersedes the old in the
# standings, the old stays in the history, the final (already played by
# the old advancers) is left as it is and that is said loudly.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# The spec and its bots in the scratch folder, so a bot can change; the
# house bots and kits stay where they are (absolute folders).
mkdir "$scratch/e2e"
cp -r "$here/e2e/bots" "$here/e2e/strip.dc" "$here/e2e/short.dc" "$scratch/e2e/"
sed "s|\.\./\.\./\.\./games/|$ARENA_SOURCE_DIR/games/|" "$here/e2e/spec.yaml" \
	> "$scratch/e2e/spec.yaml"
spec="$scratch/e2e/spec.yaml"

"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }
"$ARENA" standings "$spec" --format csv > "$scratch/before.csv"
diff -u "$here/e2e/expected.csv" "$scratch/before.csv" ||
	fail "standings before the rerun differ from e2e/expected.csv"
"$ARENA" export games "$spec" --format csv > "$scratch/games1.csv"
match=$(awk -F, '$1 == "groups" && $6 == "garbage" && $7 == "passer" {
	print $3; exit }' "$scratch/games1.csv")
[ -n "$match" ] || fail "no groups match garbage - passer"

# The passer entry now places, like the Python kit (same folder, same
# spec text: the tournament resumes).
cp "$ARENA_SOURCE_DIR/games/dreamcity/kits/python/bot.py" "$scratch/e2e/bots/"
printf 'exec python3 bot.py\n' > "$scratch/e2e/bots/passer.sh"
# The worker's build cache notices the changed folder (its files' sizes
# and times are part of the key): the new bot runs, not a stale copy.

"$ARENA" rerun "$spec" --match "$match" --reason "passer ran the wrong version" \
	--by judge@arena --workers 2 > "$scratch/rerun.out" 2> "$scratch/rerun.err" ||
	{ cat "$scratch/rerun.err" >&2; fail "arena rerun failed"; }

# By hand (e2e/expected.md): passer now places, so it beats garbage 4-0 on
# games with net 4 + 6 + 4 + 6 = 20, as a placer does. Group A becomes:
#   kitc    unchanged: 9 points, 12 games, net 54, rank 1
#   passer  beat garbage and crasher, lost to kitc (an old match, still
#           counted): 6 points, 4 + 4 games, net 20 + 8 = 28, rank 2
#   garbage beat crasher, lost to kitc and passer: 3 points, 4 games,
#           net 8, rank 3
#   crasher unchanged, rank 4
# Group B and the final do not change: the final was played by kitc and
# garbage and stays so; kitc and passer would advance now.
expect_match "$scratch/rerun.out" "^rerun 1 by judge@arena: 4 games queued again$"
expect_match "$scratch/rerun.out" "^  A passer +before: rank 2, 4 pts \(1-1-1\), games won 4, net 8$"
expect_match "$scratch/rerun.out" "^  A passer +after:  rank 2, 6 pts \(2-0-1\), games won 8, net 28$"
expect_match "$scratch/rerun.out" "^  A garbage +after:  rank 3, 3 pts \(1-0-2\), games won 4, net 8$"
[ "$(grep -c 'before:' "$scratch/rerun.out")" -eq 2 ] ||
	{ cat "$scratch/rerun.out" >&2; fail "rows other than passer and garbage changed"; }
expect_match "$scratch/rerun.err" "WARNING: stage 'groups' now sends on kitc, passer, kitpy, greedy, but stage 'final' was already played by kitc, garbage, kitpy, greedy"

{
	head -n 1 "$here/e2e/expected.csv"
	echo "groups,A,1,kitc,3,3,0,0,9,12,54"
	echo "groups,A,2,passer,3,2,0,1,6,8,28"
	echo "groups,A,3,garbage,3,1,0,2,3,4,8"
	echo "groups,A,4,crasher,3,0,0,3,0,0,0"
	grep -e '^groups,B,' -e '^final,' "$here/e2e/expected.csv"
} > "$scratch/expected-after.csv"
"$ARENA" standings "$spec" --format csv | diff -u "$scratch/expected-after.csv" - ||
	fail "standings after the rerun differ from the hand-worked table"

# One current result per game, the rerun's for the rerun games.
"$ARENA" export games "$spec" --format csv > "$scratch/games2.csv"
[ "$(($(wc -l < "$scratch/games2.csv") - 1))" -eq 72 ] || fail "expected 72 games"
cut -d, -f4 "$scratch/games2.csv" | sort | uniq -d | grep -q . &&
	fail "a game is listed twice"
[ "$(awk -F, -v m="$match" '$3 == m && $10 == "passer"' "$scratch/games2.csv" |
	wc -l)" -eq 4 ] || fail "passer does not win the rerun games"

# The history: both attempts, the old superseded by the rerun, who and why.
"$ARENA" show match "$match" > "$scratch/show.out"
[ "$(grep -c '^attempt 1 (superseded by rerun 1)' "$scratch/show.out")" -eq 4 ] ||
	{ cat "$scratch/show.out" >&2; fail "show lacks the 4 superseded attempts"; }
[ "$(grep -c '^attempt 2 (counted)' "$scratch/show.out")" -eq 4 ] ||
	fail "show lacks the 4 counted rerun attempts"
expect_match "$scratch/show.out" "^rerun 1 asked by judge@arena at .*: passer ran the wrong version$"
expect_match "$scratch/show.out" "standings groups A passer: rank 2, 4 pts .* -> rank 2, 6 pts"
expect_match "$scratch/show.out" "^WARNING: stage 'groups' now sends on kitc, passer"

"$ARENA" status "$spec" > "$scratch/status.out"
expect_match "$scratch/status.out" "^  groups +48/48 done, 0 running, 0 queued, 0 failed$"
expect_match "$scratch/status.out" "^  local-[12] .*games done"
expect_match "$scratch/status.out" "^WARNING: stage 'groups' now sends on"
expect_no_sandbox_left
echo "rerun: ok"
