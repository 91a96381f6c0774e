#!/usr/bin/env bash
# run.sh refuses bad input before it builds or writes anything: exit 2, one
# line on stderr naming the option, and results/ exactly as it was.
# Usage: test_run_bad_input.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
snapshot() { ls -A "$top/results" 2>/dev/null; [ -e "$top/results/latest" ] && readlink "$top/results/latest"; }
fail=0
check() {   # check OPTION-NAME ARGS...
	local name=$1; shift
	local before after err rc
	before=$(snapshot)
	err=$("$run" "$@" 2>&1 >/dev/null); rc=$?
	after=$(snapshot)
	if [ $rc -ne 2 ]; then echo "FAIL: run.sh $* exited $rc, want 2"; fail=1; fi
	if [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then echo "FAIL: run.sh $*: not one line: $err"; fail=1; fi
	if ! grep -q -- "$name" <<<"$err"; then echo "FAIL: run.sh $*: '$err' does not name $name"; fail=1; fi
	if [ "$before" != "$after" ]; then echo "FAIL: run.sh $* changed results/"; fail=1; fi
}
check --sites --sites 0
check --sites --sites abc
check --sites --sites 1000001
check --sites --sites 64..8
check --threads --threads -1
check --threads --threads 0
check --forms --forms inlined
check --forms --forms inline
check --ops --ops nosuch
check --forms --forms mark,extern
check --per-caller --per-caller 0
check --per-caller --per-caller x
check --filler --filler x
check --filler --filler 65537
check --filler --filler -8
check --filler --filler ,
# Filler series and the nolock forms run at 1 thread, private only.
check --filler --filler 512 --threads 2
check --forms --forms inline_nolock,extern_nolock --threads 2
check --cc --cc no-such-compiler-here
check --cflags --cflags "O2"
check --body --body /nonexistent/body.c
check --lto --lto --cc clang
check --ops --body "$top/examples/kref.c" --ops tail_dequeue
check --layouts --layouts diagonal
check --orders --orders sideways
check --counters --counters perf
check --reps --reps 0
check --reps --reps 1
check --reps --reps 2
check --layouts-random --layouts-random 0
check --layout-seed --layout-seed x
check --processes --processes 0
check --processes --layouts-random 1 --processes 1
check --repeat --repeat 0
check --trials --trials 1
check --min-time --min-time -1
check --bogus --bogus
check --bogus --bogus=1
check --resume --resume /nonexistent-results-dir
# A relative --resume is taken from the caller's directory, not the repo's.
mkdir -p "$top/results/.bad-input-probe" && touch "$top/results/.bad-input-probe/run.conf"
( cd / && check --resume --resume results/.bad-input-probe; exit $fail ) || fail=1
rm -rf "$top/results/.bad-input-probe"
# --resume takes the run's settings; an option that says otherwise is refused,
# and so is a tree other than the one that measured (exit 1: not usage).
conf_dir=$(mktemp -d)
trap 'rm -rf "$conf_dir"' EXIT
cat >"$conf_dir/run.conf" <<'CONF'
declare -- sites="1,64"
declare -- forms="inline,extern"
declare -- build_commit="0000000000000000000000000000000000000000"
CONF
check --sites --resume "$conf_dir" --sites 1,2
err=$("$run" --resume "$conf_dir" 2>&1 >/dev/null); rc=$?
if [ $rc -ne 1 ] || ! grep -q "measured at commit 0000000" <<<"$err"; then
	echo "FAIL: --resume of another commit's results: exit $rc, '$err'"; fail=1
fi
[ $fail -eq 0 ] && echo "run.sh: every bad input refused with exit 2, one line, results/ untouched"
exit $fail
