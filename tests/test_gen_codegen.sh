#!/bin/sh
# The generated object code: every site's mark is one add of a
# 32-bit immediate to a register (no 64-bit movabs, no add to memory), in
# every form, `mark` (the marks alone) included, and so is each of its filler
# constants (a move or an add, to a register); with general registers
# only, no site and no queue body touches a vector register; --per-caller C
# puts C sites in each chain caller.
# usage: test_gen_codegen.sh GEN ARGFILE general|any QUEUE_LIB
gen=$1 args=$2 regs=$3 queue=$4
command -v objdump >/dev/null || { echo "skip: objdump (binutils) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# spec object, one per line.
# Points at their series' largest N (the _m<N>_ of the point's directory):
# there the point's objects hold its sites and no others.
awk '$0 == "--point" { getline spec; split(spec, f, ":"); first = 1; next }
	first { first = 0; keep = match($0, /_m[0-9]+_k/) && substr($0, RSTART + 2, RLENGTH - 4) == f[6] }
	keep { print spec, $0 }' "$args" >"$tmp/objs"
[ -s "$tmp/objs" ] || { echo "FAIL: no objects in $args" >&2; exit 1; }

while read -r spec obj; do
	case $obj in */point.c.o) continue ;; esac
	objdump -d --no-show-raw-insn "$obj" >"$tmp/dis" || { bad "objdump $obj"; continue; }
	# The marks: each site's constant is in [2^30, 2^31), so its add is
	# `add $0x4...,%reg` (to $0x7...), or gcc's three-operand form of it,
	# `lea 0x4...(%reg),%reg`: one register op either way.
	grep -q 'movabs' "$tmp/dis" && bad "$spec: a movabs in $(basename "$obj")"
	grep -qE 'add[lq]? +\$0x[4-7][0-9a-f]{7},[^%]*\(' "$tmp/dis" && bad "$spec: a mark adds to memory in $(basename "$obj")"
	# Filler starts each accumulator with a move of its first constant.
	case $spec in *:*:*:*:*:*:*) mov='|mov +\$0x[4-7][0-9a-f]{7},%[er]' ;; *) mov= ;; esac
	echo "$spec $(grep -cE 'add +\$0x[4-7][0-9a-f]{7},%r|lea +0x[4-7][0-9a-f]{7}\(%r[0-9a-z]+\),%r'"$mov" "$tmp/dis")" \
		>>"$tmp/marks"
	if [ "$regs" = general ] && grep -qE '%[xyz]mm[0-9]' "$tmp/dis"; then
		bad "$spec: vector registers in $(basename "$obj"):"; grep -E '%[xyz]mm' "$tmp/dis" | head -3 >&2
	fi
done <"$tmp/objs"

# One mark per site, and with filler B round(B / 7) (at least 1) constants
# more (gen's count), in every point.
awk '!($1 in n) { order[++k] = $1 } { n[$1] += $2 } END { for (i = 1; i <= k; i++) print order[i], n[order[i]] }' \
	"$tmp/marks" >"$tmp/sum"
while read -r spec got; do
	sites=$(echo "$spec" | cut -d: -f6) filler=$(echo "$spec" | cut -d: -f7)
	adds=0
	if [ "${filler:-0}" -gt 0 ]; then adds=$(((filler + 3) / 7)); [ $adds -ge 1 ] || adds=1; fi
	[ "$got" -eq $((sites * (1 + adds))) ] || bad "$spec: $got register constants for $sites sites x (1 mark + $adds filler)"
done <"$tmp/sum"

if [ "$regs" = general ]; then
	objdump -d "$queue" | grep -qE '%[xyz]mm[0-9]' && bad "vector registers in the queue library $queue"
fi

# Sites per caller: 37 sites in files of 20, callers of 5: 4 + 4 callers.
"$gen" --sites 37 --form extern --per-file 20 --per-caller 5 -o "$tmp/pc" || bad "gen --per-caller 5"
[ "$(sed -n 's/^callers //p' "$tmp/pc/manifest.txt")" = 8 ] || bad "--per-caller 5: callers $(sed -n 's/^callers //p' "$tmp/pc/manifest.txt"), expected 8"
[ "$(sed -n 's/^per_caller //p' "$tmp/pc/manifest.txt")" = 5 ] || bad "--per-caller not in the manifest"
grep -q '\.per_caller = 5,' "$tmp/pc/point.c" || bad "--per-caller not in the point"
n=$(awk '/_caller_0\(struct/ { on = 1 } on && /site [0-9]+ \*\// { n++ } on && /^}/ { exit } END { print n + 0 }' "$tmp/pc/sites_0.c")
[ "$n" -eq 5 ] || bad "caller 0 has $n sites, expected 5"
"$gen" --sites 37 --form extern --per-caller 0 -o "$tmp/pc0" 2>"$tmp/err" && bad "--per-caller 0 accepted"
[ -e "$tmp/pc0" ] && bad "--per-caller 0 wrote output"
# A caller never spans files: more per caller than per file is refused, and
# by default callers shrink to the file and the point says the real count.
"$gen" --sites 37 --form extern --per-file 20 --per-caller 21 -o "$tmp/pc21" 2>"$tmp/err" && bad "--per-caller 21 > --per-file 20 accepted"
[ -e "$tmp/pc21" ] && bad "--per-caller 21 wrote output"
"$gen" --sites 37 --form extern --per-file 8 -o "$tmp/pf8" || bad "gen --per-file 8"
grep -q '\.per_caller = 8,' "$tmp/pf8/point.c" || bad "--per-file 8: the point does not say 8 sites per caller"

[ $fail -eq 0 ] && echo "ok: one 32-bit register mark per site, registers as configured ($regs), --per-caller"
exit $fail
