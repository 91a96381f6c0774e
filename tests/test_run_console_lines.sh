#!/usr/bin/env bash
# What run.sh prints on the terminal: one prefix on every line (a refusal
# included) and the build's progress (Ninja's steps, from its log). The
# counter line is the bench's own (test_bench_counter_sentence); the
# closing block is summarize's (test_report_in_place).
# Usage: test_run_console_lines.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
. "$(dirname "$0")/lib.sh"
scratch tmp
# shellcheck disable=SC2034 # the scripts need $top, $prog and $caller_pwd
prog=./run.sh caller_pwd=$PWD
for f in common options plan build sweep; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done
set +e

# A refusal: one line, under the prefix.
err=$("$run" --sites 0 2>&1 >/dev/null)
[[ $err == "inlinecost: "* ]] || bad "a refusal without the prefix: $err"

# The build's count: Ninja's last [done/total] in the log.
printf '[1/3] Building C object a.o\nwarning: x [2/9] not a status\n[2/3] Building C object b.o\nnoise\n' >"$tmp/build.log"
[ "$(build_steps "$tmp/build.log")" = " 2 3 " ] || bad "build_steps: '$(build_steps "$tmp/build.log")', want ' 2 3 '"
[ -z "$(build_steps "$tmp/no-such.log")" ] || bad "build_steps of no log: '$(build_steps "$tmp/no-such.log")'"

# The counter source: the bench's second line is the one line said (its
# third, the simulation's cache, is read, never printed).
mkdir -p "$tmp/b/bench" "$tmp/log"
printf '#!/bin/sh\nprintf "sim\\nsimulated L1i misses (valgrind)\\n%%s\\n" "%s"\n' "$tmp/cache.csv" >"$tmp/b/bench/sites_bench"
chmod +x "$tmp/b/bench/sites_bench"
printf 'name,l1i\nx,1\n' >"$tmp/cache.csv"
printf 'name\tsites\nx\t1\n' >"$tmp/plan.tsv"
measure_begin() { :; }; measure_end() { :; }
dir=$tmp B_dir=("$tmp/b") counters=auto threads=1 modes=private plant="" counter_source=""
decide_counters 2>"$tmp/counters" || bad "decide_counters failed: $(cat "$tmp/counters")"
[ "$(grep -c . "$tmp/counters")" -eq 2 ] && grep -qx 'inlinecost: counters: simulated L1i misses (valgrind)' "$tmp/counters" &&
	! grep -qv '^inlinecost: ' "$tmp/counters" || bad "the counter lines: $(cat "$tmp/counters")"
[ "$(cat "$tmp/sim.csv")" = "$(printf 'name,l1i\n*,1')" ] || bad "sim.csv: $(cat "$tmp/sim.csv")"
# The source is the run's: recorded in run.conf, and a resume that would
# count otherwise is refused.
grep -qx 'counter_source_of_run=sim' "$tmp/run.conf" || bad "run.conf does not record the counter source"
err=$(counter_source_of_run=papi counter_source=""; decide_counters 2>&1) && bad "a resume with another counter source went on"
[[ $err == *"inlinecost: the run's counters came from papi, this machine now gives sim"* ]] || bad "the mixed source: $err"

# A path as given, made absolute without the slash a shell's completion adds.
[ "$(caller_pwd=/w abs_path results/x/)" = /w/results/x ] && [ "$(abs_path /a//)" = /a ] && [ "$(abs_path /)" = / ] ||
	bad "abs_path: $(caller_pwd=/w abs_path results/x/) $(abs_path /a//) $(abs_path /)"

[ $fail -eq 0 ] && echo "test_run_console_lines: one prefix, one counter line, the build's steps"
exit $fail
