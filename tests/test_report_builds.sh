#!/bin/sh
# summarize on one run over several builds: files of two builds
# hold the same benchmark names with different numbers; they must stay two
# points each (never pooled), every table ends with the build's columns,
# titles, recommendations and charts say which build, the machine section
# lists the builds; one build is said once, on the first screen; files
# without the keys (older runs) still load with empty columns and no words
# about them.
# usage: test_report_builds.sh SUMMARIZE FAKE_SITES_BENCH DATADIR DRAW_SH
set -u
. "$(dirname "$0")/lib.sh"
args 'summarize fakegb data draw' "$@"
scratch

# rows FILE AWK-CONDITION: the data rows of FILE where the condition on
# c["column"] holds.
rows() {
	awk -F, "NR == 1 { for (i = 1; i <= NF; i++) c[\$i] = i; next } $2" "$1"
}

# col FILE NAME ROWTEXT: the named column of a row of FILE's layout.
col() {
	printf '%s\n' "$3" | awk -F, -v name="$2" -v hdr="$(head -n 1 "$1")" '
		BEGIN { n = split(hdr, h, ","); for (i = 1; i <= n; i++) c[h[i]] = i } { print $c[name] }'
}

# build DIR PREFIX ARGS...: 3 layout variants x 2 processes of one build.
build() {
	d=$1
	pre=$2
	shift 2
	mkdir -p "$d"
	for v in 0 1 2; do for p in 0 1; do
		"$fakegb" --sites-max 64 --threads 1 --modes private,shared --reps 3 --variant $v \
			--process $p --seed $((v * 10 + p + 1)) "$@" > "$d/${pre}_v${v}_p$p.json" ||
			fail "fakegb $*"
	done; done
}

hdr_points="form,op,layout,order,sites,threads,mode,ns_per_op,ns_ci_lo,ns_ci_hi,cv,ops_per_s,cycles_per_op,l1i_miss_per_op,counter_source,code_bytes_per_site,footprint_bytes,variants,processes,reps,filler,instr_per_op,branch_miss_per_op,itlb_miss_per_op,compiler,cflags,body,lock,lto,codegen"

# --- two builds, same names, different numbers ----------------------------
# gcc -O2 -g on the built-in queue; clang -Os on kref, every time doubled.
build "$work/two-in" a --compiler "GNU 12.2.0" --cflags "-O2 -g" --lto off --body queue
build "$work/two-in" b --compiler "Clang 14.0.6" --cflags "-Os" --lto off --body kref --scale 2
out=$work/two
"$summarize" --out "$out" "$work"/two-in/*.json || fail "two builds: exit $?"
pts=$out/points.csv
[ "$(head -n 1 "$pts")" = "$hdr_points" ] || fail "points.csv header: $(head -n 1 "$pts")"
# 2 builds x 2 series x 2 forms x N = 1..64.
[ "$(grep -c . "$pts")" -eq $((1 + 2 * 2 * 2 * 7)) ] || fail "points.csv rows: $(grep -c . "$pts")"
sel='$c["form"] == "inline" && $c["sites"] == 1 && $c["mode"] == "private"'
[ "$(rows "$pts" "$sel" | wc -l)" -eq 2 ] || fail "want one inline N = 1 row per build: $(rows "$pts" "$sel")"
# Each build's own value from its own 6 processes: inline at N = 1 is
# 10 ns * 0.84 (the crossover shape) and twice that for clang.
r=$(rows "$pts" "$sel"' && $c["compiler"] == "GNU 12.2.0"')
[ "$(col "$pts" cflags "$r"),$(col "$pts" body "$r"),$(col "$pts" lock "$r"),$(col "$pts" lto "$r")" = "-O2 -g,queue,tas,off" ] ||
	fail "gcc row's build columns: $r"
[ "$(col "$pts" processes "$r")" = "6" ] || fail "gcc row pooled processes: $r"
awk -v t="$(col "$pts" ns_per_op "$r")" 'BEGIN { exit !(t > 8.3 && t < 8.5) }' || fail "gcc inline time: $r"
r=$(rows "$pts" "$sel"' && $c["compiler"] == "Clang 14.0.6"')
[ "$(col "$pts" cflags "$r"),$(col "$pts" body "$r"),$(col "$pts" lock "$r"),$(col "$pts" lto "$r")" = "-Os,kref,tas,off" ] ||
	fail "clang row's build columns: $r"
[ "$(col "$pts" processes "$r")" = "6" ] || fail "clang row pooled processes: $r"
awk -v t="$(col "$pts" ns_per_op "$r")" 'BEGIN { exit !(t > 16.6 && t < 17.0) }' || fail "clang inline time: $r"

rat=$out/ratios.csv
head -n 1 "$rat" | grep -q ',processes,df,p_holm,deciding_lo,deciding_hi,log_se,t_975,replicate_cover,filler,compiler,cflags,body,lock,lto,codegen$' ||
	fail "ratios.csv header: $(head -n 1 "$rat")"
[ "$(rows "$rat" '$c["processes"] != 6' | wc -l)" -eq 0 ] || fail "a ratio from processes of both builds"
[ "$(rows "$rat" '$c["compiler"] == "Clang 14.0.6" && $c["cflags"] == "-Os"' | wc -l)" -eq 14 ] ||
	fail "clang's ratios: $(rows "$rat" '$c["compiler"] == "Clang 14.0.6"' | wc -l)"
x=$out/crossover.csv
head -n 1 "$x" | grep -q ',switches,filler,compiler,cflags,body,lock,lto,codegen$' || fail "crossover.csv header: $(head -n 1 "$x")"
[ "$(rows "$x" '$c["body"] == "kref"' | wc -l)" -eq 2 ] && [ "$(rows "$x" '$c["body"] == "queue"' | wc -l)" -eq 2 ] ||
	fail "crossover.csv: two series per build"

s=$out/summary.md
for t in 'GNU 12.2.0, -O2 -g; queue' 'Clang 14.0.6, -Os; kref'; do
	for m in private shared; do
		grep -qx "### $t; 1 thread, $m queue" "$s" || fail "no title '### $t; 1 thread, $m queue'"
	done
	grep -q "^- \*\*$t; 1 thread, private queue\*\*: " "$s" || fail "the answer's line of $t"
done
grep -q '^- Builds: 2, each run in its own processes and reported as its own series (never pooled):$' "$s" ||
	fail "machine section lacks the builds"
grep -qx '  - GNU 12.2.0, -O2 -g; queue: compiler GNU 12.2.0; flags -O2 -g; LTO off; body queue; lock tas; 6 processes' "$s" ||
	fail "gcc build line: $(grep '^  - GNU' "$s")"
grep -qx '  - Clang 14.0.6, -Os; kref: compiler Clang 14.0.6; flags -Os; LTO off; body kref; lock tas; 6 processes' "$s" ||
	fail "clang build line"
grep -q '^- Lock: tas;' "$s" || fail "one lock in every build is said as before"
grep -q '^- Build: ' "$s" && fail "a single-build line in a two-build run"
grep -q '^- Builds: 2 (compiler, flags, LTO, body and lock' "$s" || fail "method lacks the builds"
grep -qx -e '- Input: 12 files (one per process) of 2 builds.' "$s" || fail "input line"

# Charts: a row of panels per build, each panel titled with its build.
gp=$out/plots/data.gp
grep -qx 'ic_cols = 2' "$gp" && grep -qx 'ic_rows = 2' "$gp" || fail "data.gp: one row per build: $(grep '^ic_[cr]o' "$gp")"
grep -qx "ic_title\[1\] = 'GNU 12.2.0, -O2 -g; queue; 1 thread, private queue'" "$gp" || fail "panel 1 title"
grep -qx "ic_title\[3\] = 'Clang 14.0.6, -Os; kref; 1 thread, private queue'" "$gp" || fail "panel 3 title"
[ "$(grep -c '^# build 1: ' "$out/plots/time.dat")" -eq 4 ] || fail "time.dat: clang's blocks"

# --- a third build that differs in LTO only -------------------------------
build "$work/lto-in" c --compiler "GNU 12.2.0" --cflags "-O2 -g" --lto on --body queue --scale 0.9
"$summarize" --out "$work/lto" "$work"/two-in/*.json "$work"/lto-in/*.json || fail "three builds: exit $?"
s=$work/lto/summary.md
grep -qx '### GNU 12.2.0, -O2 -g, LTO on; queue; 1 thread, private queue' "$s" || fail "LTO in the title"
grep -qx '### GNU 12.2.0, -O2 -g, LTO off; queue; 1 thread, private queue' "$s" || fail "LTO off in the title"
[ "$(rows "$work/lto/points.csv" "$sel"' && $c["compiler"] == "GNU 12.2.0"' | wc -l)" -eq 2 ] ||
	fail "LTO on and off pooled"
grep -q '^- Input: 18 files (one per process) of 3 builds.$' "$s" || fail "three builds input line"

# --- one build: said once, titles as before -------------------------------
"$summarize" --out "$work/one" "$work"/two-in/a_*.json || fail "one build: exit $?"
s=$work/one/summary.md
grep -qx 'Build: compiler GNU 12.2.0; flags -O2 -g; LTO off; body queue; lock tas.' "$s" || fail "one build's line: $(grep '^Build' "$s")"
grep -q '^- Build: ' "$s" && fail "one build: said again in the machine section"
grep -qx '### 1 thread, private queue' "$s" || fail "one build: title changed"
grep -q '^- \*\*1 thread, private queue\*\*: ' "$s" || fail "one build: the answer's line changed"
grep -q 'Builds' "$s" && fail "one build: a build list"
grep -qx 'ic_cols = 2' "$work/one/plots/data.gp" && grep -qx 'ic_rows = 1' "$work/one/plots/data.gp" ||
	fail "one build: panel grid changed"

# --- older files: no keys, empty columns, nothing said ----------------------
"$summarize" --out "$work/old" "$data/known.json" || fail "old file: exit $?"
pts=$work/old/points.csv
[ "$(head -n 1 "$pts")" = "$hdr_points" ] || fail "old file: header"
r=$(grep '^inline,' "$pts")
[ "$(col "$pts" compiler "$r")|$(col "$pts" cflags "$r")|$(col "$pts" body "$r")|$(col "$pts" lock "$r")|$(col "$pts" lto "$r")" = "|||ticket|" ] ||
	fail "old file: build columns: $r"
grep -Eq '^- Builds?:' "$work/old/summary.md" && fail "old file: words about absent build keys"
grep -qx '### 1 thread, private queue' "$work/old/summary.md" || fail "old file: title"
# An old file beside a new build of the same names: two builds, and the
# old one's label names only what it has (its lock).
"$fakegb" --sites-max 4 --threads 1 --modes private --compiler "GNU 12.2.0" --cflags "-O2 -g" \
	> "$work/new.json" || fail "fakegb new"
"$summarize" --out "$work/mix" "$data/known.json" "$work/new.json" || fail "old + new: exit $?"
pts=$work/mix/points.csv
[ "$(rows "$pts" "$sel" | wc -l)" -eq 2 ] || fail "old and new pooled: $(rows "$pts" "$sel")"
[ "$(col "$pts" ns_per_op "$(rows "$pts" "$sel"' && $c["compiler"] == ""')")" = "5500" ] ||
	fail "old file's point changed by the new one"
grep -qx '### ticket lock; 1 thread, private queue' "$work/mix/summary.md" || fail "old build's title"
grep -qx '### GNU 12.2.0, -O2 -g; tas lock; 1 thread, private queue' "$work/mix/summary.md" || fail "new build's title"
grep -q '^- Lock: per build (see Builds)' "$work/mix/summary.md" || fail "locks differ: per build"

# --- the charts draw with several builds -------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
	"$draw" "$work/two" || fail "draw two builds: exit $?"
	for chart in time l1i ratio attribution; do
		[ -s "$work/two/plots/$chart.svg" ] && [ -s "$work/two/plots/$chart.png" ] || fail "$chart not drawn"
	done
	for t in 'GNU 12.2.0, -O2 -g; queue; 1 thread, shared queue' 'Clang 14.0.6, -Os; kref; 1 thread, private queue'; do
		grep -qF "$t" "$work/two/plots/time.svg" && grep -qF "$t" "$work/two/plots/ratio.svg" ||
			fail "chart panels lack '$t'"
	done
	# Control forms in both builds: one dash pattern per series, named
	# with its build in the key.
	build "$work/attr-in" a --shape attrib --modes private --compiler "GNU 12.2.0" --cflags "-O2 -g"
	build "$work/attr-in" b --shape attrib --modes private --compiler "Clang 14.0.6" --cflags "-Os" --scale 2
	"$summarize" --out "$work/attr" "$work"/attr-in/*.json || fail "attrib two builds: exit $?"
	"$draw" "$work/attr" || fail "draw attrib two builds: exit $?"
	for t in 'GNU 12.2.0, -O2 -g; 1 thread, private queue' 'Clang 14.0.6, -Os; 1 thread, private queue'; do
		grep -qF "$t" "$work/attr/plots/attribution.svg" || fail "attribution key lacks '$t'"
	done
else
	echo "test_report_builds: gnuplot not installed, charts not drawn (the rest passed)"
fi

echo "test_report_builds: ok"
exit 0
