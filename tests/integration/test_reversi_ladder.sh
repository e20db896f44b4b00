# The house AIs' strength ladder: each level plays 20 games (10 with each
# colour, fixed seeds) against the level below through the real referee
# and the bot protocol (games/tools/duel.c), and must win clearly.
# Measured when written: 20-0, 19-1 and 20-0; the margins below leave room
# for a slow machine without letting a broken AI through (a level no
# stronger than the one below wins about 10).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${ARENA_BINARY_DIR:?ARENA_BINARY_DIR must name the build tree}"
bots="$ARENA_BINARY_DIR/games/reversi/bots"
duel="$ARENA_BINARY_DIR/games/tools/duel"
board="$ARENA_SOURCE_DIR/schedules/reversi/standard.rv"
for f in "$bots/ai1" "$bots/ai2" "$bots/ai3" "$bots/ai4" "$duel"; do
	[ -x "$f" ] || fail "'$f' is not built"
done

# ladder UPPER LOWER MS MIN_WINS
ladder() {
	local out="$scratch/$1-$2.out" w d l

	"$duel" -n 20 -s 100 -t "$3" -d "$board" reversi "$bots/$1" "$bots/$2" \
		> "$out" || fail "duel $1 $2 failed"
	if grep -q "fault" "$out" || grep '^seed' "$out" | grep -qv ' illegal 0 0 '; then
		cat "$out" >&2
		fail "$1 vs $2: a game ended by a fault or an illegal move"
	fi
	read -r w d l <<< "$(awk '$1 == "total" { print $2, $3, $4 }' "$out")"
	echo "$1 vs $2: won $w, drew $d, lost $l"
	[ "$((w + d + l))" -eq 20 ] || fail "$1 vs $2: $((w + d + l)) games"
	[ "$w" -ge "$4" ] || { cat "$out" >&2; fail "$1 won only $w of 20 against $2"; }
}

ladder ai2 ai1 3000 15
ladder ai3 ai2 3000 14
ladder ai4 ai3 2000 15
# Reruns are exact: the same seeds give the same games.
"$duel" -n 4 -s 100 -t 2000 -d "$board" reversi "$bots/ai4" "$bots/ai3" |
	grep '^seed' | cut -d' ' -f1-9 > "$scratch/again1"
grep '^seed' "$scratch/ai4-ai3.out" | head -n 4 | cut -d' ' -f1-9 > "$scratch/again2"
[ -s "$scratch/again1" ] || fail "the rerun played nothing"
diff -u "$scratch/again2" "$scratch/again1" || fail "a rerun of ai4 vs ai3 differs"
