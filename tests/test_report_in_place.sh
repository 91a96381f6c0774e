#!/usr/bin/env bash
# summarize --run DIR alone: a run's whole report in place, as the sweep and
# ./run.sh report make it. A new report directory swapped in as a set
# (DIR/report, DIR/summary.md ... linked through it) with the same files
# summarize --out writes and its charts; the one it replaced, and one a
# stopped run left, removed; no gnuplot or a failed chart: said, the report
# kept without charts; with repeat=2 each repeat's report, its links into
# the run, and their agreement (agree, beside summarize); the closing lines
# (summary.md's first section as plain text); --so-far's provisional verdict
# with nothing written; bad input: exit 2, one line, nothing written.
# usage: test_report_in_place.sh SUMMARIZE FAKE_SITES_BENCH
set -u
summarize=$1 fakegb=$2
. "$(dirname "$0")/lib.sh"
scratch

# make_run DIR REPEATS VARIANTS: inline faster up to N = 64 (the fake
# bench's crossover), 2 processes per layout variant and repeat.
make_run() {
	mkdir -p "$1/raw"
	printf 'compare=inline\nbaseline=extern\nrepeat=%s\nlayouts_random=%s\nprocesses=2\n' "$2" "$3" >"$1/run.conf"
	for ((r = 1; r <= $2; r++)); do for ((v = 0; v < $3; v++)); do for p in 0 1; do
		"$fakegb" --shape crossover --crossover 64 --sites-max 1024 --threads 1 --modes private --reps 5 \
			--noise 0.01 --variant $v --process $p --seed $((100 * r + 10 * v + p)) \
			--start $((1764720000 + 600 * r + 60 * v + 20 * p)) >"$1/raw/r${r}_v${v}_p$p.json" || fail "fakegb"
	done; done; done
}
# plain FILE: every line under the prefix, no Markdown, at most 100 columns.
plain() {
	[ -s "$1" ] || bad "$1: no closing lines"
	! grep -qv '^inlinecost: ' "$1" || bad "$1: a line without the prefix: $(grep -v '^inlinecost: ' "$1" | head -n 1)"
	! grep -qE '\*\*|`|\]\(|^inlinecost: #' "$1" || bad "$1: Markdown left: $(grep -E '\*\*|`|\]\(|#' "$1" | head -n 1)"
	awk 'length($0) > 100 + length("inlinecost: ") { exit 1 }' "$1" || bad "$1: a line longer than 100 columns"
}

R=$work/run
make_run "$R" 1 6
GNUPLOT=/nonexistent/gnuplot "$summarize" --run "$R" >"$work/closing" 2>"$work/err" || fail "summarize --run: exit $? ($(cat "$work/err"))"
grep -q '^inlinecost: no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then .*/draw '"$R"'/report$' \
	"$work/err" || bad "no gnuplot not said: $(cat "$work/err")"
first=$(readlink "$R/report")
[[ $first == .report.* ]] && [ -d "$R/$first" ] || fail "DIR/report is not a new report directory: $first"
for f in summary.md verdict.txt verdict.json points.csv ratios.csv crossover.csv process_ratios.csv benchmark.json plots; do
	[ "$(readlink "$R/$f")" = "report/$f" ] || bad "$f not linked through report: $(ls -la "$R/$f" 2>&1)"
done
ls "$R"/report/plots/*.png >/dev/null 2>&1 && bad "charts drawn without gnuplot"
# The same files summarize --out writes.
"$summarize" --out "$work/out" --run "$R" >/dev/null || fail "summarize --out"
for f in summary.md verdict.json ratios.csv plots/data.gp; do
	cmp -s "$work/out/$f" "$R/report/$f" || bad "$f differs from summarize --out's"
done
# The closing lines: summary.md's first section, plain, as --closing prints them.
plain "$work/closing"
grep -qx 'inlinecost: The answer' "$work/closing" || bad "closing: no heading line: $(head -n 3 "$work/closing")"
grep -q 'Evidence' "$work/closing" && bad "closing runs past the first section"
"$summarize" --run "$R" --closing >"$work/closing2" || bad "--closing: exit $?"
cmp -s "$work/closing" "$work/closing2" || bad "--closing prints other lines: $(diff "$work/closing" "$work/closing2")"

# Made anew: the old report and a stopped run's gone; charts with gnuplot.
mkdir "$R/.report.stopped"
"$summarize" --run "$R" >/dev/null 2>"$work/err" || fail "again: exit $? ($(cat "$work/err"))"
second=$(readlink "$R/report")
[ "$second" != "$first" ] && [ ! -e "$R/$first" ] && [ ! -e "$R/.report.stopped" ] ||
	bad "old reports stay: $(ls -A "$R")"
[ "$(ls -A "$R" | grep -c '^\.')" -eq 1 ] || bad "hidden files left: $(ls -A "$R")"
if command -v gnuplot >/dev/null; then
	for c in time l1i ratio timeline attribution; do
		[ -s "$R/plots/$c.png" ] && [ -s "$R/plots/$c.svg" ] || bad "chart $c missing"
	done
	# A chart that fails: said, the new report without charts.
	GNUPLOT=false "$summarize" --run "$R" >/dev/null 2>"$work/err" || bad "a failed chart failed the report: exit $?"
	grep -q '^inlinecost: plots failed (.*); the new results are in '"$R"' without charts$' "$work/err" ||
		bad "failed chart not said: $(cat "$work/err")"
	ls "$R"/plots/*.png "$R"/plots/*.svg >/dev/null 2>&1 && bad "charts left after a failed chart"
	[ -s "$R/summary.md" ] || bad "no summary after a failed chart"
fi

# --so-far: nothing written; nothing below 4 processes, a verdict per
# series above, too few for a verdict in a smoke test.
before=$(dir_state "$R")
"$summarize" --run "$R" --so-far 20 >"$work/so-far" || bad "--so-far: exit $?"
[ "$(head -n 1 "$work/so-far")" = "inlinecost: so far, from 12 of 20 processes (provisional; the answer comes at the end):" ] ||
	bad "--so-far heading: $(head -n 1 "$work/so-far")"
grep -q '^inlinecost: - 1 thread, private queue: ' "$work/so-far" || bad "--so-far verdict: $(cat "$work/so-far")"
plain "$work/so-far"
[ "$(dir_state "$R")" = "$before" ] || bad "--so-far changed the run"
S=$work/smoke
make_run "$S" 1 2
"$summarize" --run "$S" --so-far 9 >"$work/so-far" || bad "--so-far smoke: exit $?"
[ "$(cat "$work/so-far")" = "inlinecost: so far, from 4 of 9 processes: too few for a verdict yet" ] ||
	bad "--so-far smoke: $(cat "$work/so-far")"
rm "$S"/raw/r1_v1_p1.json
[ -z "$("$summarize" --run "$S" --so-far 9)" ] || bad "--so-far spoke with 3 processes"
[ "$(ls -A "$S")" = "$(printf 'raw\nrun.conf')" ] || bad "--so-far wrote: $(ls -A "$S")"

# Two repeats: each a run of its own (links into the run's), and their agreement.
T=$work/two
make_run "$T" 2 3
GNUPLOT=/nonexistent/gnuplot "$summarize" --run "$T" >/dev/null 2>"$work/err" || fail "repeats: exit $? ($(cat "$work/err"))"
for r in 1 2; do
	[ "$(readlink "$T/repeat$r/run.conf")" = ../run.conf ] || bad "repeat$r/run.conf not linked"
	[ "$(ls "$T/repeat$r/raw" | paste -sd' ')" = "r${r}_v0_p0.json r${r}_v0_p1.json r${r}_v1_p0.json r${r}_v1_p1.json r${r}_v2_p0.json r${r}_v2_p1.json" ] ||
		bad "repeat$r/raw: $(ls "$T/repeat$r/raw")"
	[ "$(readlink "$T/repeat$r/raw/r${r}_v0_p0.json")" = "../../raw/r${r}_v0_p0.json" ] || bad "repeat$r's link"
	[ -s "$T/repeat$r/summary.md" ] || bad "repeat$r has no report"
done
[ -s "$T/repeat.md" ] && [ -s "$T/repeat.csv" ] || bad "no repeat.md: $(ls "$T")"
grep -q "^inlinecost: repeatability: $T/repeat.md (Of [0-9]* comparisons" "$work/err" || bad "repeatability not said: $(cat "$work/err")"
[ "$(ls -A "$T" | grep -c '^\.')" -eq 1 ] || bad "hidden files left: $(ls -A "$T")"

# The closing block of a summary by hand: headings as lines, image links as
# their text, a bullet's continuation under its text; else verdict.txt as it is.
C=$work/closing-dir
mkdir "$C"
cat >"$C/summary.md" <<'MD'
# inlinecost: inline vs extern — smoke test: too small a design for a verdict (3 variants)

## The answer

Where each form is faster, **by how much**; see `points.csv` and [the method](#method).

- **1 thread, private queue**: inline pays up to N = 4 (4-12% faster); from N = 8 calls are 1.3-1.7x faster; the inlined code passes the 32 KiB L1i at N = 176, the extern code at N = 1155.

![time per call site](plots/time.png)

## Evidence

not in the block
MD
"$summarize" --run "$C" --closing >"$work/block" || bad "--closing: exit $?"
plain "$work/block"
[ "$(head -n 2 "$work/block")" = "inlinecost: Smoke test: too small a design for a verdict (3 variants)
inlinecost: The answer" ] || bad "the smoke mark and heading: $(head -n 2 "$work/block")"
grep -qx 'inlinecost: time per call site' "$work/block" || bad "an image link not as its text"
grep -qx 'inlinecost: Where each form is faster, by how much; see points.csv and the method.' "$work/block" || bad "a line's Markdown"
grep -qx 'inlinecost:   faster; the inlined code passes the 32 KiB L1i at N = 176, the extern code at N = 1155.' "$work/block" || bad "a bullet's continuation: $(cat "$work/block")"
grep -q 'Evidence\|not in the block' "$work/block" && bad "the closing block runs past the first section"
rm "$C/summary.md"
printf 'chain/seq: inline pays up to N = 4.\n\nscatter/random: unresolved at N = 1.\n' >"$C/verdict.txt"
[ "$("$summarize" --run "$C" --closing)" = "inlinecost: chain/seq: inline pays up to N = 4.
inlinecost: scatter/random: unresolved at N = 1." ] || bad "verdict.txt not printed as it is, under the prefix"

# Bad input: one line, exit 2, nothing written.
mkdir -p "$work/norun/raw"
refused_in "$work/norun" "no run.conf" "$summarize" --run "$work/norun"
cp -R "$S" "$work/badrep" && sed -i 's/^repeat=.*/repeat=two/' "$work/badrep/run.conf"
refused_in "$work/badrep" "repeat=two" "$summarize" --run "$work/badrep"
echo 'not json' >"$work/badrep/raw/r1_v0_p9.json" && sed -i 's/^repeat=.*/repeat=1/' "$work/badrep/run.conf"
refused_in "$work/badrep" "a process not JSON" "$summarize" --run "$work/badrep"
refused_in "$R" "--repeat in place" "$summarize" --run "$R" --repeat 1

[ $fail -eq 0 ] && echo "test_report_in_place: ok"
exit $fail
