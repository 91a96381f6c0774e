#!/bin/sh
# States end to end: 12 processes (6 layout variants x 2) of which 5 run
# inline 1.65x slower at every N, as on the Zen 5 guest. summarize must
# name two states with their levels, shares of time and ratios, say that
# all of one state ran first when the slow processes did (file mtimes: the
# fake bench's repetitions carry no start, so their order stands in for
# time) and not when they are spread; keep every process's ratio in
# process_ratios.csv; and find one state when no process is slow.
# usage: test_report_states.sh SUMMARIZE FAKE_SITES_BENCH
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb' "$@"
scratch

# process DIR SLOW...: process k into DIR/in, slow when listed.
process() {
	d=$1
	shift
	s=1.0
	for x in "$@"; do [ "$x" = $k ] && s=1.65; done
	"$fakegb" --shape crossover --crossover 64 --sites-max 4096 --threads 1 --modes private \
		--reps 5 --noise 0.02 --layout-noise 0.01 --variant $v --process $p --seed $k \
		--state $s >"$d/in/v${v}_p$p.json" || fail "fakegb"
	# The time order: process k written k minutes after the first.
	touch -d "2026-01-01 00:$(printf %02d $k):00" "$d/in/v${v}_p$p.json"
}

# run DIR SLOW...: process k (1..12, in time order) is slow when listed.
run() {
	mkdir -p "$1/in"
	each_process process "$@"
	"$summarize" --out "$1/out" "$1/in"/*.json >/dev/null || fail "summarize $1: exit $?"
}

col() {   # col FILE NAME: the named column of the first data row
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i } NR == 2 { print $c }' "$1"
}

# The first five processes in time are slow.
run "$work/timed" 1 2 3 4 5
md=$work/timed/out/summary.md
# The planted levels are 0.95 and 1.55 at N = 8 (the fake bench's crossover shape).
grep -Eq '\*\*Two states\*\*: inline/extern at N = [0-9]+ is 0\.9[0-9] \[[0-9.]+–[0-9.]+\] in one \([0-9]+% of the time \[[0-9]+–[0-9]+%\]\) and 1\.5[0-9] \[[0-9.]+–[0-9.]+\] in the other \([0-9]+% of the time \[[0-9]+–[0-9]+%\]\); [0-9.]+ noise scales apart, read from 780 repetitions in time order\. 7 of 12 processes stayed in the first state throughout, 5 in the second; all of one state ran, then all of the other\.' "$md" ||
	fail "no two-state line with levels, shares and intervals: $(grep -o 'Two states.*' "$md" | head -c 600)"
# The pooled table says it pools, before a reader takes its ratios for the answer.
awk '/^### / { s = 1 } s && /^This table pools the two states below/ { p = 1 } s && /^\| N \|/ { exit !p }' "$md" ||
	fail "the pooled table of a two-state series does not say it pools"
# The verdict is the time average's, and with the sides of the states
# opposed no one rule: each state with its level and share of the time,
# and the N where the faster form changed with the state (a crossover in
# one, extern ahead throughout in the other).
grep '^- \*\*1 thread, private queue\*\*: ' "$md" |
	grep -Eq ': No one rule: the faster form changed with the machine.s state \(below\)\. .*The machine ran in two states: inline/extern 0\.9[0-9] \(state 1, [0-9]+% of the time\) and 1\.5[0-9] \(state 2, [0-9]+%\) at N = [0-9]+\. At N = 1\.\.[0-9]+ the faster form changed with the state: inline in state 1, extern in state 2\.' ||
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
grep -q 'two states: 0\.9[0-9] ([0-9]*% of the time), 1\.5[0-9] ([0-9]*%)' "$work/timed/out/plots/data.gp" ||
	fail "the ratio chart does not name the states"
[ "$(awk 'NF == 5 && $3 == 2' "$work/timed/out/plots/process.dat" | wc -l)" -eq $((5 * 13)) ] ||
	fail "process.dat: want 5 x 13 dots of state 2"

# Slow processes spread in time and over variants: two states, not in one run.
run "$work/spread" 1 4 7 10 12
grep -q '7 of 12 processes stayed in the first state throughout, 5 in the second\. ' "$work/spread/out/summary.md" ||
	fail "spread states: $(grep -o 'Two states.*' "$work/spread/out/summary.md" | head -c 600)"

# One process per layout variant, each wholly in one state (as a state that
# outlasts a process leaves them): every variant is pure at every N, which
# alone is no layout's effect. Two states.
mkdir -p "$work/solo/in"
for k in 1 2 3 4 5 6 7 8; do
	v=$((k - 1)) s=1.0
	case $k in 2 | 4 | 5 | 7) s=1.65 ;; esac
	"$fakegb" --shape crossover --crossover 64 --sites-max 4096 --threads 1 --modes private \
		--reps 5 --noise 0.02 --layout-noise 0.01 --variant $v --process 0 --seed $k \
		--state $s >"$work/solo/in/v${v}_p0.json" || fail "fakegb"
	touch -d "2026-01-01 00:0$k:00" "$work/solo/in/v${v}_p0.json"
done
"$summarize" --out "$work/solo/out" "$work/solo/in"/*.json >/dev/null || fail "summarize solo: exit $?"
grep -q '^\*\*Two states\*\*' "$work/solo/out/summary.md" ||
	fail "one process per variant, each in one state: $(grep '^States' "$work/solo/out/summary.md")"

# No slow process: one state, as before.
run "$work/one"
grep -q 'Two states\*\*\|two states:' "$work/one/out/summary.md" && fail "one state reported as two"
grep -q '^States: one, tested on 780 repetitions of 12 processes in time order (' "$work/one/out/summary.md" || fail "one state not stated"
[ "$(col "$work/one/out/crossover.csv" states)" = 1 ] || fail "crossover.csv: states not 1"
echo "test_report_states: ok"
