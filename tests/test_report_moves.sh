#!/bin/sh
# "What the difference is made of" where a series' processes vary: each
# form's elasticity against the series' ratio over its processes, so it
# never reads "nothing can be attributed" while the forms were measured in
# the same processes and the ratio moved. The recorded Zen 3 sweep
# (tests/data/recorded/) must give the paragraph in each of its three
# series, inline slowing and extern getting faster in the 1-thread chain.
# Planted: 12 processes of the fake bench whose inline alone is slowed by a
# factor that wanders from process to process must name inline as moving
# with the ratio and every other form unchanged; the same processes with
# no such factor must print no paragraph.
# usage: test_report_moves.sh SUMMARIZE DATA_DIR FAKEGB
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize data fakegb' "$@"
scratch

tar xzf "$data/sweep-zen3-default.tar.gz" -C "$work" || fail "untar zen3 sweep"
"$summarize" --out "$work/zen3" "$work"/sweep-zen3-default/raw/*.json >/dev/null || fail "summarize zen3: exit $?"
md=$work/zen3/summary.md
grep -q 'nothing can be attributed' "$md" && fail "the Zen 3 sweep still says nothing can be attributed: $(grep -n 'nothing can' "$md")"
[ "$(grep -c '^\*\*What moves with the ratio\*\*: the processes vary beyond their noise (at N = [0-9]* their SD is [0-9]*% \[95% [0-9]*–[0-9]*%\], Q = [0-9]* on 15 df, p < 0.001)' "$md")" -eq 3 ] ||
	fail "not one paragraph per series: $(grep -n 'What moves' "$md")"
# The 1-thread chain's (the first series): inline slows, extern gets faster.
grep -m 1 '^\*\*What moves with the ratio' "$md" |
	grep -q 'As inline/extern at N = [0-9]* went from 1\.[0-9]* to [23]\.[0-9]* (10th–90th percentile of the processes): inline slowed [0-9.]*x \[[0-9.]*–[0-9.]*x\], extern ran [0-9.]*x faster \[[0-9.]*–[0-9.]*x\], clone ' ||
	fail "the 1-thread chain's paragraph: $(grep -m 1 'What moves' "$md")"

# process DIR WANDER: process k into DIR, inline slowed by a factor drawn
# per process (the same draws every time) when WANDER is 1.
process() {
	s=1.0
	[ "$2" = 1 ] && s=$(awk -v k=$k 'BEGIN { srand(k); print exp(0.3 * (2 * rand() - 1)) }')
	"$fakegb" --shape attrib --sites-max 64 --threads 1 --modes private --reps 5 --noise 0.02 \
		--variant $v --process $p --seed $k --start $((1767225600 + 60 * k)) --state $s \
		>"$1/v${v}_p$p.json" || fail "fakegb"
}
for w in 0 1; do
	mkdir -p "$work/fake$w"
	each_process process "$work/fake$w" $w
	"$summarize" --out "$work/out$w" "$work/fake$w"/*.json >/dev/null || fail "summarize fake$w: exit $?"
done
grep -q '^\*\*What moves with the ratio' "$work/out0/summary.md" &&
	fail "steady processes given a paragraph: $(grep 'What moves' "$work/out0/summary.md")"
line=$(grep '^\*\*What moves with the ratio' "$work/out1/summary.md") ||
	fail "no paragraph where inline wanders: $(grep -A3 'What the difference' "$work/out1/summary.md")"
echo "$line" | grep -q ': inline slowed [0-9.]*x \[[0-9.]*–[0-9.]*x\], extern unchanged (within ±5%), clone unchanged (within ±5%)' ||
	fail "the planted paragraph: $line"
for f in extern_nolock inline_nolock mark; do
	echo "$line" | grep -q "$f unchanged" || fail "$f not unchanged: $line"
done
echo "test_report_moves: ok"
