#!/bin/sh
# The report of a --calibrate run (summarize --run, as run.sh's
# calibration_report) on a fake run of trials with a known planted cost:
# each trial's report per planted copy; one row per trial, planted fraction
# and N, each the same figures summarize --planted gives for that trial;
# calibration.md's table per fraction, the 3% found in every trial at 0.5%
# noise, no false positive at 0%, printed as plain text; bad input: exit 2,
# one line, nothing written.
# usage: test_report_calibration.sh SUMMARIZE FAKE_SITES_BENCH
set -u
summarize=$1
fakegb=$2
. "$(dirname "$0")/lib.sh"
scratch

# Five trials of 3 layout variants x 2 processes; extern and its copies
# planted with 0%, 1% and 3%, as sites_bench --plant names them, in a
# results directory as run.sh --calibrate leaves it.
run=$work/run
mkdir -p "$run/raw"
printf '%s\n' compare=extern_plant3 baseline=extern plant=0,0.01,0.03 trials=5 layouts_random=3 processes=2 \
	reps=3 min_time=0.005 calibrate=1 >"$run/run.conf"
for t in 1 2 3 4 5; do
	for v in 0 1 2; do
		for p in 0 1; do
			"$fakegb" --forms extern,extern_plant0,extern_plant1,extern_plant3 --sites-min 256 \
				--sites-max 256 --threads 1 --modes private --variant $v --process $p \
				--seed $((t * 100 + v * 10 + p)) >"$run/raw/t${t}_r1_v${v}_p$p.json" || fail "fakegb"
		done
	done
done
out=$run
"$summarize" --run "$run" --seconds 7 >"$work/closing" || fail "exit $?"
c=$out/calibration_trials.csv
[ "$(head -n 1 "$c")" = "trial,planted,ratio,ratio_ci_lo,ratio_ci_hi,excludes_1,contains_planted" ] ||
	fail "header: $(head -n 1 "$c")"
[ "$(grep -c . "$c")" -eq $((1 + 5 * 3)) ] || fail "want a row per trial and fraction: $(cat "$c")"
# The rows are the engine's figures, as summarize writes them for one trial.
for f in 0 0.01 0.03; do
	pct=$(awk -v f=$f 'BEGIN { printf "%g", f * 100 }')
	"$summarize" --compare "extern_plant$pct" --baseline extern --planted $f --out "$work/s$pct" \
		"$run"/raw/t3_*.json || fail "summarize $f"
	want=$(awk -F, -v f=$f 'NR == 2 { print "3," f "," $10 "," $11 "," $12 "," $14 "," $15 }' "$work/s$pct/calibration.csv")
	grep -qx "$want" "$c" || fail "trial 3, $f: want '$want' in $(grep "^3,$f," "$c")"
done
m=$out/calibration.md
sed -n 3p "$m" | grep -qx '5 trials at N = 256, 1 thread, private queue; each trial 3 variants x 2 processes x 3 reps of 0\.005 s; 7 s in all\.' ||
	fail "the design line: $(sed -n 3p "$m")"
grep -q '^| 0% | 5 | 1\.0[0-9]* | [0-9.]* | [0-9] ([0-9]*%) | 0 (0%) false positives |$' "$m" ||
	fail "0%: $(grep '^| 0%' "$m")"
grep -q '^| 3% | 5 | 1\.0[23][0-9]* | [0-9.]* | [0-9] ([0-9]*%) | 5 (100%) |$' "$m" || fail "3%: $(grep '^| 3%' "$m")"
[ "$(grep -o '^| [0-9]*%' "$m" | tr -d '| ' | paste -sd' ')" = "0% 1% 3%" ] || fail "rows: $(cat "$m")"
ls -A "$out" | grep -q '^\.' && fail "temporary files left: $(ls -A "$out")"
# Each trial's report per planted copy, with its calibration.csv; no charts.
for t in 1 5; do for pct in 0 1 3; do
	[ -s "$run/trial$t/plant$pct/summary.md" ] && [ -s "$run/trial$t/plant$pct/calibration.csv" ] ||
		fail "trial $t, plant $pct: no report: $(ls -la "$run/trial$t/plant$pct")"
done; done
ls "$run"/trial1/plant3/plots/*.png >/dev/null 2>&1 && fail "a trial's report has charts"
# calibration.md on the terminal, as plain text.
grep -qx 'inlinecost: Calibration: coverage of the 95% interval' "$work/closing" &&
	grep -q '^inlinecost: | 3% | 5 |' "$work/closing" && ! grep -qv '^inlinecost: ' "$work/closing" ||
	fail "calibration.md not printed as plain text: $(cat "$work/closing")"
# Made anew: the same tables, each trial's old report replaced.
old=$(readlink "$run/trial2/plant1/report")
"$summarize" --run "$run" --seconds 7 >/dev/null || fail "again: exit $?"
[ "$(readlink "$run/trial2/plant1/report")" != "$old" ] && [ ! -e "$run/trial2/plant1/$old" ] ||
	fail "the old report of trial 2 stays: $(ls -A "$run/trial2/plant1")"

# --- bad input: exit 2, one line, nothing written ------------------------------
# Runs that are no whole calibration: trial 2 missing, trial 2 not JSON,
# no planted copies.
for d in short bad plain; do mkdir -p "$work/$d/raw"; cp "$run/run.conf" "$work/$d/"; done
cp "$run"/raw/t1_* "$work/short/raw/"
cp "$run"/raw/t1_* "$work/bad/raw/"
echo 'not json' >"$work/bad/raw/t2_r1_v0_p0.json"
sed -i 's/^plant=.*/plant=/' "$work/plain/run.conf"
# check_bad RUN WHAT ARGS...: RUN as it was
check_bad() {
	dir=$1 what=$2
	shift 2
	refused_in "$dir" "$what" "$summarize" "$@"
}
check_bad "$run" "no --run"
check_bad "$run/raw" "no run.conf" --run "$run/raw"
check_bad "$work/plain" "no planted copies" --run "$work/plain"
# More fractions than it keeps (the rest of run.conf as it was: the plant
# list must be what is refused).
sed -i 's/^plant=.*/plant=0,0.01,0.02,0.03,0.04,0.05,0.06,0.07,0.08,0.09,0.1,0.11,0.12,0.13,0.14,0.15,0.16/' "$work/plain/run.conf"
check_bad "$work/plain" "17 planted copies" --run "$work/plain"
grep -q "plant='0,0.01," "$work/err" || fail "17 planted copies: not the plant list refused: $(cat "$work/err")"
# Trial 1 is whole: its reports are made, then taken back.
check_bad "$work/short" "a trial without processes" --run "$work/short"
grep -q 'trial 2, planted 0: .*no finished process of trial 2 in raw/' "$work/err" || fail "the message must name the trial: $(cat "$work/err")"
check_bad "$work/bad" "not JSON" --run "$work/bad"
grep -q 'trial 2.*t2_r1_v0_p0.json' "$work/err" || fail "the message must name the trial and file: $(cat "$work/err")"
check_bad "$run" "bad --seconds" --run "$run" --seconds -1
check_bad "$run" "unknown option" --run "$run" --bogus
echo "test_report_calibration: ok"
