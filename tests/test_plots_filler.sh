#!/bin/sh
# summarize on series with filler (issue 9), end to end from the fake
# generator with numbers that make the answer checkable: gross inline 15 ns,
# mark 10 ns -> net 5; extern 17 -> net 7; ratio of nets 5/7. One process
# lacks the mark, one has a mark slower than every form (net <= 0): both are
# left out and counted, never given a value; a run where no process has the
# mark reports the net time as missing, not 0.
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
out=$work/out
"$summarize" --out "$out" "$work"/in/*.json || fail "summarize: exit $?"
pts=$out/points.csv
head -n 1 "$pts" | grep -q ',layout_share,filler,ns_gross_per_op,filler_subtracted,compiler,cflags,body,lock,lto$' ||
	fail "points.csv must end with filler,ns_gross_per_op,filler_subtracted and the build: $(head -n 1 "$pts")"

r=$(row "$pts" inline 1 512)
[ -n "$r" ] || fail "no inline row at filler 512"
[ "$(col "$pts" ns_per_op "$r")" = "5" ] || fail "net inline: $r"
[ "$(col "$pts" ns_ci_lo "$r")" = "5" ] && [ "$(col "$pts" ns_ci_hi "$r")" = "5" ] ||
	fail "per-process subtraction leaves no spread: $r"
[ "$(col "$pts" filler_subtracted "$r")" = "1" ] || fail "filler_subtracted: $r"
[ "$(col "$pts" processes "$r")" = "6" ] || fail "6 of 8 processes give a net value: $r"
awk -v g="$(col "$pts" ns_gross_per_op "$r")" 'BEGIN { exit !(g > 7 && g < 38) }' || fail "gross: $r"
r=$(row "$pts" extern 1 512)
[ "$(col "$pts" ns_per_op "$r")" = "7" ] || fail "net extern: $r"
# The mark stays gross.
r=$(row "$pts" mark 1 512)
[ "$(col "$pts" filler_subtracted "$r")" = "0" ] || fail "mark subtracted: $r"
[ "$(col "$pts" ns_per_op "$r")" = "$(col "$pts" ns_gross_per_op "$r")" ] || fail "mark not gross: $r"
# Filler 0: nothing subtracted, gross = estimate.
r=$(row "$pts" inline 1 0)
[ "$(col "$pts" filler_subtracted "$r")" = "0" ] && [ "$(col "$pts" filler "$r")" = "0" ] ||
	fail "filler 0 row: $r"
[ "$(col "$pts" ns_per_op "$r")" = "$(col "$pts" ns_gross_per_op "$r")" ] || fail "filler 0 gross: $r"

rat=$out/ratios.csv
head -n 1 "$rat" | grep -q ',df,p_holm,filler,compiler,cflags,body,lock,lto$' || fail "ratios.csv must end with filler and the build"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["filler"] == 512 && $c["sites"] == 1 { found = 1; if ($c["ratio"] != "0.714286" || $c["processes"] != 6) bad = 1 }
	END { exit !(found && !bad) }' "$rat" || fail "ratio of nets 5/7 from 6 processes: $(grep ',512$' "$rat" | head -n 1)"
head -n 1 "$out/crossover.csv" | grep -q ',switches,filler,compiler,cflags,body,lock,lto$' ||
	fail "crossover.csv must end with filler and the build"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$out/crossover.csv" | wc -l)" -eq 1 ] ||
	fail "one filler series in crossover.csv"

s=$out/summary.md
grep -q '^### 512 B filler per site; 1 thread, private queue$' "$s" || fail "series title with the filler"
grep -q 'with 512 B filler per site (times net of it), 1 thread, private queue' "$s" || fail "recommendation"
grep -q 'inline net ns/site' "$s" || fail "evidence table must say net"
grep -q 'at every N of every form (35 points): 2 of 8 processes, 1 without a mark point, 1 with net time ≤ 0' "$s" ||
	fail "left-out processes not counted: $(grep 'Left out' "$s")"
grep -q '^- Filler: in a series with filler .* is subtracted from every other form.s median in that process before any estimate' "$s" ||
	fail "method sentence on the subtraction"
grep -q 'Times are net of the filler baseline' "$s" || fail "attribution must say its times are net"

# No process with a mark: the net time is missing, with its reason; not 0.
mkdir -p "$work/nomark-in"
for p in 0 1; do
	"$fakegb" $fake --variant 0 --process $p --no-mark 1 --seed $((p + 1)) > "$work/nomark-in/p$p.json" || fail "fakegb"
done
"$summarize" --out "$work/nomark" "$work"/nomark-in/*.json || fail "summarize nomark: exit $?"
r=$(row "$work/nomark/points.csv" inline 1 512)
[ -z "$(col "$work/nomark/points.csv" ns_per_op "$r")" ] || fail "net time without a mark must be empty: $r"
[ "$(col "$work/nomark/points.csv" processes "$r")" = "0" ] || fail "no process counts: $r"
[ "$(col "$work/nomark/points.csv" ns_gross_per_op "$r")" = "15" ] || fail "gross kept: $r"
grep -q '2 of 2 processes, 2 without a mark point (no net time at all: not measured)' "$work/nomark/summary.md" ||
	fail "missing net time not explained"
grep -q 'No N with both inline and extern measured' "$work/nomark/summary.md" || fail "no ratio without net times"
[ "$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["filler"] == 512' "$work/nomark/ratios.csv" | wc -l)" -eq 0 ] ||
	fail "ratios from nothing"

echo "test_plots_filler: ok"
exit 0
