# The hostile-bot suite (issue 3; the 25 cases of
# shared/research/sandbox.md section 4): each program in bots/ plays a
# real two-game Dream City round robin against the house bot greedy (the
# ponderer against slowpass, which takes 300 ms per call), and
# each case asserts (a) the hostile seat's outcome in both games, from
# `arena export games` and the seat's row in PostgreSQL, and (b) the
# machine afterwards: no process of the case left, no arena cgroup, no new
# mount in our mount namespace, no connection to our TCP listener, no
# file changed outside the bot's folder. A bot reports an attack that got
# through by exiting 42, seen as "exited with code 42" in the seat detail.
#
# Cases that would harm an unsandboxed machine run only after the probe
# bot has shown that games are sandboxed. HOSTILE_CASES="spin pauser"
# runs only the named cases; HOSTILE_KEEP=1 keeps the scratch folder.
# Every case runs in persistent mode, and those that apply also per turn:
# Slime (ARG mode) and, for the traps in output.txt and input.txt (cases
# 16 and 17), Space Wars (FILES mode).
here=$(cd "$(dirname "$0")" && pwd)
. "$ARENA_SOURCE_DIR/tests/integration/lib.sh"
set +e
bots="$here/bots"
house="$ARENA_SOURCE_DIR/games/dreamcity/bots"
slime_house="$ARENA_SOURCE_DIR/games/slime/bots"
spacewars_house="$ARENA_SOURCE_DIR/games/spacewars/bots"
spacewars_field="$ARENA_SOURCE_DIR/schedules/spacewars/field1.sw"
passed=0 failed=0 skipped=0
sandboxed=no

# --- fixtures: datasets, a TCP listener, a canary process ---

# 4 one-cell houses: greedy needs 4 calls, so the hostile bot is called
# 3 or 4 times per game and attacks between calls are exercised.
cat > "$scratch/hostile.dc" <<'EOF'
dreamcity-dataset 1
size 4 2
zones
LLLL
LLLL
buildings 4
building 1 1 1 house
X
building 2 1 1 house
X
building 3 1 1 house
X
building 4 1 1 house
X
EOF
# Slime on a 4x4 board, two players: greedy fills it in about 14 turns.
printf '1..2\n....\n....\n3..4\n' > "$scratch/hostile.sl"
# A request of about 80 KB, more than a pipe holds.
{
	printf 'dreamcity-dataset 1\nsize 50 50\nzones\n'
	for ((y = 0; y < 50; y++)); do printf '%050d\n' 0 | tr 0 L; done
	printf 'buildings 1000\n'
	for ((i = 1; i <= 1000; i++)); do
		printf 'building %d 50 1 house\n' "$i"
		printf '%050d\n' 0 | tr 0 X
	done
} > "$scratch/big.dc"

python3 -u -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
while True:
	c, a = s.accept()
	print("connection from %s:%d" % a, flush=True)
	c.close()
' > "$scratch/listener.log" &
listener=$!
sleep 3600 &
canary=$!
# HOSTILE_KEEP=1 keeps the scratch folder (specs, logs) for a look.
trap 'kill $listener $canary 2>/dev/null
if [ -n "${HOSTILE_KEEP:-}" ]; then
	"$ARENA" db stop > /dev/null 2>&1
	echo "kept $scratch"
else
	cleanup
fi' EXIT
for ((i = 0; i < 50; i++)); do
	[ -s "$scratch/listener.log" ] && break
	sleep 0.1
done
port=$(head -n 1 "$scratch/listener.log")
[ -n "$port" ] || fail "the TCP listener did not start"

mkdir -p "$ARENA_DATA"
"$ARENA" db start > /dev/null || fail "cannot start PostgreSQL"
dburl=$("$ARENA" db url) || fail "no PostgreSQL url"
# host='DIR' port='N' -> DIR/.s.PGSQL.N
pgsock=$(sed -n "s/.*host='\{0,1\}\([^' ]*\)'\{0,1\} \
port='\{0,1\}\([0-9]*\).*/\1\/.s.PGSQL.\2/p" <<< "$dburl")
[ -S "$pgsock" ] || fail "cannot find PostgreSQL's socket in '$dburl'"

# --- the machine's state (machine.sh, through lib.sh) ---

# Every live process that runs one of our bot programs (their names are
# ours alone), plus the sandbox's own leftovers (machine.sh).
bot_names=$(cd "$bots" && ls *.c | sed 's/\.c$//' | tr '\n' '|')
bot_processes() {
	ps -eo pid=,uid=,stat=,comm= |
	    awk -v re="^(${bot_names}hostile-daemon|garbage)\$" \
	    -v canary="$canary" '$3 !~ /^Z/ && $1 != canary && $4 ~ re'
}
leftover_processes() {
	bot_processes
	slot_leaks
}
state() {
	echo "--- mounts"
	host_mounts
	echo "--- ipc"
	# Only persist's key: PostgreSQL clusters come and go meanwhile.
	ipcs -m -q 2>/dev/null | awk '$1 == "0x41524e41" { print $1 }' 
	echo "--- files"
	ls -a /dev/shm /tmp 2>/dev/null | grep -i 'arena-hostile\|^fill'
	(cd "$ARENA_SOURCE_DIR" && find games/dreamcity/bots tests/hostile \
	    -type f -print0 | sort -z | xargs -0 md5sum)
}
state > "$scratch/state.before"

# Waits up to 3 s for the machine to be back to state.before; prints
# what differs otherwise, and whether it cleared within 10 s more.
machine_diff() {
	local i

	for ((i = 0; i < 130; i++)); do
		if [ -z "$(leftover_processes)" ] &&
		    state | cmp -s - "$scratch/state.before"; then
			[ "$i" -lt 30 ] && return 0
			echo "(it cleared after $((i / 10)) s)"
			return 1
		fi
		[ "$i" -eq 30 ] && {
			leftover_processes | sed 's/^/left: /'
			state | diff "$scratch/state.before" - |
			    grep '^[<>]' | sed 's/^/changed: /'
		}
		sleep 0.1
	done
	echo "(still there after 13 s)"
	return 1
}

# --- one case ---

# The hostile seat of every game of tournament $1: end_reason, the
# hostile seat's verdict, the opponent's verdict, cpu_ms, wall_ms,
# peak_kb, detail; '|'-separated.
seat_rows() {
	psql "$dburl" -qAt -F '|' -v ON_ERROR_STOP=1 -c "
	SELECT r.end_reason, h.verdict, o.verdict, h.cpu_ms, h.wall_ms,
	    h.peak_kb, replace(r.detail, E'\n', ' ')
	FROM tournaments t
	JOIN entries e ON e.tournament_id = t.id AND e.name = 'hostile'
	JOIN game_seats s ON s.entry_id = e.id
	JOIN games g ON g.id = s.game_id
	JOIN results r ON r.id = g.result_id
	JOIN result_seats h ON h.result_id = r.id AND h.seat = s.seat
	JOIN result_seats o ON o.result_id = r.id AND o.seat <> h.seat
	WHERE t.name = '$1' ORDER BY g.id"
}

# case NAME BOT EXPECT [BUILD_FLAGS] [RUN_ARGS] [DATASET] [OPPONENT]
# EXPECT lists the accepted outcomes of the hostile seat, per game:
# "normal" (the game ended by its rules, the bot OK or WA) or a verdict.
# With mode=turn the game is Slime (per-turn bots: a new process per
# call, the game going on past a failed call) against its greedy house
# bot, and the outcome is always the hostile seat's verdict.
run_case() {
	local name=$1 bot=$2 expect=$3 flags=${4:-} args=${5:-}
	local dataset=${6:-$scratch/hostile.dc} opponent=${7:-greedy}
	local dir="$scratch/$name" spec outcome connections
	local note="" seen="" why="" leak
	local end hv ov cpu wall peak detail build opp_build
	local game=dreamcity call_ms=1000

	selected "$name" || return
	mkdir -p "$dir"
	connections=$(wc -l < "$scratch/listener.log")
	spec="$dir/spec.yaml"
	build="cc -O2 -o $bot $bot.c $flags"
	[ "$bot" = garbage ] &&
	    build="cc -O2 -o mkgarbage garbage.c && ./mkgarbage"
	opp_build="cc -O2 -o greedy greedy.c dcbot.c"
	local opp_folder=$house opp_run=./greedy
	if [ "$opponent" = slowpass ]; then
		opp_folder=$bots opp_run=./slowpass
		opp_build="cc -O2 -o slowpass slowpass.c"
	fi
	if [ "${mode:-}" = turn ]; then
		game=slime call_ms=300 dataset=$scratch/hostile.sl
		opp_folder=$slime_house opp_run=./greedy
		opp_build="cc -O2 -o greedy greedy.c slbot.c"
	fi
	if [ "${mode:-}" = files ]; then
		game=spacewars call_ms=300 dataset=$spacewars_field
		opp_folder=$spacewars_house opp_run=./hunter
		opp_build="cc -O2 -o hunter hunter.c swbot.c"
	fi
	cat > "$spec" <<EOF
tournament: hostile-$name
game: $game
seed: 1
datasets:
  - $dataset
entries:
  - name: hostile
    folder: $bots
    build: $build
    run: ./$bot $args
  - name: $opponent
    folder: $opp_folder
    build: $opp_build
    run: $opp_run
limits:
  call_ms: $call_ms
  game_ms: 30000
  memory_mb: 512
  resident_mb: 256
stages:
  - name: only
    format: round_robin
EOF
	if ! timeout 600 "$ARENA" run "$spec" --workers 1 \
	    > "$dir/run.out" 2> "$dir/run.err"; then
		why="arena run failed: $(tail -n 3 "$dir/run.err" |
		    tr '\n' ' ')"
	fi
	"$ARENA" export games "$spec" --format csv > "$dir/games.csv" \
	    2>> "$dir/run.err"
	seat_rows "hostile-$name" > "$dir/seats" 2>> "$dir/run.err"
	[ -z "$why" ] && [ "$(wc -l < "$dir/seats")" -ne 2 ] &&
	    why="expected 2 games, got $(wc -l < "$dir/seats")"
	while IFS='|' read -r end hv ov cpu wall peak detail; do
		case ${mode:-}:$end in
		turn:*|files:*) outcome=$hv ;;
		*:all_placed|*:passes|*:call_limit) outcome=normal ;;
		*) outcome=$hv ;;
		esac
		seen="$seen $outcome"
		# The export must agree with the seat's own row.
		grep -q ",$end\$" "$dir/games.csv" ||
		    why="end_reason $end missing from the export"
		case $detail in
		*"code 42"*|*"code 43"*)
			# This case's logs only: newer than its spec.
			leak=$(find "$ARENA_DATA/logs" -name '*.stderr' \
			    -newer "$spec" -exec grep -h 'LEAK\|persist:' {} + |
			    tail -n 1)
			why="the attack got through: $leak ($detail)" ;;
		esac
		case " $expect " in
		*" $outcome "*) ;;
		*) why="${why:-outcome $outcome ($detail), expected $expect}" ;;
		esac
		[ "$ov" = OK ] || [ "$ov" = WA ] ||
		    why="${why:-the opponent was hurt: $ov}"
		if [ -n "${check_seat:-}" ]; then
			[ -z "$why" ] &&
			    why=$($check_seat "$cpu" "$wall" "$peak" "$detail")
			note="$note, cpu_ms $cpu of wall_ms $wall"
		fi
	done < "$dir/seats"
	if ! machine_diff > "$dir/machine" 2>&1; then
		why="${why:-machine changed: $(head -n 3 "$dir/machine" |
		    tr '\n' ';') $(tail -n 1 "$dir/machine") $(grep -h \
		    'cgroup' "$dir/run.err" | head -n 2 | tr '\n' ';')}"
		# Start the next case from a clean baseline.
		bot_processes | awk '{ print $1 }' | xargs -r kill -9
		state > "$scratch/state.before"
	fi
	[ "$(wc -l < "$scratch/listener.log")" -eq "$connections" ] ||
	    why="${why:-our TCP listener on the host got a connection}"
	kill -0 "$canary" 2>/dev/null || why="${why:-the canary was killed}"
	if [ -n "$why" ]; then
		echo "case $name: FAIL ($why)"
		failed=$((failed + 1))
	else
		echo "case $name: ok (verdict$(tr ' ' '\n' <<< "$seen" |
		    sort -u | tr '\n' ' ' | sed 's/ $//')$note)"
		passed=$((passed + 1))
	fi
}

# Whether HOSTILE_CASES (if set) names the case.
selected() {
	[ -z "${HOSTILE_CASES:-}" ] || grep -qw -- "$1" <<< "$HOSTILE_CASES"
}

skip_case() {
	selected "$1" || return
	echo "case $1: SKIP ($2)"
	skipped=$((skipped + 1))
}

# A case that would harm the machine if games were not sandboxed.
run_dangerous() {
	selected "$1" || return
	if [ "$sandboxed" != yes ]; then
		echo "case $1: FAIL (not run: games are not sandboxed)"
		failed=$((failed + 1))
		return
	fi
	run_case "$@"
}

# Between-call CPU must stay with the call: a frozen ponderer uses no
# more CPU than the wall time of its calls (20 ms of slack).
check_ponder() {
	[ "$1" -le $(($2 + 20)) ] ||
	    echo "cpu_ms $1 > wall_ms $2: it computed between its calls"
}

# Many spinning threads still get one core at most (cpuset), so CPU
# stays close to wall time.
check_one_core() {
	[ "$1" -le $(($2 * 5 / 4 + 50)) ] ||
	    echo "cpu_ms $1 for wall_ms $2: it used more than one core"
}

# --- the cases ---

HOSTILE_CASES="${HOSTILE_CASES:+$HOSTILE_CASES probe}" \
    run_case probe probe normal
[ "$(cut -d'|' -f2 "$scratch/probe/seats" 2>/dev/null | sort -u)" = OK ] &&
    sandboxed=yes

run_case spin spin TO
check_seat=check_one_core run_case spin_threads spin_threads TO -pthread
check_seat=check_ponder run_case ponder ponder "normal RE SV" -pthread "" \
    "" slowpass
run_case pauser pauser TO
run_case sigstop sigstop TO
run_dangerous fork_bomb fork_bomb "normal RE SV"
run_dangerous daemon daemon "normal RE SV"
run_dangerous thread_bomb thread_bomb normal -pthread
# Without cgroups (ARENA_CGROUPS=none) the memory limit is RLIMIT_DATA:
# an allocation fails and the bot dies of it, RE, not ML (arena doctor
# says so).
mem=ML
[ "${ARENA_CGROUPS:-}" = none ] && mem="ML RE"
run_case heap_bomb heap_bomb "$mem"
run_case static_bomb static_bomb "$mem"
run_case stack_bomb stack_bomb "RE ML"
run_case hoard hoard ML
run_dangerous disk_fill disk_fill "normal ML"
run_case pagecache pagecache normal
run_case net net normal "" "$port $pgsock"
run_case vsock vsock "normal SV"
run_case io_uring io_uring "normal SV"
run_case read_outside read_outside normal "" \
    "$scratch/canary $ARENA_DATA $ARENA_DATA/builds $ARENA_SOURCE_DIR $house"
run_case flood flood OL
run_case flood_stderr flood_stderr "normal RE"
run_case twice twice WA
run_case no_read no_read TO "" "" "$scratch/big.dc"
run_case close_stdout close_stdout RE
run_dangerous ptrace ptrace "normal SV"
run_dangerous kill_all kill_all normal
run_case kernel kernel "normal SV"
run_case arch arch "SV normal"
run_dangerous persist persist normal
run_case fd_probe fd_probe normal
run_case segv segv RE
run_case abort abort RE
run_case selfkill selfkill RE
run_case exit3 exit3 RE
run_case garbage garbage RE

# Per-turn mode (Slime): every call a new process in the seat's sandbox,
# which is run again for each (sandbox_again): what one call leaves must
# not reach the next one or the machine.
mode=turn run_case turn_probe probe OK
mode=turn run_case turn_spin spin TO
check_seat=check_one_core mode=turn run_case turn_spin_threads \
    spin_threads TO -pthread
mode=turn run_case turn_sigstop sigstop TO
mode=turn run_dangerous turn_fork_bomb fork_bomb "OK RE SV WA TO"
mode=turn run_dangerous turn_daemon daemon "OK RE SV WA"
mode=turn run_dangerous turn_thread_bomb thread_bomb "OK RE" -pthread
mode=turn run_case turn_heap_bomb heap_bomb "ML TO"
mode=turn run_dangerous turn_disk_fill disk_fill "OK ML RE"
mode=turn run_case turn_net net OK "" "$port $pgsock"
mode=turn run_case turn_read_outside read_outside OK "" \
    "$scratch/canary $ARENA_DATA $ARENA_DATA/builds $ARENA_SOURCE_DIR $house"
mode=turn run_case turn_flood flood OL
mode=turn run_dangerous turn_ptrace ptrace "OK SV"
mode=turn run_dangerous turn_kill_all kill_all OK
mode=turn run_dangerous turn_persist persist OK
mode=turn run_case turn_fd_probe fd_probe OK
mode=turn run_case turn_segv segv RE
mode=turn run_case turn_exit3 exit3 RE

# Per-turn FILES mode (Space Wars against hunter, which ends the game by
# sinking the idle fleet): traps in output.txt are refused without being
# followed, blocked on or read past the cap, and a forged input.txt and a
# stale output.txt never reach the next call.
mode=files run_case symlink_trap symlink_trap SV "" symlink
mode=files run_case fifo_trap symlink_trap SV "" fifo
mode=files run_case hardlink_trap symlink_trap "SV WA" "" hardlink
mode=files run_case sparse_trap symlink_trap RE "" sparse
mode=files run_case rewrite_input rewrite_input WA
mode=files run_case files_read_outside read_outside OK "" \
    "$scratch/canary $ARENA_DATA $ARENA_DATA/builds $ARENA_SOURCE_DIR $house"

echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
