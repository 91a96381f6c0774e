#!/bin/sh
# The linked program keeps every function a point's pass calls (each scatter
# site function, each chain caller: its series' whole callers and its own
# tail) at an address of its own, and no two site functions of any series or
# point share an address: identical-code folding merged none (each site has
# constants of its own, and the points of a series call the same sites).
# usage: test_gen_scatter.sh PROGRAM POINT_DIR...
prog=$1
shift
. "$(dirname "$0")/lib.sh"
scratch tmp
nm --defined-only "$prog" >"$tmp/nm" || exit 1

for dir in "$@"; do
	prefix=$(sed -n 's/^prefix //p' "$dir/manifest.txt")
	if grep -q '^layout scatter$' "$dir/manifest.txt"; then
		want=$(sed -n 's/^sites //p' "$dir/manifest.txt")
	else
		want=$(sed -n 's/^callers //p' "$dir/manifest.txt")
	fi
	# The functions point.c declares, less its pass.
	sed -n 's/^void \(ic_[a-z0-9_]*\)(struct ic_site_ctx \*ctx);$/\1/p' "$dir/point.c" |
		grep -v '_pass$' | sort -u >"$tmp/called"
	awk 'NR == FNR { want[$1] = 1; next } ($2 == "T" || $2 == "t") && ($3 in want) { print $1 }' \
		"$tmp/called" "$tmp/nm" >"$tmp/addrs"
	names=$(wc -l <"$tmp/called")
	found=$(wc -l <"$tmp/addrs")
	addrs=$(sort -u "$tmp/addrs" | wc -l)
	if [ "$names" -ne "$want" ] || [ "$found" -ne "$want" ] || [ "$addrs" -ne "$want" ]; then
		bad "$prefix: calls $names functions, $found linked at $addrs addresses, expected $want"
	fi
done
# Across the program: every site function and caller at its own address.
grep -E ' [Tt] ic_(sr|pt)_[a-z0-9_]*_(site|caller)_[0-9]+$' "$tmp/nm" | cut -d' ' -f1 >"$tmp/all"
total=$(wc -l <"$tmp/all")
distinct=$(sort -u "$tmp/all" | wc -l)
[ "$total" -gt 0 ] || bad "no site functions in $prog"
[ "$total" -eq "$distinct" ] || bad "$total site functions at $distinct addresses (folded)"
[ $fail -eq 0 ] && echo "ok: $# points, every site function linked at its own address ($total in all)"
exit $fail
