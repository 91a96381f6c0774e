#!/usr/bin/env bash
# ./run.sh micro's measurement as the driver runs it (sweep micro,
# cmd/sweep.c), on stand-in microbenchmarks that print Google Benchmark's
# CSV: each run under the machine lock with 10 interleaved repetitions;
# its progress line counts from run.sh's start; the table holds each median and its ratio to the bare exchange (or C's
# to native C++'s), and says n/a where a benchmark gave none, never 0; a
# benchmark that fails is named with its log and no table is printed; an
# argument it does not know is refused.
# Usage: test_run_micro.sh PATH/TO/sweep
set -u
sweep=$1
. "$(dirname "$0")/lib.sh"
scratch tmp
own_machine_lock
export FAKE_LOG=$tmp/calls
mkdir -p "$tmp/build/bench"
# A stand-in: its medians (NAME=NS ...) as CSV, with a mean row to skip.
fake() {
	local f=$tmp/build/bench/$1; shift
	{
		printf '#!/bin/sh\nflock -n "$IC_MEASURE_LOCK" true && held=free || held=held\n'
		printf 'echo "$0 $held $*" >>"$FAKE_LOG"\n[ -z "$FAKE_FAIL" ] || { echo broke >&2; exit 3; }\n'
		printf 'echo name,iterations,real_time,cpu_time,time_unit\n'
		for kv; do printf 'echo "\\"%s_mean\\",10,99,99,ns"\necho "\\"%s_median\\",10,%s,1,ns"\n' "${kv%=*}" "${kv%=*}" "${kv#*=}"; done
	} >"$f"
	chmod +x "$f"
}
fake queue_microbench_tas floor/tas/xchg+release=10 queue/tas/inline=12 queue/tas/hint=11 queue/tas/extern=15
fake queue_microbench_ticket floor/ticket/xchg+release=20 queue/ticket/inline=30 queue/ticket/extern=25
fake api_overhead api/native/empty/1000=0.5 api/c/empty/1000=0.6 api/native/queue/1000=2 api/c/queue/1000=2.2 \
	api/native/empty/1=4 api/c/empty/1=5 api/native/queue/1=8 api/c/queue/1=9

(cd "$tmp" && FAKE_FAIL="" IC_RUN_ELAPSED_S=5 "$sweep" micro --cmdline="./run.sh micro x" >"$tmp/out" 2>"$tmp/err") ||
	bad "micro failed: $(tail -n 3 "$tmp/err")"
# Its progress line counts from run.sh's start, as run.sh's own lines do.
grep -q '^inlinecost: \[5s\] measurement: the microbenchmarks$' "$tmp/err" || bad "the phase line: $(head -n 1 "$tmp/err")"
[ "$(wc -l <"$FAKE_LOG")" -eq 3 ] && [ "$(grep -c ' held .*--benchmark_repetitions=10 .*--benchmark_enable_random_interleaving=true' "$FAKE_LOG")" -eq 3 ] ||
	bad "want three runs under the lock, 10 interleaved repetitions each: $(cat "$FAKE_LOG")"
want_row() { grep -qE "$1" "$tmp/out" || bad "no row like '$1' in: $(cat "$tmp/out")"; }
want_row '^  tas +10\.00 +12\.00 +11\.00 +15\.00 +1\.200 +1\.100 +1\.500 *$'
want_row '^  ticket +20\.00 +30\.00 +n/a +25\.00 +1\.500 +n/a +1\.250 *$'
want_row '^  empty/1000 +native +0\.500  C +0\.600  ratio 1\.200$'
want_row '^  queue/1 +native +8\.000  C +9\.000  ratio 1\.125$'
grep -q ' 0\.00 \| 0\.000 ' "$tmp/out" && bad "a missing figure printed as 0"

: >"$FAKE_LOG"
(cd "$tmp" && FAKE_FAIL=1 "$sweep" micro >"$tmp/out" 2>"$tmp/err")
rc=$?
[ $rc -eq 1 ] && grep -q "build/bench/queue_microbench_tas failed (log: build/micro.log)" "$tmp/err" && [ ! -s "$tmp/out" ] ||
	bad "a failing benchmark: rc $rc, out '$(cat "$tmp/out")', err $(tail -n 2 "$tmp/err")"

err=$(cd "$tmp" && "$sweep" micro bogus 2>&1); rc=$?
[ $rc -eq 2 ] && [ -n "$err" ] && [[ $err != *$'\n'* ]] || bad "sweep micro bogus: exit $rc, $err"

[ $fail -eq 0 ] && echo "ok: three runs under the lock, every median and ratio in the table, n/a where missing, a failure named"
exit $fail
