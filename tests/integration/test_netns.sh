# The e2e tournament across separate network hosts: for each scenario the
# test makes network namespaces joined by veth pairs (10.200.K.0/24, only
# between its own namespaces, no route anywhere else): one for the
# coordinator and the PostgreSQL that `arena coordinator` starts under its
# --data folder (unix socket only), one per worker, one for a hostile
# peer. Every link is CURVE. In separate runs, each its own tournament
# and cluster, played side by side so the lease waits overlap:
#   a  undisturbed                  e  a duplicate and a stale RESULT
#   b  kill -9 a worker mid-game    f  a worker with an unlisted key
#   c  kill -9 the coordinator      g  garbage messages, CURVE and raw TCP
#   d  PostgreSQL stopped, started  p  a worker's link down mid-game for
#                                      longer than the liveness window: its
#                                      result, kept, counts at that attempt
# Each must end with the standings of e2e/expected.csv, 72 games each with
# exactly one counted result, and no failed game.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"

tag="arn$$"
replay="${ARENA_BINARY_DIR:?ARENA_BINARY_DIR must name the build}/tests/replay_result"
scenario_pids=

netns_ours() {
	ip netns list 2>/dev/null | awk -v t="$tag-" 'index($1, t) == 1 { print $1 }'
}

netns_cleanup() {
	local ns d pids left

	# NETNS_KEEP=DIR keeps the logs, for whoever debugs this test.
	if [ -n "${NETNS_KEEP:-}" ]; then
		mkdir -p "$NETNS_KEEP"
		(cd "$scratch" && find . -maxdepth 2 \( -name '*.err' -o \
			-name '*.out' \) -print0 | tar --null -T - -cf -) |
			tar -C "$NETNS_KEEP" -xf - || true
	fi
	for pid in $scenario_pids; do
		kill "$pid" 2>/dev/null || true
	done
	for d in "$scratch"/*/data; do
		[ -d "$d" ] && "$ARENA" db stop --data "$d" >/dev/null 2>&1
	done
	for ns in $(netns_ours); do
		pids=$(ip netns pids "$ns" 2>/dev/null || true)
		[ -z "$pids" ] || kill -9 $pids 2>/dev/null || true
	done
	for _ in $(seq 50); do
		left=
		for ns in $(netns_ours); do
			left="$left$(ip netns pids "$ns" 2>/dev/null || true)"
		done
		[ -z "$left" ] && break
		sleep 0.1
	done
	for ns in $(netns_ours); do
		ip netns del "$ns" 2>/dev/null || true
	done
	cleanup
	# Ours only: other runs may add and remove theirs meanwhile.
	if [ -n "$(netns_ours)" ]; then
		echo "FAIL: network namespaces left behind:" $(netns_ours) >&2
		exit 1
	fi
}
trap netns_cleanup EXIT
trap 'exit 1' INT TERM HUP

if ! ip netns add "$tag-probe" 2> "$scratch/probe.err"; then
	echo "skipped: cannot make network namespaces here: $(cat "$scratch/probe.err")"
	exit 0
fi
ip netns del "$tag-probe"
[ -x "$replay" ] || fail "no '$replay': build the replay_result target"

# --- hosts ---

# host S NAME: a network namespace with its loopback up.
host() {
	ip netns add "$tag-$1-$2"
	ip -n "$tag-$1-$2" link set lo up
}

# wire S K NAME: a veth pair from the coordinator's host to worker host
# NAME, 10.200.K.1 on the coordinator's side, 10.200.K.2 on NAME's.
wire() {
	local c="$tag-$1-c" w="$tag-$1-$3"

	host "$1" "$3"
	ip link add "to-$3" netns "$c" type veth peer name uplink netns "$w"
	ip -n "$c" addr add "10.200.$2.1/24" dev "to-$3"
	ip -n "$w" addr add "10.200.$2.2/24" dev uplink
	ip -n "$c" link set "to-$3" up
	ip -n "$w" link set uplink up
}

# on S NAME: what runs a command on host NAME of scenario S, network only
# (the file system and the sandbox's cgroups are the machine's). Used as
# $(on S NAME) CMD..., not as a function, so that $! is CMD's own pid.
on() {
	echo "nsenter --net=/run/netns/$tag-$1-$2 --"
}

keys="$scratch/keys"
mkdir -p "$keys/allow"
for name in coordinator w1 w2 junk stranger; do
	"$ARENA" keygen "$keys/$name" > /dev/null || fail "keygen $name failed"
done
cp "$keys/w1.pub" "$keys/w2.pub" "$keys/junk.pub" "$keys/allow/"
key_of() { awk -v w="$2" '$1 == w { print $2 }' "$keys/$1.key"; }

scenarios=${NETNS_SCENARIOS:-a b c d e f g p}
for s in $scenarios; do
	mkdir -p "$scratch/$s"
	host "$s" c
	wire "$s" 1 w1
	wire "$s" 2 w2
	wire "$s" 3 x
	# 3 s of game time: a lease is 2 * 3 s * 2 + 60 s (dispatch.h).
	sed -e "s|^tournament: .*|tournament: netns-$s|" \
		-e "s|game_ms: .*|game_ms: 3000|" \
		-e "s|folder: |folder: $here/e2e/|" \
		-e "s|^  - \([a-z]*\.dc\)$|  - $here/e2e/\1|" \
		"$here/e2e/spec.yaml" > "$scratch/$s/spec.yaml"
	grep -q "game_ms: 3000" "$scratch/$s/spec.yaml" ||
		fail "cannot make the test spec"
done

# --- one scenario's pieces (run in its own subshell; $s names it) ---

# within SECONDS CMD...: CMD succeeds within SECONDS, polled.
within() {
	local end=$(($(date +%s) + $1))

	shift
	until "$@"; do
		[ "$(date +%s)" -lt "$end" ] || return 1
		sleep 0.1
	done
}

sql() {
	psql "$("$ARENA" db url --data "$scratch/$s/data")" -Atc "$1"
}

coordinator() {
	$(on "$s" c) "$ARENA" coordinator "$scratch/$s/spec.yaml" \
		--bind 'tcp://*:7700' --data "$scratch/$s/data" \
		--key "$keys/coordinator.key" --allow "$keys/allow" \
		2>> "$scratch/$s/c.err" &
	cpid=$!
	within 60 grep -q "serving 'netns-$s'" "$scratch/$s/c.err" ||
		fail "coordinator $s did not start"
}

# worker NAME K [KEY]: a worker on host NAME, link K, with key KEY.
worker() {
	$(on "$s" "$1") "$ARENA" worker --connect "tcp://10.200.$2.1:7700" \
		--name "$1" --slots 1 --data "$scratch/$s/$1" \
		--key "$keys/${3:-$1}.key" \
		--coordinator-key "$keys/coordinator.pub" \
		2>> "$scratch/$s/$1.err" &
	eval "pid_$1=$!"
}

playing() { pgrep -P "$1" > /dev/null; }
logged() { grep -Eq -- "$2" "$scratch/$s/$1"; }
results() { [ "$(sql "SELECT count(*) FROM results")" -ge "$1" ]; }

# The game worker NAME is playing, as "id attempt".
held_by() {
	sql "SELECT id || ' ' || attempt FROM games WHERE state = 'running'
		AND worker = '$1'" | head -n 1
}

# finish: the coordinator ends the tournament within SECONDS and exits 0,
# then the workers named exit 0 on its BYE.
finish() {
	local seconds=$1 name pid

	shift
	within "$seconds" eval '! kill -0 $cpid 2>/dev/null' ||
		fail "tournament $s unfinished after $seconds s"
	wait "$cpid" || fail "coordinator $s exited $?"
	expect_match "$scratch/$s/c.err" "tournament finished; [0-9]+ workers"
	for name in "$@"; do
		pid=$(eval echo "\$pid_$name")
		within 15 eval "! kill -0 $pid 2>/dev/null" ||
			fail "worker $name of $s did not stop on BYE"
		wait "$pid" || fail "worker $name of $s exited $?"
	done
}

# The end every run must reach.
check_end() {
	local d="$scratch/$s" games

	"$ARENA" standings "$d/spec.yaml" --data "$d/data" --format csv \
		> "$d/standings.csv" || fail "no standings for $s"
	diff -u "$here/e2e/expected.csv" "$d/standings.csv" ||
		fail "standings of $s differ from e2e/expected.csv"
	"$ARENA" export games "$d/spec.yaml" --data "$d/data" --format csv \
		> "$d/games.csv" || fail "no games for $s"
	games=$(tail -n +2 "$d/games.csv" | cut -d, -f4 | sort -u | wc -l)
	[ "$games" -eq 72 ] || fail "$s: $games unique games, not 72"
	[ "$(wc -l < "$d/games.csv")" -eq 73 ] || fail "$s: a game listed twice"
	[ "$(sql "SELECT count(*) || ' ' || count(DISTINCT game_id) FROM results")" = "72 72" ] ||
		fail "$s: results are not one per game: $(sql "SELECT count(*), count(DISTINCT game_id) FROM results")"
	[ "$(sql "SELECT count(*) FROM games WHERE state <> 'done'")" = 0 ] ||
		fail "$s: games not done"
	"$ARENA" status "$d/spec.yaml" --data "$d/data" > "$d/status.out" ||
		fail "arena status failed for $s"
	[ "$(grep -c ' 0 running, 0 queued, 0 failed$' "$d/status.out")" -eq 2 ] ||
		{ cat "$d/status.out" >&2; fail "$s: arena status shows unfinished or failed games"; }
	# A result that reaches a restarted coordinator before its worker's
	# READY is stored under its CURVE key's name: w1 or w2 too.
	[ "$(sql "SELECT count(*) FROM results WHERE worker NOT IN ('w1', 'w2')")" = 0 ] ||
		fail "$s: results from workers other than w1, w2: $(sql "SELECT DISTINCT worker FROM results")"
}

# (re)queued: game "ID ATTEMPT" went back to the queue and was played
# again, once. Its attempt may also end as our own failure first (a
# sandbox that could not start on a loaded machine: XX, requeued).
check_requeued() {
	local id=${1% *} attempt=${1#* }

	[ "$(sql "SELECT count(*) FROM game_events WHERE game_id = $id
		AND attempt = $attempt AND kind IN ('lease_expired', 'worker_lost', 'requeue')")" -ge 1 ] ||
		fail "$s: game $id attempt $attempt was not requeued: $(sql "SELECT kind, reason FROM game_events WHERE game_id = $id")"
	[ "$(sql "SELECT count(*) FROM results WHERE game_id = $id AND attempt > $attempt")" = 1 ] ||
		fail "$s: game $id not played again once after attempt $attempt"
}

# --- the scenarios ---

run_a() {
	coordinator
	worker w1 1
	worker w2 2
	finish 90 w1 w2
	[ "$(sql "SELECT count(DISTINCT worker) FROM results")" = 2 ] ||
		fail "a: not both workers played"
	[ "$(sql "SELECT count(*) FROM game_events")" = 0 ] ||
		fail "a: games requeued in an undisturbed run"
	check_end
}

# A worker killed in mid-game and started again: its game comes back
# when its lease runs out.
run_b() {
	local game

	coordinator
	worker w1 1
	worker w2 2
	within 60 playing "$pid_w1" || fail "b: w1 never seen playing"
	victim=$(pgrep -P "$pid_w1" | head -n 1)
	kill -9 "$pid_w1"
	wait "$pid_w1" 2>/dev/null || true
	within 5 eval '[ -n "$(held_by w1)" ]' || fail "b: no game held by w1"
	game=$(held_by w1)
	within 5 eval '! kill -0 $victim 2>/dev/null' ||
		fail "b: the killed worker's game lives on"
	sleep 1
	worker w1 1
	finish 150 w1 w2
	expect_match "$scratch/$s/c.err" "worker 'w1' (silent|unreachable)"
	expect_match "$scratch/$s/c.err" "expired leases: games back in the queue"
	check_requeued "$game"
	check_end
}

# The coordinator killed in mid-tournament and started again.
run_c() {
	coordinator
	worker w1 1
	worker w2 2
	within 60 results 10 || fail "c: no games played"
	kill -9 "$cpid"
	wait "$cpid" 2>/dev/null || true
	sleep 1
	coordinator
	finish 150 w1 w2
	[ "$(grep -c "serving 'netns-c'" "$scratch/$s/c.err")" -eq 2 ] ||
		fail "c: the coordinator did not start twice"
	expect_match "$scratch/$s/c.err" "serving 'netns-c' .*: [1-9][0-9]* of [0-9]+ games played"
	check_end
}

# PostgreSQL stopped and started again under a running coordinator.
run_d() {
	coordinator
	worker w1 1
	worker w2 2
	within 60 results 10 || fail "d: no games played"
	$(on "$s" c) "$ARENA" db stop --data "$scratch/$s/data" 2> "$scratch/$s/db.err" ||
		fail "d: arena db stop failed"
	sleep 3
	kill -0 "$cpid" 2>/dev/null ||
		fail "d: the coordinator died with the database: $(tail -n 5 "$scratch/$s/c.err")"
	$(on "$s" c) "$ARENA" db start --data "$scratch/$s/data" 2>> "$scratch/$s/db.err" ||
		fail "d: arena db start failed"
	finish 150 w1 w2
	expect_match "$scratch/$s/c.err" "database connection lost"
	check_end
}

# A listed worker's key replays a finished game's RESULT twice, and a
# RESULT for an attempt that game never had: nothing changes, all logged.
run_e() {
	local id attempt before r1 r2

	coordinator
	worker w1 1
	worker w2 2
	within 60 results 1 || fail "e: no games played"
	read -r id attempt <<< "$(sql "SELECT game_id || ' ' || attempt FROM results ORDER BY id LIMIT 1")"
	before=$(sql "SELECT seat, score, verdict FROM result_seats s
		JOIN results r ON r.id = s.result_id WHERE r.game_id = $id ORDER BY seat")
	# Both at once, while the tournament goes on.
	$(on "$s" x) "$replay" tcp://10.200.3.1:7700 "$keys/w1.key" \
		"$keys/coordinator.pub" result "$id" "$attempt" 2 2> "$scratch/$s/replay1.err" &
	r1=$!
	$(on "$s" x) "$replay" tcp://10.200.3.1:7700 "$keys/w1.key" \
		"$keys/coordinator.pub" result "$id" $((attempt + 1)) 1 2> "$scratch/$s/replay2.err" &
	r2=$!
	wait "$r1" || fail "e: replay_result failed: $(cat "$scratch/$s/replay1.err")"
	wait "$r2" || fail "e: replay_result failed: $(cat "$scratch/$s/replay2.err")"
	kill -0 "$cpid" 2>/dev/null || fail "e: the tournament ended before the replay"
	finish 90 w1 w2
	[ "$(grep -c "game $id attempt $attempt: duplicate or stale result" "$scratch/$s/c.err")" -eq 2 ] ||
		fail "e: the duplicates of game $id attempt $attempt were not both logged"
	expect_match "$scratch/$s/c.err" "game $id attempt $((attempt + 1)): duplicate or stale result"
	[ "$(sql "SELECT count(*) FROM results WHERE game_id = $id")" = 1 ] ||
		fail "e: game $id has more than one result"
	[ "$(sql "SELECT seat, score, verdict FROM result_seats s
		JOIN results r ON r.id = s.result_id WHERE r.game_id = $id ORDER BY seat")" = "$before" ] ||
		fail "e: the replay changed game $id's result"
	check_end
}

# A worker whose key is not listed: refused, logged, plays nothing.
run_f() {
	local stranger

	coordinator
	$(on "$s" x) "$ARENA" worker --connect tcp://10.200.3.1:7700 \
		--name stranger --data "$scratch/$s/stranger" \
		--key "$keys/stranger.key" --coordinator-key "$keys/coordinator.pub" \
		2> "$scratch/$s/stranger.err" &
	pid_stranger=$!
	worker w1 1
	worker w2 2
	finish 90 w1 w2
	kill "$pid_stranger" 2>/dev/null || true
	wait "$pid_stranger" 2>/dev/null || true
	stranger=$(key_of stranger public)
	grep -qF "refused a worker with key '$stranger' from 10.200.3.2" \
		"$scratch/$s/c.err" || fail "f: the stranger's refusal was not logged"
	logged c.err "worker 'stranger'" && fail "f: the stranger was let in"
	logged stranger.err "tournament is over" &&
		fail "f: the stranger heard from the coordinator"
	check_end
}

# Garbage over CURVE from a listed key, and random bytes over raw TCP.
run_g() {
	local tcp junk started elapsed drops refused

	started=$(date +%s)
	coordinator
	$(on "$s" x) python3 - <<'EOF' 2> "$scratch/$s/tcp.err" &
import os, socket, time
for i in range(40):
    try:
        s = socket.create_connection(("10.200.3.1", 7700), timeout=2)
        s.sendall(os.urandom(4096 * (1 + i % 8)))
        s.close()
    except OSError:
        pass
    time.sleep(0.1)
EOF
	tcp=$!
	$(on "$s" x) "$replay" tcp://10.200.3.1:7700 "$keys/junk.key" \
		"$keys/coordinator.pub" junk 2> "$scratch/$s/junk.err" &
	junk=$!
	sleep 1
	worker w1 1
	worker w2 2
	finish 90 w1 w2
	within 20 eval '! kill -0 $junk 2>/dev/null' || fail "g: junk sender stuck"
	wait "$junk" || fail "g: junk sender failed: $(cat "$scratch/$s/junk.err")"
	wait "$tcp" || true
	expect_match "$scratch/$s/c.err" "dropped a malformed message from peer junk/"
	# The RESULTs that decode, for games that do not exist, with one seat,
	# text that is not UTF-8...: refused (check_end: nothing stored),
	# logged at most LOG_BURST (10) lines per 10 s, then counted.
	expect_match "$scratch/$s/c.err" "game 1099511627776 attempt [0-9]+: (duplicate or stale result from '(junk|\?)' ignored \(game is unknown\)|result from '(junk|\?)' refused)"
	expect_match "$scratch/$s/c.err" "[0-9]+ more duplicate, stale or refused results in the last 10 s, not logged"
	# Drops are logged at most WIRE_LOG_BURST lines per 10 s.
	elapsed=$(($(date +%s) - started))
	refused=$(grep -Ec "(duplicate or stale result|result) from '(junk|\?)' (ignored|refused)" "$scratch/$s/c.err" || true)
	[ "$refused" -le $((10 * (elapsed / 10 + 2))) ] ||
		fail "g: $refused lines for refused results in $elapsed s"
	drops=$(grep -c "dropped a\|refused a" "$scratch/$s/c.err" || true)
	[ "$drops" -le $((10 * (elapsed / 10 + 2))) ] ||
		fail "g: $drops drop lines in $elapsed s: not rate-limited"
	check_end
}

# A worker's link cut in mid-game for longer than the liveness window
# (PROTO_LIVENESS * PROTO_HEARTBEAT_MS = 5 s), then restored.
run_p() {
	local game id attempt

	coordinator
	worker w1 1
	worker w2 2
	# Cut while w1 plays; its game's result cannot get out after that.
	# (Should the game end just before the cut, w1 may hold none: again.)
	for _ in 1 2 3; do
		within 60 playing "$pid_w1" || fail "p: w1 never seen playing"
		ip -n "$tag-p-w1" link set uplink down
		sleep 0.2
		game=$(held_by w1)
		[ -n "$game" ] && break
		ip -n "$tag-p-w1" link set uplink up
	done
	[ -n "$game" ] || fail "p: never cut w1 off while it held a game"
	id=${game% *}
	attempt=${game#* }
	# The game ends while w1 is cut off (3 s of game time a seat): its
	# result is made where the coordinator cannot hear it.
	within 30 eval '! playing $pid_w1' ||
		fail "p: w1's game did not end while it was cut off"
	within 15 logged c.err "worker 'w1' silent" ||
		fail "p: the coordinator did not notice w1's silence"
	within 15 logged w1.err "coordinator silent" ||
		fail "p: w1 did not notice the coordinator's silence"
	sleep 2
	ip -n "$tag-p-w1" link set uplink up
	finish 150 w1 w2
	# Kept, sent after the reconnect, and counted at the attempt that made
	# it: no lease ran out, nothing was played twice.
	logged w1.err "game $id attempt $attempt: result kept while the coordinator was away, sent (now|again)" ||
		fail "p: w1 did not send game $id's kept result after reconnecting"
	[ "$(sql "SELECT attempt || ' ' || worker FROM results WHERE game_id = $id")" = "$attempt w1" ] ||
		fail "p: game $id's results: $(sql "SELECT attempt, worker FROM results WHERE game_id = $id")"
	[ "$(sql "SELECT count(*) FROM game_events WHERE game_id = $id")" = 0 ] ||
		fail "p: game $id went back to the queue: $(sql "SELECT kind, reason FROM game_events WHERE game_id = $id")"
	check_end
}

# --- all of them, side by side ---

for s in $scenarios; do
	( run_"$s" ) > "$scratch/$s/test.out" 2> "$scratch/$s/test.err" &
	scenario_pids="$scenario_pids $!"
	eval "scenario_$s=$!"
done
failed=
for s in $scenarios; do
	if wait "$(eval echo "\$scenario_$s")"; then
		echo "netns $s: ok"
	else
		echo "netns $s: FAILED" >&2
		cat "$scratch/$s/test.err" >&2
		tail -n 20 "$scratch/$s/c.err" >&2 || true
		failed="$failed $s"
	fi
done
scenario_pids=
[ -z "$failed" ] || fail "scenarios failed:$failed"
# (No machine-wide expect_no_sandbox_left here: run next to other tests it
# sees their sandboxes come and go. b checks its killed worker's game.)
echo "netns: ok"
