#!/bin/sh
# summarize on series with filler, end to end from the fake generator with
# numbers that make the answer checkable: each process's mark m + 8 ns,
# inline m + 13, extern m + 15 (8 ns of filler in every form). The series is
# a whole program: its ratio, band and verdict are of the gross times, and
# the headline says how much faster or slower the program runs with the
# calls out of line. Every process counts in the gross time, with or
# without its mark; a run where no process has the mark still has its ratio.
# usage: test_report_filler.sh SUMMARIZE FAKE_SITES_BENCH
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb' "$@"
scratch

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
# Five variants (fewer would be a smoke design, which states no verdict).
for v in 0 1 2 3 4; do for p in 0 1; do
	# Each process its own mark (2..3.25 ns), the forms 5 and 7 ns above it.
	m=$(awk -v v=$v -v p=$p 'BEGIN { printf "%.2f", 2 + 0.5 * (v % 3) + 0.25 * p }')
	"$fakegb" $fake --variant $v --process $p --seed $((v * 10 + p + 1)) --t-mark "$m" \
		--t-inline "$(awk -v m="$m" 'BEGIN { print m + 5 }')" --t-extern "$(awk -v m="$m" 'BEGIN { print m + 7 }')" \
		--t-clone "$(awk -v m="$m" 'BEGIN { print m + 7 }')" > "$work/in/v${v}_p$p.json" || fail "fakegb"
done; done
"$fakegb" $fake --variant 5 --process 0 --no-mark 1 --t-inline 7 --t-extern 9 > "$work/in/v5_p0.json" || fail "fakegb no mark"
"$fakegb" $fake --variant 5 --process 1 --t-mark 30 > "$work/in/v5_p1.json" || fail "fakegb slow mark"
# Five variants, every form exactly 5 or 7 ns above its mark.
mkdir -p "$work/clean"
cp "$work"/in/v[01234]_p*.json "$work/clean/"
out=$work/out
"$summarize" --out "$out" "$work"/clean/*.json || fail "summarize clean: exit $?"
pts=$out/points.csv
head -n 1 "$pts" | grep -q ',reps,filler,instr_per_op,branch_miss_per_op,itlb_miss_per_op,compiler,cflags,body,lock,lto,codegen$' ||
	fail "points.csv must end with filler and the build: $(head -n 1 "$pts")"
r=$(row "$pts" inline 1 512)
[ -n "$r" ] || fail "no inline row at filler 512"
awk -v g="$(col "$pts" ns_per_op "$r")" 'BEGIN { exit !(g > 15 && g < 17) }' || fail "the time is not gross: $r"
r=$(row "$pts" inline 1 0)
[ "$(col "$pts" filler "$r")" = "0" ] || fail "filler 0 row: $r"

rat=$out/ratios.csv
head -n 1 "$rat" | grep -q ',df,p_holm,deciding_lo,deciding_hi,log_se,t_975,replicate_cover,filler,compiler,cflags,body,lock,lto,codegen$' || fail "ratios.csv must end with filler and the build"
# The gross ratio: (m + 13) / (m + 15) with m = 2..3.25, between 0.87 and 0.89.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["filler"] == 512 && $c["sites"] == 1 { found = 1; if (!($c["ratio"] > 0.87 && $c["ratio"] < 0.89) || $c["processes"] != 10) bad = 1 }
	END { exit !(found && !bad) }' "$rat" || fail "gross ratio from 10 processes: $(grep ',512,' "$rat" | head -n 1)"
head -n 1 "$out/crossover.csv" | grep -q ',switches,filler,compiler,cflags,body,lock,lto,codegen$' ||
	fail "crossover.csv must end with filler and the build"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$out/crossover.csv" | wc -l)" -eq 1 ] ||
	fail "one filler series in crossover.csv"

s=$out/summary.md
grep -q '^### 512 B filler per site; 1 thread, private queue$' "$s" || fail "series title with the filler"
grep -q '^Code per call site: 165 B inlined, 24 B out of line; each site also runs 512 B of filler, and every time here includes it\.' "$s" ||
	fail "code per site without the filler: $(grep '^Code per call site' "$s")"
grep -Eq '^- \*\*512 B filler per site; 1 thread, private queue\*\*: A whole program, with 512 B of other code per call site\. Inline it: it is faster at every N measured, up to N = 64, about [0-9.]+x' "$s" ||
	fail "the answer's whole-program line: $(grep '^- \*\*512' "$s")"
grep -q '^- Filler: a series with filler .* is read as a whole program' "$s" || fail "method sentence on the filler"

# All twelve processes, the one without a mark and the one with a slow mark included.
"$summarize" --out "$work/all" "$work"/in/*.json || fail "summarize all: exit $?"
r=$(row "$work/all/points.csv" inline 1 512)
[ "$(col "$work/all/points.csv" processes "$r")" = "12" ] || fail "every process counts in the gross time: $r"

# No process with a mark: the gross ratio needs none.
mkdir -p "$work/nomark-in"
for p in 0 1; do
	"$fakegb" $fake --variant 0 --process $p --no-mark 1 --seed $((p + 1)) > "$work/nomark-in/p$p.json" || fail "fakegb"
done
"$summarize" --out "$work/nomark" "$work"/nomark-in/*.json || fail "summarize nomark: exit $?"
r=$(row "$work/nomark/points.csv" inline 1 512)
[ "$(col "$work/nomark/points.csv" ns_per_op "$r")" = "15" ] || fail "gross kept: $r"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$work/nomark/ratios.csv" | wc -l)" -gt 0 ] ||
	fail "the gross ratio needs no mark"

echo "test_report_filler: ok"
exit 0
