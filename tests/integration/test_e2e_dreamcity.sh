# The whole pipeline on one machine: a private PostgreSQL, a coordinator
# and two worker processes over ZeroMQ play an 8-entry Dream City
# tournament (groups, then a final) and the standings must equal the table
# worked out by hand in e2e/expected.md.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
spec="$here/e2e/spec.yaml"

"$ARENA" check "$spec" > "$scratch/check.out"
expect_match "$scratch/check.out" "8 entries"

"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }
expect_match "$scratch/run.out" "kitc"

"$ARENA" standings "$spec" --format csv > "$scratch/standings.csv"
diff -u "$here/e2e/expected.csv" "$scratch/standings.csv" ||
	fail "standings differ from the hand-computed table"

"$ARENA" standings "$spec" --stage final --format csv > "$scratch/final.csv"
{ head -n 1 "$here/e2e/expected.csv"; grep '^final,' "$here/e2e/expected.csv"; } |
	diff -u - "$scratch/final.csv" || fail "one stage's standings differ"

# Every game has exactly one result, with the end the rules give it.
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 72 ] || fail "expected 72 games, got $games"
expect_match "$scratch/games.csv" ",crasher,[^,]*,0,2,[a-z]+,RE$"
expect_match "$scratch/games.csv" ",sleeper,[^,]*,0,2,[a-z]+,TO$"
expect_match "$scratch/games.csv" ",garbage,passer,0,0,,call_limit$"
expect_match "$scratch/games.csv" ",kitc,crasher,4,0,kitc,all_placed$"
cut -d, -f4 "$scratch/games.csv" | sort | uniq -d | grep -q . &&
	fail "a game is listed twice"
expect_no_sandbox_left

# Each game's record names the fault, with each bot's usage.
crash=$(awk -F, '$6 == "crasher" { print $4; exit }' "$scratch/games.csv")
"$ARENA" show game "$crash" --replay > "$scratch/show.out"
expect_match "$scratch/show.out" "crasher +score 0 +RE +cpu [0-9]+ ms, wall [0-9]+ ms, peak [0-9]+ MB"
expect_match "$scratch/show.out" "end RE: seat A \(crasher\): killed by signal 11"
expect_match "$scratch/show.out" "^    ! A RE$"

# Running the finished tournament again resumes it: nothing is replayed
# and the standings stay the same.
"$ARENA" run "$spec" --workers 1 > "$scratch/rerun.out" 2> "$scratch/rerun.err" ||
	{ cat "$scratch/rerun.err" >&2; fail "second arena run failed"; }
"$ARENA" standings "$spec" --format csv | diff -u "$here/e2e/expected.csv" - ||
	fail "standings changed on resume"

# Every counted result follows from its stored moves, played again by the
# referee without the bots; an edited score or a cut replay is caught.
"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ cat "$scratch/verify.out" >&2; fail "verify found a mismatch"; }
expect_match "$scratch/verify.out" "^72 games verified, 72 match, 0 do not$"
sql() { psql "$("$ARENA" db url)" -Atc "$1"; }
placed=$(sql "SELECT g.id FROM games g JOIN results r ON r.id = g.result_id
	WHERE r.end_reason = 'all_placed' ORDER BY g.id LIMIT 1")
other=$(sql "SELECT g.id FROM games g JOIN results r ON r.id = g.result_id
	WHERE r.end_reason = 'all_placed' ORDER BY g.id DESC LIMIT 1")
"$ARENA" verify "$placed" > "$scratch/one.out" || fail "verify $placed failed"
expect_match "$scratch/one.out" "^game $placed attempt [0-9]+: match: [0-9]+ moves"
sql "UPDATE result_seats SET score = score + 1 WHERE seat = 0 AND
	result_id = (SELECT result_id FROM games WHERE id = $placed)" > /dev/null
sql "UPDATE results SET replay = regexp_replace(replay, '[^\n]*\n$', '')
	WHERE id = (SELECT result_id FROM games WHERE id = $other)" > /dev/null
"$ARENA" verify "$placed" "$other" > "$scratch/bad.out" &&
	fail "verify accepted an edited result"
expect_match "$scratch/bad.out" "^game $placed attempt [0-9]+: MISMATCH: .*, recorded "
expect_match "$scratch/bad.out" "^game $other attempt [0-9]+: CANNOT VERIFY: replay line [0-9]+: the replay stops"
echo "e2e dreamcity: ok"
