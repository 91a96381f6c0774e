#!/bin/sh
# compare quotes each run's own verdict from its verdict.json, from a
# results directory and from its export alike, and says so of a run that
# has none (one from before the suite wrote it): on the two recorded runs
# of tests/data/compare.
# usage: test_compare_verdict.sh TOP RUNS SUMMARIZE
set -u
top=$1
runs=$2
summarize=$3
. "$(dirname "$0")/lib.sh"
scratch

cp -r "$top/tests/data/compare/quick-gcc-O2" "$top/tests/data/compare/quick-clang-O2" "$work/" || fail "copy"
a=$work/quick-gcc-O2
b=$work/quick-clang-O2
"$summarize" --out "$a" "$a"/raw/*.json >/dev/null || fail "summarize: exit $?"
[ -s "$a/verdict.json" ] && [ -s "$a/verdict.txt" ] || fail "summarize wrote no verdict"
"$runs" export "$a" >/dev/null 2>&1 || fail "export"

# The verdict lines compare should quote: verdict.txt's, indented.
sed -n 's/^- /  - /p' "$a/verdict.txt" > "$work/want"
[ -s "$work/want" ] || fail "verdict.txt has no verdict line"
for input in "$a" "$a.tar.gz"; do
	o=$work/out-$(basename "$input")
	"$runs" compare --out "$o" "$input" "$b" >/dev/null 2>"$work/err" || fail "compare $input: $(cat "$work/err")"
	md=$o/compare.md
	sed -n '/^## Each input.s verdict/,/^## /p' "$md" > "$work/section"
	grep -q '^- A (quick-gcc-O2)' "$work/section" || fail "$input: no line for A: $(cat "$work/section")"
	grep '^  - ' "$work/section" > "$work/got"
	cmp -s "$work/want" "$work/got" || fail "$input: the quoted verdicts differ: $(diff "$work/want" "$work/got")"
	grep -q '^- B (quick-clang-O2): no verdict.json (a run from before the suite wrote one)$' "$work/section" ||
		fail "$input: B without verdict.json: $(cat "$work/section")"
	# A's smoke mark, if its verdict has one, is quoted on A's line.
	if grep -q '^smoke test' "$a/verdict.txt"; then
		grep -qF "$(grep '^smoke test' "$a/verdict.txt")" "$work/section" || fail "$input: smoke mark not quoted"
	fi
done
echo "test_compare_verdict: ok"
