#!/bin/sh
# Bad input to ./run.sh watch and history and to watch_report: one line
# naming the problem, exit 2, nothing written (no --out directory made).
# usage: test_run_watch_bad_input.sh WATCH_REPORT SOURCE_DIR
set -eu
report=$1 src=$2
. "$(dirname "$0")/lib.sh"
scratch tmp

# expect2 WHAT CMD...: exit 2, one line on stderr, $tmp/out not made.
expect2() {
	what=$1; shift
	rc=0
	"$@" >"$tmp/stdout" 2>"$tmp/err" || rc=$?
	[ "$rc" -eq 2 ] || fail "$what: exit $rc, not 2 ($(cat "$tmp/err"))"
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$what: not one line: $(cat "$tmp/err")"
	[ ! -e "$tmp/out" ] || fail "$what: wrote $tmp/out"
	echo "$what: $(cat "$tmp/err")"
}

echo '{"benchmarks": [' >"$tmp/broken.json"
echo '{"context": {}, "benchmarks": []}' >"$tmp/empty.json"
expect2 "no --out" "$report" "$tmp/empty.json"
expect2 "bad --window" "$report" --out "$tmp/out" --window x "$tmp/empty.json"
expect2 "no files" "$report" --out "$tmp/out"
expect2 "missing file" "$report" --out "$tmp/out" "$tmp/none.json"
expect2 "not JSON" "$report" --out "$tmp/out" "$tmp/broken.json"
expect2 "no benchmarks" "$report" --out "$tmp/out" "$tmp/empty.json"
expect2 "no benchmarks in the long process" "$report" --out "$tmp/out" --long "$tmp/empty.json"
expect2 "unknown option" "$report" --bogus

run=$src/run.sh
# An input run.sh fails to refuse ends after the checks, not in a watch.
export IC_STOP_AFTER_CHECKS=1
expect2 "watch --minutes 0" "$run" watch --minutes 0 --out "$tmp/out"
expect2 "watch --minutes abc" "$run" watch --minutes abc --out "$tmp/out"
expect2 "watch --minutes without a value" "$run" watch --out "$tmp/out" --minutes
expect2 "watch --out=" "$run" watch --out=
expect2 "watch unknown option" "$run" watch --bogus --out "$tmp/out"
mkdir -p "$tmp/full" && : >"$tmp/full/x"
expect2 "watch --out not empty" "$run" watch --out "$tmp/full"
expect2 "watch --out where nothing can be made" "$run" watch --minutes 0.1 --out /proc/inlinecost-watch
expect2 "history unknown option" "$run" history --bogus
echo "$test_name: ok"
