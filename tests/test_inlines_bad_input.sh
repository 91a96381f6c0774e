#!/bin/sh
# Bad input to inlines: each case is one line on stderr naming the problem,
# exit 2, nothing on stdout and nothing written (the scratch directory, a
# chart's path included, is unchanged).
# usage: test_inlines_bad_input.sh INLINES PROG OTHER_PROG CC
set -u
inlines=$1 prog=$2 other=$3 cc=$4
. "$(dirname "$0")/lib.sh"
scratch top
# The inputs and any output would go in tmp; the test's own files beside it.
tmp=$top/s
mkdir "$tmp"

echo 'int main(void) { return 0; }' >"$tmp/notelf.c"
# Stripped, and no build-id to look its debug file up by.
"$cc" -O2 -Wl,--build-id=none -s "$tmp/notelf.c" -o "$tmp/noid" || bad "$cc"
mkdir "$tmp/empty" "$tmp/noraw" "$tmp/badraw" "$tmp/badraw/raw"
touch "$tmp/noraw/run.conf" "$tmp/badraw/run.conf"
echo 'not json' >"$tmp/badraw/raw/r1_v0_p0.json"
snapshot() { (cd "$tmp" && find . | sort && cat ./*.png ./*.svg 2>/dev/null | cksum); }
snapshot >"$top/before"

# refused WORD ARGS...: WORD must be in the line.
refused() {
	word=$1
	shift
	out=$("$inlines" "$@" 2>"$top/err")
	rc=$?
	if [ $rc -ne 2 ] || [ -n "$out" ] || [ "$(wc -l <"$top/err")" -ne 1 ] || ! grep -q -- "$word" "$top/err"; then
		bad "$*: exit $rc, stdout '$out', stderr: $(cat "$top/err")"
	else
		echo "refused: $(cat "$top/err")"
	fi
}

refused "not an ELF" "$tmp/notelf.c"
refused "not a file" "$tmp/empty"
refused "cannot open" "$tmp/missing"
refused "no build-id" "$tmp/noid"
refused "no DWARF" --debug "$tmp/noid" "$prog"
refused "no inlined copy of 'no_such_function'" --function no_such_function "$prog"
refused "not a run" --function ic_twofile_mix --results "$tmp/empty" "$prog"
refused "no finished process" --function ic_twofile_mix --results "$tmp/noraw" "$prog"
refused "not a run" --results "$tmp/empty" "$prog"
refused "r1_v0_p0.json" --function ic_twofile_mix --results "$tmp/badraw" "$prog"
refused "not a directory" --function ic_twofile_mix --results "$tmp/notelf.c" "$prog"
refused "ending in .png" --function ic_twofile_mix --results "$tmp/noraw" --chart "$tmp/chart.jpg" "$prog"
refused "inside the results directory" --function ic_twofile_mix --results "$tmp/noraw" --chart "$tmp/noraw/chart.png" "$prog"
refused "directory cannot be used" --function ic_twofile_mix --results "$tmp/noraw" --chart "$tmp/nodir/chart.png" "$prog"
refused "--chart marks" --chart "$tmp/chart.png" "$prog"
refused "--csv prints the table only" --csv --function ic_twofile_mix --results "$tmp/noraw" "$prog"
refused "--top" --top 0 "$prog"
refused "--top" --top x "$prog"
refused "give the BINARY" --top 3
refused "one too many" "$prog" "$other"
refused "unknown option" --bogus "$prog"
refused "--function needs" --function
snapshot | cmp -s - "$top/before" || bad "something was written: $(snapshot | diff "$top/before" - | head -n 5)"
exit $fail
