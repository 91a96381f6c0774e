#!/usr/bin/env bash
# The probes (bench/sites_cases.c) without timing them: the bench lists every
# probe, docs/watch-json.md names the same ones, and the object code is what
# each locked probe says: locked_copies 32 locked adds at 32 addresses with
# no call between them, locked_same_line the same pair once. With --run
# (labelled measures: it runs them) each probe runs briefly and its rows
# carry a time, its label and their start, as the watch reads them.
# Usage: test_bench_probes.sh BENCH DOC [--run]
set -euo pipefail
bench=$1 doc=$2 run=${3:-}
. "$(dirname "$0")/lib.sh"
scratch

"$bench" --list --threads=1 --modes=private 2>/dev/null | sed -n 's|^probe/\([a-z0-9_]*\)/real_time/threads:1$|\1|p' |
	sort >"$work/listed" || fail "--list failed"
grep -qx locked_copies "$work/listed" || fail "locked_copies not listed: $(paste -sd' ' "$work/listed")"
# The doc's row of probe names, both ways.
grep '^| `probes\[\].probe` |' "$doc" | grep -o '`[a-z0-9_]*`' | tr -d '`' | grep -v '^probes$' | sort >"$work/doc"
cmp -s "$work/listed" "$work/doc" ||
	fail "the bench's probes and $doc's differ: $(diff "$work/listed" "$work/doc" | grep '^[<>]' | paste -sd' ')"

if [ "$(uname -m)" = x86_64 ] && command -v objdump >/dev/null; then
	body() { objdump -d --no-show-raw-insn "$bench" | awk -v f="$1" '$2 ~ "^<" f "(\\.[a-z0-9.]*)?>:$" {on=1; next} on && /^$/ {on=0} on'; }
	copies=$(body probe_locked_copies) same=$(body probe_locked_same)
	[ -n "$copies" ] && [ -n "$same" ] || fail "probe_locked_copies or probe_locked_same not found in $bench"
	n=$(grep -cE $'\tlock[ \t]+add' <<<"$copies" || true)
	[ "$n" -eq 32 ] || fail "probe_locked_copies has $n locked adds, want 32"
	# Each at its own address: 32 distinct lines of the disassembly.
	a=$(grep -E $'\tlock[ \t]+add' <<<"$copies" | awk '{print $1}' | sort -u | wc -l)
	[ "$a" -eq 32 ] || fail "probe_locked_copies' locked adds at $a addresses, want 32"
	grep -qE $'\t(call|jmp)[ \t]' <<<"$copies" && fail "probe_locked_copies calls or jumps out: $(grep -E 'call|jmp' <<<"$copies")"
	n=$(grep -cE $'\tlock[ \t]+add' <<<"$same" || true)
	[ "$n" -eq 1 ] || fail "probe_locked_same has $n locked adds, want 1"
else
	echo "note: not x86-64 or no objdump: the probes' object code is not checked"
fi

[ "$run" = --run ] || { echo "test_bench_probes: ok"; exit 0; }
sed 's|.*|probe/&/real_time/threads:1|' "$work/listed" >"$work/runs"
timeout 120 "$bench" --counters=none --threads=1 --modes=private --run-list="$work/runs" \
	--benchmark_repetitions=2 --benchmark_min_time=0.01 --benchmark_out="$work/r.json" \
	--benchmark_out_format=json >"$work/log" 2>&1 || fail "the probes' run: exit $? ($(tail -n 3 "$work/log"))"
python3 - "$work/r.json" "$work/listed" <<'PY' || fail "the probes' rows"
import json, sys
want = open(sys.argv[2]).read().split()
rows = [b for b in json.load(open(sys.argv[1]))["benchmarks"] if b.get("run_type") == "iteration"]
for name in want:
    mine = [b for b in rows if b["name"] == "probe/%s/real_time/threads:1" % name]
    assert len(mine) == 2, (name, len(mine))
    for b in mine:
        assert b["real_time"] > 0 and b["label"] and b["rep_start_s"] > 0, b
PY
echo "test_bench_probes: ok"
