#!/bin/sh
# The machine's state end to end: fake /sys and /proc trees, the CLI's
# key=value lines (the sweep's machine_state.txt), another measurement holding the machine lock,
# and the lines summary.md shows.
# usage: test_common_machine_state_summary.sh HELPER CLI SUMMARIZE FAKE_SITES_BENCH
set -u
helper=$1 cli=$2 summarize=$3 fakegb=$4
# What a run hands its programs is this test's to set.
unset IC_RUN_LOADAVG IC_RUN_PID
. "$(dirname "$0")/lib.sh"
scratch

"$helper" tree hot "$work/hot" || fail "making the hot tree"
"$helper" tree vm "$work/vm" || fail "making the vm tree"

# The CLI: key=value lines, the root from --root or IC_MACHINE_ROOT.
"$cli" --root "$work/hot" --sample-ms 0 > "$work/conf" || fail "machine_state --root"
for want in machine_governor=powersave 'machine_boost=on (cpufreq)' machine_nmi_watchdog=1 \
	machine_smt=on machine_aslr=2 machine_thp=always machine_busy='not sampled' \
	'machine_load=0.10 0.05 0.01 on 2 CPUs, sampled as this process started'; do
	grep -qxF "$want" "$work/conf" || fail "machine_state.txt lines lack '$want': $(cat "$work/conf")"
done
IC_MACHINE_ROOT="$work/vm" "$cli" --sample-ms 0 > "$work/conf.vm" || fail "machine_state (env root)"
grep -q '^machine_governor=not readable: no cpufreq' "$work/conf.vm" || fail "vm governor: $(cat "$work/conf.vm")"
# Bad input: exit 2, one line, nothing on stdout.
"$cli" --sample-ms x > "$work/out" 2> "$work/err"
[ $? -eq 2 ] || fail "bad --sample-ms did not exit 2"
[ ! -s "$work/out" ] && [ "$(wc -l < "$work/err")" -eq 1 ] || fail "bad --sample-ms: $(cat "$work/err")"
# The real machine reads without root and changes nothing.
"$cli" --sample-ms 50 > "$work/real" || fail "machine_state on this machine"
[ "$(grep -c '^machine_' "$work/real")" -ge 10 ] || fail "this machine: $(cat "$work/real")"

# Another inlinecost measurement holding the machine lock (a lock of the
# test's own: IC_MEASURE_LOCK) is named first in machine_busy, in words; a
# lock this process holds itself, through a descriptor it inherited (as
# run.sh's processes do, or `flock FILE CMD`), is not, nor a free one.
if command -v flock > /dev/null; then
	IC_MEASURE_LOCK=$work/measure.lock
	export IC_MEASURE_LOCK
	: > "$IC_MEASURE_LOCK"
	flock "$IC_MEASURE_LOCK" sh -c 'echo "pid $$ (./run.sh --quick) in /other/tree since 2026-12-04T10:00:00Z" > "$1.holder"
		exec sleep 30' _ "$IC_MEASURE_LOCK" &
	holder=$!
	for _ in $(seq 50); do [ -s "$IC_MEASURE_LOCK.holder" ] && break; sleep 0.1; done
	"$cli" --sample-ms 0 > "$work/held" || fail "machine_state with the lock held"
	grep -qE '^machine_busy=pid [0-9]+ \(\./run\.sh --quick\) in /other/tree since 2026-12-04T10:00:00Z: another inlinecost measurement, holding this machine; not sampled$' "$work/held" ||
		fail "another measurement not named: $(grep busy "$work/held")"
	# flock and the sleep that holds its descriptor.
	kill "$holder" "$(sed -n 's/^pid \([0-9]*\).*/\1/p' "$IC_MEASURE_LOCK.holder")"
	wait "$holder" 2> /dev/null
	# The killed sleep may hold the lock a moment longer: wait until it is free.
	for _ in $(seq 50); do flock -n "$IC_MEASURE_LOCK" true && break; sleep 0.1; done
	"$cli" --sample-ms 0 > "$work/free" || fail "machine_state with the lock free"
	grep -qx 'machine_busy=not sampled' "$work/free" || fail "a free lock named: $(grep busy "$work/free")"
	flock "$IC_MEASURE_LOCK" "$cli" --sample-ms 0 > "$work/ours" || fail "machine_state under the lock"
	grep -qx 'machine_busy=not sampled' "$work/ours" || fail "its own lock named: $(grep busy "$work/ours")"
	unset IC_MEASURE_LOCK
fi

# The load run.sh sampled before it started anything (IC_RUN_LOADAVG) is
# the one recorded, said so; the run's pid (IC_RUN_PID) leaves its own
# processes out of the busy ones: this shell's sleep is not named, though
# it is a child of the "run", and says that its own were left out.
IC_RUN_LOADAVG='1.33 0.40 0.20 3/200 999' "$cli" --root "$work/hot" --sample-ms 0 > "$work/before" ||
	fail "machine_state with the load before the run"
grep -qxF 'machine_load=1.33 0.40 0.20 on 2 CPUs, sampled before the run started' "$work/before" ||
	fail "the load before the run not used: $(grep load "$work/before")"
sh -c 'while :; do :; done' &
spin=$!
IC_RUN_PID=$$ "$cli" --sample-ms 300 > "$work/own"
rc=$?
kill "$spin"
wait "$spin" 2> /dev/null
[ $rc -eq 0 ] || fail "machine_state with the run's pid"
grep "^machine_busy=" "$work/own" | grep -q "pid $spin " && fail "the run's own busy child named: $(grep busy "$work/own")"
grep -q "^machine_busy=.*this run's own processes left out" "$work/own" ||
	grep -q "^machine_busy=pid " "$work/own" || fail "busy, run's own left out: $(grep busy "$work/own")"

# summary.md: a hot machine's lines, each with its fix; a VM's "not readable".
# summ KIND [BUSY]: KIND's tree (and BUSY as machine_busy) through summarize.
summ() {
	kind=$1
	"$fakegb" --sites-max 8 --reps 3 > "$work/$kind.raw.json" || fail "fakegb"
	"$helper" merge "$work/${kind%%.*}" "$work/$kind.raw.json" "$work/$kind.json" || fail "merge $kind"
	[ -z "${2:-}" ] || sed -i "s/\"machine_busy\": \"not sampled\"/\"machine_busy\": \"$2\"/" "$work/$kind.json"
	"$summarize" --out "$work/out.$kind" "$work/$kind.json" > /dev/null || fail "summarize $kind"
	cat "$work/out.$kind/summary.md"
}
summ hot > "$work/hot.md"
check() {
	grep -qF -- "$2" "$work/$1.md" || { sed -n '/## Machine/,/## Counters/p' "$work/$1.md" >&2; fail "$1: summary lacks: $2"; }
}
check hot '- Machine state at the start of the run'
check hot '  - Frequency governor: **powersave**: the clock follows the load'
check hot 'Fix: `sudo cpupower frequency-set -g performance`'
check hot '  - Boost (turbo): **on (cpufreq)**'
check hot 'Fix: `echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost`'
check hot '  - NMI watchdog: **on**: it holds a hardware counter'
check hot 'Fix: `sudo sysctl -w kernel.nmi_watchdog=0`'
check hot '  - SMT: **on**'
check hot '  - Transparent huge pages: **always**'
grep -qxF '  - Fine as they are: ASLR on (2: part of the randomised design, leave it on); perf_event_paranoid 2; load 0.10 0.05 0.01 on 2 CPUs, sampled as this process started' "$work/hot.md" ||
	fail "hot: the fine ones are not listed alone: $(grep Fine "$work/hot.md")"
check hot '  - Other busy processes: not sampled'
# ASLR is part of the design: never a fix that turns it off.
grep -q 'randomize_va_space=0\|ASLR (randomize_va_space): \*\*' "$work/hot.md" && fail "hot: ASLR on is flagged"
# A high load sampled before the run: other work, to stop only while some
# of it still runs (named); sampled later it may be the run's own build.
IC_RUN_LOADAVG='1.33 0.40 0.20 3/200 999'
export IC_RUN_LOADAVG
summ hot.idle > "$work/hot.idle.md"
check hot.idle '  - Load average: 1.33 0.40 0.20 on 2 CPUs, sampled before the run started: other work ran on this machine in the minute before the run started; none was busy as the measurement started, so there is nothing to stop.'
grep -q 'Load average:.*Fix' "$work/hot.idle.md" && fail "hot.idle: a fix for load that had stopped"
summ hot.busy 'pid 4242 (make) 97%' > "$work/hot.busy.md"
unset IC_RUN_LOADAVG
check hot.busy '  - Load average: **1.33 0.40 0.20 on 2 CPUs, sampled before the run started**: other work ran'
check hot.busy 'Fix: stop the processes named under Other busy processes'
check hot.busy '  - Other busy processes: **pid 4242 (make) 97%**: they take CPU time'
printf '1.33 0.40 0.20 3/200 999\n' > "$work/hot/proc/loadavg"
summ hot.now > "$work/hot.now.md"
check hot.now '  - Load average: 1.33 0.40 0.20 on 2 CPUs, sampled as this process started: not judged: it may hold this run'
grep -q 'Load average:.*Fix' "$work/hot.now.md" && fail "hot.now: a fix for what may be the run's own build"
summ vm > "$work/vm.md"
check vm '  - Frequency governor: not readable: no cpufreq under /sys/devices/system/cpu/cpu*/'
check vm '  - Boost (turbo): not readable: no intel_pstate/no_turbo'
grep -q 'governor performance\|Frequency governor: \*\*' "$work/vm.md" && fail "vm: the governor is said to be ok or bad"
grep -q 'NMI watchdog: \*\*' "$work/vm.md" && fail "vm: watchdog off flagged"
check vm '  - ASLR (randomize_va_space): **off**: every process gets the same stack'
check vm 'Fix: `sudo sysctl -w kernel.randomize_va_space=2`'
# A run from before: one line that says so.
"$summarize" --out "$work/out.old" "$work/hot.raw.json" > /dev/null || fail "summarize old"
grep -qF -- '- Machine state: not recorded' "$work/out.old/summary.md" || fail "old run: no 'not recorded' line"
echo "test_common_machine_state_summary: ok"
