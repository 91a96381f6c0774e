#!/usr/bin/env bash
# One sweep over several builds (issue 10): --cc gcc,clang --cflags "-O2;-Os"
# builds four trees and runs them as four series, kept apart in points.csv
# by their compiler and flags; and --body runs a shipped example end to end.
# A small design (N = 1 and 16, one series) keeps it to a few minutes.
# Usage: test_run_builds.sh PATH/TO/run.sh
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
command -v clang >/dev/null || { echo "skip: clang not installed (run.sh installs it for a real --cc clang run)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
small=(--sites 1,16 --layouts chain --orders seq --threads 1 --modes private
	--layouts-random 1 --processes 2 --reps 3 --min-time 0.002)

"$run" --cc gcc,clang --cflags "-O2;-Os" --forms inline,extern "${small[@]}" --out "$tmp/cc" >"$tmp/cc.log" 2>&1 ||
	{ tail -n 20 "$tmp/cc.log"; bad "the --cc/--cflags sweep failed"; }
p=$tmp/cc/points.csv
if [ -s "$p" ]; then
	builds=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["form"] == "inline" { print $c["compiler"] "|" $c["cflags"] }' "$p" | sort -u)
	[ "$(wc -l <<<"$builds")" -eq 4 ] || bad "want 4 builds in points.csv, got: $(tr '\n' ';' <<<"$builds")"
	grep -q '^GNU' <<<"$builds" && grep -q '^Clang' <<<"$builds" || bad "points.csv lacks a gcc or a clang build: $builds"
	grep -q -- '-Os' <<<"$builds" || bad "points.csv lacks the -Os builds: $builds"
	[ "$(ls "$tmp"/cc/raw/b3_*.json 2>/dev/null | wc -l)" -eq 2 ] || bad "want 2 processes of the fourth build in raw/"
else
	bad "the --cc/--cflags sweep wrote no $p"
fi

# Your own body end to end, in every form: kref (each example's forms are
# compiled, proved and run by the body_* tests; a run of each here would
# build four more trees, minutes of CI).
for ex in "$(dirname "$run")"/examples/kref.c; do
	name=$(basename "$ex" .c)
	"$run" --body "$ex" "${small[@]}" --out "$tmp/$name" >"$tmp/$name.log" 2>&1 ||
		{ tail -n 20 "$tmp/$name.log"; bad "the --body examples/$name.c sweep failed"; continue; }
	for form in inline extern clone mark; do
		grep -q "^$form,$name," "$tmp/$name/points.csv" || bad "$name: points.csv has no $form rows"
	done
done

# A body that does not compile: one line naming its first error, exit 1,
# no results directory.
"$run" --body "$(dirname "$run")/tests/data/body/broken.c" "${small[@]}" --out "$tmp/broken" >/dev/null 2>"$tmp/broken.err"
rc=$?
[ $rc -eq 1 ] || bad "a broken body exited $rc, want 1"
[ "$(wc -l <"$tmp/broken.err")" -eq 1 ] && grep -q error "$tmp/broken.err" || bad "a broken body: not one error line: $(cat "$tmp/broken.err")"
[ ! -e "$tmp/broken" ] || bad "a broken body left a results directory"

[ $fail -eq 0 ] && echo "ok: four builds kept apart, a body run end to end, a broken body refused"
exit $fail
