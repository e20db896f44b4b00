# The viewer: a tiny Reversi round-robin (ai1, ai2 and a bot whose every
# answer is "</script><!-- ..."), then `arena replay` of a finished game
# prints one frame per state, the last with the scores `arena show game`
# has; the bad bot's answer is shown verbatim and not as a path out of
# the page's JSON; on a terminal the keys work and the terminal's mode
# comes back; --html writes a page with no network reference, which a
# real headless browser (Debian's chromium) runs: it draws the 64 cells,
# the final scores on the last frame, and a screenshot that is not blank.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
command -v chromium > /dev/null ||
	fail "chromium is missing (deploy/install-debian.sh installs it)"

mkdir "$scratch/evil"
# It reads its first call whole (two lines), so that it never answers a
# line the referee did not ask for (that is a protocol fault, WA).
cat > "$scratch/evil/bot.sh" << 'EOF'
read -r header
read -r call
echo '</script><!-- "x" & <b>y</b>'
cat > /dev/null
EOF
cat > "$scratch/spec.yaml" << EOF
tournament: Viewer test
game: reversi
seed: 7
datasets:
  - $ARENA_SOURCE_DIR/schedules/reversi/standard.rv
entries:
  - name: ai1
    folder: $ARENA_SOURCE_DIR/games/reversi
    build: cc -O2 -o ai1 bots/ai1.c bots/rvbot.c rvboard.c
    run: ./ai1
  - name: ai2
    folder: $ARENA_SOURCE_DIR/games/reversi
    build: cc -O2 -o ai2 bots/ai2.c bots/rvbot.c rvboard.c
    run: ./ai2
  - name: evil
    folder: $scratch/evil
    run: sh bot.sh
limits:
  call_ms: 1000
  game_ms: 5000
stages:
  - name: league
    format: round_robin
EOF
"$ARENA" run "$scratch/spec.yaml" --workers 1 > "$scratch/run.out" \
	2> "$scratch/run.err" || { cat "$scratch/run.err" >&2; fail "arena run failed"; }
"$ARENA" export games "$scratch/spec.yaml" --format csv > "$scratch/games.csv"
game=$(awk -F, '$6 == "ai1" && $7 == "ai2" { print $4 }' "$scratch/games.csv")
[ -n "$game" ] || { cat "$scratch/games.csv" >&2; fail "no game ai1 vs ai2"; }

# One frame per state: the start, then one per replay line.
"$ARENA" show game "$game" --replay > "$scratch/show.out"
moves=$(sed -n '/^  replay:$/,$p' "$scratch/show.out" | grep -c '^    [AB] ')
[ "$moves" -gt 10 ] || fail "game $game has only $moves moves"
"$ARENA" replay "$game" > "$scratch/replay.out" || fail "arena replay $game failed"
frames=$(grep -c '^--- frame ' "$scratch/replay.out")
[ "$frames" -eq $((moves + 1)) ] ||
	fail "$frames frames for $moves moves, expected $((moves + 1))"
expect_match "$scratch/replay.out" "^--- frame $frames/$frames: [AB] [0-7] [0-7]$"
[ "$(grep -c '^[.XOxo]\{8\}$' "$scratch/replay.out")" -eq $((8 * frames)) ] ||
	fail "not 8 rows of 8 squares in every frame"

# The last frame's scores are the recorded ones.
score() { awk -v s="$1" '$1 == s && $3 == "score" { print $4; exit }' "$scratch/show.out"; }
a=$(score A)
b=$(score B)
[ -n "$a" ] && [ -n "$b" ] || fail "no scores in 'arena show game $game'"
last=$(grep -A1 "^--- frame $frames/" "$scratch/replay.out" | tail -n 1)
case "$last" in
"move $moves: scores $a $b, over: "*) ;;
*) fail "last frame says '$last', show says scores $a $b" ;;
esac

# The bad bot's answer reaches the viewer verbatim.
evil=$(awk -F, '$6 == "evil" && $11 == "illegal" { print $4; exit }' "$scratch/games.csv")
[ -n "$evil" ] || { cat "$scratch/games.csv" >&2; fail "no game lost by evil's answer"; }
"$ARENA" replay "$evil" > "$scratch/evil.out" || fail "arena replay $evil failed"
grep -qF -- '--- frame 2/2: A </script><!-- "x" & <b>y</b>' "$scratch/evil.out" ||
	{ cat "$scratch/evil.out" >&2; fail "the answer is not shown as it was"; }
"$ARENA" replay "$evil" --html "$scratch/evil.html" > /dev/null ||
	fail "arena replay $evil --html failed"
[ "$(grep -ci '</script>' "$scratch/evil.html")" -eq 2 ] ||
	fail "a bot's answer closes a script of the page"
grep -qF '\u003c/script\u003e\u003c!-- \"x\" \u0026 \u003cb\u003ey' "$scratch/evil.html" ||
	fail "the answer is not in the page's JSON"

# On a terminal (script(1) gives it one): it plays, space pauses, n and
# the right arrow step, q quits, and the terminal is back in its mode.
if command -v script > /dev/null; then
	{ sleep 1; printf ' '; sleep 0.3; printf 'n'; sleep 0.3; printf '\033[C'
	  sleep 0.3; printf 'q'; } |
		timeout 60 script -qc "'$ARENA' replay $game --delay 100; echo rc=\$?;
			stty -a" /dev/null > "$scratch/tty.out"
	tr -d '\r' < "$scratch/tty.out" > "$scratch/tty.txt"
	expect_match "$scratch/tty.txt" "^rc=0$"
	expect_match "$scratch/tty.txt" "[^-]icanon"
	expect_match "$scratch/tty.txt" "[^-]echo "
	grep -ao 'frame [0-9]*/[0-9]*, [a-z]*' "$scratch/tty.txt" | uniq |
		tail -n 3 > "$scratch/tty.frames"
	read -r paused < "$scratch/tty.frames"
	case "$paused" in
	"frame "*", paused") ;;
	*) fail "space did not pause: '$paused'" ;;
	esac
	n=${paused#frame }
	n=${n%%/*}
	printf 'frame %d/%d, paused\n' "$n" "$frames" "$((n + 1))" "$frames" \
		"$((n + 2))" "$frames" | diff -u - "$scratch/tty.frames" ||
		fail "n and the right arrow do not step one frame"
fi

"$ARENA" replay 999999 > /dev/null 2> "$scratch/none.err" &&
	fail "replay of a game that does not exist succeeded"
expect_match "$scratch/none.err" "game 999999: no such game"

# The page: self-contained, and it runs in a real browser.
page="$scratch/page.html"
"$ARENA" replay "$game" --html "$page" --delay 50 > "$scratch/html.out" ||
	fail "arena replay --html failed"
expect_match "$scratch/html.out" "$frames frames"
grep -Eqi 'https?:|//[a-z0-9.-]+\.[a-z]{2,}/|<link|src=' "$page" &&
	fail "the page refers to something outside itself"
browse() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--hide-scrollbars --window-size=900,700 \
		--virtual-time-budget=3000 "$@" 2> "$scratch/chromium.err"
}
browse --dump-dom "file://$page#last" > "$scratch/dom.html" ||
	{ tail "$scratch/chromium.err" >&2; fail "chromium could not load the page"; }
expect_match "$scratch/dom.html" 'data-cells="64"'
[ "$(grep -o 'class="c"' "$scratch/dom.html" | wc -l)" -eq 64 ] ||
	fail "the page did not draw 64 cells"
expect_match "$scratch/dom.html" "data-shown=\"$((frames - 1))\""
expect_match "$scratch/dom.html" "id=\"pts0\">$a<"
expect_match "$scratch/dom.html" "id=\"pts1\">$b<"
browse --screenshot="$scratch/shot.png" "file://$page#last" > /dev/null ||
	{ tail "$scratch/chromium.err" >&2; fail "chromium could not take a screenshot"; }
[ -s "$scratch/shot.png" ] || fail "no screenshot"
# Colours in the screenshot (python3's stdlib only: the PNG unfiltered by
# hand) that cover 300 pixels or more, so that anti-aliased text does not
# count: the page background, the board's green, black and white discs.
colours=$(python3 - "$scratch/shot.png" << 'EOF'
import collections, struct, sys, zlib

data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat = 8, b""
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert depth == 8 and ctype in (2, 6), "unexpected PNG format"
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), w * bpp
prev, seen, i = bytearray(stride), collections.Counter(), 0
for y in range(h):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
    i += 1 + stride
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        b, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1:
            line[x] = (line[x] + a) & 255
        elif f == 2:
            line[x] = (line[x] + b) & 255
        elif f == 3:
            line[x] = (line[x] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
            line[x] = (line[x] + pred) & 255
    for x in range(0, stride, bpp):
        seen[bytes(line[x:x + 3])] += 1
    prev = line
print(sum(1 for n in seen.values() if n >= 300))
EOF
) || fail "the screenshot is not a PNG that can be read"
[ "$colours" -ge 4 ] || fail "the screenshot has $colours colours: blank"
echo "replay viewer: ok ($frames frames, $colours colours)"
