#!/bin/sh
# summarize end to end: known answers from a hand-written fixture, shapes
# from the fake generator (one file per process, 6 layout variants x 2
# processes), layout noise and all-noisy runs that must not state a
# crossover, merging, reproducibility, calibration, and bad input (exit 2,
# one line, output directory untouched).
# usage: test_report_summarize.sh SUMMARIZE FAKE_SITES_BENCH DATADIR
set -u
summarize=$1
fakegb=$2
data=$3
. "$(dirname "$0")/lib.sh"
scratch

# field NAME FILE ROW: the named column of data row ROW (1 = first after the header).
field() {
	awk -F, -v name="$1" -v row="$3" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i }
		NR == row + 1 { print $c }' "$2"
}

# fake_run DIR ARGS...: one process per file, 6 layout variants x 2
# processes, as the default sweep measures; the files go into DIR.
fake_run() {
	d=$1
	shift
	mkdir -p "$d"
	for v in 0 1 2 3 4 5; do
		for p in 0 1; do
			"$fakegb" --variant $v --process $p --seed $((v * 10 + p + 1)) "$@" > "$d/v${v}_p$p.json" ||
				fail "fakegb $*"
		done
	done
}

# --- known answers ---------------------------------------------------------
# One process of one layout: estimates, but no interval (nothing to vary).
out=$work/known
"$summarize" --out "$out" "$data/known.json" || fail "known.json: exit $?"
pts=$out/points.csv
[ "$(head -n 1 "$pts")" = "form,op,layout,order,sites,threads,mode,ns_per_op,ns_ci_lo,ns_ci_hi,cv,ops_per_s,cycles_per_op,l1i_miss_per_op,counter_source,code_bytes_per_site,footprint_bytes,variants,processes,reps,filler,instr_per_op,branch_miss_per_op,itlb_miss_per_op,compiler,cflags,body,lock,lto,codegen" ] ||
	fail "points.csv header: $(head -n 1 "$pts")"
# inline: 1..10 us -> median 5500 ns; one process: no interval.
row=$(grep '^inline,' "$pts")
# The fixture predates builds: its context has the lock alone, the other build columns are empty.
[ "$row" = "inline,tail_dequeue,chain,seq,1,1,private,5500,,,0.550482,183333.3333,,0.5,papi,165,165,1,1,10,0,,,,,,,ticket,," ] ||
	fail "inline row: $row"
# extern: no l1i member at all and cycles NaN: both empty, not 0, although the source is papi.
row=$(grep '^extern,' "$pts")
[ "$row" = "extern,tail_dequeue,chain,seq,1,1,private,15500,,,0.195332,64583.33333,,,papi,24,24,1,1,10,0,,,,,,,ticket,," ] ||
	fail "extern row: $row"
r=$out/ratios.csv
[ "$(field ratio "$r" 1)" = "0.354839" ] || fail "ratio $(field ratio "$r" 1)"
# A ratio of 0.35 from one process is not a resolved difference: it may be
# the layout. No interval, no p, no side.
[ -z "$(field ratio_ci_lo "$r" 1)" ] && [ -z "$(field p_value "$r" 1)" ] || fail "one process must have no interval"
[ "$(field faster "$r" 1)" = "unresolved" ] || fail "faster $(field faster "$r" 1)"
[ "$(field noisy "$r" 1)" = "1" ] || fail "no band must be noisy"
grep -q 'no interval: fewer than 2 processes' "$out/summary.md" || fail "summary must say there is no interval"
grep -q '\[95% CI\]' "$out/summary.md" && fail "summary says [95% CI] without an interval"
grep -q 'fixture skip' "$out/summary.md" || fail "summary does not name the skipped repetition"
ls -A "$out" | grep -q '^\.' && fail "temporary files left in $out: $(ls -A "$out")"
ls -A "$out/plots" | grep -q '^\.' && fail "temporary files left in $out/plots"

# Non-finite counters as Google Benchmark prints them (-Infinity, inf, NaN)
# are not measured; the same words inside strings stay as they are.
sed 's/"l1i_miss_per_op": 0.1,/"l1i_miss_per_op": -Infinity, "note": "NaN inf",/; s/"l1i_miss_per_op": 0.2,/"l1i_miss_per_op": inf,/' \
	"$data/known.json" > "$work/nonfinite.json"
"$summarize" --out "$work/nonfinite" "$work/nonfinite.json" || fail "non-finite counters: exit $?"
[ "$(field l1i_miss_per_op "$work/nonfinite/points.csv" 1)" = "0.6" ] || fail "l1i median over the finite values"
grep -q '"note": "NaN inf"' "$work/nonfinite/benchmark.json" || fail "string changed"

# Two files are two processes (a resumed sweep): repetitions add up.
"$summarize" --out "$work/twice" "$data/known.json" "$data/known.json" || fail "twice: exit $?"
[ "$(field reps_compare "$work/twice/ratios.csv" 1)" = "20" ] || fail "pooled repetitions"
[ "$(field processes "$work/twice/ratios.csv" 1)" = "2" ] || fail "two processes"
# A bad layout_variant in the context is named.
sed 's/"context": {/"context": { "layout_variant": "x1",/' "$data/known.json" > "$work/badvariant.json"
"$summarize" --out "$work/bv" "$work/badvariant.json" 2> "$work/err" && fail "bad layout_variant accepted"
grep -q "layout_variant 'x1'" "$work/err" || fail "bad layout_variant message: $(cat "$work/err")"

# --- a crossover at N = 256 -------------------------------------------------
fake_run "$work/cross-in" --shape crossover --crossover 256
out=$work/cross
"$summarize" --out "$out" "$work"/cross-in/*.json || fail "crossover: exit $?"
x=$out/crossover.csv
[ "$(wc -l < "$x")" -eq 5 ] || fail "crossover.csv: want 4 series, got $(($(wc -l < "$x") - 1))"
for row in 1 2 3 4; do
	[ "$(field verdict "$x" $row)" = "crossover" ] || fail "series $row verdict $(field verdict "$x" $row)"
	[ "$(field small_n_winner "$x" $row)" = "inline" ] || fail "series $row winner"
	# A bracket around 256 from sweep points, no interpolated point estimate.
	head -n 1 "$x" | grep -q 'crossover_sites' && fail "crossover.csv: a point-estimate column"
	awk -v bl="$(field bracket_lo "$x" $row)" -v bh="$(field bracket_hi "$x" $row)" \
	    'BEGIN { exit !(bl >= 32 && bl < 256 && bh > 256 && bh <= 2048) }' ||
		fail "series $row: bracket $(sed -n "$((row + 1))p" "$x")"
done
grep -Eq '^- \*\*.*\*\*: Inline it only where it has at most [0-9]+ call sites?; from [0-9]+, calling it is faster, about [0-9.]+x .*Inline is faster up to N = [0-9]+.* From N = [0-9]+ extern calls are faster.* (Unresolved: none|Unresolved at N = [0-9., and]+, where the 95% range holds 1)\. The crossover lies between N = [0-9]+ and [0-9]+\.' \
	"$out/summary.md" || fail "no crossover verdict in summary.md: $(grep '^- \*\*' "$out/summary.md")"
grep -qx 'Machine: Fake CPU 9000 @ 3.0GHz, 2 cores; L1i 32 KiB, L2 1 MiB.' "$out/summary.md" ||
	fail "summary lacks the machine line"
grep -Eq '^Code per call site: 165 B inlined, 24 B out of line\.( |$)' "$out/summary.md" ||
	fail "summary lacks the code sizes"
grep -q '| L1i misses/site, inline / extern, simulated |' "$out/summary.md" || fail "sim counters not labelled"
grep -q '6 layout variants; 12 processes per point' "$out/summary.md" || fail "design not stated"
[ "$(grep -c . "$out/points.csv")" -eq $((1 + 2 * 4 * 15)) ] || fail "points.csv rows"
[ "$(field variants "$out/ratios.csv" 1)" = "6" ] && [ "$(field df "$out/ratios.csv" 1)" = "5" ] ||
	fail "6 variants, 5 degrees of freedom"
# The band is at least the 95% interval at each N (Holm: the last step of
# the step-down is at 5% itself), and wider at the strongest point.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	!($(c["band_lo"]) <= $(c["ratio_ci_lo"]) && $(c["band_hi"]) >= $(c["ratio_ci_hi"])) { bad = 1 }
	$(c["band_lo"]) < $(c["ratio_ci_lo"]) { wider = 1 }
	END { exit bad || !wider }' "$out/ratios.csv" || fail "band narrower than the pointwise interval"
# The deciding interval (Holm's) is what puts an N on a side: it excludes 1
# exactly where the N is resolved, holds the ratio, and is no narrower than
# the pointwise 95% interval.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ lo = $(c["deciding_lo"]); hi = $(c["deciding_hi"]); side = $(c["faster"]) != "unresolved" }
	side != (lo > 1 || hi < 1) || !(lo <= $(c["ratio"]) && $(c["ratio"]) <= hi) { bad = 1 }
	!(lo <= $(c["ratio_ci_lo"]) + 1e-6 && hi >= $(c["ratio_ci_hi"]) - 1e-6) { bad = 1 }
	END { exit bad || NR < 2 }' "$out/ratios.csv" || fail "the deciding interval does not decide the side: $(cut -d, -f11-22 "$out/ratios.csv")"
# The N to measure next (run.sh --find-crossover): every series' bracket is
# (128, 512) between powers of two, so sqrt(128 * 256) = 181.02 and
# sqrt(256 * 512) = 362.04, each once.
[ "$(paste -sd' ' "$out/refine_next.txt")" = "181 362" ] ||
	fail "refine_next.txt: $(paste -sd' ' "$out/refine_next.txt"), want 181 362"
[ -f "$work/known/refine_next.txt" ] && [ ! -s "$work/known/refine_next.txt" ] ||
	fail "refine_next.txt must be there and empty without a crossover"
# Deterministic: the same input gives the same output.
"$summarize" --out "$work/cross2" "$work"/cross-in/*.json || fail "rerun"
cmp -s "$out/ratios.csv" "$work/cross2/ratios.csv" || fail "ratios.csv differs between runs"
cmp -s "$out/summary.md" "$work/cross2/summary.md" || fail "summary.md differs between runs"

# --- layouts that matter, and noise that hides everything -------------------
# A layout effect of +-5% per variant: the intervals widen to hold it (at
# every N wider than without it), and the 2% steps near 256 are no longer
# resolved.
fake_run "$work/lay-in" --shape crossover --crossover 256 --layout-noise 0.05
"$summarize" --out "$work/lay" "$work"/lay-in/*.json || fail "layout noise: exit $?"
awk -F, 'FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	NR == FNR { w[FNR] = $(c["ratio_ci_hi"]) - $(c["ratio_ci_lo"]); next }
	!($(c["ratio_ci_hi"]) - $(c["ratio_ci_lo"]) > w[FNR]) { bad = 1 } END { exit bad }' \
	"$out/ratios.csv" "$work/lay/ratios.csv" || fail "intervals not wider where layouts vary"
[ "$(field faster "$work/lay/ratios.csv" 9)" = "unresolved" ] || fail "N = 256 resolved despite layout noise"
# Every point noisy: no crossover is stated, and the summary says why.
fake_run "$work/noisy-in" --shape crossover --crossover 256 --noise 0.6 --layout-noise 0.3 --reps 3
"$summarize" --out "$work/noisy" "$work"/noisy-in/*.json || fail "noisy: exit $?"
for row in 1 2 3 4; do
	[ "$(field verdict "$work/noisy/crossover.csv" $row)" != "crossover" ] || fail "noisy series $row states a crossover"
done
grep -q "Every point's band is wider than" "$work/noisy/summary.md" || fail "noisy run not said"
grep -q 'crossover in (' "$work/noisy/summary.md" && fail "noisy run states a crossover"

# --- one-sided verdicts -----------------------------------------------------
fake_run "$work/iw-in" --shape inline_wins --sites-max 1024 --counters none
"$summarize" --out "$work/iw" "$work"/iw-in/*.json || fail "inline_wins: exit $?"
[ "$(field verdict "$work/iw/crossover.csv" 1)" = "compare_wins" ] || fail "inline_wins verdict"
[ -z "$(field bracket_lo "$work/iw/crossover.csv" 1)" ] || fail "inline_wins has a crossover"
grep -Eq '^- \*\*.*\*\*: Inline it: it is faster at every N measured, up to N = 1024, about [0-9.]+x.* Unresolved: none\.' "$work/iw/summary.md" ||
	fail "inline_wins statement"
# counters none: every l1i and cycles cell empty.
[ -z "$(cut -d, -f13,14 "$work/iw/points.csv" | tail -n +2 | tr -d ',\n')" ] || fail "counters none must stay empty"
grep -q 'L1i misses were not measured' "$work/iw/summary.md" || fail "summary must say L1i not measured"

fake_run "$work/ew-in" --shape extern_wins --sites-max 1024
"$summarize" --out "$work/ew" "$work"/ew-in/*.json || fail "extern_wins: exit $?"
[ "$(field verdict "$work/ew/crossover.csv" 1)" = "baseline_wins" ] || fail "extern_wins verdict"
grep -Eq '^- \*\*.*\*\*: Keep it out of line: the calls are faster at every N, about [0-9.]+x.*Inlining was not shown faster at any N\. Extern calls are faster at N = 1\.\.1024(, by [^;]*)?; .* Unresolved: none\.' "$work/ew/summary.md" ||
	fail "extern_wins statement"

# Simulation at one thread count only: other rows empty, still labelled sim.
fake_run "$work/sim1-in" --sim-threads-only 1 --sites-max 64 --time-unit us --error-at 4
"$summarize" --out "$work/sim1" "$work"/sim1-in/*.json || fail "sim1: exit $?"
awk -F, 'NR > 1 && $6 == 2 && $14 != "" { bad = 1 } NR > 1 && $6 == 1 && $14 == "" { bad = 1 }
	 NR > 1 && $15 != "sim" { bad = 1 } END { exit bad }' "$work/sim1/points.csv" ||
	fail "l1i must be set at 1 thread only"
awk -F, 'NR > 1 && ($8 < 8 || $8 > 31) { bad = 1 } END { exit bad }' "$work/sim1/points.csv" ||
	fail "time_unit us not converted to ns"
grep -q 'Skipped: 48 repetitions at 4 points' "$work/sim1/summary.md" || fail "skipped repetitions"

# --- merging: compare.py reads the result ----------------------------------
"$summarize" --out "$work/merged" "$data/known.json" "$work/iw-in/v0_p0.json" || fail "merge: exit $?"
if command -v python3 >/dev/null 2>&1; then
	python3 - "$work/merged/benchmark.json" "$data/known.json" "$work/iw-in/v0_p0.json" <<'EOF' || fail "benchmark.json"
import copy, json, re, sys
merged = json.load(open(sys.argv[1]))
inputs = [json.load(open(p)) for p in sys.argv[2:]]
assert merged["context"] == inputs[0]["context"], "context of the first file"
assert len(merged["benchmarks"]) == sum(len(i["benchmarks"]) for i in inputs), "all entries"
names = [b["name"] for b in merged["benchmarks"]]
assert names == [b["name"] for i in inputs for b in i["benchmarks"]], "order kept"
fam0 = {b["family_index"] for b in merged["benchmarks"][:len(inputs[0]["benchmarks"])]}
fam1 = {b["family_index"] for b in merged["benchmarks"][len(inputs[0]["benchmarks"]):]}
assert not fam0 & fam1, "family_index distinct per file"
# What tools/compare.py filters does: filter by regex, rename, pair by name.
def filt(js, family, repl):
    r = re.compile(family)
    out = []
    for be in js["benchmarks"]:
        if r.search(be["name"]):
            be = copy.deepcopy(be)
            be["name"] = r.sub(repl, be["name"])
            out.append(be)
    return out
a = filt(merged, "sites/inline", "[x]")
b = filt(merged, "sites/extern", "[x]")
common = {x["name"] for x in a} & {x["name"] for x in b}
assert common, "no benchmark pairs for compare.py"
for x in a + b:
    for k in ("name", "time_unit", "real_time", "cpu_time", "run_type"):
        assert k in x, k
EOF
else
	echo "test_report_summarize: python3 missing, benchmark.json structure not checked"
fi

# --- calibration ------------------------------------------------------------
fake_run "$work/plant-in" --planted 0.03 --sites-max 256
"$summarize" --compare extern_plant --baseline extern --planted 0.03 --out "$work/plant" "$work"/plant-in/*.json ||
	fail "planted: exit $?"
c=$work/plant/calibration.csv
[ -f "$c" ] || fail "no calibration.csv"
[ "$(awk -F, 'NR > 1 && $14 != 1' "$c" | wc -l)" -eq 0 ] || fail "a 3% planted cost not resolved at 0.5% noise"
[ "$(awk -F, 'NR > 1 && $15 == 1' "$c" | wc -l)" -ge 30 ] || fail "interval should contain 1.03 at most points"
[ -f "$work/cross/calibration.csv" ] && fail "calibration.csv without --planted"

# --- bad input: exit 2, one line, nothing written -----------------------------
dir=$work/untouched
mkdir -p "$dir/plots"
echo sentinel > "$dir/points.csv"
echo sentinel > "$dir/summary.md"
check_bad() {
	what=$1
	shift
	refused_in "$dir" "$what" "$summarize" "$@"
	[ ! -e "$work/never" ] || fail "$what: created the output directory"
}
check_bad "missing file" --out "$dir" "$data/does-not-exist.json"
check_bad "not JSON" --out "$dir" "$data/notjson.json"
check_bad "no benchmarks array" --out "$dir" "$data/nobench.json"
check_bad "empty benchmarks" --out "$dir" "$data/empty.json"
check_bad "bad sites name" --out "$dir" "$data/badname.json"
check_bad "no sites entries" --out "$dir" "$data/only_other.json"
check_bad "good then bad file" --out "$dir" "$data/known.json" "$data/notjson.json"
check_bad "bad --noise-ci" --noise-ci abc --out "$dir" "$data/known.json"
check_bad "removed --resamples" --resamples 500 --out "$dir" "$data/known.json"
check_bad "unknown option" --bogus --out "$dir" "$data/known.json"
check_bad "no --out" "$data/known.json"
check_bad "no input" --out "$dir"
check_bad "same forms" --compare extern --out "$dir" "$data/known.json"
check_bad "a form not measured" --baseline hint --out "$dir" "$data/known.json"
grep -q "^summarize: --baseline 'hint': no point of the input measures that form$" "$work/err" ||
	fail "a form not measured: $(cat "$work/err")"
check_bad "a form not measured, new dir" --compare clone --out "$work/never" "$data/known.json"
check_bad "--out under a file" --out "$dir/points.csv/sub" "$data/known.json"
check_bad "new dir, bad input" --out "$work/never" "$data/notjson.json"
grep -q 'notjson.json' "$work/err" || fail "the message must name the file: $(cat "$work/err")"

echo "test_report_summarize: ok"
exit 0
