#!/bin/sh
# The census's known answers on generated points built with DWARF: every
# inline site holds one copy of each of its op's two locked operations, so
# a program of N sites has N copies of each, with about the bytes codesize
# measures per site between them; the extern form has none.
# usage: test_inlines_census.sh INLINES CHAIN_PROG CHAIN_CSV SCATTER_PROG SCATTER_CSV EXTERN_PROG PER_CALLER
set -u
inlines=$1 chain=$2 chain_csv=$3 scatter=$4 scatter_csv=$5 extern=$6 per_caller=$7
. "$(dirname "$0")/lib.sh"
scratch tmp

# row CSV NAME FIELD: a census row's field (CSV columns of --csv) by name.
row() {
	awk -F, -v name="\"$2\"" -v field="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$1 == name { v = $c[field]; gsub(/"/, "", v); print v }' "$1"
}

# check PROG CSV OPS... : the ops' copies and bytes, and what they share.
# Chain: sites 0..63 in callers of PER_CALLER, and the N = 16 point's own
# tail caller of the 16 mod PER_CALLER sites past its whole callers.
check() {
	prog=$1 csv=$2 n=$3 op1=$4 op2=$5
	"$inlines" --csv "$prog" >"$tmp/census.csv" 2>"$tmp/err" || { bad "$prog: exit $? ($(cat "$tmp/err"))"; return; }
	cp "$tmp/census.csv" "$tmp/$(basename "$prog").csv"
	for op in "$op1" "$op2"; do
		[ "$(row "$tmp/census.csv" "$op" copies)" = "$n" ] ||
			bad "$prog: $op has $(row "$tmp/census.csv" "$op" copies) copies, not $n"
		[ "$(row "$tmp/census.csv" "$op" nested)" = 0 ] && [ "$(row "$tmp/census.csv" "$op" no_bytes)" = 0 ] ||
			bad "$prog: $op has nested or bare copies: $(grep "\"$op\"" "$tmp/census.csv")"
		case $(row "$tmp/census.csv" "$op" decl_file) in
		*/queue/queue_body.h) ;;
		*) bad "$prog: $op declared in $(row "$tmp/census.csv" "$op" decl_file), not queue/queue_body.h" ;;
		esac
	done
	# The locks inside the copies are nested in them, two per site.
	[ "$(row "$tmp/census.csv" ic_lock_acquire nested)" = $((2 * n)) ] ||
		bad "$prog: ic_lock_acquire nested $(row "$tmp/census.csv" ic_lock_acquire nested) times, not $((2 * n))"
	# A site is its two copies, its 7-byte mark and its share of its
	# function's entry and exit (a whole function per site in scatter): the
	# copies hold most of codesize's bytes per site, never more.
	slope=$(awk -F, 'NR == 2 { print $8 }' "$csv")
	m1=$(row "$tmp/census.csv" "$op1" bytes_median) m2=$(row "$tmp/census.csv" "$op2" bytes_median)
	awk -v a="$m1" -v b="$m2" -v s="$slope" 'BEGIN { exit !(s > 0 && a + b <= s && a + b >= 0.75 * s) }' ||
		bad "$prog: copies of $m1 + $m2 B against codesize's $slope B per site"
	echo "$prog: $n copies each of $op1 ($m1 B) and $op2 ($m2 B); codesize: $slope B per site"
}

check "$chain" "$chain_csv" $((64 + 16 % per_caller)) ic_queue_tail_inline ic_dequeue_inline
check "$scatter" "$scatter_csv" 40 ic_insert_inline ic_unlink_inline

# The extern form: the sites call; no copy of any op.
"$inlines" --csv "$extern" >"$tmp/extern.csv" || bad "extern program: exit $?"
grep -q '^"ic_[a-z_]*_extern",' "$tmp/extern.csv" && bad "extern program has copies of: $(grep '_extern"' "$tmp/extern.csv")"
grep -q '^"ic_lock_acquire",' "$tmp/extern.csv" || bad "extern program: the queue's own inlined lock is missing"
out=$("$inlines" --function ic_queue_tail_extern "$extern" 2>"$tmp/err")
rc=$?
[ $rc -eq 2 ] && [ -z "$out" ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] ||
	bad "--function ic_queue_tail_extern: exit $rc, stdout '$out', stderr $(cat "$tmp/err")"

# The text table agrees with the CSV, largest total first, and --top cuts it.
"$inlines" --top 2 "$chain" >"$tmp/text" || bad "text table: exit $?"
[ "$(grep -c '^| ic_' "$tmp/text")" -eq 2 ] || bad "--top 2 printed $(grep -c '^| ic_' "$tmp/text") rows"
first=$(awk -F, 'NR == 2 { gsub(/"/, "", $1); print $1 }' "$tmp/$(basename "$chain").csv")
grep '^| ic_' "$tmp/text" | head -n 1 | grep -q "| $first " || bad "the text's first row is not $first"
exit $fail
