# A bot using 0.9 s of a 1 s per-call limit passes and one using 1.1 s
# times out, on the CPU clock (spinning) and on the wall clock (sleeping),
# on an idle machine and beside a busy process.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
busy=
trap '[ -z "$busy" ] || kill $busy 2>/dev/null; cleanup' EXIT

# play CLOCK HOW LOAD: one round robin of under, over and passer.
play() {
	local spec="$scratch/$1-$3.yaml" games="$scratch/$1-$3.csv"

	sed -e "s|CLOCK|$1|g" -e "s|HOW|$2|" -e "s|timing-$1|timing-$1-$3|" \
		-e "s|folder: \.$|folder: $here/timing|" \
		-e "s|\.\./|$here/|" "$here/timing/spec.yaml" > "$spec"
	"$ARENA" run "$spec" --workers 1 > /dev/null 2> "$scratch/run.err" ||
		{ cat "$scratch/run.err" >&2; fail "arena run failed ($1, $3)"; }
	"$ARENA" export games "$spec" --format csv > "$games"
	# under always passes in time; over always runs out on its call.
	cut -d, -f6- "$games" | tail -n +2 | sort > "$games.got"
	diff -u - "$games.got" <<-EOT || fail "unexpected results ($1, $3)"
	over,passer,0,2,passer,TO
	over,under,0,2,under,TO
	passer,over,2,0,passer,TO
	passer,under,0,0,,passes
	under,over,2,0,under,TO
	under,passer,0,0,,passes
	EOT
}

play cpu cpu idle
play wall sleep idle
sh -c 'while :; do :; done' &
busy=$!
play cpu cpu loaded
play wall sleep loaded
echo "time accounting: ok"
