#!/usr/bin/env bash
# One measurement at a time on a machine: two short sweeps from two separate
# copies of the tree, started together, never measure at the same time.
# Every process's JSON says when it ran (process_start, process_end); no
# process of one sweep overlaps one of the other's. Round 1 builds both
# copies at once (a build takes no machine lock) and measures as they come.
# Round 2 starts both while a stand-in holds the machine lock, so both wait
# and say for whom; once it lets go, one measures, and the other says it
# now waits for that one, naming its tree. The lock is the machine's own
# file (common/measure_lock.h), which both copies must find by themselves.
# Usage: test_run_measure_lock.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
command -v flock >/dev/null || { echo "skip: no flock(1) (util-linux)"; exit 77; }
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
tmp=$(mktemp -d)
standin=""
cleanup() {
	[ -z "$standin" ] || kill "$standin" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
lock=$(sed -n 's/^#define IC_MEASURE_LOCK_PATH "\(.*\)"$/\1/p' "$top/common/measure_lock.h")
line=$lock$(sed -n 's/^#define IC_MEASURE_HOLDER_SUFFIX "\(.*\)"$/\1/p' "$top/common/measure_lock.h")
[ -n "$lock" ] && [ "$line" != "$lock" ] || { echo "FAIL: no lock path in common/measure_lock.h"; exit 1; }
unset IC_MEASURE_LOCK

# Two copies of the tree as it is now (uncommitted edits included).
for t in a b; do
	mkdir -p "$tmp/$t"
	if git -C "$top" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$top" ls-files -z | tar -C "$top" --null -T - -cf - 2>/dev/null | tar -C "$tmp/$t" -xf -
	else
		tar -C "$top" --exclude='./build*' --exclude=./results -cf - . | tar -C "$tmp/$t" -xf -
	fi
	[ -x "$tmp/$t/run.sh" ] || { echo "FAIL: no copy of the tree in $tmp/$t"; exit 1; }
done
# Small, and long enough in its measurement (a few seconds) for the other
# to see it hold the lock; one layout seed, so round 2 relinks nothing.
design=(--quick --sites 1 --layouts-random 1 --processes 2 --min-time 0.05 --counters none
	--layout-seed 7 --jobs 1)

# sweeps ROUND: both copies' sweeps at once; 0 when both succeeded.
sweeps() {
	local r=$1 t pids=() rc=0
	for t in a b; do
		"$tmp/$t/run.sh" "${design[@]}" --out "$tmp/$t$r" >"$tmp/$t$r.log" 2>&1 &
		pids+=($!)
	done
	echo "${pids[@]}" >"$tmp/pids$r"
	for t in 0 1; do wait "${pids[$t]}" || rc=1; done
	return $rc
}

# apart ROUND: no process of a's sweep ran while one of b's did.
apart() {
	python3 - "$tmp/a$1" "$tmp/b$1" <<'PY'
import glob, json, sys
def spans(d):
    out = []
    for f in sorted(glob.glob(d + "/raw/*.json")):
        c = json.load(open(f))["context"]
        out.append((c["process_start"], c["process_end"], f))
    return out
a, b = spans(sys.argv[1]), spans(sys.argv[2])
if len(a) != 2 or len(b) != 2:
    print("FAIL: want 2 processes each, got %d and %d" % (len(a), len(b))); sys.exit(1)
bad = [(x, y) for x in a for y in b if not (x[1] <= y[0] or y[1] <= x[0])]
for x, y in bad:
    print("FAIL: %s (%s .. %s) overlaps %s (%s .. %s)" % (x[2], x[0], x[1], y[2], y[0], y[1]))
for x in sorted(a + b):
    print("  %s .. %s  %s" % x, file=sys.stderr)
first = "a" if min(a)[0] < min(b)[0] else "b"
print(first)
sys.exit(1 if bad else 0)
PY
}

# Round 1: built side by side, measured one at a time.
sweeps 1 || { tail -n 15 "$tmp"/a1.log "$tmp"/b1.log; bad "round 1: a sweep failed"; exit 1; }
echo "round 1: the processes' start and end"
apart 1 >"$tmp/apart1" || bad "round 1: $(cat "$tmp/apart1")"
grep -h waits "$tmp"/a1.log "$tmp"/b1.log

# Round 2: a stand-in holds the machine lock until both sweeps wait for it.
for f in "$lock" "$line"; do [ -e "$f" ] || (umask 0 && : >>"$f"); done
(
	exec 9<"$lock"
	flock 9
	truncate -c -s 0 "$line"
	me=$BASHPID   # this shell's, which becomes the sleep (not the pipe's)
	printf 'pid %s (the test'"'"'s stand-in) in %s since now\n' "$me" "$tmp" |
		dd of="$line" conv=notrunc,nocreat status=none
	exec sleep 600
) &
standin=$!
# Another measurement on this machine may hold it first: the stand-in waits its turn.
for _ in $(seq 6000); do grep -q "the test's stand-in" "$line" 2>/dev/null && break; sleep 0.2; done
grep -q "the test's stand-in" "$line" || { echo "FAIL: the stand-in got no turn at $lock in 20 minutes"; exit 1; }
sweeps 2 &
both=$!
waiting=0
for _ in $(seq 900); do
	waiting=$(grep -l "the sweep waits: the machine is measuring for pid $standin (the test's stand-in)" \
		"$tmp"/a2.log "$tmp"/b2.log 2>/dev/null | wc -l)
	[ "$waiting" -eq 2 ] && break
	kill -0 "$both" 2>/dev/null || break
	sleep 0.2
done
[ "$waiting" -eq 2 ] || bad "round 2: not both sweeps said they wait for the stand-in: $(tail -n 3 "$tmp"/a2.log "$tmp"/b2.log)"
ls "$tmp"/a2/raw/*.json "$tmp"/b2/raw/*.json >/dev/null 2>&1 && bad "round 2: a sweep measured while the stand-in held the lock"
kill "$standin"
wait "$standin" 2>/dev/null
standin=""
echo "round 2: the processes' start and end"
wait "$both" || { tail -n 15 "$tmp"/a2.log "$tmp"/b2.log; bad "round 2: a sweep failed"; exit 1; }
if first=$(apart 2); then
	second=b; [ "$first" = b ] && second=a
	grep -q "the sweep waits: the machine is measuring for pid [0-9]* (.*) in $tmp/$first since " "$tmp/${second}2.log" ||
		bad "round 2: $second measured after $first but did not say it waited for it: $(grep waits "$tmp/${second}2.log")"
	echo "round 2: $first measured first; $second waited for it: $(grep "in $tmp/$first since" "$tmp/${second}2.log")"
else
	bad "round 2: $first"
fi

[ $fail -eq 0 ] && echo "ok: two trees' sweeps measured one at a time, and the second said for whom it waited"
exit $fail
