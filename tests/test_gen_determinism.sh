#!/bin/sh
# gen: same arguments, byte-identical files; another seed, another order.
# usage: test_gen_determinism.sh GEN
gen=$1
. "$(dirname "$0")/lib.sh"
scratch tmp

for layout in chain scatter; do
	args="--sites 100 --form hint --op mixed --layout $layout --order random --seed 42 --per-file 32"
	"$gen" $args -o "$tmp/a_$layout" || bad "gen $args failed"
	"$gen" $args -o "$tmp/b_$layout" || bad "gen $args failed"
	diff -r "$tmp/a_$layout" "$tmp/b_$layout" >/dev/null || bad "$layout: same arguments, different files"
	# Running again over existing files gives the same tree.
	"$gen" $args -o "$tmp/a_$layout" || bad "gen $args failed (rerun)"
	diff -r "$tmp/a_$layout" "$tmp/b_$layout" >/dev/null || bad "$layout: rerun changed the files"
	n=$(ls -A "$tmp/a_$layout" | wc -l)
	[ "$n" -eq 6 ] || bad "$layout: $n files, expected sites_0..3.c, point.c, manifest.txt"
	ls -A "$tmp/a_$layout" | grep -q tmp && bad "$layout: temporary file left behind"

	"$gen" --sites 100 --form hint --op mixed --layout $layout --order random --seed 43 \
		--per-file 32 -o "$tmp/c_$layout" || bad "gen seed 43 failed"
	"$gen" --sites 100 --form hint --op mixed --layout $layout --order seq \
		--per-file 32 -o "$tmp/s_$layout" || bad "gen seq failed"
	# Only the order differs: the sites are the same, and the walk is a permutation.
	for i in 0 1 2 3; do
		sed 1d "$tmp/c_$layout/sites_$i.c" | sed 's/_random_s43_/_seq_/g' >"$tmp/x"
		sed 1d "$tmp/s_$layout/sites_$i.c" | cmp -s - "$tmp/x" || bad "$layout: sites_$i.c differs between orders"
	done
	grep -o '_\(site\|caller\)_[0-9]*' "$tmp/c_$layout/point.c" | sort >"$tmp/rand"
	grep -o '_\(site\|caller\)_[0-9]*' "$tmp/s_$layout/point.c" | sort >"$tmp/seq"
	cmp -s "$tmp/rand" "$tmp/seq" || bad "$layout: random walk is not a permutation of seq"
	grep -o '_\(site\|caller\)_[0-9]*(ctx)\|_site_[0-9]*,$' "$tmp/s_$layout/point.c" >"$tmp/seqwalk"
	grep -o '_\(site\|caller\)_[0-9]*(ctx)\|_site_[0-9]*,$' "$tmp/c_$layout/point.c" >"$tmp/randwalk"
	grep -o '_\(site\|caller\)_[0-9]*(ctx)\|_site_[0-9]*,$' "$tmp/a_$layout/point.c" >"$tmp/walk42"
	cmp -s "$tmp/seqwalk" "$tmp/randwalk" && bad "$layout: random order is the seq order"
	cmp -s "$tmp/walk42" "$tmp/randwalk" && bad "$layout: seeds 42 and 43 give the same order"
done

# File count is ceil(N/K); seq ignores the seed.
"$gen" --sites 5 --form extern --per-file 2 -o "$tmp/k2" || bad "gen N=5 K=2 failed"
[ "$(ls "$tmp/k2" | grep -c '^sites_[0-9]*\.c$')" -eq 3 ] || bad "N=5 K=2: not 3 site files"
"$gen" --sites 5 --form extern --per-file 2 --seed 9 -o "$tmp/k2s" || bad "gen seed 9 failed"
diff -r "$tmp/k2" "$tmp/k2s" >/dev/null || bad "seq output depends on the seed"
"$gen" --sites 1 --form inline -o "$tmp/one/two" || bad "gen N=1 into a new nested dir failed"
[ -f "$tmp/one/two/manifest.txt" ] || bad "N=1: no manifest"

[ $fail -eq 0 ] && echo "ok: gen is deterministic"
exit $fail
