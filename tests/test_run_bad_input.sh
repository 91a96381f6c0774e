#!/usr/bin/env bash
# run.sh refuses bad input before it builds or writes anything: exit 2, one
# line on stderr naming the option, and results/ exactly as it was.
# Usage: test_run_bad_input.sh PATH/TO/run.sh
set -u
run=$1
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
check --layouts --layouts diagonal
check --orders --orders sideways
check --counters --counters perf
check --reps --reps 0
check --min-time --min-time -1
check --bogus --bogus
check --bogus --bogus=1
check --resume --resume /nonexistent-results-dir
[ $fail -eq 0 ] && echo "run.sh: every bad input refused with exit 2, one line, results/ untouched"
exit $fail
