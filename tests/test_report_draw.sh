#!/bin/sh
# report/draw.sh draws every chart as PNG and SVG from summarize's output,
# with and without counters and control forms (the attribution chart), a
# run with time in its data (the timeline chart), and
# without gnuplot it says how to get the charts, exits 0 and leaves the
# results alone.
# usage: test_report_draw.sh SUMMARIZE FAKE_SITES_BENCH DRAW_SH
set -u
summarize=$1
fakegb=$2
draw=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/test_report_draw.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
	echo "test_report_draw: FAIL: $*" >&2
	exit 1
}

snapshot() {
	(cd "$1" && find . -type f | sort | while read -r f; do cksum "$f"; done)
}

# Without gnuplot (checked first: it needs no gnuplot on this machine).
"$fakegb" --sites-max 64 > "$work/small.json" || fail "fakegb"
"$summarize" --out "$work/nognu" "$work/small.json" || fail "summarize: exit $?"
before=$(snapshot "$work/nognu")
GNUPLOT=/nonexistent/gnuplot sh "$draw" "$work/nognu" 2> "$work/msg"
rc=$?
[ $rc -eq 0 ] || fail "without gnuplot: exit $rc, want 0"
[ "$(wc -l < "$work/msg")" -eq 1 ] || fail "without gnuplot: want one line, got: $(cat "$work/msg")"
grep -q 'apt-get install gnuplot-nox, then report/draw.sh' "$work/msg" || fail "message: $(cat "$work/msg")"
[ "$(snapshot "$work/nognu")" = "$before" ] || fail "without gnuplot the results changed"

sh "$draw" "$work/does-not-exist" 2>/dev/null
[ $? -eq 2 ] || fail "draw.sh on a directory without data.gp must exit 2"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "test_report_draw: skip: gnuplot not installed (apt-get install gnuplot-nox)"
	exit 77
fi

check_charts() {
	for chart in time l1i ratio timeline attribution; do
		png=$1/plots/$chart.png
		svg=$1/plots/$chart.svg
		[ -s "$png" ] || fail "$png missing"
		[ -s "$svg" ] || fail "$svg missing"
		[ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "$png is not a PNG"
		grep -q '<svg' "$svg" || fail "$svg is not SVG"
	done
	ls -A "$1/plots" | grep -q '^\.' && fail "temporary files left in $1/plots: $(ls -A "$1/plots")"
	return 0
}

# Four panels, simulated counters; then six panels without counters and
# with a missing baseline series (empty panels must still draw).
for v in 0 1 2; do for p in 0 1; do
	"$fakegb" --variant $v --process $p --seed $((v * 10 + p + 1)) > "$work/full-v${v}_p$p.json" || fail "fakegb"
done; done
"$summarize" --out "$work/full" "$work"/full-v*.json || fail "summarize full"
sh "$draw" "$work/full" || fail "draw.sh full: exit $?"
check_charts "$work/full"
grep -q 'simulated by valgrind for a 32 KiB L1i' "$work/full/plots/l1i.svg" || fail "l1i chart not labelled simulated"
grep -q 'Fake CPU 9000 @ 3.0GHz, 2 cores, 2025-12-03' "$work/full/plots/ratio.svg" || fail "caption missing"
grep -q 'crossover in (' "$work/full/plots/ratio.svg" || fail "crossover bracket not marked"
grep -q 'band, all N' "$work/full/plots/ratio.svg" || fail "band not drawn"
# The footprint passes the L1i (32 KiB) and the L2 (1 MiB) of the context.
grep -q 'inline L1i' "$work/full/plots/time.svg" && grep -q 'extern L1i' "$work/full/plots/time.svg" &&
	grep -q 'inline L2' "$work/full/plots/time.svg" || fail "time chart lacks the cache crossings"
grep -q 'no control forms in this run' "$work/full/plots/attribution.svg" || fail "attribution chart without controls"

# Control forms and a filler series: the attribution chart draws them.
for v in 0 1 2; do for p in 0 1; do
	"$fakegb" --shape attrib --variant $v --process $p --seed $((v * 10 + p + 1)) --threads 1 \
		--modes private --sites-max 1024 --reps 3 --filler 512 --copies-step 0.05 --cap-step 0.1 \
		> "$work/attr-v${v}_p$p.json" || fail "fakegb attrib"
done; done
"$summarize" --out "$work/attr" "$work"/attr-v*.json || fail "summarize attr"
sh "$draw" "$work/attr" || fail "draw.sh attr: exit $?"
check_charts "$work/attr"
for k in 'clone/extern' 'inline/inline_nolock' 'extern/extern_nolock' \
	 '(inline/inline_nolock)/(extern/extern_nolock)' 'inline/extern' '512 B filler per site; 1 thread, private queue'; do
	grep -qF "$k" "$work/attr/plots/attribution.svg" || fail "attribution chart lacks '$k'"
done
grep -q 'no control forms' "$work/attr/plots/attribution.svg" && fail "controls present but not drawn"
# One attribution panel per series: the chart data names one panel per
# series of crossover.csv, and the SVG holds that many multiplot panels
# (gnuplot suffixes each panel's curve ids a, b, ...), each with its title.
nseries=$(($(wc -l < "$work/attr/crossover.csv") - 1))
[ "$nseries" -eq 2 ] || fail "attr run: want 2 series, got $nseries"
grep -qx "ic_attr_nseries = $nseries" "$work/attr/plots/data.gp" ||
	fail "attribution chart data: $(grep ic_attr_nseries "$work/attr/plots/data.gp"), want $nseries panels"
panels=$(grep -o 'id="gnuplot_plot_[0-9]*[a-z]"' "$work/attr/plots/attribution.svg" | sed 's/.*[0-9]\([a-z]\)"/\1/' | sort -u | wc -l)
[ "$panels" -eq "$nseries" ] || fail "attribution chart: $panels panels for $nseries series"
[ "$(grep -c -e '>1 thread, private queue<' -e '>512 B filler per site; 1 thread, private queue<' "$work/attr/plots/attribution.svg")" -eq 2 ] ||
	fail "attribution chart: want one panel title per series"
grep -q 'inline_nolock\|>clone<' "$work/attr/plots/time.svg" && fail "time chart draws forms other than the compared two"
grep -qF '512 B filler per site; 1 thread, private queue' "$work/attr/plots/time.svg" || fail "time panel title is not the series heading"

"$fakegb" --counters none --threads 1,2,4 --sites-max 256 > "$work/none.json" || fail "fakegb none"
"$summarize" --baseline hint --out "$work/none" "$work/none.json" || fail "summarize none"
sh "$draw" "$work/none" || fail "draw.sh none: exit $?"
check_charts "$work/none"
grep -q 'no L1i miss counts' "$work/none/plots/l1i.svg" || fail "l1i chart must say there is no data"
grep -q 'no N with both inline and hint measured' "$work/none/plots/ratio.svg" || fail "empty ratio panel"

# Time in the data: 8 processes 30 s apart, 2 of them slower inline from
# their third repetition on, 2 slower throughout. The timeline chart names
# the switching processes, draws one bar per process and one dot per
# repetition.
for p in 0 1 2 3 4 5 6 7; do
	case $p in 2 | 5) st="--state 1.6 --state-from 2" ;; 3 | 6) st="--state 1.6" ;; *) st="" ;; esac
	"$fakegb" --start $((1764720000 + 30 * p)) --reps 5 --threads 1 --modes private --sites-max 64 \
		--process $p --seed $((p + 1)) $st > "$work/timed-p$p.json" || fail "fakegb timed"
done
"$summarize" --out "$work/timed" "$work"/timed-p*.json || fail "summarize timed"
sh "$draw" "$work/timed" || fail "draw.sh timed: exit $?"
check_charts "$work/timed"
grep -q 'In time: 2 of 8 processes switch state inside the process' "$work/timed/plots/timeline.svg" ||
	fail "timeline chart does not name the 2 switching processes"
grep -q 'a process that switches inside' "$work/timed/plots/timeline.svg" || fail "switching processes not marked"
[ "$(awk '/repetitions/ { b = 1; next } b && NF == 4 && $1 != "NaN" { n++ } END { print n + 0 }' "$work/timed/plots/timeline.dat")" -eq 40 ] ||
	fail "timeline.dat: want 40 timed repetitions (8 processes x 5)"
grep -q "minutes from the run's start" "$work/timed/plots/timeline.svg" || fail "timeline x axis"

echo "test_report_draw: ok"
exit 0
