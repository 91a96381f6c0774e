#!/bin/sh
# summary.md's "What the difference is made of" from the fake generator's
# attrib shape, whose components are planted: a resolved component is
# stated, an unresolved one is not (and says "no evidence"), nothing
# resolved says so, an all-noisy series says so first; capacity is not
# judged here, and the per-N lines and the counters are not tabled.
# usage: test_report_attribution.sh SUMMARIZE FAKE_SITES_BENCH DATA DRAW
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb - draw' "$@"
scratch

# run NAME ARGS...: 6 layout variants x 2 processes through summarize into
# $work/NAME; prints nothing.
run() {
	name=$1
	shift
	mkdir -p "$work/$name-in"
	for v in 0 1 2 3 4 5; do for p in 0 1; do
		"$fakegb" --shape attrib --variant $v --process $p --seed $((v * 10 + p + 1)) "$@" \
			> "$work/$name-in/v${v}_p$p.json" || fail "fakegb $*"
	done; done
	"$summarize" --out "$work/$name" "$work/$name-in"/*.json || fail "summarize $name: exit $?"
}

# cause FILE: the first series' statement (its bullets), on one line.
cause() {
	awk '/^#### What the difference/ { on = 1; next }
		on && /^(Per N|###)/ { exit } on && NF' "$1" | tr '\n' ' '
}

one="--threads 1 --modes private --sites-max 1024 --reps 5"

# --- every component planted and resolved ---------------------------------
# extern/inline 9/7 at N = 1; clone 5% slower than extern from N = 256;
# inline 10% slower from N = 256, where its code passes the L1i; the lock
# (7 vs 5.5 inlined, 9 vs 8 called) costs more inlined: 1.131.
run all $one --noise 0.01 --copies-step 0.05 --cap-step 0.1 --cap-n 256
s=$work/all/summary.md
grep -q '^#### What the difference is made of$' "$s" || fail "no attribution heading"
# One sentence points to the per-N lines, and names files the report has
# (the chart once draw drew it).
grep -qx 'Per N: the attribution chart under Evidence and its data (plots/attribution.dat).' "$s" &&
	[ "$(grep -c '](plots/attribution.png)' "$s")" -eq 1 ] || fail "no pointer to the per-N lines"
"$draw" "$work/all" || fail "draw: exit $?"
for f in $(grep '^Per N: ' "$s" | grep -o 'plots/[a-z_]*\.[a-z]*'); do
	case $f in *.png) command -v gnuplot >/dev/null 2>&1 || continue ;; esac
	[ -s "$work/all/$f" ] || fail "the pointer names $f, which the report lacks"
done
c=$(cause "$s")
echo "$c" | grep -q "^\*\*Likely cause\*\* (at N where the series' difference and the cause's band or interval both exclude 1): - call overhead: extern is 1\.2[89]x inline at N = 1 \[" ||
	fail "calls not stated first: $c"
echo "$c" | grep -q 'copies: clone/extern is 1\.0[45]x at N = [0-9]* (band [0-9.]*–[0-9.]*), resolved above 1 at N = 256\.\.1024: the copies cost' ||
	fail "copies not stated: $c"
echo "$c" | grep -q 'the lock, inlined vs called: (inline/inline_nolock)/(extern/extern_nolock) is .*: the lock costs more inlined than called' || fail "lock not stated: $c"
# How it adds up, said once per series at the largest N with copies: each
# of its three ratios as points.csv's medians give it at that N (the
# sentence computes inline/clone as whole / copies, so a product check
# could not fail; the table is an independent source).
adds=$(grep -m1 '^\*\*How it adds up\*\* at N = ' "$s") || fail "no 'How it adds up' line"
n=$(echo "$adds" | sed -n 's/^\*\*How it adds up\*\* at N = \([0-9]*\).*/\1/p')
echo "$adds" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9.]+x[,:]?$/) print $i + 0 }' >"$work/adds"
awk -F, -v n="$n" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["sites"] == n && $c["threads"] == 1 { t[$c["form"]] = $c["ns_per_op"] }
	END { if (!("inline" in t && "extern" in t && "clone" in t)) exit 1
		print t["inline"] / t["extern"]; print t["clone"] / t["extern"]; print t["inline"] / t["clone"] }' \
	"$work/all/points.csv" >"$work/table" || fail "points.csv lacks inline, extern or clone at N = $n"
paste "$work/adds" "$work/table" | awk 'NF != 2 || ($1 - $2) ^ 2 > (0.03 * $2) ^ 2 { exit 1 } END { exit NR != 3 }' ||
	fail "the parts are not the table's ratios at N = $n: $adds; table: $(tr '\n' ' ' <"$work/table")"
# The interaction is stated only where all four forms' code fits the L1i:
# beyond it the nolock forms' smaller code mixes capacity in, and says so.
echo "$c" | grep -q "the interaction from N = [0-9]*, where a form's code passes the L1i: the nolock forms' smaller code mixes capacity into it" ||
	fail "the interaction past the L1i is not set aside: $c"
first_out=$(echo "$c" | sed -n "s/.*the interaction from N = \([0-9]*\), where.*/\1/p")
# ... from the first N where a form's code passes the 32 KiB L1i, not where
# the loop's own misses (0.2 per site at N = 1, as valgrind gives) are many.
pass=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["form"] ~ /^(inline|extern)(_nolock)?$/ && $c["footprint_bytes"] > 32768 &&
	(m == "" || $c["sites"] + 0 < m) { m = $c["sites"] + 0 } END { print m }' "$work/all/points.csv")
[ "$first_out" = "$pass" ] || fail "the interaction set aside from N = $first_out, the code passes the L1i at N = $pass"
echo "$c" | sed -n 's/.*(inline\/inline_nolock)\/(extern\/extern_nolock) is [0-9.]*x at N = \([0-9]*\) .*/\1/p' |
	awk -v f="$first_out" '$1 + 0 >= f + 0 { exit 1 }' || fail "the interaction is stated at an N past the L1i ($first_out): $c"
echo "$c" | grep -q 'Every point' && fail "a quiet series called noisy: $c"
# A sweep that starts past the L1i judges no interaction at all.
run past $one --noise 0.01 --copies-step 0.05 --cap-step 0.1 --cap-n 256 --sites-min 256
c=$(cause "$work/past/summary.md")
echo "$c" | grep -q "the lock, inlined vs called from N = 256, where a form's code passes the L1i" ||
	fail "a sweep past the L1i: the interaction is not set aside from its first N: $c"
echo "$c" | grep -q 'the lock costs' && fail "a sweep past the L1i: the interaction stated: $c"
# The 2-thread series of the same run has no nolock forms: said per line.
run threads --threads 1,2 --modes private --sites-max 64 --reps 3 --noise 0.01
grep -q 'the lock, inlined vs called: not measured (no inline_nolock in this series)' "$work/threads/summary.md" ||
	fail "statement must say the interaction was not measured"

# --- planted nothing in copies and the lock: not stated ---------------------
# inline_nolock = 7 * 8 / 9: the interaction is 1.
run none $one --noise 0.01 --t-inline-nolock 6.2222222222
c=$(cause "$work/none/summary.md")
echo "$c" | grep -q 'copies: no evidence at this resolution (bands [0-9.]*–[0-9.]* over N = 1\.\.1024)' || fail "copies: $c"
echo "$c" | grep -q 'the lock, inlined vs called: no evidence at this resolution (bands' || fail "interaction: $c"
echo "$c" | grep -q 'copies cost\|lock costs' && fail "unresolved component stated: $c"
echo "$c" | grep -q '\*\*Not attributed:\*\* - ' || fail "unresolved components must be listed as not attributed: $c"

# --- nothing resolved at all ---------------------------------------------------
run nothing $one --noise 0.01 --t-extern 7 --t-extern-nolock 5.5 --t-clone 7
c=$(cause "$work/nothing/summary.md")
echo "$c" | grep -q '^\*\*Likely cause\*\*: nothing can be attributed here\. \*\*Not attributed:\*\* - call overhead: no evidence at this resolution (interval' ||
	fail "nothing resolved: $c"

# --- the default shape has no clone -----------------------------------------
mkdir -p "$work/noclone-in"
for v in 0 1 2 3 4 5; do for p in 0 1; do
	"$fakegb" --variant $v --process $p --seed $((v * 10 + p + 1)) --threads 1 --modes private \
		--sites-max 64 > "$work/noclone-in/v${v}_p$p.json" || fail "fakegb"
done; done
"$summarize" --out "$work/noclone" "$work"/noclone-in/*.json || fail "summarize noclone"
c=$(cause "$work/noclone/summary.md")
echo "$c" | grep -q 'copies: not measured (no clone in this series)' || fail "no clone: $c"
grep -q '^Per N' "$work/noclone/summary.md" && fail "a pointer to a chart panel a series without control forms lacks"

# --- all noisy: said first ----------------------------------------------------
run noisy $one --noise 0.6 --layout-noise 0.3 --reps 3
c=$(cause "$work/noisy/summary.md")
[ "$(grep -c "^Code per call site: .* Every point's band is wider than ±3%" "$work/noisy/summary.md")" -eq 1 ] &&
	! grep -q 'Every point of this series is noisy' "$work/noisy/summary.md" || fail "noisy not said once: $c"

# --- counters: said once for the run, not per series --------------------------
# ## Counters names the source and why some are absent; points.csv has
# every counter per point.
small="$one --sites-max 16 --noise 0.01"
run papi $small --counters papi --papi-absent branch_miss_per_op,itlb_miss_per_op \
	--counter-note 'PAPI 7.0 perf_event; no iTLB or branch-miss event on this CPU'
s=$work/papi/summary.md
grep -q '^- Source: .*PAPI 7.0 perf_event; no iTLB or branch-miss event on this CPU$' "$s" ||
	fail "PAPI: the source and its reason: $(grep '^- Source' "$s")"
# Every counter PAPI read is a column of points.csv; one it could not read
# is empty there, not 0.
col() {   # col CSV NAME: that column of every row after the header ("no column" without it)
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; if (!c) { print "no column"; exit } next }
		{ print $c }' "$1"
}
[ -z "$(col "$work/papi/points.csv" branch_miss_per_op | sort -u)" ] ||
	fail "PAPI without a branch-miss event: branch_miss_per_op not empty"
run papiall $small --counters papi
for k in branch_miss_per_op itlb_miss_per_op; do
	col "$work/papiall/points.csv" $k | grep -qv '^[0-9.e+-]*[1-9]' &&
		fail "PAPI with every event: $k not a count in every row"
done
s=$work/all/summary.md
grep -q '^- Source: simulated: .*every form.s are in points.csv).* Note: valgrind callgrind --cache-sim=yes, I1 32768/8/64$' "$s" ||
	fail "simulated: the source and its reason, once: $(grep '^- Source' "$s")"
run nocount $small --counters none
s=$work/nocount/summary.md
grep -q '^- Source: none: .* Note: no counters on this machine$' "$s" || fail "none: reason: $(grep '^- Source' "$s")"

# --- every run: no capacity bullet, no table in the attribution ---------------
# Capacity is not judged here (the L1i crossing is in the answer and on the
# time chart); the per-N lines are in the attribution chart and its data.
for s in "$work"/*/summary.md; do
	grep -q '^- capacity' "$s" && fail "$s: a capacity bullet: $(grep '^- capacity' "$s")"
	awk '/^#### What the difference/ { on = 1 } /^###? / { on = 0 } on && /^\|/ { bad = 1 } END { exit bad }' "$s" ||
		fail "$s: a table in the attribution"
	grep -q 'Counters per site' "$s" && fail "$s: a series lists its counters"
done

echo "test_report_attribution: ok"
exit 0
