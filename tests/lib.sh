# What the shell tests share; a test sources it first thing:
#   . "$(dirname "$0")/lib.sh"
# POSIX sh, safe under set -eu. Exit 0 pass, 1 fail, 77 skip.

# The test's own name, from its file: tests/test_x.sh is test_x.
test_name=$(basename "$0" .sh)

# args 'NAME...' "$@": the test's arguments, in order, into these
# variables ("-" passes one over); fewer than named fail the test, more
# are left (the report tests share one argument list).
args() {
	lib_names=$1 lib_argc=$(($# - 1))
	shift
	for lib_name in $lib_names; do
		[ $# -gt 0 ] || fail "want the arguments $lib_names, got $lib_argc"
		[ "$lib_name" = - ] || eval "$lib_name=\$1"
		shift
	done
}

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

# dir_state DIR: every file's checksum and DIR's listing, to tell whether
# a command left anything in DIR. Not DIR's own time nor its parent's: a
# test's files beside DIR move those, and so does a scratch entry made and
# taken back, which leaves nothing.
dir_state() {
	(cd "$1" && find . -type f -print0 | sort -z | xargs -0 -r cksum; ls -lA)
}

# refused_in DIR WHAT CMD...: CMD refuses bad input: exit 2, one line on
# stderr (kept in $work/err), DIR as it was.
refused_in() {
	lib_dir=$1 lib_what=$2
	shift 2
	lib_before=$(dir_state "$lib_dir")
	lib_rc=0
	"$@" 2>"$work/err" || lib_rc=$?
	[ $lib_rc -eq 2 ] || fail "$lib_what: exit $lib_rc, want 2"
	[ "$(wc -l <"$work/err")" -eq 1 ] || fail "$lib_what: want one line on stderr, got: $(cat "$work/err")"
	[ "$(dir_state "$lib_dir")" = "$lib_before" ] || fail "$lib_what: $lib_dir changed"
}

# holds FILE WHAT GREP_ARGS...: grep GREP_ARGS finds a line of FILE, or
# the test stops with WHAT and FILE's text.
holds() {
	lib_file=$1 lib_what=$2
	shift 2
	grep -q "$@" "$lib_file" || fail "$lib_what: $(cat "$lib_file")"
}

# within X LO HI: true when LO <= X <= HI, as numbers (decimals too).
within() {
	awk -v x="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(x >= lo && x <= hi) }'
}

# each_process CMD...: CMD once for each process of a sweep of 6 layout
# variants x 2 processes, with $v and $p set and $k counting the processes
# from 1 in this order (variant by variant: the tests' time order, not the
# shuffled one a sweep runs in).
each_process() {
	k=0
	for v in 0 1 2 3 4 5; do
		for p in 0 1; do
			k=$((k + 1))
			"$@"
		done
	done
}

# fold_check GEN_DIR QUEUE_DIR OP [BODY_FILE]: without noipa gcc folds
# identical clone copies, so codesize must take 16 clone sites of OP (of
# BODY_FILE's body when given) built noinline, noipa, and refuse them built
# noinline only. Uses $gen, $cc, $codesize and $tmp; with another compiler
# there is nothing folded to check, and it says so.
fold_check() {
	if ! { [ -n "$cc" ] && "$cc" --version 2>/dev/null | grep -q 'Free Software Foundation'; }; then
		echo "note: not gcc, so the folding case (noinline without noipa) is not checked"
		return 0
	fi
	"$gen" --sites 16 --form clone ${4:+--body "$4"} -o "$tmp/fold" >/dev/null || bad "gen clone $3"
	for attr in '__attribute__((noinline, noipa))' '__attribute__((noinline))'; do
		"$cc" -O2 -ffunction-sections -I"$1" -I"$2" "-DIC_CLONE_ATTR=$attr" \
			-c "$tmp/fold/sites_0.c" -o "$tmp/fold/s.o" || { bad "cc $attr"; continue; }
		"$codesize" ${4:+--body "$3"} --point "clone:$3:chain:seq:0:16" "$tmp/fold/s.o" >/dev/null 2>"$tmp/err"
		rc=$?
		case $attr in
		*noipa*) [ $rc -eq 0 ] || bad "codesize refused noipa copies of $3: $(cat "$tmp/err")" ;;
		*) [ $rc -eq 3 ] && grep -q 'distinct copies' "$tmp/err" ||
			bad "codesize took folded $3 copies (noinline only): exit $rc $(cat "$tmp/err")" ;;
		esac
	done
}

# own_machine_lock: the machine lock of this test alone ($IC_MEASURE_LOCK in
# the scratch directory, which scratch made first), so it never waits for,
# nor holds up, a real measurement; skips without flock(1).
own_machine_lock() {
	command -v flock >/dev/null || { echo "skip: no flock(1) (util-linux)"; exit 77; }
	IC_MEASURE_LOCK=$lib_scratch/lock
	export IC_MEASURE_LOCK
	: >"$IC_MEASURE_LOCK"
}
