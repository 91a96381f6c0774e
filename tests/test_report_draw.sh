#!/bin/sh
# cmd/draw (plots/) draws every chart as PNG and SVG from summarize's output,
# with and without counters and control forms (the attribution chart), a run
# with time in its data (the timeline chart), with
# no gnuplot warning, each form in its palette.gp colour, the cache lines at
# the N summary.md states, ratio dots beyond the panel at its edge and a
# smoke run marked; without gnuplot it says how to get the charts, exits 0
# and leaves the results alone.
# usage: test_report_draw.sh SUMMARIZE FAKE_SITES_BENCH DRAW
set -u
# The charts under the C locale, as on a fresh machine with none set: no
# warning may come of it (plots/gnuplot_run.c runs gnuplot under C.UTF-8).
unset LANG LANGUAGE
export LC_ALL=C
summarize=$1
fakegb=$2
draw=$3
. "$(dirname "$0")/lib.sh"
scratch

snapshot() {
	(cd "$1" && find . -type f | sort | while read -r f; do cksum "$f"; done)
}

# Without gnuplot (checked first: it needs no gnuplot on this machine).
"$fakegb" --sites-max 64 > "$work/small.json" || fail "fakegb"
"$summarize" --out "$work/nognu" "$work/small.json" || fail "summarize: exit $?"
# The time panel's axis: linear where the times lie close, log (with its
# round tics) where a panel's drawn times span more than 4x.
grep -q "^ic_time_axis\[1\] = 'unset logscale y;" "$work/nognu/plots/data.gp" ||
	fail "a narrow panel not linear: $(grep ic_time_axis "$work/nognu/plots/data.gp")"
"$fakegb" --sites-max 64 --shape attrib --t-inline 7 --t-extern 40 > "$work/wide.json" || fail "fakegb wide"
"$summarize" --out "$work/wide" "$work/wide.json" || fail "summarize wide: exit $?"
grep -q "^ic_time_axis\[1\] = 'set logscale y 10;.*set ytics (5, 7, 10, 15, 20, 30, 50" "$work/wide/plots/data.gp" ||
	fail "a panel spanning 7 to 40 ns not on a log axis: $(grep ic_time_axis "$work/wide/plots/data.gp")"
before=$(snapshot "$work/nognu")
GNUPLOT=/nonexistent/gnuplot "$draw" "$work/nognu" 2> "$work/msg"
rc=$?
[ $rc -eq 0 ] || fail "without gnuplot: exit $rc, want 0"
[ "$(wc -l < "$work/msg")" -eq 1 ] || fail "without gnuplot: want one line, got: $(cat "$work/msg")"
grep -q "apt-get install gnuplot-nox, then $draw $work/nognu" "$work/msg" || fail "message: $(cat "$work/msg")"
[ "$(snapshot "$work/nognu")" = "$before" ] || fail "without gnuplot the results changed"

"$draw" "$work/does-not-exist" 2>/dev/null
[ $? -eq 2 ] || fail "draw on a directory without data.gp must exit 2"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "test_report_draw: skip: gnuplot not installed (apt-get install gnuplot-nox)"
	exit 77
fi

src=$(cd "$(dirname "$0")/.." && pwd)
palette=$src/plots/palette.gp
# A form's colour as palette.gp defines it.
color_of() { sed -n "s/.*f eq '$1' ? '\(#[0-9a-f]*\)'.*/\1/p" "$palette" | head -n 1; }
# ... as gnuplot's SVG writes it: rgb( 31, 119, 180).
svg_rgb() {
	h=$(color_of "$1" | cut -c2-)
	printf 'rgb(%3d, %3d, %3d)' "0x$(echo "$h" | cut -c1-2)" "0x$(echo "$h" | cut -c3-4)" "0x$(echo "$h" | cut -c5-6)"
}

# Every chart script loads the palette (style.gp does for most) and none
# defines colours of its own for forms; no script lives outside plots/.
ls "$src"/*/*.gp | grep -v '^'"$src"'/plots/' && fail "a gnuplot script outside plots/"
for gp in "$src"/plots/*.gp; do
	case $gp in */palette.gp) continue ;; esac
	grep -q "palette.gp\|style.gp" "$gp" || fail "$gp does not load palette.gp"
	grep -q "ic_color(\|'#1f77b4'\|'#d62728'" "$gp" && fail "$gp names form colours of its own"
done

# draw DIR: cmd/draw, which must say nothing (gnuplot's warnings are passed on).
draw_quiet() {
	"$draw" "$1" 2> "$work/draw.err" || fail "draw $1: exit $?"
	[ -s "$work/draw.err" ] && fail "draw $1 warned: $(cat "$work/draw.err")"
	return 0
}

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
draw_quiet "$work/full"
check_charts "$work/full"
grep -q 'simulated by valgrind for a 32 KiB L1i' "$work/full/plots/l1i.svg" || fail "l1i chart not labelled simulated"
grep -q 'Fake CPU 9000 @ 3.0GHz, 2 cores, 2025-12-03' "$work/full/plots/ratio.svg" || fail "caption missing"
# A smoke test decides no side: its panels say so, never a bracket.
grep -q 'no side decided: a smoke test' "$work/full/plots/ratio.svg" || fail "a smoke run's panels not marked undecided"
grep -q 'crossover in (' "$work/full/plots/ratio.svg" && fail "a smoke run's panel names a crossover"
grep -q 'band, all N' "$work/full/plots/ratio.svg" || fail "band not drawn"
# The footprint passes the L1i (32 KiB) and the L2 (1 MiB) of the context,
# and the time chart labels the L1i at the N summary.md states.
grep -q 'inline passes L1i' "$work/full/plots/time.svg" && grep -q 'extern passes L1i' "$work/full/plots/time.svg" &&
	grep -q 'inline passes L2' "$work/full/plots/time.svg" || fail "time chart lacks the cache crossings"
at=$(grep -o 'Inlined code outgrows the L1i at N ≈ [0-9]*' "$work/full/summary.md" | head -n 1 | sed 's/.*≈ //')
[ -n "$at" ] || fail "summary.md states no N for the L1i"
grep -q "inline passes L1i, N ≈ $at *<" "$work/full/plots/time.svg" || fail "time chart's L1i line is not at N ≈ $at, the N summary.md states"
# One colour per form: inline and extern in palette.gp's colours in the time and L1i charts.
for chart in time l1i; do for f in inline extern; do
	grep -qF "$(svg_rgb $f)" "$work/full/plots/$chart.svg" ||
		fail "$chart chart: $f not in its palette colour $(svg_rgb $f)"
done; done
# A run of 3 layout variants is a smoke test: every chart says so.
for chart in time l1i ratio attribution; do
	grep -q 'smoke test, not an answer' "$work/full/plots/$chart.svg" || fail "$chart chart of a smoke run not marked"
done
grep -q 'no control forms in this run' "$work/full/plots/attribution.svg" || fail "attribution chart without controls"

# Control forms and a filler series: the attribution chart draws them.
for v in 0 1 2; do for p in 0 1; do
	"$fakegb" --shape attrib --variant $v --process $p --seed $((v * 10 + p + 1)) --threads 1 \
		--modes private --sites-max 1024 --reps 3 --filler 512 --copies-step 0.05 --cap-step 0.1 \
		> "$work/attr-v${v}_p$p.json" || fail "fakegb attrib"
done; done
"$summarize" --out "$work/attr" "$work"/attr-v*.json || fail "summarize attr"
draw_quiet "$work/attr"
check_charts "$work/attr"
# The key names each line as the text does.
for k in 'copies: clone/extern' 'the lock inlined: inline/inline_nolock' 'the lock called: extern/extern_nolock' \
	 'the lock, inlined vs called' 'the whole: inline/extern' '512 B filler per site; 1 thread, private queue'; do
	grep -qF "$k" "$work/attr/plots/attribution.svg" || fail "attribution chart lacks '$k'"
done
grep -qF '(inline/inline_nolock)/(extern/extern_nolock)' "$work/attr/plots/attribution.svg" &&
	fail "attribution chart's key names a formula"
grep -qF "$(svg_rgb clone)" "$work/attr/plots/attribution.svg" || fail "copies not in clone's colour"
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

# hint measured, but never at an N that inline has: an empty ratio panel.
"$fakegb" --counters none --threads 1,2,4 --sites-max 256 > "$work/none.json" || fail "fakegb none"
"$fakegb" --counters none --threads 1,2,4 --sites-min 512 --sites-max 1024 --forms hint > "$work/hint.json" ||
	fail "fakegb hint"
"$summarize" --baseline hint --out "$work/none" "$work/none.json" "$work/hint.json" || fail "summarize none"
draw_quiet "$work/none"
check_charts "$work/none"
grep -q 'not measured in this run' "$work/none/plots/l1i.svg" || fail "l1i chart must say there is no data"
grep -q 'call sites N' "$work/none/plots/l1i.svg" && fail "l1i chart without counts draws a panel"
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
draw_quiet "$work/timed"
check_charts "$work/timed"
grep -q 'In time: 2 of 8 processes switch state inside the process' "$work/timed/plots/timeline.svg" ||
	fail "timeline chart does not name the 2 switching processes"
grep -q 'a process that switches inside' "$work/timed/plots/timeline.svg" || fail "switching processes not marked"
[ "$(awk '/repetitions/ { b = 1; next } b && NF == 4 && $1 != "NaN" { n++ } END { print n + 0 }' "$work/timed/plots/timeline.dat")" -eq 40 ] ||
	fail "timeline.dat: want 40 timed repetitions (8 processes x 5)"
grep -q "minutes from the run's start" "$work/timed/plots/timeline.svg" || fail "timeline x axis"

# A design of 5 layout variants is not a smoke test: no mark.
for v in 0 1 2 3 4; do
	"$fakegb" --variant $v --process 0 --seed $((v + 1)) --sites-max 64 --threads 1 > "$work/big-v$v.json" || fail "fakegb"
done
"$summarize" --out "$work/big" "$work"/big-v*.json || fail "summarize big"
draw_quiet "$work/big"
check_charts "$work/big"
grep -q 'smoke test' "$work/big/plots/ratio.svg" && fail "a run of 5 layout variants marked as a smoke test"
# A decided crossover is marked in its panel.
for v in 0 1 2 3 4; do
	"$fakegb" --variant $v --process 0 --seed $((v + 21)) --threads 1 --modes private > "$work/cross-v$v.json" || fail "fakegb"
done
"$summarize" --out "$work/cross" "$work"/cross-v*.json >/dev/null || fail "summarize cross"
draw_quiet "$work/cross"
grep -q 'crossover in (' "$work/cross/plots/ratio.svg" || fail "crossover bracket not marked: $(grep -m1 '^- ' "$work/cross/summary.md")"

# The recorded quick run (2 threads: no simulated counts): that series is
# left out of the L1i chart and named; the ratio panels' dots beyond their
# y range are drawn at its edge, and every other dot within it.
"$summarize" --out "$work/quick" "$src"/tests/data/compare/quick-gcc-O2/raw/*.json > /dev/null || fail "summarize quick"
draw_quiet "$work/quick"
check_charts "$work/quick"
grep -q 'left out, no L1i counts: .*2 threads' "$work/quick/plots/l1i.svg" || fail "l1i chart does not name the series left out"
awk -v gp="$work/quick/plots/data.gp" '
	BEGIN { while ((getline l < gp) > 0) if (l ~ /^ic_ylo\[/) {
		n = split(l, a, /[][ =;]+/); lo[a[2]] = a[3]; hi[a[2]] = a[6] } }
	/^# / { p++ } /^NaN/ { next }
	NF == 5 { clipped += $5 != 0
		if ($5 > 0 && ($4 != hi[p] || $2 <= hi[p])) bad = bad " above:" $0
		if ($5 < 0 && ($4 != lo[p] || $2 >= lo[p])) bad = bad " below:" $0
		if ($5 == 0 && ($2 < lo[p] || $2 > hi[p])) bad = bad " inside:" $0 }
	END { if (bad != "") { print "process.dat:" bad; exit 1 } print clipped }' "$work/quick/plots/process.dat" > "$work/clip" ||
	fail "ratio chart clipping: $(cat "$work/clip")"
[ "$(cat "$work/clip")" -gt 0 ] || fail "no dot of the recorded quick run is beyond its panel: the clipping is untested"
grep -q 'beyond the panel, at its edge' "$work/quick/plots/ratio.svg" || fail "ratio chart does not count the clipped dots"

echo "test_report_draw: ok"
exit 0
