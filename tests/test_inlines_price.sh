#!/bin/sh
# Pricing on fake runs with a planted crossover (the fake generator's
# inline/extern ratio crosses 1 at N = X): the census's N lands on the side
# the plant puts it, with the ratio and bracket summarize states for the
# same files; between two measured N both are named; the chart is drawn
# (PNG and SVG) with the function's N marked.
# usage: test_inlines_price.sh INLINES FAKE_SITES_BENCH SUMMARIZE CHAIN_PROG SCATTER_PROG
set -u
inlines=$1 fakegb=$2 summarize=$3 chain=$4 scatter=$5
. "$(dirname "$0")/lib.sh"
scratch tmp

# fake_run DIR X [SLOW]: a run of 6 layout variants x 2 processes, N =
# 1..4096, crossing at N = X; with SLOW, the second process of the first
# three variants runs inline SLOW times slower (a second state). run.conf
# as the sweep writes it.
fake_run() {
	mkdir -p "$1/raw"
	printf 'sites=1..4096\ncompare=inline\nbaseline=extern\n' >"$1/run.conf"
	for v in 0 1 2 3 4 5; do
		for p in 0 1; do
			state=1
			[ -n "${3:-}" ] && [ $p = 1 ] && [ $v -lt 3 ] && state=$3
			"$fakegb" --variant $v --process $p --seed $((v * 10 + p + 1)) --threads 1 --modes private \
				--sites-max 4096 --crossover "$2" --state "$state" >"$1/raw/r1_v${v}_p$p.json" || bad "fakegb"
		done
	done
}
fake_run "$tmp/late" 256    # inline ahead up to about 128
fake_run "$tmp/early" 8     # extern ahead from about 16
fake_run "$tmp/states" 256 1.4

n=$("$inlines" --csv --function ic_queue_tail_inline "$chain" | awk -F, 'NR == 2 { print $4 }')
[ "$n" -ge 32 ] && [ "$n" -le 96 ] || bad "the chain program's N is '$n'"

# expect RUN PROG NAME PATTERN...: every pattern is in NAME's priced text.
expect() {
	run=$1 prog=$2 name=$3
	shift 3
	"$inlines" --function "$name" --results "$run" "$prog" >"$tmp/out" 2>"$tmp/err" ||
		{ bad "$name on $run: exit $? ($(cat "$tmp/err"))"; return; }
	for pat in "$@"; do
		grep -q -- "$pat" "$tmp/out" || bad "$name on $(basename "$run"): no '$pat' in: $(sed -n '/^Priced/,$p' "$tmp/out")"
	done
}
# summarize's figures for the same files, in the same words.
"$summarize" --out "$tmp/late.sum" "$tmp"/late/raw/*.json >/dev/null || bad "summarize late"
"$summarize" --out "$tmp/early.sum" "$tmp"/early/raw/*.json >/dev/null || bad "summarize early"
ratio() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["sites"] == n { printf "%.3f (95%% interval %.3f–%.3f, band %.3f–%.3f", $c["ratio"], $c["ratio_ci_lo"], $c["ratio_ci_hi"], $c["band_lo"], $c["band_hi"] }' "$1/ratios.csv"; }
bracket() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { print "(" $c["bracket_lo"] ", " $c["bracket_hi"] ")" }' "$1/crossover.csv"; }

expect "$tmp/late" "$chain" ic_queue_tail_inline "N = $n copies with code" "at the measured N = $n" \
	"N = $n: inline/extern $(ratio "$tmp/late.sum" "$n")" "inlined copies .* faster than calls" \
	"below the crossover bracket $(bracket "$tmp/late.sum"): on the side where inline is ahead" \
	"the measured inline site (tail_dequeue: queue_tail(q, n); n = dequeue(q)) is 165 B" "cannot know"
expect "$tmp/early" "$chain" ic_queue_tail_inline "N = $n: inline/extern $(ratio "$tmp/early.sum" "$n")" \
	"calls .* faster than inlined copies" \
	"above the crossover bracket $(bracket "$tmp/early.sum"): on the side where extern is ahead"
# The lock inside both ops' copies: nested, yet code of its own at each,
# so priced at all of them.
expect "$tmp/late" "$chain" ic_lock_acquire "N = $((2 * n)) copies with code (0 standing alone, $((2 * n)) nested"
# 40 sites: not measured; the two powers of two around it are named.
expect "$tmp/late" "$scatter" ic_insert_inline "between the measured N = 32 and 64" \
	"N = 32: inline/extern $(ratio "$tmp/late.sum" 32)" "N = 64: inline/extern $(ratio "$tmp/late.sum" 64)"

# Two states: each priced on its own processes, as summary.md states them.
expect "$tmp/states" "$scatter" ic_insert_inline "two states (summary.md); in state 1, 9 of 12 processes" \
	"in state 2, 3 of 12 processes" "N = 40 is below the crossover bracket" "calls .* faster than inlined copies"

# ./run.sh inlines' newest run (IC_INLINES_RESULTS): the named functions
# priced on it as on --results; a --results given, or --csv, wins.
"$inlines" --function ic_queue_tail_inline --results "$tmp/late" "$chain" >"$tmp/given" 2>&1
IC_INLINES_RESULTS=$tmp/late "$inlines" --function ic_queue_tail_inline "$chain" 2>&1 | cmp -s - "$tmp/given" ||
	bad "IC_INLINES_RESULTS: not priced as on --results"
IC_INLINES_RESULTS=$tmp/early "$inlines" --function ic_queue_tail_inline --results "$tmp/late" "$chain" 2>&1 |
	cmp -s - "$tmp/given" || bad "IC_INLINES_RESULTS over a --results given"
IC_INLINES_RESULTS=$tmp/late "$inlines" --csv --function ic_queue_tail_inline "$chain" >/dev/null 2>&1 ||
	bad "IC_INLINES_RESULTS with --csv: refused as a pricing"

# The chart: PNG and SVG beside it, the function's N in its key.
out=$("$inlines" --function ic_queue_tail_inline --results "$tmp/late" --chart "$tmp/chart.png" "$chain" 2>"$tmp/err")
rc=$?
if ! command -v gnuplot >/dev/null; then
	[ $rc -eq 1 ] && grep -q gnuplot "$tmp/err" && [ ! -e "$tmp/chart.png" ] ||
		bad "without gnuplot: exit $rc, $(cat "$tmp/err")"
	echo "not drawn: no gnuplot here (the refusal was checked)"
elif [ $rc -ne 0 ]; then
	bad "--chart: exit $rc ($(cat "$tmp/err"))"
else
	head -c 4 "$tmp/chart.png" | od -An -c | grep -q 'P   N   G' || bad "chart.png is not a PNG"
	grep -q "ic_queue_tail_inline: N = $n copies" "$tmp/chart.svg" || bad "chart.svg lacks the function's mark"
	ls "$tmp" | grep -q 'tmp\.' && bad "a temporary file is left: $(ls "$tmp")"
	[ -s "$tmp/err" ] && bad "gnuplot was not silent: $(cat "$tmp/err")"
fi
exit $fail
