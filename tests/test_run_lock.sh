#!/usr/bin/env bash
# Two runs at once cannot corrupt each other: a results directory in use is
# refused in one line naming its holder, with nothing written; a build tree
# in use is waited for, untouched, with one line naming its holder. The
# first run here is a stand-in that takes the lock the way run.sh does
# (flock on the same file, its pid and command in it), so the test builds
# and measures nothing.
# Usage: test_run_lock.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
command -v flock >/dev/null || { echo "skip: no flock(1) (util-linux)"; exit 77; }
tmp=$(mktemp -d)
holder=""
tree=$top/build-O1_fno_ident
made_tree=0
[ -e "$tree" ] || made_tree=1
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2>/dev/null
	wait 2>/dev/null
	rm -rf "$tmp"
	[ $made_tree = 0 ] || rm -rf "$tree"
}
trap cleanup EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# hold FILE: another run holds FILE's lock until killed.
hold() {
	mkdir -p "$(dirname "$1")"
	# It becomes the sleep that holds the lock: killing it frees the lock.
	( exec 9>>"$1"; flock 9; echo "pid $BASHPID (the other run)" >"$1"; exec sleep 120 ) >/dev/null 2>&1 &
	holder=$!
	for _ in $(seq 50); do grep -q 'the other run' "$1" 2>/dev/null && return 0; sleep 0.1; done
	bad "the stand-in did not take $1"
}
release() { kill "$holder" 2>/dev/null; wait "$holder" 2>/dev/null; holder=""; }

# A results directory in use: a second --resume is refused, nothing written.
res=$tmp/res
mkdir -p "$res"
cat >"$res/run.conf" <<'CONF'
sites=1,64
forms=inline,extern
cases=chain:seq:0:0
threads=1
modes=private
layouts_random=1
layout_seed=7
processes=2
build_source=0000000000000000
CONF
hold "$res/.run.sh-lock"
touch "$tmp/.stamp"
err=$("$run" --resume "$res" 2>&1 >/dev/null); rc=$?
[ $rc -eq 1 ] || bad "--resume of a results directory in use exited $rc, want 1: $err"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || bad "--resume of a results directory in use: not one line: $err"
grep -q "in use by pid [0-9]* (the other run)" <<<"$err" || bad "the refusal does not name the holder: $err"
[ -z "$(find "$res" -newer "$tmp/.stamp")" ] || bad "a refused --resume wrote into the results directory"
release

# A build tree in use: a sweep of it waits, says for whom, and neither
# configures the tree nor makes its results directory while it waits.
hold "$tree/.run.sh-lock"
# Its own process group, so it goes with whatever it started.
setsid "$run" --quick --cflags "-O1 -fno-ident" --forms inline,extern --sites 1 --out "$tmp/out" >"$tmp/wait.out" 2>"$tmp/wait.err" &
waiter=$!
for _ in $(seq 100); do grep -q waiting "$tmp/wait.err" && break; sleep 0.2; done
grep -q "build-O1_fno_ident/ is in use by pid [0-9]* (the other run); waiting" "$tmp/wait.err" ||
	bad "a sweep of a tree in use does not say it waits for the holder: $(cat "$tmp/wait.err")"
sleep 1
kill -0 "$waiter" 2>/dev/null || bad "the second run did not wait for the tree"
[ ! -e "$tree/CMakeCache.txt" ] || bad "the second run configured the tree while it was in use"
[ ! -e "$tmp/out" ] || bad "the second run made its results directory while it waited"
kill -- -"$waiter" 2>/dev/null
wait "$waiter" 2>/dev/null
release

[ $fail -eq 0 ] && echo "ok: a results directory in use refused naming its holder, a tree in use waited for, both untouched"
exit $fail
