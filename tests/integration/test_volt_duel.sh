# Volt house bots and kits through the real referee and the bot protocol
# (games/tools/duel.c), no sandbox: the flag holder must beat the
# random walker clearly over 24 games (both sides of each shipped map,
# fixed seeds; measured when written: 24-0, a holder no better than the
# walker would win about half), nobody may fault or answer illegally, the
# two kits must play whole games legally, and a rerun must be exact.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${ARENA_BINARY_DIR:?ARENA_BINARY_DIR must name the build tree}"
bots="$ARENA_BINARY_DIR/games/volt/bots"
duel="$ARENA_BINARY_DIR/games/tools/duel"
for f in "$bots/holder" "$bots/walker" "$bots/kit_c_bot" "$duel"; do
	[ -x "$f" ] || fail "'$f' is not built"
done
maps=()
for m in duel fortress plains; do
	maps+=(-d "$ARENA_SOURCE_DIR/schedules/volt/$m.map")
done

# series NAME GAMES CMD1 CMD2: plays, checks faults and illegal answers.
series() {
	local out="$scratch/$1.out"

	"$duel" -n "$2" -s 100 "${maps[@]}" volt "$3" "$4" > "$out" \
		2> "$scratch/$1.err" || { cat "$scratch/$1.err" >&2; fail "duel $1 failed"; }
	[ ! -s "$scratch/$1.err" ] || { cat "$scratch/$1.err" >&2; fail "$1: a bot faulted"; }
	if grep '^seed' "$out" | grep -qv ' illegal 0 0 '; then
		cat "$out" >&2
		fail "$1: an illegal answer"
	fi
	[ "$(grep -c '^seed' "$out")" -eq "$2" ] || fail "$1: not $2 games"
}

series holder 24 "$bots/holder" "$bots/walker"
read -r w d l <<< "$(awk '$1 == "total" { print $2, $3, $4 }' "$scratch/holder.out")"
echo "holder vs walker: won $w, drew $d, lost $l"
[ "$w" -ge 20 ] || { cat "$scratch/holder.out" >&2; fail "holder won only $w of 24"; }
# Games end in every way but a fault: survival and the step limit.
expect_match "$scratch/holder.out" ' team_dead '

series kit_c 6 "$bots/kit_c_bot" "$bots/walker"
expect_match "$scratch/kit_c.out" ' steps '
if command -v python3 >/dev/null; then
	series kit_python 6 "python3 $ARENA_SOURCE_DIR/games/volt/kits/python/bot.py" \
		"$bots/holder"
fi

# Reruns are exact: the same seeds give the same games.
"$duel" -n 6 -s 100 "${maps[@]}" volt "$bots/holder" "$bots/walker" |
	grep '^seed' | cut -d' ' -f1-9 > "$scratch/again1"
grep '^seed' "$scratch/holder.out" | head -n 6 | cut -d' ' -f1-9 > "$scratch/again2"
[ -s "$scratch/again1" ] || fail "the rerun played nothing"
diff -u "$scratch/again2" "$scratch/again1" || fail "a rerun of holder vs walker differs"
