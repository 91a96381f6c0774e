#!/bin/bash
# inlines_bench times the census under the machine lock: with the lock held
# it waits and names the holder, then every census it runs holds it; its
# page has a row per file given and the census's counts; bad usage is one
# line, exit 2. A stand-in census says whether the lock is held.
# usage: test_inlines_bench.sh INLINES_BENCH
set -u
bench=$1
tmp=$(mktemp -d)
trap 'kill $standin 2>/dev/null; rm -rf "$tmp"' EXIT
bad() { echo "FAIL: $*"; exit 1; }
export IC_MEASURE_LOCK=$tmp/lock
cat >"$tmp/census" <<EOS
#!/bin/bash
flock -n "$IC_MEASURE_LOCK" true && echo free >>"$tmp/seen" || echo held >>"$tmp/seen"
printf 'name,bytes\na,1\nb,2\na,3\n'
EOS
chmod +x "$tmp/census"

(exec 9>>"$IC_MEASURE_LOCK"; flock 9; echo "pid $BASHPID (./run.sh --quick) in /elsewhere since T" >"$IC_MEASURE_LOCK.holder"
	exec sleep 60) &
standin=$!
for _ in $(seq 300); do grep -qs "^pid $standin " "$IC_MEASURE_LOCK.holder" && break; sleep 0.1; done
"$bench" --tries 2 "$tmp/census" /bin/true >"$tmp/out" 2>"$tmp/err" &
b=$!
for _ in $(seq 300); do grep -q ' waits: ' "$tmp/err" && break; sleep 0.1; done
[ -s "$tmp/seen" ] && bad "the census ran while another measurement held the lock"
kill $standin
wait $standin
wait $b || bad "exit $?: $(cat "$tmp/err")"
grep -qx 'inlinecost: inlines_bench waits: the machine is measuring for pid [0-9]* (./run.sh --quick) in /elsewhere since T' "$tmp/err" ||
	bad "it does not say for whom it waits: $(cat "$tmp/err")"
[ "$(sort -u "$tmp/seen")" = held ] || bad "a census ran without the lock: $(sort "$tmp/seen" | uniq -c)"
[ ! -s "$IC_MEASURE_LOCK.holder" ] && flock -n "$IC_MEASURE_LOCK" true || bad "the lock was not let go"
grep -q '^| /bin/true | 0.00 | [0-9.]* | [0-9]* | [0-9.]* | 0 |$' "$tmp/out" || bad "no row for /bin/true: $(cat "$tmp/out")"
grep -qx 'One linked file: no slope.' "$tmp/out" || bad "the slope's line: $(cat "$tmp/out")"
# libc's debug file, when installed: 3 rows, 2 distinct names from the stand-in.
grep -q "^libc's debug file is not installed" "$tmp/out" || grep -q '^| inlines --csv | [0-9.]* | [0-9]* | 3 | 2 |$' "$tmp/out" ||
	bad "the census's counts: $(cat "$tmp/out")"

# A lock handed down (flock FILE CMD) is used, not waited for.
flock "$IC_MEASURE_LOCK" timeout 20 "$bench" --tries 1 "$tmp/census" >/dev/null 2>&1 ||
	bad "it waited for the lock handed down to it"

for args in "" "--tries 0 $tmp/census" "/nonexistent" "$tmp/census /nonexistent"; do
	# shellcheck disable=SC2086 # the arguments are words
	err=$("$bench" $args 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "'$args': exit $rc, $err"
done
echo "inlines_bench: waits for the lock, times under it, one row per file"
