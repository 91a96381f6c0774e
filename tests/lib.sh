# What the shell tests share; a test sources it first thing:
#   . "$(dirname "$0")/lib.sh"
# POSIX sh, safe under set -eu. Exit 0 pass, 1 fail, 77 skip.

# The test's own name, from its file: tests/test_x.sh is test_x.
test_name=$(basename "$0" .sh)

# fail MESSAGE: the test stops here: "test_x: FAIL: MESSAGE" on stderr, exit 1.
fail() {
	echo "$test_name: FAIL: $*" >&2
	exit 1
}

# bad MESSAGE: a check failed and the test goes on: "FAIL: MESSAGE" on
# stderr, and $fail is 1; such a test ends with exit $fail.
fail=0
bad() {
	echo "FAIL: $*" >&2
	fail=1
}

# scratch [VAR]: a new directory in $VAR (work when not named), named after
# the test, removed when the test exits; kept when IC_TEST_KEEP is set, to
# look at after a failure.
scratch() {
	lib_scratch=$(mktemp -d "${TMPDIR:-/tmp}/$test_name.XXXXXX") || exit 1
	eval "${1:-work}=\$lib_scratch"
	trap '[ -n "${IC_TEST_KEEP:-}" ] || rm -rf "$lib_scratch"' EXIT
}

# within X LO HI: true when LO <= X <= HI, as numbers (decimals too).
within() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

# each_process CMD...: CMD once for each process of the default sweep, 6
# layout variants x 2 processes, with $v and $p set and $k counting the
# processes from 1 in that order (the order they run in).
each_process() {
	k=0
	for v in 0 1 2 3 4 5; do
		for p in 0 1; do
			k=$((k + 1))
			"$@"
		done
	done
}
