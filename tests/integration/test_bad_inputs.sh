# Bad inputs are refused before anything runs, each problem named as
# file:line:col; `arena run` refuses them too and starts nothing.
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
bad="$here/bad"

# expect_refused SPEC REGEX: check fails with a located error matching REGEX.
expect_refused() {
	local out="$scratch/$(basename "$1").err"

	if "$ARENA" check "$1" 2> "$out" >/dev/null; then
		fail "'$1' was accepted"
	fi
	expect_match "$out" "$2"
}

expect_refused "$bad/broken.yaml" "broken.yaml:[0-9]+:[0-9]+: "
expect_refused "$bad/missing-dataset.yaml" \
	"missing-dataset.yaml:5:5: .*no-such-map.dc"
expect_refused "$bad/malformed-building.yaml" \
	"malformed-building.dc:7:[0-9]+: .*mask row"
expect_refused "$bad/unknown-game.yaml" \
	"unknown-game.yaml:2:7: unknown game 'dreamcty'"

if "$ARENA" run "$bad/missing-dataset.yaml" > /dev/null 2> "$scratch/run.err"
then
	fail "arena run accepted a spec with a missing dataset"
fi
expect_match "$scratch/run.err" "no-such-map.dc"
echo "bad inputs: ok"
