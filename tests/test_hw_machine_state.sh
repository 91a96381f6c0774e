#!/bin/sh
# The machine's state end to end: fake /sys and /proc trees, the CLI's
# key=value lines for run.conf, and the lines summary.md shows.
# usage: test_hw_machine_state.sh HELPER CLI SUMMARIZE FAKEGB
set -u
helper=$1 cli=$2 summarize=$3 fakegb=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/test_hw_machine_state.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() {
	echo "test_hw_machine_state: FAIL: $*" >&2
	exit 1
}

"$helper" tree hot "$work/hot" || fail "making the hot tree"
"$helper" tree vm "$work/vm" || fail "making the vm tree"

# The CLI: key=value lines, the root from --root or IC_MACHINE_ROOT.
"$cli" --root "$work/hot" --sample-ms 0 > "$work/conf" || fail "machine_state --root"
for want in machine_governor=powersave 'machine_boost=on (cpufreq)' machine_nmi_watchdog=1 \
	machine_smt=on machine_aslr=2 machine_thp=always machine_busy='not sampled'; do
	grep -qxF "$want" "$work/conf" || fail "run.conf lines lack '$want': $(cat "$work/conf")"
done
IC_MACHINE_ROOT="$work/vm" "$cli" --sample-ms 0 > "$work/conf.vm" || fail "machine_state (env root)"
grep -q '^machine_governor=not readable: no cpufreq' "$work/conf.vm" || fail "vm governor: $(cat "$work/conf.vm")"
# --shell: lines run.conf can hold, which a shell sources back to the values.
"$cli" --shell --root "$work/hot" --sample-ms 0 > "$work/shell" || fail "machine_state --shell"
got=$(. "$work/shell" && printf '%s|%s' "$machine_boost" "$machine_load") || fail "sourcing --shell output"
[ "$got" = "on (cpufreq)|0.10 0.05 0.01 on 2 CPUs" ] || fail "sourced back: $got"
# Bad input: exit 2, one line, nothing on stdout.
"$cli" --sample-ms x > "$work/out" 2> "$work/err"
[ $? -eq 2 ] || fail "bad --sample-ms did not exit 2"
[ ! -s "$work/out" ] && [ "$(wc -l < "$work/err")" -eq 1 ] || fail "bad --sample-ms: $(cat "$work/err")"
# The real machine reads without root and changes nothing.
"$cli" --sample-ms 50 > "$work/real" || fail "machine_state on this machine"
[ "$(grep -c '^machine_' "$work/real")" -ge 10 ] || fail "this machine: $(cat "$work/real")"

# summary.md: a hot machine's lines, each with its fix; a VM's "not readable".
summ() {
	kind=$1
	"$fakegb" --sites-max 8 --reps 3 > "$work/$kind.raw.json" || fail "fakegb"
	"$helper" merge "$work/$kind" "$work/$kind.raw.json" "$work/$kind.json" || fail "merge $kind"
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
grep -qxF '  - Fine as they are: perf_event_paranoid 2; load 0.10 0.05 0.01 on 2 CPUs' "$work/hot.md" ||
	fail "hot: the fine ones are not listed alone"
check hot '  - Other busy processes: not sampled'
summ vm > "$work/vm.md"
check vm '  - Frequency governor: not readable: no cpufreq under /sys/devices/system/cpu/cpu*/'
check vm '  - Boost (turbo): not readable: no intel_pstate/no_turbo'
grep -q 'governor performance\|Frequency governor: \*\*' "$work/vm.md" && fail "vm: the governor is said to be ok or bad"
grep -q 'NMI watchdog: \*\*' "$work/vm.md" && fail "vm: watchdog off flagged"
# A run from before: one line that says so.
"$summarize" --out "$work/out.old" "$work/hot.raw.json" > /dev/null || fail "summarize old"
grep -qF -- '- Machine state: not recorded' "$work/out.old/summary.md" || fail "old run: no 'not recorded' line"
echo "test_hw_machine_state: ok"
