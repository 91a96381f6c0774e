#!/usr/bin/env bash
# What run.sh prints on the terminal: one prefix on every line (a refusal
# included), the closing block as plain text (the summary's first section
# without its Markdown, else verdict.txt as it is; the driver's, sweep
# report, with a stand-in summarize that writes the given summary). The
# sweep's own lines are tested in test_run_driver.
# Usage: test_run_console_lines.sh PATH/TO/run.sh PATH/TO/sweep
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
sweep=$2
. "$(dirname "$0")/lib.sh"
scratch tmp
# shellcheck disable=SC2034 # the scripts need $top, $prog and $caller_pwd
prog=./run.sh caller_pwd=$PWD
for f in common options plan build report; do
	# shellcheck disable=SC1090
	. "$top/scripts/$f.sh"
done
set +e

# A refusal: one line, under the prefix.
err=$("$run" --sites 0 2>&1 >/dev/null)
[[ $err == "inlinecost: "* ]] || bad "a refusal without the prefix: $err"

# closing_block: what sweep report prints of the summary (or verdict.txt) in $tmp.
mkdir -p "$tmp/b/cmd" "$tmp/run/raw"
printf 'repeat=1\n' >"$tmp/run/run.conf"
printf '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --out ] && out=$2; shift; done\ncp %s/*.md %s/*.txt "$out/" 2>/dev/null; exit 0\n' \
	"$tmp" "$tmp" >"$tmp/b/cmd/summarize"
printf '#!/bin/sh\n' >"$tmp/b/cmd/draw"
chmod +x "$tmp/b/cmd/"*
closing_block() { "$sweep" report "$tmp/run" "$tmp/b" 2>"$tmp/report.err" || bad "sweep report: $(cat "$tmp/report.err")"; rm -rf "$tmp/run/"*.md "$tmp/run/"*.txt; }

# Every line of plain text under the prefix, no Markdown left, wrapped.
cat >"$tmp/summary.md" <<'MD'
# inlinecost: inline vs extern

## The answer

Where each form is faster, **by how much**; see `points.csv` and [the method](#method).

- **1 thread, private queue**: inline pays up to N = 4 (4-12% faster); from N = 8 calls are 1.3-1.7x faster; the inlined code passes the 32 KiB L1i at N = 176, the extern code at N = 1155.

![time per call site](plots/time.png)

## Evidence

not in the block
MD
dir=$tmp
closing_block >"$tmp/block"
[ -s "$tmp/block" ] || bad "no closing block"
! grep -qv '^inlinecost: ' "$tmp/block" || bad "a closing line without the prefix: $(grep -v '^inlinecost: ' "$tmp/block" | head -n 1)"
! grep -qE '\*\*|`|\]\(|^inlinecost: #' "$tmp/block" || bad "Markdown left in the closing block: $(grep -E '\*\*|`|\]\(|#' "$tmp/block" | head -n 1)"
grep -qx 'inlinecost: The answer' "$tmp/block" || bad "the heading is not a line of its own"
grep -q 'Evidence\|not in the block' "$tmp/block" && bad "the closing block runs past the first section"
grep -qx 'inlinecost: time per call site' "$tmp/block" || bad "an image link not as its text"
awk 'length($0) > 100 + length("inlinecost: ") { exit 1 }' "$tmp/block" || bad "a closing line longer than 100 columns"
grep -q '^inlinecost:   the inlined code passes' "$tmp/block" || grep -q '^inlinecost:   [a-z]' "$tmp/block" ||
	bad "a bullet's continuation not under its text: $(cat "$tmp/block")"
rm "$tmp/summary.md"
printf 'chain/seq: inline pays up to N = 4.\n\nscatter/random: unresolved at N = 1.\n' >"$tmp/verdict.txt"
closing_block >"$tmp/block"
[ "$(cat "$tmp/block")" = "inlinecost: chain/seq: inline pays up to N = 4.
inlinecost: scatter/random: unresolved at N = 1." ] || bad "verdict.txt not printed as it is, under the prefix: $(cat "$tmp/block")"

# A path as given, made absolute without the slash a shell's completion adds.
[ "$(caller_pwd=/w abs_path results/x/)" = /w/results/x ] && [ "$(abs_path /a//)" = /a ] && [ "$(abs_path /)" = / ] ||
	bad "abs_path: $(caller_pwd=/w abs_path results/x/) $(abs_path /a//) $(abs_path /)"

[ $fail -eq 0 ] && echo "test_run_console_lines: one prefix, a plain closing block"
exit $fail
