# The Reversi starter kits: the C++ kit builds the sample reversi.cpp
# UNCHANGED with the original command line (and again with the original's
# other spelling, Receive()), and each kit plays 20 games against ai1
# through the real referee (games/tools/duel.c): every game must
# end by the rules, with passes exchanged on the way, and the greedy
# samples must beat the random AI.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
: "${ARENA_BINARY_DIR:?ARENA_BINARY_DIR must name the build tree}"
bots="$ARENA_BINARY_DIR/games/reversi/bots"
duel="$ARENA_BINARY_DIR/games/tools/duel"
board="$ARENA_SOURCE_DIR/schedules/reversi/standard.rv"
kit="$ARENA_SOURCE_DIR/games/reversi/kits"
command -v g++ > /dev/null || fail "g++ is missing (build-essential)"

cp "$kit/cpp/grader.cpp" "$kit/cpp/reversi.h" "$kit/cpp/reversi.cpp" "$scratch/"
(cd "$scratch" && g++ -O2 -o bot grader.cpp reversi.cpp -lm) ||
	fail "the sample reversi.cpp does not build with the kit"
cmp -s "$kit/cpp/reversi.cpp" "$scratch/reversi.cpp" || fail "the build changed reversi.cpp"
sed 's/ReceiveMove()/Receive()/' "$kit/cpp/reversi.cpp" > "$scratch/receive.cpp"
grep -q 'Receive()' "$scratch/receive.cpp" || fail "the Receive() variant was not made"
(cd "$scratch" && g++ -O2 -o bot_receive grader.cpp receive.cpp -lm) ||
	fail "a reversi.cpp calling Receive() does not build with the kit"

# series NAME CMD: 20 games against ai1, MIN wins.
series() {
	local out="$scratch/$1.out" w d l

	"$duel" -v -n 20 -s 1 -t 5000 -d "$board" reversi "$2" "$bots/ai1" \
		> "$out" 2> "$scratch/$1.err" || fail "duel $1 failed"
	if grep -q "fault" "$out" "$scratch/$1.err" ||
	    grep '^seed' "$out" | grep -qv ' illegal 0 0 '; then
		cat "$out" "$scratch/$1.err" >&2
		fail "$1: a game ended by an illegal move or a fault"
	fi
	grep -q -- '^[01]: -1 -1$' "$scratch/$1.err" || fail "$1: no pass was played"
	read -r w d l <<< "$(awk '$1 == "total" { print $2, $3, $4 }' "$out")"
	echo "$1 vs ai1: won $w, drew $d, lost $l"
	[ "$w" -ge 12 ] || fail "$1 won only $w of 20 against ai1"
}

series cpp "$scratch/bot"
series cpp_receive "$scratch/bot_receive"
diff <(cut -d' ' -f1-9 "$scratch/cpp.out") <(cut -d' ' -f1-9 "$scratch/cpp_receive.out") ||
	fail "Receive() plays differently"
if command -v python3 > /dev/null; then
	series python "python3 $kit/python/bot.py"
fi
