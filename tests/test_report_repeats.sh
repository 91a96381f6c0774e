#!/bin/sh
# summarize on a run of two repeats (files r1_*, r2_*): a verdict only where
# each repeat alone gives it, "disagree" where they do not, and the Method
# section's table of the spread between runs, processes and repetitions.
# usage: test_report_repeats.sh SUMMARIZE FAKEGB
set -u
summarize=$1
fakegb=$2
. "$(dirname "$0")/lib.sh"
scratch

# run NAME STATE1 STATE2: 6 processes per repeat, inline x STATE in each.
run() {
	mkdir -p "$work/$1/raw"
	for r in 1 2; do for p in 0 1 2 3 4 5; do
		if [ "$r" = 1 ]; then st=$2; else st=$3; fi
		"$fakegb" --start $((1764720000 + 600 * r + 20 * p)) --reps 5 --threads 1 --modes private \
			--sites-max 256 --process $p --seed $((r * 10 + p + 1)) --state "$st" --noise 0.02 \
			> "$work/$1/raw/r${r}_v0_p$p.json" || fail "fakegb"
	done; done
	"$summarize" --out "$work/$1" "$work/$1"/raw/*.json || fail "summarize $1"
}

# Extern faster by 30% in both repeats: stated, with the repeats behind it.
run agree 1.3 1.3
grep -q '^- \*\*1 thread, private queue\*\*: .*Extern calls are faster at N = .* None of the 2 repeats alone puts an N on the other side' \
	"$work/agree/summary.md" || fail "agreeing repeats: $(grep '^- \*\*' "$work/agree/summary.md")"
grep -q "Student's t over the layout variants of the sweep's 2 repeats" "$work/agree/summary.md" || fail "two repeats: the interval is not said to be over the layout variants"
grep -q '^| 1 thread, private queue | 2 | [0-9.]*% (9) | [0-9.]*% (90) | [0-9.]*% (432) |$' "$work/agree/summary.md" ||
	fail "spread table: $(grep '^| 1 thread' "$work/agree/summary.md")"

# Extern faster in one repeat, inline in the other: they contradict at
# every N, so no verdict.
run disagree 1.3 0.8
grep -q '^- \*\*1 thread, private queue\*\*: the 2 repeats disagree, so no verdict is stated: repeat 1 .*; repeat 2 ' \
	"$work/disagree/summary.md" || fail "disagreeing repeats: $(grep '^- \*\*' "$work/disagree/summary.md")"

# A crossover in one repeat, inline faster wherever resolved in the other
# (it resolves fewer N): no N on opposite sides, so the repeats agree and
# the verdict stands. Repeats disagree only where their sides contradict.
run weaker 1.04 1.02
grep -q '^- \*\*1 thread, private queue\*\*: Inline it only where' "$work/weaker/summary.md" ||
	fail "a repeat that resolves less: $(grep '^- \*\*' "$work/weaker/summary.md")"

# Three repeats: the run is the top level of the interval.
mkdir -p "$work/three/raw"
for r in 1 2 3; do for p in 0 1 2 3 4 5; do
	"$fakegb" --start $((1764720000 + 600 * r + 20 * p)) --reps 5 --threads 1 --modes private \
		--sites-max 256 --process $p --seed $((r * 10 + p + 1)) --state 1.3 --noise 0.02 \
		> "$work/three/raw/r${r}_v0_p$p.json" || fail "fakegb"
done; done
"$summarize" --out "$work/three" "$work/three"/raw/*.json || fail "summarize three"
grep -q "Student's t over the sweep's 3 repeats, the top level" "$work/three/summary.md" ||
	fail "three repeats: the interval is not said to be over the repeats"

# One run: no repeat is named, the runs column says 1 and between runs has no figure.
mkdir -p "$work/one"
for p in 0 1 2 3 4 5; do
	"$fakegb" --reps 5 --threads 1 --modes private --sites-max 256 --process $p --seed $((p + 1)) \
		--state 1.3 > "$work/one/p$p.json" || fail "fakegb"
done
"$summarize" --out "$work/one/out" "$work"/one/p*.json || fail "summarize one"
grep -q 'repeats' "$work/one/out/summary.md" && grep -q 'repeats alone' "$work/one/out/summary.md" && fail "one run names repeats"
grep -q '^| 1 thread, private queue | 1 | — | ' "$work/one/out/summary.md" || fail "one run: $(grep '^| 1 thread' "$work/one/out/summary.md")"
echo "test_report_repeats: ok"
exit 0
