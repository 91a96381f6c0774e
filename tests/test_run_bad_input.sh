#!/usr/bin/env bash
# run.sh refuses bad input before it installs, builds or writes anything:
# exit 2, one line on stderr naming the option, and results/, the build
# trees and the installed packages exactly as they were. Every subcommand
# answers --help.
# Usage: test_run_bad_input.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# What a refused command must leave alone: results/, the trees beside
# run.sh, the Debian packages, and the scratch directory the test's --out
# and --resume point into (dpkg's status by time and size). One process: a
# hundred checks take two snapshots each, and a process costs here.
snapshot() {
	local f
	for f in "$top"/results/* "$top"/results/.* "$top"/build*; do
		case ${f##*/} in . | ..) continue ;; esac
		{ [ -e "$f" ] || [ -L "$f" ]; } && echo "$f"
	done
	find /var/lib/dpkg/status "$top/results/latest" "$tmp" \( -path "$tmp" -o -path "$tmp/*" \) -newer "$tmp/.stamp" -print \
		-o ! -path "$tmp" ! -path "$tmp/*" -printf '%p %l %T@ %s\n' 2>/dev/null
}
fail=0
# check OPTION-NAME ARGS...: refused as above. With IC_STOP_AFTER_CHECKS an
# input run.sh fails to refuse ends after the checks (exit 0: this check
# fails) instead of running a sweep on the machine.
check() {
	local name=$1; shift
	local before after err rc
	touch "$tmp/.stamp"
	sleep 0.01
	before=$(snapshot)
	err=$(IC_STOP_AFTER_CHECKS=1 "$run" "$@" 2>&1 >/dev/null); rc=$?
	after=$(snapshot)
	if [ $rc -ne 2 ]; then echo "FAIL: run.sh $* exited $rc, want 2: $err"; fail=1; fi
	if [ -z "$err" ] || [[ $err == *$'\n'* ]]; then echo "FAIL: run.sh $*: not one line: $err"; fail=1; fi
	if [[ $err != *"$name"* ]]; then echo "FAIL: run.sh $*: '$err' does not name $name"; fail=1; fi
	if [ "$before" != "$after" ]; then echo "FAIL: run.sh $* changed results/, a build tree, the packages or $tmp"; fail=1; fi
	# The mutant runner wants the first failure, not all of them.
	[ $fail -eq 0 ] || [ -z "${IC_TEST_FIRST_FAILURE:-}" ] || exit 1
}
check --sites --sites 0
check --sites --sites abc
check --sites --sites 1000001
check --sites --sites 64..8
check --threads --threads -1
check --threads --threads 0
check --forms --forms inlined
check --forms --forms inline
check --ops --ops nosuch
check --forms --forms mark,extern
check --per-caller --per-caller 0
check --per-caller --per-caller x
check --filler --filler x
check --filler --filler 65537
check --filler --filler -8
check --filler --filler ,
# An empty entry is refused, at the end too (--forms inline, would compare inline with nothing).
check --forms --forms inline,
check --threads --threads 1,
check --cflags --cflags "-O2;"
# Filler series and the nolock forms run at 1 thread, private only.
check --filler --filler 512 --threads 2
check --forms --forms inline_nolock,extern_nolock --threads 2
check --cc --cc no-such-compiler-here
# A list names each thing once (--cc gcc,gcc would measure one tree twice).
check --cc --cc gcc,gcc
check --cflags --cflags "-O2; -O2"
check --forms --forms inline,extern,inline
check --sites --sites 64,064
check --filler --filler 64,064
check --cflags --cflags "O2"
check --codegen --codegen gpu
check --codegen --vectorised --codegen kernel
check --return-thunk --return-thunk jmp
# Refused before clang is installed, where it is not.
check --lto --lto --cc clang
check --codegen --codegen kernel --cc clang
check --codegen --codegen user,kernel --cc gcc,clang
check --layouts-random --lto --layouts-random 3
check --calibrate --calibrate --cflags "-O2;-Os"
check --modes --calibrate --modes shared
check --forms --calibrate --forms inline,extern
# A subcommand's helper is no subcommand.
check "unknown option 'args'" args
# A word, or an empty one, where a subcommand takes only options.
check "history: unexpected argument 'foo'" history foo
check "micro: unexpected argument ''" micro ""
check --body --body /nonexistent/body.c
check --ops --body "$top/examples/kref.c" --ops tail_dequeue
check --forms --body "$top/examples/kref.c" --forms inline,extern_nolock
# Names CMake refuses, refused before any configure (in CMake's words).
cp "$top/examples/kref.c" "$tmp/bad-name.c" && check --body --body "$tmp/bad-name.c"
cp "$top/examples/kref.c" "$tmp/tail_dequeue.c" && check --body --body "$tmp/tail_dequeue.c"
mkdir -p "$tmp/semi;colon" && cp "$top/examples/kref.c" "$tmp/semi;colon/kref2.c" && check --body --body "$tmp/semi;colon/kref2.c"
check --layouts --layouts diagonal
check --orders --orders sideways
check --counters --counters perf
check --modes --modes exclusive
check --reps --reps 0
check --reps --reps 1
check --reps --reps 2
check --layouts-random --layouts-random 0
check --layout-seed --layout-seed x
check --processes --processes 0
check --processes --layouts-random 1 --processes 1
check --processes --quick --processes 1
check --repeat --repeat 0
check --spread --repeat 2 --spread 0
check --spread --repeat 2 --spread -5
check --spread --repeat 2 --spread 1e3
check --spread --repeat 2 --spread 10081
check --spread --repeat 2 --spread ""
check --spread --spread 30
check --spread --repeat 1 --spread 30
check --spread --repeat 2 --spread 30 --calibrate
check --trials --trials 1
check --min-time --min-time -1
check --jobs --jobs 0
check --quick --quick=1
check --bogus --bogus
check --bogus --bogus=1
# ./run.sh test takes --all alone.
check --bogus test --bogus
check --all=1 test --all=1
check "'all'" test all
# --out: empty, not writable, not empty: refused before the build.
check --out --out= --quick
check --out --out "" --quick
check --out --out /proc/inlinecost-x --quick
mkdir -p "$tmp/full" && touch "$tmp/full/x" && check --out --out "$tmp/full" --quick
touch "$tmp/file" && check --out --out "$tmp/file/sub" --quick
check --resume --resume /nonexistent-results-dir
check --resume --resume "$tmp/full" --out "$tmp/other"
# A relative --resume is taken from the caller's directory, not the repo's.
mkdir -p "$top/results/.bad-input-probe" && touch "$top/results/.bad-input-probe/run.conf"
( cd / && check --resume --resume results/.bad-input-probe; exit $fail ) || fail=1
rm -rf "$top/results/.bad-input-probe"

# run.conf is data: a line that is not key=value, an unknown key, or a
# value the option would refuse is refused, and nothing in it runs.
conf_dir=$tmp/conf
mkdir -p "$conf_dir"
good_conf() {
	cat <<CONF
sites=1,64
forms=inline,extern
ops=tail_dequeue
layouts=chain
orders=seq
fillers=0
cases=chain:seq:0:0
seed=1
per_caller=16
lto=0
threads=1
modes=private
reps=3
min_time=0.005
counters=none
layouts_random=1
layout_seed=7
processes=2
repeat=1
trials=20
quick=0
find_crossover=0
calibrate=0
compare=inline
baseline=extern
build_source=0000000000000000
CONF
}
{ good_conf; echo 'sites=$(touch '"$tmp"'/pwned)'; } >"$conf_dir/run.conf"
check --sites --resume "$conf_dir"
{ good_conf; echo "declare -- x=\"\$(touch $tmp/pwned)\""; } >"$conf_dir/run.conf"
check --resume --resume "$conf_dir"
{ good_conf; echo 'evil=1'; } >"$conf_dir/run.conf"
check --resume --resume "$conf_dir"
[ ! -e "$tmp/pwned" ] || { echo "FAIL: a run.conf value ran as code"; fail=1; }
# --resume takes the run's settings; an option that says otherwise is refused.
good_conf >"$conf_dir/run.conf"
check --sites --resume "$conf_dir" --sites 1,2
# ... a codegen too, in those words (not as --codegen given twice).
{ good_conf; echo codegens=vectorised; } >"$conf_dir/run.conf"
check "--codegen kernel contradicts" --resume "$conf_dir" --codegen kernel
good_conf >"$conf_dir/run.conf"
# Code other than the run's: refused (exit 1: not usage) before a build
# tree is made (the driver that refuses it is compiled into build-tools/).
touch "$tmp/.stamp"
before=$(ls -d "$top"/build* 2>/dev/null | grep -v '/build-tools$')
err=$("$run" --resume "$conf_dir" 2>&1 >/dev/null); rc=$?
if [ $rc -ne 1 ] || ! grep -q "measured from other code" <<<"$err"; then
	echo "FAIL: --resume of another tree's results: exit $rc, '$err'"; fail=1
fi
[ "$before" = "$(ls -d "$top"/build* 2>/dev/null | grep -v '/build-tools$')" ] ||
	{ echo "FAIL: a refused --resume made a build tree"; fail=1; }
[ -z "$(find "$conf_dir" -mindepth 1 -newer "$tmp/.stamp" ! -name .run.sh-lock)" ] || { echo "FAIL: a refused --resume wrote into the run"; fail=1; }
# report: a directory that is not a run, or none.
check report report "$tmp/no-such-run"
mkdir -p "$tmp/not-a-run"
check report report "$tmp/not-a-run"
check report report

# Every subcommand answers --help: exit 0, usage on stdout, nothing else.
for sub in "" test micro codesize compare export agree report; do
	# shellcheck disable=SC2086
	out=$("$run" $sub --help 2>"$tmp/help.err"); rc=$?
	if [ $rc -ne 0 ] || ! grep -qi usage <<<"$out" || [ -s "$tmp/help.err" ]; then
		echo "FAIL: run.sh $sub --help: exit $rc, $(head -n 1 "$tmp/help.err")"; fail=1
	fi
done
[ $fail -eq 0 ] && echo "run.sh: every bad input refused with exit 2, one line, nothing installed, built or written; --help everywhere"
exit $fail
