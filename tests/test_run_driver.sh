#!/usr/bin/env bash
# The driver (cmd/sweep run, sweep/) on a stand-in tree: cmake, the bench,
# link_variant, summarize and machine_state are scripts that say what they
# were asked, so the sweep's own behaviour shows without building or
# measuring. Every line under one prefix; the build's progress from Ninja's
# last [done/total]; the counter source said in one line (the bench's
# second), sim.csv with "*" and the source kept in run.conf, a resume that
# would count otherwise refused, one that measures only what is missing;
# a failed process's log tail and how to go on; --lto on the ordinary
# link; without out a directory under results/, results/latest at it; two builds, each its plan-b<k>.tsv, sim-b<k>.csv and b<k>_ processes;
# the processes in the plan's order with the
# time left, which rises only with a reason; the verdict so far at each
# quarter; --spread's repeats one after the other, their starts the gap
# apart (less the jitter of starting a process), the machine lock let go
# between them; summarize's closing lines last, as it printed them; an
# interrupt leaves no .tmp and says how to go on. The checks that wait out
# seconds (the time left's rise, --spread's gaps) run
# only with `timed` (the slow label: the fast set stays fast).
# Usage: test_run_driver.sh TOP PATH/TO/sweep [timed]
set -u
sweep=$2
. "$(dirname "$0")/lib.sh"
scratch tmp
own_machine_lock
top=$tmp/top t=$tmp/top/b
mkdir -p "$t/bench" "$t/cmd" "$tmp/bin"
# runs export DIR: the run as one file beside it.
printf '#!/bin/sh\n[ "$1" = export ] && tar -czf "$2.tar.gz" -C "$(dirname "$2")" "$(basename "$2")"\n' >"$t/cmd/runs"
# cmake: a configure writes the cache; a build says two steps of three, a
# FAKE_BUILD_S pause between them.
cat >"$tmp/bin/cmake" <<'SH'
#!/bin/sh
if [ "$1" = --build ]; then
	echo "[1/3] Building C object a.o"; echo "warning: x [2/9] not a status"
	sleep "${FAKE_BUILD_S:-0}"; echo "[2/3] Building C object b.o"; exit 0
fi
while [ $# -gt 0 ]; do [ "$1" = -B ] && d=$2; shift; done
printf 'CMAKE_GENERATOR:INTERNAL=Ninja\nIC_LOCK:STRING=ticket\n' >"$d/CMakeCache.txt"
SH
# The bench: its plan, its counter source (FAKE_SOURCE), or one process
# (FAKE_PROCESS_S long) that records its repeat, start and whether the
# machine lock is held.
cat >"$t/bench/sites_bench" <<'SH'
#!/bin/bash
for a; do case $a in --benchmark_out=*) out=${a#*=} ;; esac; done
case " $* " in
*" --plan "*) printf 'name\tform\tsites\nsites/inline/1\tinline\t1\nsites/extern/1\textern\t1\nsites/inline/64\tinline\t64\nsites/extern/64\textern\t64\n'; exit 0 ;;
*" --sim-only "*) [ "${FAKE_SOURCE:-none}" = sim ] || { printf 'none\nno counters (a stand-in)\n'; exit 0; }
	printf 'name,l1i\nsites/inline/1,5\nsites/extern/1,7\n' >"$FAKE_CACHE"
	printf 'sim\nsimulated L1i misses (valgrind)\n%s\n' "$FAKE_CACHE"; exit 0 ;;
esac
r=${0##*/r}; r=${r%%_*}
case $out in *"/${FAKE_FAIL:-none}.json.tmp") echo "the bench broke"; echo "at its last line"; exit 3 ;; esac
flock -n "$IC_MEASURE_LOCK" true && held=free || held=held
echo "$r $(date +%s.%N) $held ${#IC_ENV_PAD} ${out##*/} ${0##*/}" >>"$FAKE_LOG"
sleep "${FAKE_PROCESS_S:-0}"
echo '{}' >"$out"
SH
printf '#!/bin/sh\ncp "$(dirname "$0")/sites_bench" "$2"\n' >"$t/bench/link_variant"
# summarize --run: the closing lines; with --so-far the verdict so far.
cat >"$t/cmd/summarize" <<'SH'
#!/bin/sh
case " $* " in
*" --so-far "*) echo "inlinecost: so far, from $(ls "$2"/raw/*.json | wc -l) of $4 processes" ;;
*) mkdir -p "$2/.report.new"; ln -sfn .report.new "$2/report"; ln -sfn report/summary.md "$2/summary.md"
	echo "inlinecost: The answer"; echo "inlinecost: - inline pays up to N = 4" ;;
esac
SH
printf '#!/bin/sh\necho governor=performance\n' >"$t/cmd/machine_state"
chmod +x "$tmp/bin/cmake" "$t/bench/"* "$t/cmd/"*
export PATH=$tmp/bin:$PATH FAKE_LOG=$tmp/procs FAKE_CACHE=$tmp/cache.csv

# sweep [SETTING=VALUE...]: the driver on these settings, from $top.
settings='sites=1,64
sites_given=1
forms=inline,extern
ops=tail_dequeue
threads=1
modes=private
reps=3
min_time=0.01
counters=auto
layouts_random=1
layout_seed=5
processes=2
repeat=1
spread=
calibrate=0
find_crossover=0
lto=0
per_caller=16
plant=
counter_source_of_run=
jobs=1
cmdline=./run.sh test
tree=b
tree_codegen=user'
sweep() {
	printf '%s\n' "$settings" "$@" >"$tmp/settings"
	(cd "$top" && export PWD=$top && exec "$sweep" run <"$tmp/settings")
}

# A sweep with simulated counters, 8 processes, the build 2 s long.
rm -f "$tmp/procs"
FAKE_SOURCE=sim FAKE_BUILD_S=1.3 IC_BUILD_PROGRESS_S=1 sweep out="$tmp/r1" processes=8 >"$tmp/out" 2>"$tmp/err" ||
	fail "the sweep failed: $(cat "$tmp/err")"
! grep -qv '^inlinecost: ' "$tmp/err" || bad "a line without the prefix: $(grep -v '^inlinecost: ' "$tmp/err" | head -n 1)"
grep -q '^inlinecost: \[[0-9]*s\] build 1/1: 1 of 3 steps, [0-9]s so far (log b/build.log)$' "$tmp/err" ||
	bad "no progress line from Ninja's last status: $(grep build "$tmp/err")"
[ "$(grep -c '^inlinecost: counters: ' "$tmp/err")" -eq 1 ] &&
	grep -qx 'inlinecost: counters: simulated L1i misses (valgrind)' "$tmp/err" ||
	bad "the counter lines: $(grep counters "$tmp/err")"
[ "$(cat "$tmp/r1/sim.csv")" = "$(printf 'name,l1i\n*,5\n*,7')" ] || bad "sim.csv: $(cat "$tmp/r1/sim.csv")"
grep -qx 'counter_source_of_run=sim' "$tmp/r1/run.conf" || bad "run.conf does not keep the counter source"
grep -qx 'build_lock=ticket' "$tmp/r1/run.conf" || bad "run.conf has not the build's lock: $(grep build_lock "$tmp/r1/run.conf")"
grep -q '^tree\|^out=\|^jobs=' "$tmp/r1/run.conf" && bad "the run's own keys in run.conf: $(cat "$tmp/r1/run.conf")"
grep -qE '^variant_seeds=r1_v0:[0-9]+$' "$tmp/r1/run.conf" || bad "no variant seed in run.conf"
grep -qE '^build_source=[0-9a-f]{16}$' "$tmp/r1/run.conf" && grep -qE '^build_cc=.' "$tmp/r1/run.conf" &&
	grep -qx 'build_cflags=-O2 -g (CMAKE_C_FLAGS_RELEASE)' "$tmp/r1/run.conf" ||
	bad "run.conf has not the run's identity: $(grep '^build_' "$tmp/r1/run.conf")"
[ "$(ls "$tmp/r1/raw" | wc -l)" -eq 8 ] || bad "want 8 processes: $(ls "$tmp/r1/raw")"
[ "$(grep -c '^inlinecost: \[[0-9]*s, about [0-9]*s left\] measurement [1-8]/8: process r1_v0_p[0-7] (repeat 1, layout variant 0)$' "$tmp/err")" -eq 8 ] ||
	bad "the measurement lines: $(grep measurement "$tmp/err")"
[ "$(grep -c '^inlinecost: so far, from [2-7] of 8 processes$' "$tmp/out")" -eq 3 ] ||
	bad "want the verdict so far at 3 quarters: $(grep 'so far' "$tmp/out")"
[ "$(tail -n 2 "$tmp/out")" = "$(printf 'inlinecost: The answer\ninlinecost: - inline pays up to N = 4')" ] ||
	bad "stdout does not end in summarize's closing lines: $(cat "$tmp/out")"
tail -n 1 "$tmp/err" | grep -q "done: $tmp/r1/summary.md (all of it in one file: $tmp/r1.tar.gz)" ||
	bad "the last line on stderr: $(tail -n 1 "$tmp/err")"
grep -q ' free ' "$tmp/procs" && bad "a process ran without the machine lock: $(cat "$tmp/procs")"
[ "$(cut -d' ' -f4 "$tmp/procs" | sort -u | wc -l)" -gt 1 ] || bad "every process has the same environment pad"
[ -z "$(find "$tmp/r1" -name '*.tmp')" ] || bad "a .tmp left"
# A resume that would count otherwise is refused.
err=$(FAKE_SOURCE=none sweep "$(cat "$tmp/r1/run.conf")" resume="$tmp/r1" 2>&1 >/dev/null) && bad "a resume with another counter source went on"
[[ $err == *"inlinecost: the run's counters came from sim, this machine now gives none"* ]] || bad "the mixed source: $err"
# A resume of other code is refused, before anything is measured.
err=$(FAKE_SOURCE=sim sweep "$(sed 's/^build_source=.*/build_source=0123456789abcdef/' "$tmp/r1/run.conf")" \
	resume="$tmp/r1" 2>&1 >/dev/null) && bad "a resume of other code went on"
[[ $err == *"inlinecost: --resume: $tmp/r1 was measured from other code (source 0123456789abcdef, this tree "* ]] ||
	bad "the other code: $err"
# A resume measures only what is missing, each with the pad it had.
pads=$(grep -E 'r1_v0_p[36]\.json' "$tmp/procs" | cut -d' ' -f4,5 | sort)
rm -f "$tmp/procs" "$tmp/r1/raw/r1_v0_p3.json" "$tmp/r1/raw/r1_v0_p6.json"
FAKE_SOURCE=sim sweep "$(cat "$tmp/r1/run.conf")" resume="$tmp/r1" >/dev/null 2>"$tmp/err" ||
	fail "the resume failed: $(cat "$tmp/err")"
[ "$(cut -d' ' -f4,5 "$tmp/procs" | sort)" = "$pads" ] || bad "the resume ran $(cat "$tmp/procs"), want $pads"
[ "$(grep -c 'measurement [1-8]/8: process r1_v0_p[36] ' "$tmp/err")" -eq 2 ] && [ "$(grep -c measurement "$tmp/err")" -eq 2 ] ||
	bad "the resume's measurement lines: $(grep measurement "$tmp/err")"
ls "$tmp/r1"/machine_state-resumed-*.txt >/dev/null 2>&1 || bad "no machine state of the resume beside the first"

# A failed process: its log's tail, then how to go on; exit 1, no .tmp.
FAKE_FAIL=r1_v0_p1 sweep out="$tmp/r5" counters=none >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -eq 1 ] || bad "a failed process: exit $rc, want 1"
grep -qx "inlinecost: process r1_v0_p1 failed; its log: $tmp/r5/log/r1_v0_p1.txt" "$tmp/err" &&
	grep -qx 'inlinecost: | at its last line' "$tmp/err" || bad "the failure is not said: $(cat "$tmp/err")"
tail -n 1 "$tmp/err" | grep -qx "inlinecost: stopped; finished processes are in $tmp/r5; continue with ./run.sh --resume $tmp/r5" ||
	bad "a failed process: $(tail -n 1 "$tmp/err")"
[ -z "$(find "$tmp/r5" -name '*.tmp')" ] || bad "a failed process left a .tmp"

# --lto: no layout variants; the processes run the ordinary link.
rm -f "$tmp/procs"
sweep out="$tmp/r6" lto=1 counters=none >/dev/null 2>"$tmp/err" || fail "the --lto sweep failed: $(cat "$tmp/err")"
grep -q '^variant_seeds=.' "$tmp/r6/run.conf" && bad "--lto drew variant seeds: $(grep variant_seeds "$tmp/r6/run.conf")"
grep -q 'linking layout variant' "$tmp/err" && bad "--lto linked layout variants"
[ "$(cut -d' ' -f6 "$tmp/procs" | sort -u)" = sites_bench ] || bad "--lto ran $(cut -d' ' -f6 "$tmp/procs" | sort -u)"

# No out: a new directory under results/, results/latest pointing at it.
sweep out= counters=none >/dev/null 2>"$tmp/err" || fail "the sweep into results/ failed: $(cat "$tmp/err")"
d=$(sed -n 's/^inlinecost: results: //p' "$tmp/err")
[ "$(dirname "$d")" = "$top/results" ] && [ "$(readlink "$top/results/latest")" = "$(basename "$d")" ] ||
	bad "results/latest: $d, $(ls -l "$top/results")"

# Two builds: each its plan, its simulated counts and its processes (b<k>_).
cp -r "$t" "$top/b2"
FAKE_SOURCE=sim sweep out="$tmp/r7" tree="b2" >/dev/null 2>"$tmp/err" || fail "the two-build sweep failed: $(cat "$tmp/err")"
[ -s "$tmp/r7/plan.tsv" ] && [ -s "$tmp/r7/plan-b1.tsv" ] && [ -s "$tmp/r7/sim.csv" ] && [ -s "$tmp/r7/sim-b1.csv" ] ||
	bad "two builds: not each its plan and counts: $(ls "$tmp/r7")"
[ "$(ls "$tmp/r7/raw" | tr '\n' ' ')" = "b0_r1_v0_p0.json b0_r1_v0_p1.json b1_r1_v0_p0.json b1_r1_v0_p1.json " ] ||
	bad "two builds' processes: $(ls "$tmp/r7/raw" | tr '\n' ' ')"
grep -q 'build 2/2: b2 ' "$tmp/err" || bad "the second build is not said: $(grep build "$tmp/err")"

if [ "${3:-}" = timed ]; then
# The time left rises only with a reason: a process takes 3 s, 1 s guessed.
FAKE_PROCESS_S=3 sweep out="$tmp/r2" processes=4 counters=none >/dev/null 2>"$tmp/err" || fail "the slow sweep failed: $(cat "$tmp/err")"
grep -q 'measurement 3/4: .* (the estimate rose: a process takes 3\.[0-9] s here, not the 1 s guessed)$' "$tmp/err" ||
	bad "the rise is not said: $(grep measurement "$tmp/err")"
[ "$(grep -c 'the estimate rose' "$tmp/err")" -eq 1 ] || bad "the rise said more than once: $(grep measurement "$tmp/err")"

# --spread: 3 repeats 2 s apart (0.05 min), the machine lock free between them.
rm -f "$tmp/procs"
( for _ in $(seq 60); do flock -n "$IC_MEASURE_LOCK" true && echo "$(date +%s.%N)" >>"$tmp/free"; sleep 0.1; done ) &
poller=$!
sweep out="$tmp/r3" repeat=3 spread=0.05 counters=none >/dev/null 2>"$tmp/err" || fail "the spread sweep failed: $(cat "$tmp/err")"
kill "$poller" 2>/dev/null; wait "$poller" 2>/dev/null
[ "$(cut -d' ' -f1 "$tmp/procs" | tr '\n' ' ')" = "1 1 2 2 3 3 " ] ||
	bad "repeats not one after the other: $(cut -d' ' -f1 "$tmp/procs" | tr '\n' ' ')"
awk '!($1 in first) { first[$1] = $2 } END { for (r = 2; r <= 3; r++) if (first[r] - first[r - 1] < 1.85) exit 1 }' "$tmp/procs" ||
	bad "repeats started less than 2 s apart: $(cat "$tmp/procs")"
[ "$(grep -c 'spread: repeat [23] of 3 starts at [0-9:]* UTC, in 0 min [12] s; the machine is free to others until then' "$tmp/err")" -eq 2 ] ||
	bad "the waits are not said: $(grep spread "$tmp/err")"
first1=$(awk '$1 == 2 { print $2; exit }' "$tmp/procs")
awk -v t="$first1" '$1 < t - 0.3 { n++ } END { exit !(n > 0) }' "$tmp/free" 2>/dev/null ||
	bad "the machine lock was never free while a repeat waited"
fi

# An interrupt: no .tmp left, and how to go on.
printf '%s\n' "$settings" out="$tmp/r4" counters=none >"$tmp/settings"
(cd "$top" && export PWD=$top FAKE_PROCESS_S=5 && exec "$sweep" run <"$tmp/settings") >/dev/null 2>"$tmp/err" &
driver=$!
for _ in $(seq 100); do grep -q 'measurement 1/2' "$tmp/err" && break; sleep 0.1; done
sleep 0.5
kill -TERM "$driver"
wait "$driver"
rc=$?
[ $rc -eq 130 ] || bad "interrupted: exit $rc, want 130"
tail -n 1 "$tmp/err" | grep -qx "inlinecost: interrupted: finished processes are in $tmp/r4; continue with ./run.sh --resume $tmp/r4" ||
	bad "interrupted: $(tail -n 2 "$tmp/err")"
[ -z "$(find "$tmp/r4" -name '*.tmp')" ] || bad "interrupted: a .tmp left: $(find "$tmp/r4" -name '*.tmp')"

# Bad input on stdin: one line, exit 2.
err=$(printf 'not a setting\n' | "$sweep" run 2>&1); rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "bad settings: exit $rc, $err"
[ $fail -eq 0 ] && echo "test_run_driver: one prefix, progress, counters, resume, a failure, --lto, the time left, quarters, spread, interrupt, measure"
exit $fail
