# The shipped schedules run out of the box (issues 2, 5, 6): the README's
# demo (Dream City 2012), the Slime KotH and the Volt 2016 league, each
# with `arena run` as a user types it. Each prints a standings table
# ranking every entry, every game's replay verifies, and nothing is left
# behind. (Reversi's and Space Wars' schedules have tests of their own:
# test_e2e_reversi.sh, test_e2e_spacewars.sh.)
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

# The entry names of a spec, from its "  - name: X" lines.
entries() {
	sed -n 's/^  - name: *\([A-Za-z0-9_.-]*\) *$/\1/p' "$1" |
	    grep -vx -f <(sed -n 's/^  - name: *\([A-Za-z0-9_.-]*\) *$/\1/p' \
	    <(sed -n '/^stages:/,$p' "$1"))
}

for name in dreamcity-2012 slime-koth volt-2016; do
	spec="$ARENA_SOURCE_DIR/schedules/$name.yaml"
	"$ARENA" run "$spec" --workers 2 > "$scratch/$name.out" \
	    2> "$scratch/$name.err" ||
		{ tail -n 20 "$scratch/$name.err" >&2; fail "$name: arena run failed"; }
	for e in $(entries "$spec"); do
		expect_match "$scratch/$name.out" "^ +[0-9]+ +$e "
	done
	"$ARENA" verify --all "$spec" > "$scratch/$name.verify" ||
		{ tail -n 5 "$scratch/$name.verify" >&2; fail "$name: a game does not verify"; }
	expect_match "$scratch/$name.verify" "^([0-9]+) games verified, \1 match, 0 do not$"
done

# Slime's ranking is the average score over all games: 6 entries, every
# 4 of them in all 4 rotations, so each plays C(5,3) * 4 = 40 games.
"$ARENA" standings "$ARENA_SOURCE_DIR/schedules/slime-koth.yaml" \
    --format csv > "$scratch/slime.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ p = $col["played"]; t = $col["total"]; a = $col["average"]
	  if (p != 40 || sprintf("%.3f", t / p) != a) {
		print "bad row: " $0; bad = 1 } }
	END { exit bad }' "$scratch/slime.csv" ||
	fail "Slime's averages do not follow from played and total"
expect_no_sandbox_left
echo "schedules: ok"
