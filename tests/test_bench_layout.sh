#!/usr/bin/env bash
# Layout variants differ only in code placement (issue 8): the site functions
# of every variant disassemble to the same instructions (calls and jumps
# printed symbolically), while their addresses, offsets within a cache line
# and order differ from the ordinary link; and every variant runs every site.
# Usage: test_bench_layout.sh SITES_BENCH VARIANT_BINARY...
set -euo pipefail
base=$1; shift
[ $# -ge 1 ] || { echo "FAIL: no variant binaries given"; exit 1; }
for t in objdump nm; do command -v $t >/dev/null || { echo "skip: $t (binutils) not installed"; exit 77; }; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Site functions (callers of chain points) with their addresses, by name.
funcs() { nm "$1" | awk '$3 ~ /^ic_pt_.*_(caller|site)_[0-9]+$/ { print $3, $1 }' | sort; }
# Their disassembly without addresses or raw bytes, each line led by its
# function's name and sorted by it (stable): only the instructions remain.
# The filler after a function's last instruction (alignment nops in the
# ordinary link, int3 gaps in a variant) is placement, not code: dropped.
code() { objdump -d --no-addresses --no-show-raw-insn "$1" | awk '
	function flush() { while (n > 0 && buf[n] ~ /\t(int3|nop|xchg +%ax,%ax|data16|cs nopw)/) n--
		for (k = 1; k <= n; k++) print fn "\t" buf[k]; n = 0 }
	/^<ic_pt_.*_(caller|site)_[0-9]+>:$/ { flush(); on = 1; fn = $1; next }
	on && /^$/ { flush(); on = 0 }
	on { buf[++n] = $0 }
	END { flush() }' | sort -s -t "$(printf '\t')" -k1,1; }

funcs "$base" >"$tmp/f0"; code "$base" >"$tmp/c0"
n=$(wc -l <"$tmp/f0")
[ "$n" -ge 4 ] || { echo "FAIL: only $n site functions found in $base"; exit 1; }
i=0
for v in "$@"; do
	i=$((i + 1))
	funcs "$v" >"$tmp/f$i"; code "$v" >"$tmp/c$i"
	cut -d' ' -f1 "$tmp/f0" | cmp -s - <(cut -d' ' -f1 "$tmp/f$i") ||
		{ echo "FAIL: $v does not hold the same site functions as $base"; exit 1; }
	# The same code...
	cmp -s "$tmp/c0" "$tmp/c$i" ||
		{ echo "FAIL: $v's site code differs from $base's:"; diff "$tmp/c0" "$tmp/c$i" | head; exit 1; }
	# ... at other places: offsets within a 64-byte line, and order.
	moved=0
	while read -r _ a b; do
		[ $((16#$a % 64)) -eq $((16#$b % 64)) ] || moved=$((moved + 1))
	done < <(join "$tmp/f0" "$tmp/f$i")
	[ "$moved" -gt 0 ] || { echo "FAIL: $v: no site function moved within its cache line"; exit 1; }
	order0=$(sort -k2 "$tmp/f0" | cut -d' ' -f1 | md5sum); orderi=$(sort -k2 "$tmp/f$i" | cut -d' ' -f1 | md5sum)
	[ "$order0" != "$orderi" ] || { echo "FAIL: $v: site functions in the same order as $base"; exit 1; }
	echo "variant $i: same code as the ordinary link; $moved of $n site functions at another offset in their line"
done
# Variants with the same seed differ from each other too.
if [ $# -ge 2 ]; then
	cmp -s <(cut -d' ' -f2 "$tmp/f1") <(cut -d' ' -f2 "$tmp/f2") && { echo "FAIL: variants 1 and 2 have the same layout"; exit 1; }
fi
# Every variant runs every site (the bench checks its site accounting).
for b in "$base" "$@"; do
	"$b" --counters=none --threads=1 --modes=private --benchmark_min_time=0.001 \
		--benchmark_format=json >"$tmp/out.json" 2>"$tmp/err.txt" || { echo "FAIL: $b exited non-zero:"; tail -3 "$tmp/err.txt"; exit 1; }
	! grep -q '"error_occurred": true' "$tmp/out.json" || { echo "FAIL: $b reported an error:"; grep error_message "$tmp/out.json" | head -3; exit 1; }
	grep -q "\"layout_variant\": \"" "$tmp/out.json" || { echo "FAIL: $b does not record its layout variant"; exit 1; }
done
echo "layout variants: $# checked"
