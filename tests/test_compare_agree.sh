#!/usr/bin/env bash
# ./run.sh agree (the runs program's mode) on runs made with the fake generator,
# whose answers are known. A run is 6 layout variants of one process each
# (inline/extern crossing 1 at N = 64, 1% noise), so a pair of runs has 924
# splits of its draws and the joint test can reject at 2/924:
#   - a run against itself, a copy and its export: equivalent at every N;
#   - a copy with inline 1.10x slower: differ at every N, the joint test
#     rejects;
#   - a copy with wider noise (inline 1.15x and 1.07x slower in a variant
#     each and as much faster in two others, so the mean stays and the
#     levels spread rather than split): cannot tell at every N, never
#     equivalent;
#   - two runs whose processes split into two states, half in each: the
#     states compared one by one, matched by level, both equivalent; against
#     a run in one state only, the state shares differ;
#   - runs of two builds have no series in common: one line, exit 1;
#   - bad input: one line, exit 2, nothing written.
# Usage: test_compare_agree.sh REPO-TOP RUNS EDIT FAKE_SITES_BENCH. Exit 0 pass, 1 fail.
set -u
top=$(cd "$1" && pwd)
runs=$2 edit=$3 fakegb=$4
agree() { "$runs" agree "$@"; }
. "$(dirname "$0")/lib.sh"
scratch

# make_run DIR SEED PROCESSES STATES: 6 variants x PROCESSES processes; the
# processes whose number is in STATES (e.g. "1") run inline 1.6x slower.
make_run() {
	local d=$1 seed=$2 np=$3 high=$4 v p st
	mkdir -p "$d/raw"
	printf 'compare=inline\nbaseline=extern\nlayouts_random=6\nprocesses=%s\n' "$np" >"$d/run.conf"
	for v in 0 1 2 3 4 5; do for ((p = 0; p < np; p++)); do
		st=1.0; [[ " $high " == *" $p "* ]] && st=1.6
		"$fakegb" --shape crossover --crossover 64 --sites-max 1024 --threads 1 --modes private --reps 5 \
			--noise 0.01 --layout-noise 0.005 --variant $v --process $p --seed $((seed + 10 * v + p)) \
			--state $st >"$d/raw/r1_v${v}_p$p.json" || bad "fakegb"
	done; done
}
# edit_run SRC DST V-LIST EDIT-ARGS...: DST a copy of SRC, the processes of
# the variants in V-LIST edited.
edit_run() {
	local src=$1 dst=$2 vs=$3 f v; shift 3
	mkdir -p "$dst/raw" && cp "$src/run.conf" "$dst/"
	for f in "$src"/raw/*.json; do
		v=$(basename "$f" | sed 's/^r1_v\([0-9]*\)_.*/\1/')
		if [[ " $vs " == *" $v "* ]]; then "$edit" "$@" "$f" "$dst/raw/$(basename "$f")" || bad "edit"; else cp "$f" "$dst/raw/"; fi
	done
}
# verdicts CSV STATE: the verdicts of the comparisons of that state, sorted, unique.
verdicts() { awk -F, -v s="$2" 'NR > 1 && $3 == s { print $16 }' "$1" | sort -u | paste -sd,; }
# check NAME OUT WANT-ALL: agree's repeat.csv in OUT has, for all processes,
# only the verdicts WANT-ALL.
check() {
	[ "$(verdicts "$2/repeat.csv" all)" = "$3" ] || bad "$1: verdicts '$(verdicts "$2/repeat.csv" all)', want $3"
}
one_line_exit() {
	local want=$1 o=$2 err rc; shift 2
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ $rc -eq "$want" ] || bad "agree ${*:2}: exit $rc, want $want ($err)"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ -n "$err" ] || bad "agree ${*:2}: not one line: $err"
	[ ! -e "$o" ] || bad "agree ${*:2}: wrote $o"
}

R=$work/r1
make_run "$R" 100 1 ""
cp -R "$R" "$work/copy"
tar -czf "$work/r1.tar.gz" -C "$work" r1

# --- itself, a copy, an export: equivalent everywhere, no difference ---------
for other in "$R" "$work/copy" "$work/r1.tar.gz"; do
	o=$work/out-$(basename "$other")
	agree --out "$o" "$R" "$other" >"$o.txt" 2>&1 || bad "agree R $(basename "$other"): exit $? ($(cat "$o.txt"))"
	check "itself ($(basename "$other"))" "$o" equivalent
	grep -q '; joint p = 1\.$' "$o.txt" || bad "$(basename "$other"): the joint test is not p = 1: $(grep 'joint' "$o.txt")"
	tail -n 1 "$o/repeat.md" | grep -q '^Of 1 comparisons .*: 1 equivalent at every N within ±3%, 0 with a difference' ||
		bad "$(basename "$other"): last line: $(tail -n 1 "$o/repeat.md")"
	[ "$(tail -n 1 "$o.txt")" = "$(tail -n 1 "$o/repeat.md")" ] || bad "the console's last line is not repeat.md's"
done
for f in repeat.md repeat.csv repeat.dat; do [ -s "$work/out-r1/$f" ] || bad "agree --out: no $f"; done
command -v gnuplot >/dev/null && { [ -s "$work/out-r1/repeat.png" ] || bad "agree --out: no repeat.png"; }
[ -e "$work/out-r1/data.gp" ] && bad "agree --out left the chart's settings"
# Without --out: the summary only, nothing written.
ls -A "$work" >"$work/before"
agree "$R" "$work/copy" >"$work/plain.txt" 2>&1 || bad "agree without --out: exit $?"
ls -A "$work" | grep -vx plain.txt | diff -q - "$work/before" >/dev/null || bad "agree without --out wrote something"
grep -q 'equivalent at every N' "$work/plain.txt" || bad "agree without --out: no summary"

# --- inline 1.10x slower: differ at every N, the joint test rejects ----------
edit_run "$R" "$work/slow" "0 1 2 3 4 5" --scale inline=1.10
agree --out "$work/out-slow" "$R" "$work/slow" >"$work/slow.txt" 2>&1 || bad "agree slow: exit $?"
# The chart's data: per N the two runs' ratios, their spread (largest over smallest) beside them.
awk '!/^$/ { r = $4 > $5 ? $4 / $5 : $5 / $4; if (NF != 5 || $3 != 1 || (r - $2) ^ 2 > 1e-8) { print; exit 1 } }' \
	"$work/out-slow/repeat.dat" || bad "agree's chart data: a row is not N, spread, series, ratio a, ratio b"
# inline 1.10x slower in one run only: the two runs' ratios part by 1.10 at every N.
awk 'NF == 5 && ($2 < 1.05 || $2 > 1.16) { print; exit 1 } NF == 5 { n++ } END { exit !n }' "$work/out-slow/repeat.dat" ||
	bad "agree's chart data: no rows, or a spread not near 1.10"
check "1.10x" "$work/out-slow" differ
grep -q 'against run 1: differ (of 11 N: 0 equivalent, 11 differ, 0 cannot tell); joint p = 0.00216\.$' "$work/slow.txt" ||
	bad "1.10x: want every N differ and p = 2/924: $(grep against "$work/slow.txt")"
grep -q 'p = 0.00216, \*\*a difference\*\*' "$work/out-slow/repeat.md" || bad "1.10x: repeat.md does not say a difference"

# --- wider noise, the same mean: cannot tell, never equivalent ---------------
edit_run "$R" "$work/wide1" "0" --scale inline=1.15
edit_run "$work/wide1" "$work/wide2" "1" --scale inline=0.8695652173913044
edit_run "$work/wide2" "$work/wide3" "2" --scale inline=1.07
edit_run "$work/wide3" "$work/wide" "3" --scale inline=0.9345794392523364
agree --out "$work/out-wide" "$R" "$work/wide" >"$work/wide.txt" 2>&1 || bad "agree wide: exit $?"
check "wider noise" "$work/out-wide" "cannot tell"
[ "$(grep -c 'against run 1: cannot tell' "$work/wide.txt")" -eq 1 ] && [ "$(grep -c against "$work/wide.txt")" -eq 1 ] ||
	bad "wider noise: $(grep against "$work/wide.txt")"

# --- two states, matched by level ---------------------------------------------
make_run "$work/s1" 300 2 "1"
make_run "$work/s2" 500 2 "1"
make_run "$work/s3" 700 2 ""
agree --out "$work/out-s12" "$work/s1" "$work/s2" >"$work/s12.txt" 2>&1 || bad "agree s1 s2: exit $?"
grep -q '| states | two: [0-9.]* in 6 processes.*; [0-9.]* in 6 processes' "$work/out-s12/repeat.md" || bad "s1: not two states of 6"
for st in low high; do
	[ "$(verdicts "$work/out-s12/repeat.csv" $st)" = equivalent ] || bad "two states: the $st state's verdicts '$(verdicts "$work/out-s12/repeat.csv" $st)', want equivalent"
	grep -q "^### run 2 against run 1: the $st state (run 1: 6 of 12 processes; run 2: 6 of 12)" "$work/out-s12/repeat.md" ||
		bad "two states: no section for the $st state"
done
grep -q "^### run 2 against run 1: all processes, both states pooled" "$work/out-s12/repeat.md" || bad "two states: the pooled comparison is not named so"
grep -q "the runs' state shares differ" "$work/out-s12/repeat.md" && bad "two states: equal shares called different"
agree --out "$work/out-s13" "$work/s1" "$work/s3" >"$work/s13.txt" 2>&1 || bad "agree s1 s3: exit $?"
[ "$(verdicts "$work/out-s13/repeat.csv" low)" = equivalent ] || bad "one state against two: the low state's verdicts '$(verdicts "$work/out-s13/repeat.csv" low)'"
[ -z "$(verdicts "$work/out-s13/repeat.csv" high)" ] || bad "one state against two: a high state was matched"
grep -q "run 1 6 of 12 processes, run 2 12 of 12: \*\*the runs' state shares differ\*\* (Fisher's exact test, p = 0.0137)" "$work/out-s13/repeat.md" ||
	bad "one state against two: the shares are not said to differ"

# --- three runs: every pair --------------------------------------------------
agree "$R" "$work/copy" "$work/slow" >"$work/three.txt" 2>&1 || bad "agree three: exit $?"
[ "$(grep -c 'against run' "$work/three.txt")" -eq 3 ] || bad "three runs: want 3 pairs: $(grep against "$work/three.txt")"

# --- runs of two builds: nothing to match, exit 1, one line, nothing written ----
edit_run "$R" "$work/otherbuild" "0 1 2 3 4 5" --context compiler=othercc
one_line_exit 1 "$work/never-builds" agree --out "$work/never-builds" "$R" "$work/otherbuild"

# --- bad input -----------------------------------------------------------------
mkdir -p "$work/notarun"
echo "not gzip" >"$work/bogus.tar.gz"
o=$work/never
one_line_exit 2 "$o" agree --out "$o" "$R"
one_line_exit 2 "$o" agree --out "$o" "$R" "$work/notarun"
one_line_exit 2 "$o" agree --out "$o" "$R" "$work/bogus.tar.gz"
one_line_exit 2 "$o" agree --bogus --out "$o" "$R" "$R"
one_line_exit 2 "$o" agree --margin 0 --out "$o" "$R" "$R"
one_line_exit 2 "$o" agree --margin x --out "$o" "$R" "$R"
one_line_exit 2 "$o" "$top/run.sh" agree --out "$o" "$R"
one_line_exit 2 "$o" "$top/run.sh" agree --bogus "$R" "$R"

[ $fail -eq 0 ] || exit 1
echo "PASS: agree"
