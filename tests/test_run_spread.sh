#!/usr/bin/env bash
# --spread: the sweep runs its repeats one after the other, their starts at
# least the gap apart, and lets the machine lock go while it waits (another
# run could take it then), holding it again, as deep as before, for every
# process. run_processes of scripts/sweep.sh with the processes stubbed
# (their order from cmd/plan, PLAN).
# Usage: test_run_spread.sh TOP PLAN (the source tree, the plan program)
set -u
top=$1 plan=$2 prog=test_run_spread caller_pwd=$PWD cmdline="test_run_spread"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export IC_MEASURE_LOCK=$tmp/lock
# shellcheck source=../scripts/common.sh
. "$top/scripts/common.sh"
# shellcheck source=../scripts/sweep.sh
. "$top/scripts/sweep.sh"

fail_test() { echo "test_run_spread: FAIL: $*" >&2; exit 1; }

dir=$tmp/run
mkdir -p "$dir/raw" "$dir/log"
plan_tool() { echo "$plan"; }
B_dir=("$tmp/build") repeat=3 layouts_random=1 processes=2 layout_seed=5 report_s=0
# 0.05 min from the first repeat's start to the last: 2 s per gap (1.5 rounded).
spread=0.05
guess_process_s() { echo 1; }
lock_free() { flock -n "$IC_MEASURE_LOCK" true; }
# Each process: its repeat, when it began, how deep the lock is held and
# whether another process could take it.
run_process() {
	echo "$3 $(date +%s.%N) $measure_depth $(lock_free && echo free || echo held)" >>"$tmp/procs"
	: >"$dir/raw/$1.json"
}
sleep() { echo "$(lock_free && echo free || echo held) $*" >>"$tmp/sleeps"; command sleep "$@"; }

[ "$(spread_gap_s)" = 2 ] || fail_test "gap $(spread_gap_s) s, want 2"
measure_begin "the sweep"
run_processes "" 2>"$tmp/log" || fail_test "run_processes: $(cat "$tmp/log")"
[ "$measure_depth" = 1 ] || fail_test "the lock is held $measure_depth deep after, want 1 (the sweep's)"
measure_end

[ "$(cut -d' ' -f1 "$tmp/procs" | tr '\n' ' ')" = "1 1 2 2 3 3 " ] ||
	fail_test "repeats not one after the other: $(cut -d' ' -f1 "$tmp/procs" | tr '\n' ' ')"
grep -qv ' 2 held$' "$tmp/procs" && fail_test "a process ran without the lock held as deep as before: $(cat "$tmp/procs")"
[ "$(wc -l <"$tmp/sleeps")" -eq 2 ] || fail_test "want 2 waits, got: $(cat "$tmp/sleeps")"
grep -qv '^free ' "$tmp/sleeps" && fail_test "the lock was held during a wait: $(cat "$tmp/sleeps")"
awk '!($1 in first) { first[$1] = $2 } END { for (r = 2; r <= 3; r++) if (first[r] - first[r - 1] < 1.95) exit 1 }' "$tmp/procs" ||
	fail_test "repeats started less than 2 s apart: $(cat "$tmp/procs")"
grep -q 'spread: repeat 2 of 3 starts at' "$tmp/log" || fail_test "the wait is not said: $(cat "$tmp/log")"

# Without --spread: no wait, and the lock is never let go.
rm -f "$dir"/raw/* "$tmp/procs" "$tmp/sleeps"
spread=""
measure_begin "the sweep"
run_processes "" 2>"$tmp/log" || fail_test "run_processes without --spread"
measure_end
[ ! -e "$tmp/sleeps" ] || fail_test "waited without --spread: $(cat "$tmp/sleeps")"
[ "$(wc -l <"$tmp/procs")" -eq 6 ] || fail_test "without --spread: $(wc -l <"$tmp/procs") processes, want 6"
echo "test_run_spread: ok"
