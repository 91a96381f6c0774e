#!/bin/sh
# codesize_report: ./run.sh codesize's report, from a CSV with known
# footprints: the tables, where the inline footprint passes the L1i and the
# L2 (between the last N within and the first past), an unknown size, rows
# in any order; bad usage exits 2 with one line and prints nothing; the
# build's own CSV gets a table per series.
# usage: test_codesize_report.sh CODESIZE_REPORT CSV
report=$1 build_csv=$2
. "$(dirname "$0")/lib.sh"
scratch tmp

cat >"$tmp/in.csv" <<'CSV'
form,op,layout,order,seed,sites,footprint_bytes,code_bytes_per_site,queue_calls,ops_per_site,inlined_sites,site_functions,filler
inline,tail_dequeue,chain,seq,0,1,320,185.98,0,2,1,1,0
inline,tail_dequeue,chain,seq,0,128,23968,185.98,0,2,128,8,0
inline,tail_dequeue,chain,seq,0,256,47616,185.98,0,2,256,16,0
hint,tail_dequeue,chain,seq,0,1,320,185.92,0,2,1,1,0
hint,tail_dequeue,chain,seq,0,128,23968,185.92,0,2,128,8,0
hint,tail_dequeue,chain,seq,0,256,47600,185.92,2,2,255,16,0
extern,tail_dequeue,chain,seq,0,1,90,28.01,2,2,0,1,0
extern,tail_dequeue,chain,seq,0,128,3650,28.01,256,2,0,8,0
extern,tail_dequeue,chain,seq,0,256,7236,28.01,512,2,0,16,0
mark,tail_dequeue,chain,seq,0,1,40,7.00,0,2,1,1,0
mark,tail_dequeue,chain,seq,0,128,929,7.00,0,2,128,8,0
mark,tail_dequeue,chain,seq,0,256,1825,7.00,0,2,256,16,0
inline,mixed,scatter,random,7,1,600,420.50,0,2,1,1,256
inline,mixed,scatter,random,7,64,27500,420.50,0,2,64,64,256
extern,mixed,scatter,random,7,1,350,290.10,2,2,0,1,256
extern,mixed,scatter,random,7,64,18900,290.10,128,2,0,64,256
CSV
cat >"$tmp/want" <<'TEXT'

tail_dequeue/chain/seq: code bytes of all N call sites (footprint)

| N | inline | hint (sites inlined) | extern | clone | inline_nolock | extern_nolock | mark alone |
|---:|---:|---:|---:|---:|---:|---:|---:|
| 1 | 320 | 320 (1) | 90 |  |  |  | 40 |
| 128 | 23968 | 23968 (128) | 3650 |  |  |  | 929 |
| 256 | 47616 | 47600 (255) | 7236 |  |  |  | 1825 |
| bytes per site (slope over N) | 185.98 | 185.92 | 28.01 |  |  |  | 7.00 |

The inline footprint passes this machine's L1i (32 KiB, hwloc) between N = 128 and 256.
The inline footprint stays within the L2 (1024 KiB) up to N = 256.

mixed/scatter/random, 256 B filler per site: code bytes of all N call sites (footprint)

| N | inline | hint (sites inlined) | extern | clone | inline_nolock | extern_nolock | mark alone |
|---:|---:|---:|---:|---:|---:|---:|---:|
| 1 | 600 |  () | 350 |  |  |  |  |
| 64 | 27500 |  () | 18900 |  |  |  |  |
| bytes per site (slope over N) | 420.50 |  | 290.10 |  |  |  |  |

The inline footprint stays within the L1i (32 KiB) up to N = 64.
The inline footprint stays within the L2 (1024 KiB) up to N = 64.
TEXT

"$report" --l1i 32768 --l2 1048576 "$tmp/in.csv" >"$tmp/got" 2>"$tmp/err" || bad "exit $?: $(cat "$tmp/err")"
cmp -s "$tmp/want" "$tmp/got" || bad "the report differs: $(diff "$tmp/want" "$tmp/got" | head -n 20)"

# Sizes given after --machine win over this machine's (sizes no machine has).
"$report" --l1i 4096 --l2 24576 "$tmp/in.csv" >"$tmp/sizes" 2>&1 || bad "4 KiB L1i: exit $?"
"$report" --machine --l1i 4096 --l2 24576 "$tmp/in.csv" >"$tmp/got" 2>&1 || bad "--machine first: exit $?"
cmp -s "$tmp/sizes" "$tmp/got" || bad "--l1i/--l2 after --machine lost: $(diff "$tmp/sizes" "$tmp/got" | head -n 20)"

# The rows in another order within each series: the same report.
{ head -n 1 "$tmp/in.csv"; sed -n '2,13p' "$tmp/in.csv" | sort -t, -k6,6nr; sed -n '14,$p' "$tmp/in.csv" | sort -r; } >"$tmp/shuffled.csv"
"$report" --l1i 32768 --l2 1048576 "$tmp/shuffled.csv" >"$tmp/got" 2>&1 || bad "shuffled rows: exit $?"
cmp -s "$tmp/want" "$tmp/got" || bad "shuffled rows: $(diff "$tmp/want" "$tmp/got" | head -n 20)"

# An unknown L1i, a 24 KiB L2: both series pass it, the second at its first N.
"$report" --l2 24576 "$tmp/in.csv" >"$tmp/got" 2>&1 || bad "unknown L1i: exit $?"
[ "$(grep -c '^L1i size unknown (hwloc)$' "$tmp/got")" -eq 2 ] || bad "unknown L1i not said per series: $(cat "$tmp/got")"
grep -qx "The inline footprint passes this machine's L2 (24 KiB, hwloc) between N = 128 and 256." "$tmp/got" ||
	bad "L2 pass of the chain: $(grep L2 "$tmp/got")"
grep -qx "The inline footprint passes this machine's L2 (24 KiB, hwloc) between N = 1 and 64." "$tmp/got" ||
	bad "L2 pass of the scatter series: $(grep L2 "$tmp/got")"

# Bad usage: exit 2, one line on stderr, nothing on stdout.
sed 's/footprint_bytes/footprint/' "$tmp/in.csv" >"$tmp/nocol.csv"
for case in "" "$tmp/missing.csv" "$tmp/nocol.csv" "--l1i x $tmp/in.csv" "--l2" "--bogus $tmp/in.csv" \
	"$tmp/in.csv $tmp/in.csv"; do
	# shellcheck disable=SC2086 # the case's words
	"$report" $case >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && [ ! -s "$tmp/out" ] ||
		bad "codesize_report $case: exit $rc, stderr $(cat "$tmp/err"), stdout $(head -c 200 "$tmp/out")"
done

# The build's CSV: a table for every series it holds.
"$report" --l1i 32768 --l2 1048576 "$build_csv" >"$tmp/got" 2>"$tmp/err" || bad "the build's CSV: exit $?: $(cat "$tmp/err")"
want=$(tail -n +2 "$build_csv" | awk -F, '{ print $2 "/" $3 "/" $4 ($13 > 0 ? ", " $13 " B filler per site" : "") }' | sort -u | wc -l)
got=$(grep -c ': code bytes of all N call sites (footprint)$' "$tmp/got")
[ "$got" -eq "$want" ] || bad "the build's CSV: $got tables for $want series"

[ $fail -eq 0 ] && echo "ok: codesize_report's tables and cache passes"
exit $fail
