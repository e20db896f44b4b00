# Space Wars end to end: schedules/spacewars-2012.yaml (the house bots and
# both starter kits, all_vs_all on one generated field) is run by
# `arena run`; its standings are checked against `arena export games`:
# one row per entry, played = its games, total = the sum of its scores
# (repeat 1), ranked by total, the best 10.000 and every other mark
# 10 x total / best; every game is verified by replaying the referee, and
# no sandbox is left. The hunter destroys every other fleet, so its games
# end early; the other pairs play the full 1000 turns.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
spec="$ARENA_SOURCE_DIR/schedules/spacewars-2012.yaml"

"$ARENA" check "$spec" > "$scratch/check.out"
expect_match "$scratch/check.out" "ranking \(6 matches, 12 games\)"
"$ARENA" plan "$spec" > "$scratch/plan.out"
expect_match "$scratch/plan.out" "^stage 'ranking' \(all_vs_all\): 4 entrants, every pair 1 time per dataset and side, 6 matches, 12 games$"

"$ARENA" run "$spec" --workers 2 > "$scratch/run.out" 2> "$scratch/run.err" ||
	{ cat "$scratch/run.err" >&2; fail "arena run failed"; }

"$ARENA" standings "$spec" --format csv > "$scratch/standings.csv"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
python3 - "$scratch/standings.csv" "$scratch/games.csv" <<'PY' ||
import csv, sys
from decimal import Decimal, ROUND_HALF_UP

rows = list(csv.DictReader(open(sys.argv[1])))
games = list(csv.DictReader(open(sys.argv[2])))
entries = ["hunter", "drifter", "kit-c", "kit-python"]
assert list(rows[0]) == ["stage", "group", "rank", "entry", "played",
    "total", "mark"], list(rows[0])
assert sorted(r["entry"] for r in rows) == sorted(entries), rows
assert len(games) == 12, len(games)

# Every pair twice, each first once.
sides = {(g["first"], g["second"]) for g in games}
for a in entries:
    for b in entries:
        assert (a != b) == ((a, b) in sides), (a, b)

total = {e: 0 for e in entries}
played = {e: 0 for e in entries}
for g in games:
    for seat in ("first", "second"):
        total[g[seat]] += int(g["score_" + seat])
        played[g[seat]] += 1
        assert g["end_reason"] in ("fleet_destroyed",
            "battleships_destroyed", "turn_limit"), g

def d3(x):
    return Decimal(x).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)

best = max(total.values())
assert best > 0, total
prev = None
for i, r in enumerate(rows):
    e = r["entry"]
    assert r["stage"] == "ranking" and r["group"] == "A", r
    assert int(r["played"]) == played[e] == 6, (r, played)
    assert Decimal(r["total"]) == d3(total[e]), (r, total)
    assert Decimal(r["mark"]) == d3(Decimal(10 * total[e]) / best), (r, best)
    # Ranked by total; equal totals share a rank.
    rank = 1 + sum(1 for t in total.values() if t > total[e])
    assert int(r["rank"]) == rank, (r, total)
    assert prev is None or total[prev] >= total[e], rows
    prev = e
assert rows[0]["mark"] == "10.000", rows[0]
PY
	{ cat "$scratch/standings.csv" "$scratch/games.csv" >&2;
	  fail "standings do not follow from the games"; }

"$ARENA" standings "$spec" > "$scratch/standings.txt"
expect_match "$scratch/standings.txt" "^rank  entry +played +total +mark$"

"$ARENA" verify --all "$spec" > "$scratch/verify.out" ||
	{ cat "$scratch/verify.out" >&2; fail "arena verify --all failed"; }
expect_match "$scratch/verify.out" "^12 games verified, 12 match, 0 do not$"
expect_no_sandbox_left
