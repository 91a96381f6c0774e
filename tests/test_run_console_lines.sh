#!/usr/bin/env bash
# What run.sh prints on the terminal: one prefix on every line, a refusal
# included; a path the user gives made absolute. The sweep's lines are the
# driver's (test_run_driver: the build's progress, the counter line); the
# closing block is summarize's (test_report_in_place).
# Usage: test_run_console_lines.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
. "$(dirname "$0")/lib.sh"
scratch tmp
# shellcheck disable=SC2034 # the scripts need $top, $prog and $caller_pwd
prog=./run.sh caller_pwd=$PWD
for f in common options plan build; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done
set +e

# A refusal: one line, under the prefix.
err=$("$run" --sites 0 2>&1 >/dev/null)
[[ $err == "inlinecost: "* ]] || bad "a refusal without the prefix: $err"

# A path as given, made absolute without the slash a shell's completion adds.
[ "$(caller_pwd=/w abs_path results/x/)" = /w/results/x ] && [ "$(abs_path /a//)" = /a ] && [ "$(abs_path /)" = / ] ||
	bad "abs_path: $(caller_pwd=/w abs_path results/x/) $(abs_path /a//) $(abs_path /)"

[ $fail -eq 0 ] && echo "test_run_console_lines: one prefix, paths made absolute"
exit $fail
