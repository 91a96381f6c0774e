#!/bin/sh
# History (engine/run_history.h) on runs recorded here with the fake bench:
# a run of the same shape as the latest earlier run of its machine and
# build agrees with it, one whose crossover moved differs and names both
# brackets, a run of another build has no history, a quick run cannot tell;
# ./run.sh history (the runs program) lists them newest first; bad usage exits 2.
# usage: test_report_history.sh SUMMARIZE FAKEGB RUNS
set -eu
summarize=$1 fakegb=$2 runs=$3
. "$(dirname "$0")/lib.sh"
scratch tmp
res=$tmp/results

# run NAME CROSSOVER SEED VARIANTS PROCESSES [BUILD_SOURCE]: a run in results/.
run() {
	d=$res/$1 v=0
	mkdir -p "$d/raw"
	printf 'build_source=%s\nbuild_cc=cc 12\nbuild_cflags=-O2\nbuild_lock=tas\nlayouts_random=%s\nprocesses=%s\ncompare=inline\nbaseline=extern\n' \
		"${6:-f00d}" "$4" "$5" >"$d/run.conf"
	while [ "$v" -lt "$4" ]; do
		p=0
		while [ "$p" -lt "$5" ]; do
			"$fakegb" --shape crossover --crossover "$2" --seed "$(($3 * 100 + v * 10 + p))" --noise 0.004 \
				--sites-min 1 --sites-max 4096 --threads 1 --variant "$v" --process "$p" \
				>"$d/raw/r1_v${v}_p$p.json"
			p=$((p + 1))
		done
		v=$((v + 1))
	done
}
# line NAME: the history line of that run's summary.
line() {
	"$summarize" --out "$res/$1/report" "$res/$1"/raw/*.json >/dev/null
	ln -sfn report/summary.md "$res/$1/summary.md"   # as a sweep links it
	grep -E '^(Agrees|Differs|Cannot tell|History)' "$res/$1/report/summary.md" || true
}
# expect NAME WHAT PATTERN MESSAGE: that run's history line, shown as WHAT,
# matches PATTERN (a case pattern); else the test fails with MESSAGE.
expect() {
	l=$(line "$1")
	echo "$2: $l"
	case $l in $3) ;; *) fail "$4: $l" ;; esac
}

run 20261205T100000Z 64 1 6 1
run 20261205T110000Z 64 2 6 1
run 20261205T120000Z 4096 3 6 1
run 20261205T130000Z 64 4 6 1 beef
run 20261205T140000Z 64 5 1 3

expect 20261205T100000Z first 'History: no earlier run*' "the first run names a history"
expect 20261205T110000Z same 'Agrees with the run of 2026-12-05 10:00 UTC (results/20261205T100000Z)*' "not agreeing"
expect 20261205T120000Z moved 'Differs from the run of 2026-12-05 11:00 UTC (results/20261205T110000Z) in * series (Holm over the series): *crossover (*) then, * now*run ./run.sh watch.*' \
	"not differing from the latest earlier run"
expect 20261205T130000Z "other build" 'History: no earlier run*' "another build was compared"
expect 20261205T140000Z quick 'History: a quick run (one layout variant of 3 processes) cannot tell*' "a quick run told"

# The list, newest first.
"$runs" history --results "$res" --all >"$tmp/list.txt"
cat "$tmp/list.txt"
order=$(grep -o '20261205T1[0-4]0000Z' "$tmp/list.txt" | uniq | tr '\n' ' ')
[ "$order" = "20261205T140000Z 20261205T130000Z 20261205T120000Z 20261205T110000Z 20261205T100000Z " ] ||
	fail "not newest first: $order"
grep -q 'crossover (' "$tmp/list.txt" || fail "no bracket listed"
grep -A 4 '20261205T120000Z' "$tmp/list.txt" | grep -q '^    Differs from the run of 2026-12-05 11:00' ||
	fail "the run's own verdict is not listed"

# Bad usage: one line, exit 2.
for args in "--bogus" "--results $tmp/none" "--results" "extra"; do
	rc=0
	# shellcheck disable=SC2086
	"$runs" history $args >/dev/null 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "history $args: exit $rc, $(cat "$tmp/err")"
done
echo "$test_name: ok"
