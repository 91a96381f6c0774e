#!/usr/bin/env bash
# ./run.sh compare and export (the runs program's modes) on the two recorded runs
# in tests/data/compare/, whatever their names and figures. Checks
# behaviour, not numbers: every ratio is the one summarize makes of the same
# raw JSON; each series is named; a differing setting is named and one that
# defines the point labels the runs; a series or N in one run only is named;
# a setting that varies within a run splits its series rather than pooling
# them; the outputs appear whole; an export reads as its directory; bad input
# gives one line and exit 2, nothing comparable exit 1, and neither writes
# anything.
# Usage: test_compare_runs.sh REPO-TOP RUNS EDIT SUMMARIZE (EDIT: edit_process_json).
# Exit 0 pass, 1 fail, 77 skip (no gnuplot: everything but the chart was checked).
set -u
top=$(cd "$1" && pwd)
runs_prog=$2 edit=$3 summarize=$4
compare() { "$runs_prog" compare "$@"; }
export_run() { "$runs_prog" export "$@"; }
data=$top/tests/data/compare
. "$(dirname "$0")/lib.sh"
scratch

runs=()
for d in "$data"/*/; do [ -f "$d/run.conf" ] && runs+=("${d%/}"); done
[ ${#runs[@]} -ge 2 ] || { echo "FAIL: want two recorded runs under $data"; exit 1; }
A=${runs[0]} B=${runs[1]}

# ctx RUN KEY: a string in the run's first process context (pretty JSON).
# Trimmed, as /proc/cpuinfo pads some model names.
ctx() { sed -n "s/^ *\"$2\": \"\(.*\)\",\{0,1\}\$/\1/p" "$(ls "$1"/raw/*.json | head -n 1)" | head -n 1 | sed 's/[[:space:]]*$//'; }
# edit_run SRC DST EDIT-ARGS...: DST a copy of run SRC, each process edited.
edit_run() {
	local src=$1 dst=$2 f; shift 2
	mkdir -p "$dst/raw" && cp "$src/run.conf" "$dst/"
	for f in "$src"/raw/*.json; do "$edit" "$@" "$f" "$dst/raw/$(basename "$f")" || bad "edit $*"; done
}
# col CSV NAME: the named column of a table without quoted fields.
col() { awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } { print $c }' "$1"; }
# one_line_exit WANT OUTDIR CMD...: the command exits WANT with one line on
# stderr and OUTDIR does not appear.
one_line_exit() {
	local want=$1 o=$2 err rc; shift 2
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ $rc -eq "$want" ] || bad "$*: exit $rc, want $want ($err)"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ -n "$err" ] || bad "$*: not one line: $err"
	[ ! -e "$o" ] || bad "$*: wrote $o"
}

# --- two runs as recorded ------------------------------------------------------
mkdir -p "$work/o"
o1=$work/o/out1
# Under the C locale, as on a fresh machine: gnuplot must not warn (it runs
# under C.UTF-8 whatever ours is: plots/gnuplot_run.h).
LC_ALL=C LANG= compare --out "$o1" "$A" "$B" >"$work/out1.stdout" 2>"$work/out1.stderr" || bad "compare A B: exit $? ($(cat "$work/out1.stderr"))"
[ "$(cat "$work/out1.stdout")" = "$o1" ] || bad "compare printed '$(cat "$work/out1.stdout")', want $o1"
for f in compare.md compare.csv plots/data.gp plots/compare.dat; do [ -s "$o1/$f" ] || bad "compare A B: no $f"; done
[ "$(ls -A "$work/o")" = out1 ] || bad "compare left beside its output: $(ls -A "$work/o")"
md=$o1/compare.md
grep -q '^## What differs' "$md" || bad "compare.md: no What differs section"
grep -q '^| N | A ratio \[95% CI\], faster | B ratio' "$md" || bad "compare.md: no ratio table with both runs"
grep -q '^| verdict |' "$md" || bad "compare.md: no crossover table"
for d in "$A" "$B"; do
	grep -qF "$(ctx "$d" cpu_model) ($(basename "$d"))" "$md" || bad "compare.md: $(basename "$d") not labelled by its CPU model and directory"
done
# The recorded runs differ in their compiler: named, defining the point.
if [ "$(ctx "$A" compiler)" != "$(ctx "$B" compiler)" ]; then
	grep -qF -- "- **compiler** (defines the point: the inputs measured different series, kept apart and labelled, never pooled): A $(ctx "$A" compiler); B $(ctx "$B" compiler)" "$md" ||
		bad "compare.md: the compilers' difference is not named"
fi
# Every ratio is summarize's on the same raw JSON, and every series is named.
"$summarize" --out "$work/sumA" "$A"/raw/*.json >/dev/null || bad "summarize A"
paste -d, <(col "$work/sumA/ratios.csv" op) <(col "$work/sumA/ratios.csv" layout) <(col "$work/sumA/ratios.csv" order) \
	<(col "$work/sumA/ratios.csv" threads) <(col "$work/sumA/ratios.csv" mode) <(col "$work/sumA/ratios.csv" filler) \
	<(col "$work/sumA/ratios.csv" sites) <(col "$work/sumA/ratios.csv" ratio) >"$work/a.rows"
nrow=0
while IFS=, read -r op layout order threads mode filler sites ratio; do
	s=$op/$layout/$order/$threads/$mode
	[ "$filler" = 0 ] || s=$s/filler:$filler
	grep -q "^## $s: inline / extern$" "$md" || bad "compare.md: series $s is not named"
	got=$(awk -F, -v s="$s" -v n="$sites" '$1 == s && $2 == n && $3 == "A" { print }' "$o1/compare.csv" | sed 's/"[^"]*"//g' | cut -d, -f5)
	[ "$got" = "$ratio" ] || bad "compare.csv: $s N = $sites: ratio '$got', summarize's $ratio"
	nrow=$((nrow + 1))
done <"$work/a.rows"
[ $nrow -gt 0 ] || bad "summarize gave no ratios for A"
# The chart's data: a block per panel and run, each row compare.csv's ratio (where the CSV has
# its N) inside its own interval.
python3 - "$o1" <<'PY' || bad "compare's chart data is not its tables'"
import csv, re, sys
o = sys.argv[1]
rows = {(r["series"], r["sites"], r["input"]): r for r in csv.DictReader(open(o + "/compare.csv"))}
gp = open(o + "/plots/data.gp").read()
want = int(re.search(r"^ic_k = (\d+)$", gp, re.M)[1]) * int(re.search(r"^ic_npanels = (\d+)$", gp, re.M)[1])
blocks, bad, seen = 0, [], 0
for line in open(o + "/plots/compare.dat"):
    m = re.match(r"# (\S+) \S+, input (\w): sites ratio lo hi$", line)
    if m:
        blocks, (s, x) = blocks + 1, m.groups()
        continue
    f = line.split()
    if len(f) != 4:
        continue
    r = rows.get((s, f[0], x))
    seen += r is not None
    if (r and r["ratio"] != f[1]) or not float(f[2]) <= float(f[1]) <= float(f[3]):
        bad.append(line.strip())
if blocks != want or bad or seen != len(rows):
    sys.exit("%d blocks, want %d; %d of %d CSV rows; off: %s" % (blocks, want, seen, len(rows), bad[:3]))
PY
head -n 1 "$o1/compare.csv" | grep -q '^series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,bracket_lo,bracket_hi' ||
	bad "compare.csv: header is $(head -n 1 "$o1/compare.csv")"
plot_checked=0
if command -v gnuplot >/dev/null 2>&1; then
	plot_checked=1
	[ "$(head -c 4 "$o1/compare.png" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e47 ] || bad "compare.png missing or not a PNG"
	grep -q '<svg' "$o1/compare.svg" 2>/dev/null || bad "compare.svg missing or not SVG"
	grep -q '^gnuplot: ' "$work/out1.stderr" && bad "gnuplot warned under LC_ALL=C: $(grep '^gnuplot: ' "$work/out1.stderr")"
fi

# --- B changed: another CPU and lock, a series and an N left out -------------
gone=tail_dequeue/scatter/random/1/private/filler:256
first=tail_dequeue/chain/seq/1/private
grep -q "^## $gone: " "$md" && grep -q "^## $first: " "$md" || bad "the recorded runs need series $first and $gone"
B2=$work/in/$(basename "$B")
edit_run "$B" "$B2" --context "cpu_model=Test CPU 9000" --context lock=testlock --drop /scatter/ \
	--drop "/chain/seq/1024/private/real_time/threads:1"
sed -i -e 's/^build_lock=.*/build_lock=testlock/' -e 's/^processes=.*/processes=7/' "$B2/run.conf"
o2=$work/out2
compare --out "$o2" "$A" "$B2" >/dev/null 2>"$work/out2.stderr" || bad "compare A B2: exit $? ($(cat "$work/out2.stderr"))"
md=$o2/compare.md
grep -q '^- \*\*cpu_model\*\*.*Test CPU 9000' "$md" || bad "compare.md: the changed cpu_model is not named in What differs"
grep -q '^- \*\*processes\*\* .*; B 7$' "$md" || bad "compare.md: run.conf's processes not read"
grep -q '^- \*\*lock\*\* (defines the point.*testlock' "$md" || bad "compare.md: the changed lock is not named as defining the point"
grep -q "^| | A: .*lock $(ctx "$A" lock) | B: Test CPU 9000 .*lock testlock |" "$md" || bad "compare.md: the runs' columns are not labelled with their lock"
grep -qF -- "- only in A ($(basename "$A")): series $gone " "$md" || bad "compare.md: series $gone, only in A, is not named"
grep -qF -- "- $first (inline/extern): N = 1024 only in A" "$md" || bad "compare.md: N = 1024 of $first, only in A, is not named"
grep -q "^$gone," "$o2/compare.csv" && bad "compare.csv: series $gone, only in A, is in the table"
grep -q "^## $first: " "$md" || bad "compare.md: the shared series $first is not compared"

compare --out "$work/out3" "$A" "$B" "$B2" >/dev/null 2>&1 || bad "compare A B B2: exit $?"
[ "$(sed 's/"[^"]*"//g' "$work/out3/compare.csv" 2>/dev/null | awk -F, 'NR > 1 { print $3 }' | sort -u | paste -sd,)" = A,B,C ] ||
	bad "compare A B B2: compare.csv does not hold runs A, B, C"

# --- a setting that varies within a run splits its series ----------------------
# A4: A's processes twice, the copies with another lock: two builds.
A4=$work/in4/$(basename "$A")
mkdir -p "$A4/raw" && cp -R "$A/." "$A4/"
for f in "$A"/raw/*.json; do "$edit" --context lock=otherlock "$f" "$A4/raw/other_$(basename "$f")"; done
lockA=$(ctx "$A" lock)
compare --out "$work/out4" "$A" "$A4" >/dev/null 2>"$work/out4.stderr" || bad "compare A A4: exit $? ($(cat "$work/out4.stderr"))"
grep -q "^$first/lock:$lockA,.*,A," "$work/out4/compare.csv" && grep -q "^$first/lock:$lockA,.*,B," "$work/out4/compare.csv" ||
	bad "compare.csv: $first/lock:$lockA is not compared between A and A4"
grep -q "/lock:otherlock," "$work/out4/compare.csv" && bad "compare.csv: A4's otherlock series were matched with A's"
grep -q "only in B .*: series $first/lock:otherlock " "$work/out4/compare.md" || bad "compare.md: A4's otherlock series is not named as only in B"

# --- export: a run laid out as run.sh leaves it reads as its directory --------
ex=$work/exp/$(basename "$A")
mkdir -p "$ex/.report.test"
cp -R "$A/." "$ex/"
echo "# summary" >"$ex/.report.test/summary.md"
ln -s .report.test "$ex/report"
ln -s report/summary.md "$ex/summary.md"
ln -s report/calibration.csv "$ex/calibration.csv"   # dangles, as a link to a file not written
printed=$(export_run "$ex" 2>"$work/export.stderr") || bad "export: exit $? ($(cat "$work/export.stderr"))"
tgz=$ex.tar.gz
[ "$printed" = "$tgz" ] || bad "export printed '$printed', want $tgz"
if [ -s "$tgz" ]; then
	tar -tvzf "$tgz" | grep -v '^[-d]' | grep -q . && bad "export: the archive holds links: $(tar -tvzf "$tgz" | grep -v '^[-d]' | head -n 1)"
	list=$(tar -tzf "$tgz")
	for f in run.conf summary.md report/summary.md $(cd "$A" && ls raw/*.json); do
		grep -qx "$(basename "$A")/$f" <<<"$list" || bad "export: $f not in the archive"
	done
	grep -q '/\.' <<<"$list" && bad "export: hidden entries in the archive"
	grep -q 'calibration.csv' <<<"$list" && bad "export: the dangling link was carried"
	[ "$(ls -A "$work/exp" | paste -sd' ')" = "$(basename "$A") $(basename "$A").tar.gz" ] || bad "export: left behind: $(ls -A "$work/exp")"
	compare --out "$work/out5" "$tgz" "$B" >/dev/null 2>"$work/out5.stderr" || bad "compare EXPORT B: exit $? ($(cat "$work/out5.stderr"))"
	cmp -s "$o1/compare.csv" "$work/out5/compare.csv" || bad "compare of the export differs from compare of the directory"
	grep -q "| export $(basename "$tgz") |" "$work/out5/compare.md" || bad "compare.md: the export is not named as the run's source"
else
	bad "export: $tgz not written"
fi

# --- bad input: one line, exit 2, nothing written ---------------------------
mkdir -p "$work/notarun" "$work/bad/raw"
echo "not a run" >"$work/file.txt"
echo "not gzip" >"$work/bogus.tar.gz"
tar -czf "$work/notarun.tar.gz" -C "$work" file.txt
[ ! -s "$tgz" ] || head -c 2000 "$tgz" >"$work/truncated.tar.gz"
cp "$A/run.conf" "$work/bad/" && echo '{"benchmarks": [' >"$work/bad/raw/r1_v0_p0.json"
o=$work/never
one_line_exit 2 "$o" compare --out "$o" "$A"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/nonexistent"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/notarun"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/file.txt"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/bogus.tar.gz"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/notarun.tar.gz"
one_line_exit 2 "$o" compare --out "$o" "$A" "$work/bad"
[ ! -s "$tgz" ] || one_line_exit 2 "$o" compare --out "$o" "$A" "$work/truncated.tar.gz"
one_line_exit 2 "$o" compare --bogus --out "$o" "$A" "$B"
one_line_exit 2 "$o" compare --out "$o1" "$A" "$B"   # not empty
one_line_exit 2 "$work/notarun.tar.gz.new" export_run "$work/notarun"
one_line_exit 2 "$work/never.tar.gz" export_run
# ./run.sh checks the usage before it builds anything.
one_line_exit 2 "$o" "$top/run.sh" compare --out "$o" "$A"
one_line_exit 2 "$o" "$top/run.sh" compare --bogus "$A" "$B"

# --- nothing comparable: exit 1, one line, nothing written ---------------------
B3=$work/in3/$(basename "$B")
edit_run "$B" "$B3" --rename /tail_dequeue/=/nosuch_op/
mkdir -p "$work/nc"
one_line_exit 1 "$work/nc/out" compare --out "$work/nc/out" "$A" "$B3"
[ -z "$(ls -A "$work/nc")" ] || bad "a failed compare left $(ls -A "$work/nc")"

[ $fail -eq 0 ] || exit 1
if [ $plot_checked -eq 0 ]; then echo "SKIP: no gnuplot: the chart was not checked (everything else passed)"; exit 77; fi
echo "PASS: compare and export"
