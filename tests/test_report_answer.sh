#!/bin/sh
# The first screen of summary.md holds the answer: on recorded data from
# the Zen 5 guest (tests/data/report/zen5) and on a fake run of four series
# (two states, crossovers with an unresolved N, a filler series), "## The
# answer" comes first, one verdict per series of crossover.csv in the
# question's words (every N on a side or named unresolved), then the
# machine (CPU model trimmed), the build and the design, all within 25
# lines; no clause of an answer line runs over 30 words. verdict.txt says
# the same verdicts in plain text; a design too small for a verdict is
# marked on summary.md's first line and verdict.txt's.
# usage: test_report_answer.sh SUMMARIZE FAKE_SITES_BENCH DATADIR
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb data' "$@"
scratch

# shape DIR: the first screen's shape; prints the answer lines.
shape() {
	md=$1/summary.md
	series=$(($(wc -l < "$1/crossover.csv") - 1))
	head -n 25 "$md" > "$work/screen"
	[ "$(sed -n 3p "$md")" = '## The answer' ] || fail "$md: line 3 is not '## The answer'"
	[ "$(grep -c '^- \*\*' "$work/screen")" -eq "$series" ] ||
		fail "$md: want $series answer lines in the first 25 lines: $(cat "$work/screen")"
	grep -q '^Machine: ' "$work/screen" && grep -q '^Design: ' "$work/screen" &&
		grep -Eq '^Builds?: ' "$work/screen" || fail "$md: machine, build or design not on the first screen"
	grep -n '[^ ]  \| ,' "$work/screen" && fail "$md: double blanks or a blank before a comma"
	# Every clause of an answer line, and of a state's line under it, is short.
	grep -e '^- \*\*' "$work/screen" | tr ';(.:' '\n\n\n\n' |
		awk 'NF > 30 { print; bad = 1 } END { exit bad }' || fail "$md: a clause over 30 words"
	grep -e '^- \*\*' "$work/screen"
	# verdict.txt: the same verdict per series, as plain text.
	grep '^- \*\*' "$md" | sed -E 's/^- \*\*(.*)\*\*: /- \1: /; s/ ([^.]*code (outgrows|stays) |The L1i does not explain ).*$//' > "$work/want"
	grep '^- ' "$1/verdict.txt" > "$work/got"
	cmp -s "$work/want" "$work/got" || fail "$1/verdict.txt is not summary.md's verdicts: $(diff "$work/want" "$work/got")"
}

# --- recorded: 12 processes on the Zen 5 guest, one series ---------------
"$summarize" --out "$work/zen5" "$data"/zen5/*.json >/dev/null || fail "zen5: exit $?"
shape "$work/zen5" > "$work/lines"
grep -qx 'Machine: Oxide Virtual Turin-like Processor, 2 cores; L1i 32 KiB, L2 1 MiB.' "$work/zen5/summary.md" ||
	fail "CPU model not trimmed: $(grep '^Machine' "$work/zen5/summary.md")"
# A smoke design (2 layout variants): no side stated as a finding, but
# its ratios shown, marked as a smoke test's.
grep -q '^- \*\*1 thread, private queue\*\*: Smoke test, no verdict (2 layout variants of 12 processes in all): inline/extern 0\.898 at N = 1, 0\.973 at N = 16, 1\.11 at N = 256, 1\.02 at N = 4096\. Inlined code outgrows the L1i at N ≈ 176, extern code at N ≈ 1155\.$' "$work/lines" ||
	fail "zen5 answer: $(cat "$work/lines")"
# 2 layout variants: too few draws for a verdict (engine: ic_analysis_smoke).
mark='smoke test: too small a design for a verdict (2 layout variants of 12 processes in all)'
[ "$(head -n 1 "$work/zen5/summary.md")" = "# inlinecost: inline vs extern — $mark" ] &&
	[ "$(sed -n 2p "$work/zen5/verdict.txt")" = "$mark" ] ||
	fail "smoke mark: $(head -n 1 "$work/zen5/summary.md"); $(sed -n 2p "$work/zen5/verdict.txt")"

# The machine section prints each context value as it reads it: numbers and
# padded strings (printed into buffers that are reused) stay in their places.
mkdir -p "$work/numeric"
for f in "$data"/zen5/*.json; do
	sed -e 's/"cores":"2"/"cores":4/' -e 's/"lock":"tas"/"lock":" tas "/' -e 's/"pinned":"true"/"pinned":1/' \
		"$f" > "$work/numeric/$(basename "$f")"
done
"$summarize" --out "$work/numeric/out" "$work"/numeric/*.json >/dev/null || fail "numeric: exit $?"
grep -qx -- '- CPU: Oxide Virtual Turin-like Processor; cores: 4; SMT: false; 2096 MHz' "$work/numeric/out/summary.md" &&
	grep -qx -- '- Lock: tas; threads pinned: 1' "$work/numeric/out/summary.md" ||
	fail "machine values out of place: $(sed -n '/^## Machine/,+4p' "$work/numeric/out/summary.md")"
# The first screen's Build line is not said again in the machine section.
grep -qx -- '- Sites per chain caller: 16' "$work/zen5/summary.md" &&
	! grep -q -e '^- Build: ' -e '^- Code generation' "$work/zen5/summary.md" ||
	fail "machine section repeats the build: $(sed -n '/^## Machine/,+6p' "$work/zen5/summary.md")"

# --- fake: four series, two of them in two states, one with filler ---------
four_series() {
	s=1.0
	[ $k -le 4 ] && s=1.6
	"$fakegb" --shape attrib --variant $v --process $p --seed $k --threads 1 --modes private \
		--sites-max 1024 --reps 3 --filler 512 --copies-step 0.05 --cap-step 0.1 --noise 0.02 \
		--state $s > "$work/a_v${v}_p$p.json" || fail "fakegb attrib"
	"$fakegb" --shape crossover --crossover 64 --variant $v --process $p --seed $((k + 100)) \
		--threads 2 --modes private,shared --sites-max 1024 --reps 3 --noise 0.02 \
		> "$work/b_v${v}_p$p.json" || fail "fakegb crossover"
}
each_process four_series
"$summarize" --out "$work/four" "$work"/a_*.json "$work"/b_*.json >/dev/null || fail "four: exit $?"
shape "$work/four" > "$work/lines"
# Two states whose sides are opposed: no one rule, each state with its
# level and share of the time, and the N where the faster form changed.
grep '^- \*\*1 thread, private queue\*\*: ' "$work/lines" |
	grep -Eq ': No one rule: the faster form changed with the machine.s state \(below\)\. .*The machine ran in two states: inline/extern [0-9.]+ \(state 1, [0-9]+% of the time\) and [0-9.]+ \(state 2, [0-9]+%\) at N = [0-9]+\. At N = 1\.\.1024 the faster form changed with the state: inline in state 1, extern in state 2\.' ||
	fail "two states not both named: $(cat "$work/lines")"
# A crossover with an unresolved N between: inline up to A, extern from B,
# and the N between named.
[ "$(grep -Ec 'threads, (private|shared) queue\*\*: Inline it only where it has at most 32 call sites; from 128, calling it is faster, about [0-9.]+x \(N = [0-9]+: [0-9.]+ against [0-9.]+ ns a site\)\. Inline is faster up to N = 32, by [0-9.]+x to [0-9.]+x; .* From N = 128 extern calls are faster, by [0-9.]+x( to [0-9.]+x)?; .* Unresolved at N = 64, where the 95% range holds 1\. The crossover lies between N = 32 and 128\.' "$work/lines")" -eq 2 ] ||
	fail "crossover verdicts: $(cat "$work/lines")"
# A filler series is a whole program, said so.
grep '^- \*\*512 B filler per site; 1 thread, private queue\*\*: ' "$work/lines" |
	grep -Eq ': A whole program, with 512 B of other code per call site\. No one rule: .* At N = 1\.\.1024 the faster form changed with the state: inline in state 1, extern in state 2\.' ||
	fail "filler line: $(grep 512 "$work/lines")"
# Both forms pass the L1i at the same measured N: said once, not per form.
grep '512 B filler' "$work/lines" | grep -q "Both forms' code outgrows the L1i by N = 64\.$" ||
	fail "capacity said more than once: $(grep 512 "$work/lines")"
# A cause is named at N where the state's own difference resolves too:
# the filler series runs in two states, each attributed apart; state 2
# resolves N = 1 (extern about 1.4x faster, every repetition firmly in it
# counted), and its calls' line there says the calls cost nothing.
sed -n '/^### 512 B filler/,$p' "$work/four/summary.md" | grep -q "^\*\*In state 2\*\* (inline/extern " &&
	sed -n '/^### 512 B filler/,$p' "$work/four/summary.md" | sed -n '/^\*\*In state 2/,/^\*\*Not attributed/p' |
	grep -q "^- call overhead: extern is 0\.[0-9]*x inline at N = 1 \[.*\]: the calls cost nothing here" ||
	fail "state 2's cause at N = 1: $(sed -n '/^### 512 B filler/,$p' "$work/four/summary.md" | grep -A8 'Likely cause')"
# A design big enough: no smoke mark.
[ "$(head -n 1 "$work/four/summary.md")" = '# inlinecost: inline vs extern' ] &&
	! grep -q 'smoke test' "$work/four/verdict.txt" || fail "smoke mark on a full design"

# --- smoke: --quick's design, one layout variant of 3 processes ------------
for p in 0 1 2; do
	"$fakegb" --shape crossover --crossover 64 --variant 0 --process $p --seed $((p + 7)) --threads 1 \
		--modes private --sites-max 256 --reps 3 --noise 0.02 > "$work/q_p$p.json" || fail "fakegb quick"
done
"$summarize" --out "$work/quick" "$work"/q_p*.json >/dev/null || fail "quick: exit $?"
mark='smoke test: too small a design for a verdict (one layout variant of 3 processes)'
[ "$(head -n 1 "$work/quick/summary.md")" = "# inlinecost: inline vs extern — $mark" ] &&
	[ "$(sed -n 2p "$work/quick/verdict.txt")" = "$mark" ] ||
	fail "quick's smoke mark: $(head -n 1 "$work/quick/summary.md"); $(head -n 2 "$work/quick/verdict.txt")"
# The states note is said once for the run, not per series.
[ "$(grep -c '^States: not tested in every series (fewer than 5 processes)' "$work/quick/summary.md")" -eq 1 ] ||
	fail "states note not once: $(grep -n 'States' "$work/quick/summary.md")"

# Uncorrected p-values stay in ratios.csv.
grep -q '| p ' "$work/four/summary.md" && fail "a p column in summary.md beside the band"
grep -q '^Design: 6 layout variants; 12 processes per point; 36 repetitions per point' "$work/four/summary.md" ||
	fail "design line"

echo "test_report_answer: ok"
exit 0
