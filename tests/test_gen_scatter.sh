#!/bin/sh
# The linked program keeps every site function of each scatter point, at an
# address of its own (nothing folded), and every caller of each chain point.
# usage: test_gen_scatter.sh PROGRAM POINT_DIR...
prog=$1
shift
fail=0
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
nm --defined-only "$prog" >"$tmp" || exit 1

for dir in "$@"; do
	prefix=$(sed -n 's/^prefix //p' "$dir/manifest.txt")
	sites=$(sed -n 's/^sites //p' "$dir/manifest.txt")
	if grep -q '^layout scatter$' "$dir/manifest.txt"; then
		kind=site want=$sites
	else
		kind=caller want=$(sed -n 's/^callers //p' "$dir/manifest.txt")
	fi
	names=$(grep -c " [Tt] ${prefix}_${kind}_[0-9]*\$" "$tmp")
	addrs=$(grep " [Tt] ${prefix}_${kind}_[0-9]*\$" "$tmp" | cut -d' ' -f1 | sort -u | wc -l)
	if [ "$names" -ne "$want" ] || [ "$addrs" -ne "$want" ]; then
		echo "FAIL: $prefix: $names ${kind} functions at $addrs addresses, expected $want" >&2
		fail=1
	fi
done
[ $fail -eq 0 ] && echo "ok: $# points, every site function linked at its own address"
exit $fail
