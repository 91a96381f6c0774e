#!/bin/sh
# sites_bench --iterations-from: a second process registers every benchmark
# with the iterations the first ran, scaled so that a repetition lasts
# --benchmark_min_time (per thread; the JSON counts all threads'), so it
# runs one fixed count per benchmark without estimating; its names are
# the first's (the library's /iterations:N taken out) and the filter selects
# by them; a benchmark not in the file (mark: one thread only) estimates as
# usual; NaN in the file (as the library writes it) reads; a file that is
# not such a JSON is refused.
# usage: test_bench_iterations.sh SITES_BENCH
bench=$1
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp
common="--counters=none --threads=1,2 --modes=private --benchmark_repetitions=2
	--benchmark_enable_random_interleaving=true --benchmark_min_time=0.002 --benchmark_out_format=json
	--benchmark_format=console"
f1='^sites/(inline|extern)/tail_dequeue/chain/seq/16/private/real_time/threads:[12]$'
f2='^sites/(inline|extern|mark)/tail_dequeue/chain/seq/16/private/real_time/threads:[12]$'
# shellcheck disable=SC2086
"$bench" $common --benchmark_filter="$f1" --benchmark_out="$tmp/a.json" >/dev/null 2>"$tmp/err" ||
	{ bad "first process: $(tail -2 "$tmp/err")"; exit 1; }
# shellcheck disable=SC2086
"$bench" $common --benchmark_filter="$f2" --iterations-from="$tmp/a.json" --benchmark_out="$tmp/b.json" \
	>/dev/null 2>"$tmp/err" || { bad "second process: $(tail -2 "$tmp/err")"; exit 1; }
python3 - "$tmp/a.json" "$tmp/b.json" <<'PY' || fail=1
import json, math, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def runs(j):
    d = {}
    for r in j["benchmarks"]:
        if r.get("run_type") == "iteration":
            d.setdefault(r["run_name"], []).append(r["iterations"])
    return d
ra, rb = runs(a), runs(b)
# Each count is scaled so a repetition lasts min_time (0.002 s here): the
# first process's count times min_time over its repetitions' median wall
# time (real_time times all threads' iterations), then per thread.
unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
want = {}
for n in ra:
    reps = [r for r in a["benchmarks"] if r.get("run_type") == "iteration" and r["run_name"] == n]
    walls = sorted(r["real_time"] * unit[r["time_unit"]] * r["iterations"] for r in reps)
    k = len(walls)
    med = walls[k // 2] if k % 2 else 0.5 * (walls[k // 2 - 1] + walls[k // 2])
    per = math.ceil(reps[0]["iterations"] * 0.002 / med)
    t = reps[0].get("threads", 1)
    # The loop runs whole passes of the N = 16 sites: a count rounds up to 16.
    want[n] = -(-max(per // t, 1) // 16) * 16 * t
bad = 0
if b["context"].get("iterations") != "reused" or a["context"].get("iterations") != "estimated":
    print("FAIL: context iterations: %s, %s" % (a["context"].get("iterations"), b["context"].get("iterations"))); bad = 1
if any("iterations:" in n for n in rb):
    print("FAIL: names keep /iterations:N"); bad = 1
for n, its in ra.items():
    if n not in rb or rb[n] != [want[n]] * len(rb[n]):
        print("FAIL: %s: %s, want %s (first process %s)" % (n, rb.get(n), want[n], its)); bad = 1
extra = [n for n in rb if n not in ra]
if len(extra) != 1 or not all("/mark/" in n for n in extra):
    print("FAIL: the benchmarks not in the file: %s" % extra); bad = 1
print("iterations reused (scaled to min_time) for %d benchmarks, estimated for %d" % (len(ra), len(extra)))
sys.exit(bad)
PY
# Google Benchmark writes a zero mean's cv as NaN: such a file is still read.
sed 's/"cpu_time": [0-9.e+-]*/"cpu_time": NaN/' "$tmp/a.json" >"$tmp/nan.json"
grep -q NaN "$tmp/nan.json" || bad "no NaN planted"
# shellcheck disable=SC2086
"$bench" $common --benchmark_filter="$f1" --iterations-from="$tmp/nan.json" --benchmark_out="$tmp/c.json" \
	>/dev/null 2>"$tmp/err" || bad "a file with NaN in it: $(tail -1 "$tmp/err")"
echo '{"nothing": 1}' >"$tmp/bad.json"
for f in "$tmp/bad.json" "$tmp/missing.json"; do
	"$bench" --iterations-from="$f" --benchmark_filter=none >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || bad "--iterations-from=$f: exit $rc, $(cat "$tmp/err")"
done
[ $fail -eq 0 ] && echo "ok: a later process runs the first's iterations under the first's names"
exit $fail
