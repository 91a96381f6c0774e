#!/bin/sh
# The first screen of summary.md holds the answer: on recorded data from
# the Zen 5 guest (tests/data/plots/zen5) and on a fake run of four series
# (two states, crossovers, a filler series), "## The answer" comes first,
# one line per series of crossover.csv, then the machine (CPU model
# trimmed), the build and the design, all within 25 lines; no clause of an
# answer line runs over 30 words.
# usage: test_report_answer.sh SUMMARIZE FAKE_SITES_BENCH DATADIR
set -u
summarize=$1
fakegb=$2
data=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/test_report_answer.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
	echo "test_report_answer: FAIL: $*" >&2
	exit 1
}

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
	grep -e '^- \*\*' -e '^  - In ' "$work/screen" | tr ';(' '\n\n' |
		awk 'NF > 30 { print; bad = 1 } END { exit bad }' || fail "$md: a clause over 30 words"
	grep -e '^- \*\*' -e '^  - In ' "$work/screen"
}

# --- recorded: 12 processes on the Zen 5 guest, one series ---------------
"$summarize" --out "$work/zen5" "$data"/zen5/*.json >/dev/null || fail "zen5: exit $?"
shape "$work/zen5" > "$work/lines"
grep -qx 'Machine: Oxide Virtual Turin-like Processor, 2 cores; L1i 32 KiB, L2 1 MiB.' "$work/zen5/summary.md" ||
	fail "CPU model not trimmed: $(grep '^Machine' "$work/zen5/summary.md")"
grep -q '^- \*\*1 thread, private queue\*\*: .*inlined code passes the 32 KiB L1i at N ≈ 176' "$work/lines" ||
	fail "zen5 answer: $(cat "$work/lines")"

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
k=0
for v in 0 1 2 3 4 5; do
	for p in 0 1; do
		k=$((k + 1))
		s=1.0
		[ $k -le 4 ] && s=1.6
		"$fakegb" --shape attrib --variant $v --process $p --seed $k --threads 1 --modes private \
			--sites-max 1024 --reps 3 --filler 512 --copies-step 0.05 --cap-step 0.1 --noise 0.02 \
			--state $s > "$work/a_v${v}_p$p.json" || fail "fakegb attrib"
		"$fakegb" --shape crossover --crossover 64 --variant $v --process $p --seed $((k + 100)) \
			--threads 2 --modes private,shared --sites-max 1024 --reps 3 --noise 0.02 \
			> "$work/b_v${v}_p$p.json" || fail "fakegb crossover"
	done
done
"$summarize" --out "$work/four" "$work"/a_*.json "$work"/b_*.json >/dev/null || fail "four: exit $?"
shape "$work/four" > "$work/lines"
# Two states: the series' line, then each state on its own line, the larger first.
grep -A2 '^- \*\*1 thread, private queue\*\*: the processes split into two states; ' "$work/lines" | tr '\n' '|' |
	grep -Eq '^[^|]*\|  - In 8 of 12 processes \(inline/extern 0\.[0-9]+\): inline [0-9-]+% faster at N = 1\.\.1024\.\|  - In 4 of 12 processes \(inline/extern 1\.[0-9]+\): extern ' ||
	fail "two states not both named: $(cat "$work/lines")"
[ "$(grep -c 'crossover in (32, 128)' "$work/lines")" -eq 2 ] || fail "crossover brackets: $(cat "$work/lines")"
grep -A1 '^- \*\*512 B filler per site; 1 thread, private queue\*\*: with 512 B of other code per call site, the processes split into two states; ' "$work/lines" |
	grep -q '^  - In [0-9]* of 12 processes (inline/extern [0-9.]*): the program with the calls out of line runs [0-9.-]*% slower at N = ' ||
	fail "filler line: $(grep -A2 512 "$work/lines")"
# Both forms pass the L1i at the same measured N: said once, not per form.
grep '512 B filler' "$work/lines" | grep -q "both forms' code passes the 32 KiB L1i by N = 64\.$" ||
	fail "capacity said more than once: $(grep 512 "$work/lines")"
# Uncorrected p-values stay in ratios.csv.
grep -q '| p ' "$work/four/summary.md" && fail "a p column in summary.md beside the band"
grep -q '^Design: 6 layout variants; 12 processes per point; 36 repetitions per point' "$work/four/summary.md" ||
	fail "design line"

echo "test_report_answer: ok"
exit 0
