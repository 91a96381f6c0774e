#!/usr/bin/env bash
# One sweep over several builds: --body with --cc gcc,clang --cflags
# "-O2;-Os" builds four trees and runs them as four series, kept apart in
# points.csv by their compiler and flags, the body in every form. A small
# design (N = 1 and 16, one series) keeps it to a few minutes. And a body
# that does not compile is refused before anything is built.
# Usage: test_run_builds.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
# An honest skip: this test is about a second compiler, which only
# ./run.sh --cc clang (or .ci/run) installs.
command -v clang >/dev/null || { echo "skip: clang not installed (run.sh installs it for a real --cc clang run; .ci/run does)"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp
small=(--sites 1,16 --layouts chain --orders seq --threads 1 --modes private
	--layouts-random 1 --processes 2 --reps 3 --min-time 0.002)

# Your own body end to end, in every form, in four builds (each example's
# forms are compiled, proved and run by the body_* tests).
name=kref
"$run" --body "$top/examples/$name.c" --cc gcc,clang --cflags "-O2;-Os" "${small[@]}" --out "$tmp/cc" >"$tmp/cc.log" 2>&1 ||
	{ tail -n 20 "$tmp/cc.log"; bad "the --body --cc/--cflags sweep failed"; }
p=$tmp/cc/points.csv
if [ -s "$p" ]; then
	builds=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["form"] == "inline" { print $c["compiler"] "|" $c["cflags"] }' "$p" | sort -u)
	[ "$(wc -l <<<"$builds")" -eq 4 ] || bad "want 4 builds in points.csv, got: $(tr '\n' ';' <<<"$builds")"
	grep -q '^GNU' <<<"$builds" && grep -q '^Clang' <<<"$builds" || bad "points.csv lacks a gcc or a clang build: $builds"
	grep -q -- '-Os' <<<"$builds" || bad "points.csv lacks the -Os builds: $builds"
	[ "$(ls "$tmp"/cc/raw/b3_*.json 2>/dev/null | wc -l)" -eq 2 ] || bad "want 2 processes of the fourth build in raw/"
	for form in inline extern clone mark; do
		grep -q "^$form,$name," "$p" || bad "$name: points.csv has no $form rows"
	done
	# The terminal gets phases, not make's lines.
	! grep -q 'Building C object' "$tmp/cc.log" || bad "build output reached the terminal"
	grep -q 'build 4/4' "$tmp/cc.log" || bad "no progress line for the fourth build"
else
	bad "the --body --cc/--cflags sweep wrote no $p"
fi

# A body that does not compile: one line naming its first error, exit 2,
# no results directory, no tree.
before=$(ls -d "$top"/build* 2>/dev/null)
"$run" --body "$top/tests/data/body/broken.c" "${small[@]}" --out "$tmp/broken" >/dev/null 2>"$tmp/broken.err"
rc=$?
[ $rc -eq 2 ] || bad "a broken body exited $rc, want 2"
[ "$(wc -l <"$tmp/broken.err")" -eq 1 ] && grep -q -- '--body: .*error' "$tmp/broken.err" || bad "a broken body: not one error line: $(cat "$tmp/broken.err")"
[ ! -e "$tmp/broken" ] || bad "a broken body left a results directory"
[ "$before" = "$(ls -d "$top"/build* 2>/dev/null)" ] || bad "a broken body made a build tree"

[ $fail -eq 0 ] && echo "ok: four builds kept apart, a body run end to end in each, a broken body refused"
exit $fail
