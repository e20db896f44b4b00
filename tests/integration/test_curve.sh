# The e2e tournament over CURVE on loopback TCP, with hostile company.
# A coordinator with --key/--allow and two listed workers play it to the
# standings of expected.csv, while alongside: a worker whose key is not
# listed (refused, logged once, plays nothing), a raw TCP client writing
# random bytes, a DEALER without CURVE writing junk frames, and a listed
# DEALER writing junk, multi-part, empty and oversized frames (each dropped
# and logged at a bounded rate).
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
spec="$scratch/spec.yaml"
sed -e "s|^tournament: .*|tournament: curve|" \
	-e "s|folder: |folder: $here/e2e/|" \
	-e "s|^  - \([a-z]*\.dc\)$|  - $here/e2e/\1|" \
	"$here/e2e/spec.yaml" > "$spec"
grep -q "tournament: curve" "$spec" || fail "cannot make the test spec"

keys="$scratch/keys"
mkdir -p "$keys/allow"
for name in coordinator w1 w2 junk stranger; do
	"$ARENA" keygen "$keys/$name" > /dev/null || fail "keygen $name failed"
done
[ "$(stat -c %a "$keys/w1.key")" = 600 ] || fail "w1.key is not mode 600"
cp "$keys/w1.pub" "$keys/w2.pub" "$keys/junk.pub" "$keys/allow/"
key_of() { awk -v w="$2" '$1 == w { print $2 }' "$keys/$1.key"; }

# The junk DEALER: plain, or CURVE with a listed key.
cat > "$scratch/junk.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zmq.h>

int
main(int argc, char **argv)
{
	void *ctx = zmq_ctx_new(), *s = zmq_socket(ctx, ZMQ_DEALER);
	static char big[17 * 1024 * 1024];
	char buf[512];
	int linger = 0;

	zmq_setsockopt(s, ZMQ_LINGER, &linger, sizeof linger);
	if (argc == 5) {
		zmq_setsockopt(s, ZMQ_CURVE_SERVERKEY, argv[2], 41);
		zmq_setsockopt(s, ZMQ_CURVE_PUBLICKEY, argv[3], 41);
		zmq_setsockopt(s, ZMQ_CURVE_SECRETKEY, argv[4], 41);
	}
	if (zmq_connect(s, argv[1]) != 0)
		return 1;
	srand(42);
	for (int i = 0; i < 3000; i++) {
		size_t n = (size_t)rand() % sizeof buf;

		for (size_t j = 0; j < n; j++)
			buf[j] = (char)rand();
		if (i % 3 == 0)		/* a msgpack array, as ours are */
			buf[0] = (char)(0x92 + i % 4);
		/* Never blocks: the plain one never gets connected. */
		if (i % 10 == 1)
			zmq_send(s, buf, n, ZMQ_SNDMORE | ZMQ_DONTWAIT);
		zmq_send(s, buf, i % 7 == 0 ? 0 : n, ZMQ_DONTWAIT);
		if (i % 100 == 0)
			usleep(20000);
	}
	zmq_send(s, big, sizeof big, ZMQ_DONTWAIT);
	sleep(2);
	zmq_close(s);
	zmq_ctx_term(ctx);
	return 0;
}
EOF
cc -o "$scratch/junk" "$scratch/junk.c" $(pkg-config --cflags --libs libzmq) ||
	fail "cannot build the junk sender"

c1= w1= w2= ws= j1= j2= j3=
trap 'kill $c1 $w1 $w2 $ws $j1 $j2 $j3 2>/dev/null || true; cleanup' EXIT
port=$((20000 + RANDOM % 20000))
endpoint="tcp://127.0.0.1:$port"

"$ARENA" worker --connect "$endpoint" --name stranger --data "$scratch/ws" \
	--key "$keys/stranger.key" --coordinator-key "$keys/coordinator.pub" \
	2> "$scratch/ws.err" &
ws=$!
started=$(date +%s)
"$ARENA" coordinator "$spec" --bind "$endpoint" --workers 0 \
	--key "$keys/coordinator.key" --allow "$keys/allow" 2> "$scratch/c.err" &
c1=$!
for _ in $(seq 300); do
	grep -q "serving 'e2e\|serving '.*(CURVE)" "$scratch/c.err" && break
	sleep 0.1
done
expect_match "$scratch/c.err" "serving .* \(CURVE\)"

python3 - "$port" <<'EOF' 2> "$scratch/j1.err" &
import os, socket, sys, time
for i in range(30):
    try:
        s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
        s.sendall(os.urandom(4096 * (1 + i % 8)))
        s.close()
    except OSError:
        pass
    time.sleep(0.1)
EOF
j1=$!
"$scratch/junk" "$endpoint" 2> "$scratch/j2.err" &
j2=$!
"$scratch/junk" "$endpoint" "$(key_of coordinator public)" \
	"$(key_of junk public)" "$(key_of junk secret)" 2> "$scratch/j3.err" &
j3=$!

"$ARENA" worker --connect "$endpoint" --name w1 --data "$scratch/w1" \
	--key "$keys/w1.key" --coordinator-key "$keys/coordinator.pub" \
	2> "$scratch/w1.err" &
w1=$!
"$ARENA" worker --connect "$endpoint" --name w2 --slots 2 \
	--data "$scratch/w2" --key "$keys/w2.key" \
	--coordinator-key "$keys/coordinator.pub" 2> "$scratch/w2.err" &
w2=$!

wait "$c1" || { cat "$scratch/c.err" >&2; fail "coordinator failed"; }
c1=
elapsed=$(($(date +%s) - started))
wait "$w1" || { cat "$scratch/w1.err" >&2; fail "worker w1 failed"; }
wait "$w2" || { cat "$scratch/w2.err" >&2; fail "worker w2 failed"; }
wait "$j1" "$j2" "$j3" || true
kill "$ws" 2>/dev/null || true
wait "$ws" 2>/dev/null || true

# The listed workers were known by their keys; the stranger never got in.
expect_match "$scratch/c.err" "worker 'w1' \(key 'w1'\) ready"
expect_match "$scratch/c.err" "worker 'w2' \(key 'w2'\) ready"
expect_match "$scratch/c.err" "tournament finished; 2 workers"
stranger=$(key_of stranger public)
refused=$(grep -cF "refused a worker with key '$stranger' from 127.0.0.1" \
	"$scratch/c.err" || true)
[ "$refused" -eq 1 ] || fail "stranger refused $refused times in the log"
grep -q "worker 'stranger'" "$scratch/c.err" &&
	fail "the stranger was let in"
grep -q "tournament is over" "$scratch/ws.err" &&
	fail "the stranger heard from the coordinator"
# The listed junk sender's frames were dropped, named by its key, and
# the drops were logged at most WIRE_LOG_BURST lines per 10 s window.
expect_match "$scratch/c.err" "dropped a malformed message from peer junk/"
drops=$(grep -c "dropped a\|refused a" "$scratch/c.err" || true)
[ "$drops" -le $((10 * (elapsed / 10 + 2))) ] ||
	fail "$drops drop lines in $elapsed s: not rate-limited"

"$ARENA" standings "$spec" --format csv | diff -u "$here/e2e/expected.csv" - ||
	fail "standings differ from an undisturbed run"
"$ARENA" export games "$spec" --format csv > "$scratch/games.csv"
games=$(($(wc -l < "$scratch/games.csv") - 1))
[ "$games" -eq 72 ] || fail "expected 72 games, got $games"
cut -d, -f4 "$scratch/games.csv" | sort | uniq -d | grep -q . &&
	fail "a game is listed twice"
others=$(psql "$("$ARENA" db url)" -Atc \
	"SELECT count(*) FROM results WHERE worker NOT IN ('w1', 'w2')")
[ "$others" = 0 ] || fail "$others results from workers other than w1, w2"
echo "curve: ok"
