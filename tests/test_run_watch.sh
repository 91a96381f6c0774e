#!/usr/bin/env bash
# ./run.sh watch as the driver runs it (sweep watch, cmd/sweep.c), on a
# stand-in tree: cmake, the bench, watch_report, draw and machine_state are
# scripts that say what they were asked. The sentinel's runs are found in
# the bench's plan by their specs (a filler row of the same spec is not
# one) with the probes after them; build/ is used when its plan has them
# all (and then only the watch's own programs are built there: its bench
# is the sweep's), else build-watch/ is configured with the sentinel's
# points; short
# processes of 3 rounds, then one long one, every one under the machine
# lock; the report gets the long process and the short ones in order, and
# its text is what the watch prints last, and a report that writes none
# fails the watch; a failed process and an interrupt each say where the
# processes are and leave no .tmp.
# Usage: test_run_watch.sh PATH/TO/sweep
set -u
sweep=$1
. "$(dirname "$0")/lib.sh"
scratch tmp
own_machine_lock
top=$tmp/top fakes=$tmp/fakes
mkdir -p "$top/build" "$fakes/bench" "$fakes/cmd" "$tmp/bin"
# cmake: a configure writes the cache and records its arguments; a build
# puts the stand-in programs into the tree.
cat >"$tmp/bin/cmake" <<'SH'
#!/bin/sh
if [ "$1" = --build ]; then
	echo "$*" >>"$FAKE_LOG.build"; cp -r "$FAKES/bench" "$FAKES/cmd" "$2/"; echo "[1/1] Linking sites_bench"; exit 0
fi
echo "$*" >>"$FAKE_LOG.configure"
while [ $# -gt 0 ]; do [ "$1" = -B ] && d=$2; shift; done
printf 'CMAKE_GENERATOR:INTERNAL=Ninja\n' >"$d/CMakeCache.txt"
SH
# The bench: its plan (in build/, only part of the sentinel when
# FAKE_PARTIAL is set), its list, or one process that records its tree,
# arguments and whether the machine lock is held.
cat >"$fakes/bench/sites_bench" <<'SH'
#!/bin/bash
case " $* " in
*" --plan "*)
	printf 'name\tform\top\tlayout\torder\tsites\tfiller\tmode\tthreads\n'
	printf 'sites/inline/filler\tinline\ttail_dequeue\tchain\tseq\t16\t256\tprivate\t1\n'
	printf 'sites/inline/64\tinline\ttail_dequeue\tchain\tseq\t64\t0\tprivate\t1\n'
	forms="inline extern clone inline_nolock extern_nolock mark"
	[ -n "${FAKE_PARTIAL:-}" ] && [[ $0 != *build-watch/* ]] && forms="inline extern"
	for f in $forms; do for n in 16 1024; do
		printf 'sites/%s/%s\t%s\ttail_dequeue\tchain\tseq\t%s\t0\tprivate\t1\n' "$f" "$n" "$f" "$n"
	done; done; exit 0 ;;
*" --list "*) printf 'sites/inline/64\nprobe/clock\nprobe/call_return\n'; exit 0 ;;
esac
for a; do case $a in --benchmark_out=*) out=${a#*=} ;; esac; done
case $out in *"/${FAKE_FAIL:-none}.json.tmp") echo "the bench broke"; exit 3 ;; esac
flock -n "$IC_MEASURE_LOCK" true && held=free || held=held
echo "$0 $held $*" >>"$FAKE_LOG"
echo '{}' >"$out"
exec sleep "${FAKE_PROCESS_S:-0}"   # (one process, as the bench is: a signal ends it)
SH
cat >"$fakes/cmd/watch_report" <<'SH'
#!/bin/sh
echo "$*" >>"$FAKE_LOG.report"
printf 'State 1: inline/extern N = 16: 2.1\nThis machine gave one answer while watched\n' >"$2/watch.txt"
SH
printf '#!/bin/sh\ntouch "$1/plots/watch.png"; echo "drew watch" >&2\n' >"$fakes/cmd/draw"
printf '#!/bin/sh\necho governor=performance\n' >"$fakes/cmd/machine_state"
chmod +x "$tmp/bin/cmake" "$fakes"/bench/* "$fakes"/cmd/*
export PATH=$tmp/bin:$PATH FAKES=$fakes FAKE_LOG=$tmp/procs
cp -r "$fakes/bench" "$fakes/cmd" "$top/build/"

# watch OUT [ENV...]: the driver's watch of 0.1 minutes into OUT, from $top.
watch() {
	local out=$1; shift
	: >"$FAKE_LOG"; : >"$FAKE_LOG.report"; : >"$FAKE_LOG.build"
	(cd "$top" && env "$@" "$sweep" watch -j1 --minutes=0.1 "--out=$out" --cmdline="./run.sh watch x" \
		<<<"per_caller=16" >"$tmp/out" 2>"$tmp/err")
}

watch "$tmp/w1"
rc=$?
[ $rc -eq 0 ] || bad "the watch failed ($rc): $(tail -n 3 "$tmp/err")"
w=$tmp/w1
want=$(printf '%s\n' sites/{inline,extern,clone,inline_nolock,extern_nolock,mark}/{16,1024} probe/clock probe/call_return)
[ "$(cat "$w/log/sentinel.runs")" = "$want" ] || bad "the sentinel's runs: $(tr '\n' ' ' <"$w/log/sentinel.runs")"
[ ! -e "$top/build-watch" ] || bad "build/ has the sentinel, yet build-watch/ was made"
# build/'s bench is the sweep's: a watch builds only its own programs there.
grep -q -- '--build build .*--target watch_report draw machine_state$' "$FAKE_LOG.build" ||
	bad "build/ was built with: $(cat "$FAKE_LOG.build")"
shorts=$(grep -c -- '--benchmark_repetitions=3 ' "$FAKE_LOG")
[ "$shorts" -ge 2 ] || bad "want at least 2 short processes of 3 rounds, got $shorts"
[ "$(grep -c -- '--benchmark_repetitions=6 ' "$FAKE_LOG")" -eq 1 ] || bad "want one long process of 6 rounds"
[ "$(grep -c ' held ' "$FAKE_LOG")" -eq "$(wc -l <"$FAKE_LOG")" ] || bad "a process ran without the machine lock"
grep -q "^build/bench/sites_bench held.* --run-list=$w/log/sentinel.runs " "$FAKE_LOG" ||
	bad "the processes did not run build/'s bench on the sentinel's runs: $(head -n 1 "$FAKE_LOG")"
shorts_in_order=$(for ((i = 0; i < shorts; i++)); do printf ' %s' "$w/raw/s$i.json"; done)
[ "$(cat "$FAKE_LOG.report")" = "--out $w --long $w/raw/long.json$shorts_in_order" ] ||
	bad "the report was asked: $(cat "$FAKE_LOG.report")"
[ "$(cat "$tmp/out")" = "$(cat "$w/watch.txt")" ] || bad "the watch's output is not the report's text: $(cat "$tmp/out")"
[ -f "$w/plots/watch.png" ] && grep -q "chart: $w/plots/watch.png" "$tmp/err" || bad "no chart said: $(cat "$tmp/err")"
grep -q governor "$w/machine_state.txt" || bad "the machine's state was not recorded"
[ -z "$(find "$w" -name '*.tmp')" ] || bad "a .tmp was left"
grep -qv '^inlinecost: ' "$tmp/err" && bad "a line without the prefix: $(grep -v '^inlinecost: ' "$tmp/err" | head -n 1)"

# build/ without the whole sentinel: build-watch/ with the sentinel's points.
watch "$tmp/w2" FAKE_PARTIAL=1 || bad "the watch with build-watch/ failed: $(tail -n 3 "$tmp/err")"
specs=$(for f in inline extern clone inline_nolock extern_nolock mark; do for n in 16 1024; do
	printf '%s:tail_dequeue:chain:seq:0:%s;' "$f" "$n"; done; done)
specs=${specs%;}
grep -q -- "-B build-watch .*-DIC_POINTS=$specs -DIC_PER_CALLER=16" "$FAKE_LOG.configure" ||
	bad "build-watch/ was not configured with the sentinel's points: $(cat "$FAKE_LOG.configure")"
grep -q "^build-watch/bench/sites_bench held" "$FAKE_LOG" || bad "the processes did not run build-watch/'s bench"
grep -q -- '--build build-watch .*--target sites_bench watch_report draw machine_state$' "$FAKE_LOG.build" ||
	bad "build-watch/ was built with: $(cat "$FAKE_LOG.build")"

# A report that writes no text: the watch fails and says so.
cp "$fakes/cmd/watch_report" "$tmp/watch_report"
printf '#!/bin/sh\nexit 0\n' >"$fakes/cmd/watch_report"   # (the build puts it in place)
watch "$tmp/w5"
rc=$?
[ $rc -eq 1 ] && grep -q "the watch report wrote no $tmp/w5/watch.txt" "$tmp/err" || bad "no watch.txt: rc $rc, $(tail -n 1 "$tmp/err")"
cp "$tmp/watch_report" "$fakes/cmd/watch_report"

# A failed process: where the processes are, its log's tail, exit 1.
watch "$tmp/w3" FAKE_FAIL=s1
rc=$?
[ $rc -eq 1 ] && grep -q "a sentinel process failed; its log is in $tmp/w3/log" "$tmp/err" &&
	grep -q 'the bench broke' "$tmp/err" || bad "a failed process: rc $rc, $(tail -n 2 "$tmp/err")"
[ -z "$(find "$tmp/w3" -name '*.tmp')" ] || bad "a failed process left a .tmp"

# An interrupt while a process runs: exit 130, nothing analysed, no .tmp.
: >"$FAKE_LOG"
(cd "$top" && FAKE_PROCESS_S=5 exec "$sweep" watch -j1 --minutes=0.1 "--out=$tmp/w4" <<<"per_caller=16" \
	>"$tmp/out" 2>"$tmp/err") &
pid=$!
for _ in $(seq 50); do [ -s "$FAKE_LOG" ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] && grep -q "interrupted: nothing analysed; the processes so far are in $tmp/w4/raw" "$tmp/err" ||
	bad "an interrupt: rc $rc, $(tail -n 2 "$tmp/err")"
[ -z "$(find "$tmp/w4" -name '*.tmp')" ] || bad "an interrupt left a .tmp"
flock -n "$IC_MEASURE_LOCK" true || bad "the machine lock is still held after the interrupt"

[ $fail -eq 0 ] && echo "ok: the sentinel found by spec, build/ or build-watch/, $shorts short processes and a long one under the lock, the report and chart, a failure and an interrupt"
exit $fail
