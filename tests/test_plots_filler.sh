#!/bin/sh
# summarize on series with filler, end to end from the fake generator with
# numbers that make the answer checkable: each process's mark m + 8 ns,
# inline m + 13, extern m + 15 (8 ns of filler in every form). The series is
# a whole program: its ratio, band and verdict are of the gross times, and
# the headline says how much faster or slower the program runs with the
# calls out of line. Net times (form - mark, per process, linear) are shown
# beside: 5 and 7 ns; a process whose mark is slower than its forms gives a
# negative net time, which is kept and flagged; one without the mark gives
# none; a run where no process has the mark reports the net as missing.
# usage: test_plots_filler.sh SUMMARIZE FAKEGB
set -u
summarize=$1
fakegb=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/test_plots_filler.XXXXXX")
trap 'rm -rf "$work"' EXIT

fail() {
	echo "test_plots_filler: FAIL: $*" >&2
	exit 1
}

# row FILE FORM SITES FILLER: the points.csv row of that point (1 thread, private).
row() {
	awk -F, -v f="$2" -v n="$3" -v x="$4" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["form"] == f && $c["sites"] == n && $c["filler"] == x && $c["threads"] == 1 &&
		$c["mode"] == "private"' "$1"
}

# col FILE NAME ROWTEXT: the named column of a row of FILE's layout.
col() {
	printf '%s\n' "$3" | awk -F, -v name="$2" -v hdr="$(head -n 1 "$1")" '
		BEGIN { n = split(hdr, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i } { print $c[name] }'
}

fake="--shape attrib --sites-max 64 --threads 1 --modes private --noise 0 --filler 512 --filler-ns 8"
mkdir -p "$work/in"
for v in 0 1 2; do for p in 0 1; do
	# Each process its own mark (2..3.5 ns) and forms that keep their net time.
	m=$(awk -v v=$v -v p=$p 'BEGIN { printf "%.2f", 2 + 0.5 * v + 0.25 * p }')
	"$fakegb" $fake --variant $v --process $p --seed $((v * 10 + p + 1)) --t-mark "$m" \
		--t-inline "$(awk -v m="$m" 'BEGIN { print m + 5 }')" --t-extern "$(awk -v m="$m" 'BEGIN { print m + 7 }')" \
		--t-clone "$(awk -v m="$m" 'BEGIN { print m + 7 }')" > "$work/in/v${v}_p$p.json" || fail "fakegb"
done; done
"$fakegb" $fake --variant 3 --process 0 --no-mark 1 --t-inline 7 --t-extern 9 > "$work/in/v3_p0.json" || fail "fakegb no mark"
"$fakegb" $fake --variant 3 --process 1 --t-mark 30 > "$work/in/v3_p1.json" || fail "fakegb slow mark"
# Three variants whose net times are exact: 5 and 7 ns.
mkdir -p "$work/clean"
cp "$work"/in/v[012]_p*.json "$work/clean/"
out=$work/out
"$summarize" --out "$out" "$work"/clean/*.json || fail "summarize clean: exit $?"
pts=$out/points.csv
head -n 1 "$pts" | grep -q ',layout_share,filler,net_ns_per_op,net_ci_lo,net_ci_hi,net_near_mark,compiler,cflags,body,lock,lto,codegen$' ||
	fail "points.csv must end with filler, the net columns and the build: $(head -n 1 "$pts")"
r=$(row "$pts" inline 1 512)
[ -n "$r" ] || fail "no inline row at filler 512"
awk -v g="$(col "$pts" ns_per_op "$r")" 'BEGIN { exit !(g > 15 && g < 17) }' || fail "the time is not gross: $r"
[ "$(col "$pts" net_ns_per_op "$r")" = "5" ] && [ "$(col "$pts" net_ci_lo "$r")" = "5" ] &&
	[ "$(col "$pts" net_ci_hi "$r")" = "5" ] && [ "$(col "$pts" net_near_mark "$r")" = "0" ] ||
	fail "net inline 5 [5, 5], not near the mark: $r"
r=$(row "$pts" extern 1 512)
[ "$(col "$pts" net_ns_per_op "$r")" = "7" ] || fail "net extern: $r"
# The mark has no net time; filler 0 has none either.
r=$(row "$pts" mark 1 512)
[ -z "$(col "$pts" net_ns_per_op "$r")" ] || fail "mark with a net time: $r"
r=$(row "$pts" inline 1 0)
[ "$(col "$pts" filler "$r")" = "0" ] && [ -z "$(col "$pts" net_ns_per_op "$r")" ] || fail "filler 0 row: $r"

rat=$out/ratios.csv
head -n 1 "$rat" | grep -q ',df,p_holm,log_se,t_975,replicate_cover,filler,compiler,cflags,body,lock,lto,codegen$' || fail "ratios.csv must end with filler and the build"
# The gross ratio: (m + 13) / (m + 15) with m = 2..3.25, between 0.87 and 0.89.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["filler"] == 512 && $c["sites"] == 1 { found = 1; if (!($c["ratio"] > 0.87 && $c["ratio"] < 0.89) || $c["processes"] != 6) bad = 1 }
	END { exit !(found && !bad) }' "$rat" || fail "gross ratio from 6 processes: $(grep ',512,' "$rat" | head -n 1)"
head -n 1 "$out/crossover.csv" | grep -q ',switches,filler,compiler,cflags,body,lock,lto,codegen$' ||
	fail "crossover.csv must end with filler and the build"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$out/crossover.csv" | wc -l)" -eq 1 ] ||
	fail "one filler series in crossover.csv"

s=$out/summary.md
grep -q '^### 512 B filler per site; 1 thread, private queue$' "$s" || fail "series title with the filler"
grep -q '^Code per call site: 165 B inlined, 24 B out of line; each site also has 512 B of filler\. ' "$s" ||
	fail "code per site without the filler: $(grep '^Code per call site' "$s")"
grep -Eq '^- \*\*512 B filler per site; 1 thread, private queue\*\*: with 512 B of other code per call site, the program runs [0-9.]+(-[0-9.]+)?% slower with the calls out of line at N = 1\.\.64' "$s" ||
	fail "the answer's whole-program line: $(grep '^- \*\*512' "$s")"
grep -q '^| 1 | 5 \[5, 5\] | 7 \[7, 7\] |$' "$s" || fail "net table: $(grep -A4 'Net time per site' "$s")"
grep -q '^- Filler: a series with filler .* is read as a whole program' "$s" || fail "method sentence on the filler"
grep -q 'Times include the filler' "$s" || fail "attribution must say its times include the filler"
grep -q 'net' "$out/plots/data.gp" && grep -q 'net of' "$out/plots/data.gp" && fail "charts still speak of net times"

# All eight processes: the slow mark's process has a negative net time,
# kept; the one without a mark gives none. The net is then near 0: flagged.
"$summarize" --out "$work/all" "$work"/in/*.json || fail "summarize all: exit $?"
r=$(row "$work/all/points.csv" inline 1 512)
[ "$(col "$work/all/points.csv" processes "$r")" = "8" ] || fail "every process counts in the gross time: $r"
[ "$(col "$work/all/points.csv" net_ns_per_op "$r")" = "-2" ] || fail "net (5 + 5 + 5 - 23) / 4 = -2, negatives kept: $r"
[ "$(col "$work/all/points.csv" net_near_mark "$r")" = "1" ] || fail "a net within 3 SE of 0 is flagged: $r"
grep -q '^| 1 | -2 \[.*\] \* |' "$work/all/summary.md" || fail "flag in the net table: $(grep '^| 1 |' "$work/all/summary.md")"

# No process with a mark: the net time is missing, with its reason; not 0.
mkdir -p "$work/nomark-in"
for p in 0 1; do
	"$fakegb" $fake --variant 0 --process $p --no-mark 1 --seed $((p + 1)) > "$work/nomark-in/p$p.json" || fail "fakegb"
done
"$summarize" --out "$work/nomark" "$work"/nomark-in/*.json || fail "summarize nomark: exit $?"
r=$(row "$work/nomark/points.csv" inline 1 512)
[ -z "$(col "$work/nomark/points.csv" net_ns_per_op "$r")" ] || fail "net time without a mark must be empty: $r"
[ "$(col "$work/nomark/points.csv" ns_per_op "$r")" = "15" ] || fail "gross kept: $r"
grep -q 'Net time per site: not measured (no process ran the `mark` form' "$work/nomark/summary.md" ||
	fail "missing net time not explained"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$work/nomark/ratios.csv" | wc -l)" -gt 0 ] ||
	fail "the gross ratio needs no mark"

echo "test_plots_filler: ok"
exit 0
