#!/bin/sh
# States end to end: 12 processes (6 layout variants x 2) of which 5 run
# inline 1.65x slower at every N, as on the Zen 5 guest. summarize must
# name two states with their shares and ratios, say that the split follows
# the time order when the slow processes ran first (file mtimes), and
# neither when they are spread; say that the states were chosen on each
# half of the N and measured on the other; keep every process's ratio in
# process_ratios.csv; and find one state when no process is slow.
# usage: test_report_states.sh SUMMARIZE FAKE_SITES_BENCH
set -u
summarize=$1
fakegb=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/test_report_states.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
	echo "test_report_states: FAIL: $*" >&2
	exit 1
}

# run DIR SLOW...: process k (1..12, in time order) is slow when listed.
run() {
	d=$1
	shift
	mkdir -p "$d/in"
	k=0
	for v in 0 1 2 3 4 5; do
		for p in 0 1; do
			k=$((k + 1))
			s=1.0
			for x in "$@"; do [ "$x" = $k ] && s=1.65; done
			"$fakegb" --shape crossover --crossover 64 --sites-max 4096 --threads 1 --modes private \
				--reps 5 --noise 0.02 --layout-noise 0.01 --variant $v --process $p --seed $k \
				--state $s >"$d/in/v${v}_p$p.json" || fail "fakegb"
			# The time order: process k written k minutes after the first.
			touch -d "2026-01-01 00:$(printf %02d $k):00" "$d/in/v${v}_p$p.json"
		done
	done
	"$summarize" --out "$d/out" "$d/in"/*.json >/dev/null || fail "summarize $d: exit $?"
}

col() {   # col FILE NAME: the named column of the first data row
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$1"
}

# The first five processes in time are slow.
run "$work/timed" 1 2 3 4 5
md=$work/timed/out/summary.md
grep -Eq '\*\*Two states\*\*: inline/extern 1\.0[0-9] \[[0-9.]+–[0-9.]+\] in 7 of 12 processes, 1\.6[0-9] \[[0-9.]+–[0-9.]+\] in 5;' "$md" ||
	fail "no two-state line with shares and intervals: $(grep -o 'Two states.*' "$md" | head -c 300)"
grep -q 'the split follows the time order of the processes' "$md" || fail "time order not named"
# Chosen on each half of the N and measured on the other: the halves agree here.
grep -q 'The odd- and even-indexed N choose the same processes; each state.s ratios at an N come from the choice made on the other half\.' "$md" ||
	fail "the halves of the N not said: $(grep -o 'Two states.*' "$md" | head -c 600)"
# The pooled table says it pools, before a reader takes its ratios for the answer.
awk '/^### / { s = 1 } s && /^This table pools the two states below/ { p = 1 } s && /^\| N \|/ { exit !p }' "$md" ||
	fail "the pooled table of a two-state series does not say it pools"
# The verdict names each state with its share of the processes and its
# exact 95% interval (Clopper-Pearson: 7 of 12 is 27.7-84.8%, 5 of 12
# 15.2-72.3%), says what holds in both states, and where they differ: a
# crossover in one, extern ahead throughout in the other.
grep '^- \*\*1 thread, private queue\*\*: ' "$md" |
	grep -Eq ': The processes split into two states: state 1 in 7 of 12 processes \(58%, 95% CI 28-85%\), state 2 in 5 of 12 processes \(42%, 95% CI 15-72%\)\. In both: from N = [0-9]+ extern calls are [0-9.x%-]+ faster; unresolved: none\. They differ at N = 1\.\.[0-9]+\. In state 1: inline pays at N = 1\.\.[0-9]+ \([0-9.%-]+ faster\)(; unresolved at N = [0-9.]+)?\. In state 2: extern calls are [0-9.x%-]+ faster at N = 1\.\.[0-9]+\.' ||
	fail "each state's verdict: $(grep -A2 '^- \*\*' "$md")"
# The same verdict on the console's verdict.txt and in verdict.json, with the shares.
grep -Fq -- "- 1 thread, private queue: $(grep '^- \*\*1 thread' "$md" | sed 's/^[^:]*: //; s/ Inlined code outgrows.*//')" "$work/timed/out/verdict.txt" ||
	fail "verdict.txt differs from summary.md: $(cat "$work/timed/out/verdict.txt")"
grep -Eq '"share_ci": \[$' "$work/timed/out/verdict.json" || fail "verdict.json: no share interval"
x=$work/timed/out/crossover.csv
[ "$(col "$x" states)" = 2 ] && [ "$(col "$x" state1_processes)" = 7 ] && [ "$(col "$x" state2_processes)" = 5 ] &&
	[ "$(col "$x" states_follow)" = time_order ] || fail "crossover.csv states: $(sed -n 2p "$x")"
pr=$work/timed/out/process_ratios.csv
head -n 1 "$pr" | grep -q '^op,layout,order,threads,mode,filler,compare,baseline,sites,process,variant,time_rank,state,states,ratio,compiler,cflags,body,lock,lto,codegen$' ||
	fail "process_ratios.csv header: $(head -n 1 "$pr")"
[ "$(awk 'END { print NR }' "$pr")" -eq $((1 + 12 * 13)) ] || fail "process_ratios.csv: want 12 processes x 13 N"
# Every slow process (time rank 0..4) is in state 2, every other in state 1.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	($c["time_rank"] < 5) != ($c["state"] == 2) { bad = 1 } END { exit bad }' "$pr" ||
	fail "process_ratios.csv: states do not match the planted slow processes"
grep -q 'two states: 1\.0[0-9] in 7, 1\.6[0-9] in 5 of 12 processes' "$work/timed/out/plots/data.gp" ||
	fail "the ratio chart does not name the states"
[ "$(awk 'NF == 5 && $3 == 2' "$work/timed/out/plots/process.dat" | wc -l)" -eq $((5 * 13)) ] ||
	fail "process.dat: want 5 x 13 dots of state 2"

# Slow processes spread in time and over variants: neither.
run "$work/spread" 1 4 7 10 12
grep -q 'the split follows neither the layout variant nor one switch in the time order' "$work/spread/out/summary.md" ||
	fail "spread states: $(grep -o 'the split follows[^.]*' "$work/spread/out/summary.md" | head -n 1)"

# No slow process: one state, as before.
run "$work/one"
grep -q 'Two states\*\*\|: The processes split into two states' "$work/one/out/summary.md" && fail "one state reported as two"
grep -q '^States: one (12 processes' "$work/one/out/summary.md" || fail "one state not stated"
[ "$(col "$work/one/out/crossover.csv" states)" = 1 ] || fail "crossover.csv: states not 1"
echo "test_report_states: ok"
