#!/usr/bin/env bash
# What run.sh prints on the terminal: one prefix on every line (a refusal
# included), the closing block as plain text (the summary's first section
# without its Markdown, else verdict.txt as it is) and the build's progress
# (Ninja's steps, from its log). The counter line is the bench's own
# (test_bench_counter_sentence).
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

# Every line of plain text under the prefix, no Markdown left, wrapped.
cat >"$tmp/summary.md" <<'MD'
# inlinecost: inline vs extern

## The answer

Where each form is faster, **by how much**; see `points.csv` and [the method](#method).

- **1 thread, private queue**: inline pays up to N = 4 (4-12% faster); from N = 8 calls are 1.3-1.7x faster; the inlined code passes the 32 KiB L1i at N = 176, the extern code at N = 1155.

![time per call site](plots/time.png)

## Evidence

not in the block
MD
dir=$tmp
closing_block >"$tmp/block"
[ -s "$tmp/block" ] || bad "no closing block"
! grep -qv '^inlinecost: ' "$tmp/block" || bad "a closing line without the prefix: $(grep -v '^inlinecost: ' "$tmp/block" | head -n 1)"
! grep -qE '\*\*|`|\]\(|^inlinecost: #' "$tmp/block" || bad "Markdown left in the closing block: $(grep -E '\*\*|`|\]\(|#' "$tmp/block" | head -n 1)"
grep -qx 'inlinecost: The answer' "$tmp/block" || bad "the heading is not a line of its own"
grep -q 'Evidence\|not in the block' "$tmp/block" && bad "the closing block runs past the first section"
grep -qx 'inlinecost: time per call site' "$tmp/block" || bad "an image link not as its text"
awk 'length($0) > 100 + length("inlinecost: ") { exit 1 }' "$tmp/block" || bad "a closing line longer than 100 columns"
grep -q '^inlinecost:   the inlined code passes' "$tmp/block" || grep -q '^inlinecost:   [a-z]' "$tmp/block" ||
	bad "a bullet's continuation not under its text: $(cat "$tmp/block")"
rm "$tmp/summary.md"
printf 'chain/seq: inline pays up to N = 4.\n\nscatter/random: unresolved at N = 1.\n' >"$tmp/verdict.txt"
closing_block >"$tmp/block"
[ "$(cat "$tmp/block")" = "inlinecost: chain/seq: inline pays up to N = 4.
inlinecost: scatter/random: unresolved at N = 1." ] || bad "verdict.txt not printed as it is, under the prefix: $(cat "$tmp/block")"

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
B_dir=("$tmp/b") counters=auto threads=1 modes=private plant="" counter_source=""
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

[ $fail -eq 0 ] && echo "test_run_console_lines: one prefix, a plain closing block, one counter line, the build's steps"
exit $fail
