#!/bin/sh
# The L1i simulation: a few passes after the warm ones count what many do,
# per site (under LRU every pass after the warm ones starts from the same
# cache): the same instructions, and the same misses but for at most one; the cache directory keeps a binary's counts, keyed by the binary's
# content: the same binary finds them without valgrind, a changed one does
# not.
# usage: test_bench_sim.sh SITES_BENCH
bench=$1
command -v valgrind >/dev/null || { echo "skip: valgrind not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp
# In the L1i, and well past it (about 190 B a site inlined).
filter='^sites/inline/tail_dequeue/chain/seq/(16|1024)/private/real_time/threads:1$'

sim() {   # sim PASSES DIR [BENCH]: the counter source; the cache in DIR
	"${3:-$bench}" --counters=sim --sim-only --sim-passes="$1" --sim-cache-dir="$2" \
		--threads=1 --modes=private --benchmark_filter="$filter" 2>"$tmp/err" >"$tmp/out" || return
	# The second line, the console's counter line, must say the first.
	case $(head -n 1 "$tmp/out"):$(sed -n 2p "$tmp/out") in
	"sim:simulated (--counters sim): L1i misses and instructions from valgrind's cache simulation, marked simulated" | \
		"none:none: no counter columns, as the simulation failed ("*) head -n 1 "$tmp/out" ;;
	*) echo "counter line not the source's: $(tr '\n' '|' <"$tmp/out")" ;;
	esac
	# With sim, a third line: the cache file it wrote, in DIR.
	if [ "$(head -n 1 "$tmp/out")" = sim ]; then
		local cache
		cache=$(sed -n 3p "$tmp/out")
		case $cache in "$2"/*.csv) [ -s "$cache" ] && return ;; esac
		echo "no cache file in $2 on the third line: $(tr '\n' '|' <"$tmp/out")"
	fi
}
rows() { cat "$1"/*.csv | awk -F, 'NR > 1 { print $2, $6, $7 }' | sort; }

[ "$(sim 3 "$tmp/few")" = sim ] || bad "3 passes: no simulation: $(cat "$tmp/err")"
[ "$(sim 30 "$tmp/many")" = sim ] || bad "30 passes: no simulation: $(cat "$tmp/err")"
rows "$tmp/few" >"$tmp/few.txt"
rows "$tmp/many" >"$tmp/many.txt"
[ "$(wc -l <"$tmp/few.txt")" -eq 2 ] || bad "expected 2 simulated points, got: $(cat "$tmp/few.txt")"
awk '$3 > 0.5 { n++ } END { exit !n }' "$tmp/few.txt" || bad "N = 1024 misses nothing in the L1i: $(cat "$tmp/few.txt")"
# Instructions per site the same to the last digit; L1i misses per site the
# same but for at most two misses in the whole measurement (3 passes of N
# sites): the count is the difference of two dumps, and callgrind counts one
# miss at a stretch's boundary now and then in each (seen on a fresh machine).
paste -d' ' "$tmp/few.txt" "$tmp/many.txt" | awk '{
	split($1, f, "/"); n = f[5] * 3
	if ($1 != $4 || $2 != $5) { print "FAIL: " $1 ": " $2 " instructions per site in 3 passes, " $5 " in 30"; bad = 1 }
	d = ($3 - $6) * n; if (d < 0) d = -d
	if (d > 2.01) { print "FAIL: " $1 ": " $3 " L1i misses per site in 3 passes, " $6 " in 30"; bad = 1 }
} END { exit bad }' >&2 || fail=1
echo "per site (point, instructions, L1i misses), 3 and 30 passes:"; cat "$tmp/few.txt"

# A cache hit needs no valgrind: one that always fails comes first in PATH.
mkdir "$tmp/bin"
printf '#!/bin/sh\nexit 1\n' >"$tmp/bin/valgrind"
chmod +x "$tmp/bin/valgrind"
[ "$(PATH="$tmp/bin:$PATH" sim 3 "$tmp/few")" = sim ] || bad "second call: the cache missed: $(cat "$tmp/err")"
# Another binary (one byte more) misses.
cp "$bench" "$tmp/other" && printf '\0' >>"$tmp/other"
[ "$(PATH="$tmp/bin:$PATH" sim 3 "$tmp/few" "$tmp/other")" = none ] || bad "a changed binary found the old counts"
[ "$(ls "$tmp/few" | wc -l)" -eq 1 ] || bad "the cache directory holds $(ls "$tmp/few" | wc -l) files, expected 1"
[ $fail -eq 0 ] && echo "ok: a few passes count what many do; the cache hits for the same binary only"
exit $fail
