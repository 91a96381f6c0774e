#!/usr/bin/env bash
# compare/compare.sh and compare/export.sh on two recorded runs: the first two
# directories under tests/data/compare/, whatever their names and figures.
# Checks behaviour, not numbers: the tables are there and carry each input's
# own ratios; a differing setting is named and one that defines the point
# labels the inputs; a series or N in one input only is named; a setting
# that varies within a run splits its series rather than pooling them; the
# plot is drawn; an export round-trips (in compare and in agree); bad input
# gives one line and exit 2; nothing comparable gives exit 1 and writes
# nothing.
# With SUMMARIZE and FAKEGB, also compare.sh --agree on runs it makes: z per
# pair, build columns in every key, opposite sides and verdicts counted.
# Usage: test_compare.sh REPO-TOP [SUMMARIZE FAKEGB]. Exit 0 pass, 1 fail, 77 skip (no gnuplot:
# everything but the plot was checked).
set -u
top=$(cd "$1" && pwd)
summarize=${2:-} fakegb=${3:-}   # for agree's checks
compare=$top/compare/compare.sh
export_sh=$top/compare/export.sh
data=$top/tests/data/compare
work=$(mktemp -d "${TMPDIR:-/tmp}/test_compare.XXXXXX")
trap '[ -n "${IC_TEST_KEEP:-}" ] || rm -rf "$work"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

runs=()
for d in "$data"/*/; do
	d=${d%/}
	{ [ -f "$d/report/ratios.csv" ] || [ -f "$d/ratios.csv" ]; } && runs+=("$d")
done
[ ${#runs[@]} -ge 2 ] || { echo "FAIL: want two recorded runs under $data"; exit 1; }
A=${runs[0]} B=${runs[1]}

# csvfile DIR NAME: a run's table (in report/ or beside it).
csvfile() { if [ -f "$1/report/$2" ]; then echo "$1/report/$2"; else echo "$1/$2"; fi; }
# awk: ser() is a row's series as compare.csv names it; c[] maps column
# names, from the header, which series_awk then skips.
ser_fn='function ser() { s = $c["op"] "/" $c["layout"] "/" $c["order"] "/" $c["threads"] "/" $c["mode"]
	if (("filler" in c) && $c["filler"] + 0 > 0) s = s "/filler:" ($c["filler"] + 0); return s }'
series_awk="$ser_fn"' NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
# ctx DIR KEY: a string in the run's JSON context.
ctx() { sed -n "s/^ *\"$2\": \"\(.*\)\",\{0,1\}\$/\1/p" "$(csvfile "$1" benchmark.json)" | head -n 1; }
# copy_run SRC DST: a plain copy (links resolved) to change.
copy_run() { mkdir -p "$(dirname "$2")" && cp -RL "$1" "$2"; }
# unquote CSV: the table with its quoted fields (labels, which hold commas)
# emptied, for awk -F, to read the other columns.
unquote() { sed 's/"[^"]*"//g' "$1"; }
# edit CSV AWK-PROGRAM [AWK-ARGS...]: rewrite a table in place.
edit() { local f=$1 p=$2; shift 2; awk -F, -v OFS=, "$@" "$p" "$f" >"$f.new" && mv "$f.new" "$f"; }
# one_line_exit WANT OUTDIR CMD...: the command exits WANT with one line on
# stderr and OUTDIR does not appear.
one_line_exit() {
	local want=$1 o=$2 err rc; shift 2
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ $rc -eq "$want" ] || bad "$(basename "$1") ${*:2}: exit $rc, want $want ($err)"
	[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && [ -n "$err" ] || bad "$(basename "$1") ${*:2}: not one line: $err"
	[ ! -e "$o" ] || bad "$(basename "$1") ${*:2}: wrote $o"
}

# --- two runs as recorded --------------------------------------------------
o1=$work/out1
"$compare" --out "$o1" "$A" "$B" >"$work/out1.stdout" 2>"$work/out1.stderr" || bad "compare A B: exit $? ($(cat "$work/out1.stderr"))"
for f in compare.md compare.csv; do [ -s "$o1/$f" ] || bad "compare A B: no $f"; done
md=$o1/compare.md
grep -q '^## What differs' "$md" || bad "compare.md: no What differs section"
grep -q '^| N | A ratio \[95% CI\], faster | B ratio' "$md" || bad "compare.md: no ratio table with both inputs"
grep -q '^| verdict |' "$md" || bad "compare.md: no crossover table"
# Each input is labelled by its CPU model and directory.
for d in "$A" "$B"; do
	grep -qF "$(ctx "$d" cpu_model) ($(basename "$d"))" "$md" || bad "compare.md: $(basename "$d") not labelled by its CPU model and directory"
done
if [ "$(ctx "$A" cpu_model)" != "$(ctx "$B" cpu_model)" ]; then
	grep -q '^- \*\*cpu_model\*\*' "$md" || bad "compare.md: the inputs' cpu_model differs but What differs does not name it"
fi
# Both inputs' own ratios, for every series both measured, at a shared N.
awk -F, "$series_awk"' { print ser() "," $c["sites"] "," $c["ratio"] }' "$(csvfile "$A" ratios.csv)" | sort >"$work/a.r"
awk -F, "$series_awk"' { print ser() "," $c["sites"] "," $c["ratio"] }' "$(csvfile "$B" ratios.csv)" | sort >"$work/b.r"
join -t, -j1 <(awk -F, '{ print $1 ":" $2 "," $3 }' "$work/a.r") <(awk -F, '{ print $1 ":" $2 "," $3 }' "$work/b.r") >"$work/ab.r"
[ -s "$work/ab.r" ] || bad "the recorded runs share no series and N: the test needs two runs of one sweep"
nser=0
declare -A seen=()
while IFS=, read -r key ra rb; do
	s=${key%:*} n=${key##*:}
	[ -n "${seen[$s]:-}" ] && continue
	seen[$s]=1; nser=$((nser + 1))
	for pair in "A:$ra" "B:$rb"; do
		got=$(awk -F, -v s="$s" -v n="$n" -v k="${pair%%:*}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["series"] == s && $c["sites"] == n && $c["input"] == k { print $c["ratio"] }' <(unquote "$o1/compare.csv"))
		awk -v a="$got" -v b="${pair#*:}" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }' ||
			bad "compare.csv: $s N = $n input ${pair%%:*}: ratio '$got', its ratios.csv says ${pair#*:}"
	done
	grep -q "^## $s: " "$md" || bad "compare.md: no table for shared series $s"
done <"$work/ab.r"
[ $nser -gt 0 ] || bad "no shared series checked"
head -n 1 "$o1/compare.csv" | grep -q '^series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,bracket_lo,bracket_hi' ||
	bad "compare.csv: header is $(head -n 1 "$o1/compare.csv")"

# The overlaid plot.
plot_checked=0
if command -v gnuplot >/dev/null 2>&1; then
	plot_checked=1
	[ "$(head -c 4 "$o1/compare.png" 2>/dev/null | od -An -tx1 | tr -d ' ')" = 89504e47 ] || bad "compare.png missing or not a PNG"
	grep -q '<svg' "$o1/compare.svg" 2>/dev/null || bad "compare.svg missing or not SVG"
fi

# --- B changed: another CPU, another lock, a series and an N left out -------
B2=$work/in/$(basename "$B")
copy_run "$B" "$B2"
lockA=$(ctx "$A" lock)
sed -i -e 's/^\( *"cpu_model": "\).*\(",\{0,1\}\)$/\1Test CPU 9000\2/' -e 's/^\( *"lock": "\).*\(",\{0,1\}\)$/\1testlock\2/' "$(csvfile "$B2" benchmark.json)"
# B2's run.conf as today's run.sh writes it (key=value), its lock changed.
sed -i -e 's/^declare -[-a-zA-Z]* \([a-z_]*\)="\(.*\)"$/\1=\2/' -e 's/^build_lock=.*/build_lock=testlock/' \
	-e 's/^processes=.*/processes=7/' "$B2/run.conf"
gone=$(awk -F, "$series_awk"' { s = ser() } END { print s }' "$(csvfile "$B2" crossover.csv)")
first=$(awk -F, "$series_awk"' NR == 2 { print ser() }' "$(csvfile "$B2" crossover.csv)")
maxn=$(awk -F, -v f="$first" "$series_awk"' ser() == f && $c["sites"] + 0 > m { m = $c["sites"] + 0 } END { print m }' "$(csvfile "$B2" ratios.csv)")
[ "$gone" != "$first" ] || bad "the recorded runs need two series or more"
for t in ratios.csv crossover.csv points.csv; do
	# Also a run of the newer format: filler appended (0 = none, as when absent).
	edit "$(csvfile "$B2" $t)" "$ser_fn"'
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; add = !("filler" in c); print $0 (add ? ",filler" : ""); next }
		{ s = ser() }
		s == g { next }
		t == "ratios.csv" && s == f && $c["sites"] + 0 == n { next }
		("lock" in c) { $c["lock"] = "testlock" }
		{ print $0 (add ? ",0" : "") }' \
		-v g="$gone" -v f="$first" -v n="$maxn" -v t="$t"
done
o2=$work/out2
"$compare" --out "$o2" "$A" "$B2" >/dev/null 2>"$work/out2.stderr" || bad "compare A B2: exit $? ($(cat "$work/out2.stderr"))"
md=$o2/compare.md
grep -q '^- \*\*cpu_model\*\*.*Test CPU 9000' "$md" || bad "compare.md: the changed cpu_model is not named in What differs"
grep -q '^- \*\*processes\*\* .*; B 7$' "$md" || bad "compare.md: a key=value run.conf's processes not read"
grep -q '^- \*\*lock\*\* (defines the point.*testlock' "$md" || bad "compare.md: the changed lock is not named as defining the point"
grep -q "^| | A: .*lock $lockA | B: Test CPU 9000 .*lock testlock |" "$md" || bad "compare.md: the inputs' columns are not labelled with their lock"
grep -qF -- "- only in A ($(basename "$A")): series $gone " "$md" || bad "compare.md: series $gone, only in A, is not named"
grep -qF -- "- $first (" "$md" && grep -F -- "- $first (" "$md" | grep -q "N = $maxn only in A" || bad "compare.md: N = $maxn of $first, only in A, is not named"
grep -q "^$gone," "$o2/compare.csv" && bad "compare.csv: series $gone, only in A, is in the table"
grep -q "^## $first: " "$md" || bad "compare.md: the shared series $first (B with a filler column) is not compared"

# Three inputs.
"$compare" --out "$work/out3" "$A" "$B" "$B2" >/dev/null 2>&1 || bad "compare A B B2: exit $?"
[ "$(unquote "$work/out3/compare.csv" 2>/dev/null | awk -F, 'NR > 1 { print $3 }' | sort -u | paste -sd,)" = A,B,C ] || bad "compare A B B2: compare.csv does not hold inputs A, B, C"

# --- a setting that varies within a run splits its series -------------------
# A4: A with a lock column, every row twice: A's own lock and another.
A4=$work/in4/$(basename "$A")
copy_run "$A" "$A4"
for t in ratios.csv crossover.csv points.csv; do
	edit "$(csvfile "$A4" $t)" 'FNR == 1 { print $0 ",lock"; next } { print $0 "," l; print $0 ",otherlock" }' -v l="$lockA"
done
o4=$work/out4
"$compare" --out "$o4" "$A" "$A4" >/dev/null 2>"$work/out4.stderr" || bad "compare A A4: exit $? ($(cat "$work/out4.stderr"))"
grep -q "^$first/lock:$lockA,.*,A," "$o4/compare.csv" && grep -q "^$first/lock:$lockA,.*,B," "$o4/compare.csv" ||
	bad "compare.csv: $first/lock:$lockA is not compared between A and A4"
grep -q "/lock:otherlock," "$o4/compare.csv" && bad "compare.csv: A4's otherlock rows were matched with A's"
grep -q "only in B .*: series $first/lock:otherlock " "$o4/compare.md" || bad "compare.md: A4's otherlock series is not named as only in B"

# --- export round trip ----------------------------------------------------------
# A laid out as run.sh leaves it: report is a link to a hidden set, the files
# users open link through it.
ex=$work/exp/$(basename "$A")
mkdir -p "$ex/.report.test"
cp -RL "$(dirname "$(csvfile "$A" ratios.csv)")/." "$ex/.report.test/"
cp "$A/run.conf" "$ex/"
ln -s .report.test "$ex/report"
for f in "$ex"/report/*; do ln -s "report/$(basename "$f")" "$ex/$(basename "$f")"; done
ln -s report/calibration.csv "$ex/calibration.csv"   # dangles, as a link to a file not written
printed=$("$export_sh" "$ex" 2>"$work/export.stderr") || bad "export.sh: exit $? ($(cat "$work/export.stderr"))"
tgz=$ex.tar.gz
[ "$printed" = "$tgz" ] || bad "export.sh printed '$printed', want $tgz"
if [ -s "$tgz" ]; then
	tar -tvzf "$tgz" | grep -v '^[-d]' | grep -q . && bad "export: the archive holds links: $(tar -tvzf "$tgz" | grep -v '^[-d]' | head -n 1)"
	list=$(tar -tzf "$tgz")
	for f in run.conf ratios.csv report/ratios.csv report/crossover.csv report/benchmark.json; do
		grep -qx "$(basename "$A")/$f" <<<"$list" || bad "export: $f not in the archive"
	done
	grep -q '/\.' <<<"$list" && bad "export: hidden entries in the archive"
	grep -q 'calibration.csv' <<<"$list" && bad "export: the dangling link was carried"
	[ "$(ls -A "$work/exp" | paste -sd' ')" = "$(basename "$A") $(basename "$A").tar.gz" ] || bad "export: left behind: $(ls -A "$work/exp")"
	"$compare" --out "$work/out5" "$tgz" "$B" >/dev/null 2>"$work/out5.stderr" || bad "compare EXPORT B: exit $? ($(cat "$work/out5.stderr"))"
	cmp -s "$o1/compare.csv" "$work/out5/compare.csv" || bad "compare of the export differs from compare of the directory"
	grep -q "| export $(basename "$tgz") |" "$work/out5/compare.md" || bad "compare.md: the export is not named as the input's source"
	"$compare" --agree "$A" "$B" >"$work/agree-dir.md" 2>&1 || bad "agree A B: exit $? ($(tail -n 1 "$work/agree-dir.md"))"
	"$compare" --agree "$tgz" "$B" >"$work/agree-tgz.md" 2>&1 || bad "agree EXPORT B: exit $? ($(tail -n 1 "$work/agree-tgz.md"))"
	grep -q '^# Agreement of 2 runs' "$work/agree-tgz.md" || bad "agree EXPORT B: no agreement printed"
	cmp -s "$work/agree-dir.md" "$work/agree-tgz.md" || bad "agree of the export differs from agree of the directory"
else
	bad "export: $tgz not written"
fi

# --- bad usage: one line, exit 2, nothing written -------------------------
mkdir -p "$work/notarun"
echo "not a run" >"$work/file.txt"
echo "not gzip" >"$work/bogus.tar.gz"
o=$work/never
one_line_exit 2 "$o" "$compare" --out "$o" "$A"
one_line_exit 2 "$o" "$compare" --out "$o" "$A" "$work/nonexistent"
one_line_exit 2 "$o" "$compare" --out "$o" "$A" "$work/notarun"
one_line_exit 2 "$o" "$compare" --out "$o" "$A" "$work/file.txt"
one_line_exit 2 "$o" "$compare" --out "$o" "$A" "$work/bogus.tar.gz"
one_line_exit 2 "$o" "$compare" --bogus --out "$o" "$A" "$B"
one_line_exit 2 "$o" "$compare" --out "$o1" "$A" "$B"   # not empty
one_line_exit 2 "$work/notarun.tar.gz" "$export_sh" "$work/notarun"
one_line_exit 2 "$work/never.tar.gz" "$export_sh"

# --- nothing comparable: exit 1, one line, nothing written ---------------
B3=$work/in3/$(basename "$B")
copy_run "$B" "$B3"
for t in ratios.csv crossover.csv points.csv; do
	edit "$(csvfile "$B3" $t)" 'FNR == 1 { for (i = 1; i <= NF; i++) if ($i == "op") k = i; print; next } { $k = "nosuch_op"; print }'
done
mkdir -p "$work/nc"
one_line_exit 1 "$work/nc/out" "$compare" --out "$work/nc/out" "$A" "$B3"
[ -z "$(ls -A "$work/nc")" ] || bad "a failed compare left $(ls -A "$work/nc")"

# --- agree: z per pair, the build in every key ------------------------------
# Two runs of two builds each (gcc, clang), made by summarize from the fake
# generator: each build's series is matched with its own only; every pair
# has its z; the summary line counts z within the limit, covered pairs,
# opposite N and differing verdicts. A third run whose inline is 1.3x at
# every N gives opposite sides and a differing verdict.
agree=("$compare" --agree)
if [ -n "$summarize" ] && [ -n "$fakegb" ]; then
	for r in 1 2 3; do
		mkdir -p "$work/ag/in$r"
		for cc in gcc clang; do for v in 0 1 2 3 4 5; do
			st=1.0; [ $r = 3 ] && st=1.3
			"$fakegb" --shape crossover --crossover 64 --sites-max 1024 --threads 1 --modes private --reps 5 \
				--noise 0.03 --layout-noise 0.02 --variant $v --process 0 --seed $((r * 100 + v)) \
				--compiler "$cc" --state $st >"$work/ag/in$r/${cc}_v$v.json" || bad "fakegb"
		done; done
		"$summarize" --out "$work/ag/run$r/report" "$work/ag/in$r"/*.json || bad "summarize run $r"
	done
	"${agree[@]}" "$work/ag/run1" "$work/ag/run2" >"$work/ag/12.md" 2>"$work/ag/err" || bad "agree: exit $? ($(cat "$work/ag/err"))"
	[ "$(grep -c '^## .*\[compiler gcc; lock tas\]: inline/extern$' "$work/ag/12.md")" -eq 1 ] &&
		[ "$(grep -c '^## .*\[compiler clang; lock tas\]: inline/extern$' "$work/ag/12.md")" -eq 1 ] ||
		bad "agree: each build its own series: $(grep '^## ' "$work/ag/12.md")"
	# 11 N x 2 builds: 22 pairs with a z.
	tail -n 1 "$work/ag/12.md" | grep -Eq '^Ratios: z within the t limit in (2[0-2]) of 22 pairs .*; covered [0-9]+ of 44 ordered pairs .*about 87% expected\); 0 N resolved opposite ways; verdicts differ in 0 of 2 series' ||
		bad "agree summary: $(tail -n 1 "$work/ag/12.md")"
	grep -Eq '^\| 1 \| 0\.8[0-9]+ \[[0-9.]+–[0-9.]+\]; 0\.8[0-9]+ .* \| [+-][0-9]\.[0-9]{2} \| 1/1 \|' "$work/ag/12.md" ||
		bad "agree: no z at N = 1: $(grep '^| 1 |' "$work/ag/12.md" | head -n 1)"
	"${agree[@]}" "$work/ag/run1" "$work/ag/run3" | tail -n 1 | grep -Eq '[1-9][0-9]* N resolved opposite ways; verdicts differ in 2 of 2 series' ||
		bad "agree 1.3x: $("${agree[@]}" "$work/ag/run1" "$work/ag/run3" | tail -n 1)"
	"${agree[@]}" --out "$work/ag/out" "$work/ag/run1" "$work/ag/run2" "$work/ag/run3" >/dev/null 2>&1 || bad "agree --out: exit $?"
	for f in repeat.md repeat.csv repeat.dat; do [ -s "$work/ag/out/$f" ] || bad "agree --out: no $f"; done
	head -n 1 "$work/ag/out/repeat.csv" | grep -q '^series,sites,runs,ratio_min,ratio_max,spread,covered_pairs,pairs,z_within,z_pairs,z_max,opposite,sides$' ||
		bad "repeat.csv header: $(head -n 1 "$work/ag/out/repeat.csv")"
	[ "$(awk 'END { print NR }' "$work/ag/out/repeat.csv")" -eq 23 ] || bad "repeat.csv: want 22 rows"
	one_line_exit 2 "$work/ag/never" "${agree[@]}" --out "$work/ag/never" "$work/ag/run1"
	one_line_exit 2 "$work/ag/never" "${agree[@]}" --out "$work/ag/never" "$work/ag/run1" "$work/notarun"
else
	echo "note: no summarize/fakegb given: agree not checked"
fi

[ $fail -eq 0 ] || exit 1
if [ $plot_checked -eq 0 ]; then echo "SKIP: no gnuplot: the plot was not checked (everything else passed)"; exit 77; fi
echo "PASS: compare and export"
