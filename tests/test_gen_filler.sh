#!/bin/sh
# gen --filler: a filler point's bytes per site, less the same
# point's without filler, is the filler asked for within 25%; every filler
# constant is in the objects (distinct immediates = sites x (1 mark + adds),
# adds = round(B / 7), at least 1), each a register operand; same arguments
# still give byte-identical files, and the point and manifest say the filler;
# in the object code each site's filler precedes its queue operation.
# usage: test_gen_filler.sh GEN CSV ARGFILE
gen=$1 csv=$2 args=$3
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

[ -s "$csv" ] || { echo "FAIL: $csv missing" >&2; exit 1; }
# Bytes per site with filler against without, per group with a slope.
tail -n +2 "$csv" | awk -F, '
	$8 != "" { g = $1 "/" $2 "/" $3 "/" $4; slope[g, $13] = $8; if ($13 > 0) fill[g, $13] = 1 }
	END {
		for (k in fill) {
			split(k, p, SUBSEP); g = p[1]; b = p[2]
			if (!((g, 0) in slope)) { print "FAIL: " g ": no slope without filler to compare"; bad = 1; continue }
			d = slope[g, b] - slope[g, 0]
			printf "%s: %.1f bytes per site, %.1f without filler: %+.1f for %d asked\n", g, slope[g, b], slope[g, 0], d, b
			if (d < 0.75 * b || d > 1.25 * b) { print "FAIL: " g ": filler " b " added " d " bytes per site"; bad = 1 }
			n++
		}
		if (n < 4) { print "FAIL: " n " filler groups with a slope, expected 4"; bad = 1 }
		exit bad
	}' || fail=1

# Every constant is there, once, and in a register.
# Points at their series' largest N (the _m<N>_ of the point's directory):
# there the point's objects hold its sites and no others.
awk '$0 == "--point" { getline spec; split(spec, f, ":"); first = 1; next }
	first { first = 0; keep = match($0, /_m[0-9]+_k/) && substr($0, RSTART + 2, RLENGTH - 4) == f[6] }
	keep { print spec, $0 }' "$args" >"$tmp/objs"
for spec in $(awk '{ print $1 }' "$tmp/objs" | awk -F: 'NF == 7' | uniq); do
	sites=$(echo "$spec" | cut -d: -f6) b=$(echo "$spec" | cut -d: -f7)
	adds=$(((b + 3) / 7)); [ $adds -ge 1 ] || adds=1
	awk -v s="$spec" '$1 == s { print $2 }' "$tmp/objs" | while read -r obj; do
		objdump -d --no-show-raw-insn "$obj"
	done >"$tmp/dis"
	got=$(grep -oE '\$0x[4-7][0-9a-f]{7},|lea +0x[4-7][0-9a-f]{7}\(' "$tmp/dis" | grep -oE '0x[0-9a-f]{8}' | sort -u | wc -l)
	[ "$got" -eq $((sites * (1 + adds))) ] ||
		bad "$spec: $got distinct constants, expected $sites x (1 + $adds)"
	grep -E '\$0x[4-7][0-9a-f]{7},[^%]' "$tmp/dis" | head -3 | grep . >&2 && bad "$spec: a filler constant goes to memory"
	echo "$spec: $got distinct constants ($sites sites x (1 mark + $adds filler))"
done

# Order, read from the object code: each site's whole filler comes before
# its queue operation (its lock, or its calls), after the previous site's.
# In each caller, the instructions with a site's or filler's constant (A)
# and the locked instructions and calls (L): every run of L (one site's
# operation) follows a run of at least `adds` A (its filler, the previous
# mark), and there are as many runs of L as sites.
hex7='[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]'
for spec in inline:tail_dequeue:chain:seq:0:64:256 extern:tail_dequeue:chain:seq:0:64:256; do
	adds=37
	objs=$(awk -v s="$spec" '$1 == s { print $2 }' "$tmp/objs")
	[ -n "$objs" ] || { bad "$spec is not in the test points"; continue; }
	# shellcheck disable=SC2086
	objdump -d --no-show-raw-insn $objs | awk -v h="$hex7" -v adds=$adds -v sites=64 -v s="$spec" '
		BEGIN { imm = "\\$0x[4-7]" h ",|lea +0x[4-7]" h "\\(" }
		/^[0-9a-f]+ <.*>:$/ { a = 0; inl = 0; caller = $2 ~ /_caller_[0-9]+>:$/; next }
		!caller { next }
		$0 ~ imm { a++; inl = 0; next }
		/\tlock |\txchg .*\(|\tcall / {
			if (!inl) {
				ops++
				if (a < adds) { print "FAIL: " s ": a queue operation after " a " filler constants, not " adds; bad = 1 }
			}
			inl = 1; a = 0
		}
		END {
			if (ops != sites) { print "FAIL: " s ": " ops " queue operations, expected " sites; bad = 1 }
			if (!bad) print s ": every site'"'"'s filler before its operation (" ops " sites)"
			exit bad
		}' >&2 || fail=1
done

# Determinism, and what the point and manifest say.
for form in clone mark; do
	a="--sites 40 --form $form --op mixed --layout scatter --order random --seed 9 --per-file 16 --filler 256"
	"$gen" $a -o "$tmp/a_$form" && "$gen" $a -o "$tmp/b_$form" || bad "gen $a failed"
	diff -r "$tmp/a_$form" "$tmp/b_$form" >/dev/null || bad "$form: same --filler arguments, different files"
done
grep -qx 'filler 256' "$tmp/a_clone/manifest.txt" && grep -qx 'filler_adds 37' "$tmp/a_clone/manifest.txt" ||
	bad "the manifest does not say filler 256, filler_adds 37"
grep -q '\.filler = 256,' "$tmp/a_clone/point.c" || bad "the point does not say .filler = 256"
grep -q '^prefix ic_pt_clone_mixed_scatter_random_s9_40_f256$' "$tmp/a_clone/manifest.txt" || bad "no _f256 in the prefix"
"$gen" --sites 40 --form extern -o "$tmp/none" && "$gen" --sites 40 --form extern --filler 0 -o "$tmp/zero" ||
	bad "gen without filler failed"
diff -r "$tmp/none" "$tmp/zero" >/dev/null || bad "--filler 0 differs from no --filler"
grep -q 'addq' "$tmp/zero/sites_0.c" && bad "--filler 0 wrote filler"
"$gen" --sites 40 --form extern --filler 7 -o "$tmp/seven" || bad "gen --filler 7 failed"
[ "$(sed -n 's/^acc_per_pass //p' "$tmp/seven/manifest.txt")" != "$(sed -n 's/^acc_per_pass //p' "$tmp/zero/manifest.txt")" ] ||
	bad "--filler 7 leaves acc_per_pass as it was"

[ $fail -eq 0 ] && echo "ok: filler is about its size, all there, in registers, deterministic"
exit $fail
