#!/usr/bin/env bash
# Layout variants differ only in code placement: link_variant links the
# build's objects in the layout drawn from a seed, and the site functions of
# every variant disassemble to the same instructions (calls and jumps printed
# symbolically) as the ordinary link's, while their addresses, offsets within
# a cache line and order differ; every variant runs every site and records
# its seed. link_variant writes OUT.seed, does nothing when OUT is up to date
# for the same seed, and refuses bad input with one line and exit 2.
# Usage: test_bench_layout.sh SITES_BENCH LINK_VARIANT
set -euo pipefail
base=$1 link=$2
for t in objdump nm; do command -v $t >/dev/null || { echo "skip: $t (binutils) not installed"; exit 77; }; done
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# Two variants, two seeds, through the same command.
"$link" 11 "$tmp/v1" && "$link" 22 "$tmp/v2" || { echo "FAIL: link_variant failed"; exit 1; }
[ "$(cat "$tmp/v1.seed")" = 11 ] && [ "$(cat "$tmp/v2.seed")" = 22 ] || { echo "FAIL: OUT.seed does not hold the seed"; exit 1; }
# The same seed again: nothing to do (the file is not rewritten).
before=$(stat -c %Y.%i "$tmp/v1"); sleep 1
start=$(date +%s%N); "$link" 11 "$tmp/v1"; took=$((($(date +%s%N) - start) / 1000000))
[ "$(stat -c %Y.%i "$tmp/v1")" = "$before" ] || { echo "FAIL: link_variant relinked an up-to-date variant"; exit 1; }
echo "link_variant: same seed again, nothing done (${took} ms)"
# The same seed into another file: the same layout.
"$link" 11 "$tmp/v1b"
cmp -s "$tmp/v1" "$tmp/v1b" || { echo "FAIL: one seed linked twice gave two different binaries"; exit 1; }
for bad in "x $tmp/b" "-1 $tmp/b" "11" "11 $tmp/no/such/dir/b" "11 $tmp/"; do
	# shellcheck disable=SC2086
	if "$link" $bad 2>"$tmp/err"; then echo "FAIL: link_variant $bad succeeded"; exit 1; fi
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || { echo "FAIL: link_variant $bad: not one line: $(cat "$tmp/err")"; exit 1; }
done
[ ! -e "$tmp/b" ] || { echo "FAIL: a refused link_variant wrote its output"; exit 1; }
set -- "$tmp/v1" "$tmp/v2"

# Site functions (callers of chain points) with their addresses, by name.
funcs() { nm "$1" | awk '$3 ~ /^ic_(pt|sr)_.*_(caller|site)_[0-9]+$/ { print $3, $1 }' | sort; }
# Their disassembly without addresses or raw bytes, each line led by its
# function's name and sorted by it (stable): only the instructions remain.
# The filler after a function's last instruction (alignment nops in the
# ordinary link, int3 gaps in a variant) is placement, not code: dropped.
code() { objdump -d --no-addresses --no-show-raw-insn "$1" | awk '
	function flush() { while (n > 0 && buf[n] ~ /\t(int3|nop|xchg +%ax,%ax|data16|cs nopw)/) n--
		for (k = 1; k <= n; k++) print fn "\t" buf[k]; n = 0 }
	/^<ic_(pt|sr)_.*_(caller|site)_[0-9]+>:$/ { flush(); on = 1; fn = $1; next }
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
# Variants of two seeds differ from each other too.
if [ $# -ge 2 ]; then
	cmp -s <(cut -d' ' -f2 "$tmp/f1") <(cut -d' ' -f2 "$tmp/f2") && { echo "FAIL: variants 1 and 2 have the same layout"; exit 1; }
fi
# Every variant runs every site (the bench checks its site accounting).
for b in "$base" "$@"; do
	"$b" --counters=none --threads=1 --modes=private --benchmark_min_time=0.001 \
		--benchmark_format=json >"$tmp/out.json" 2>"$tmp/err.txt" || { echo "FAIL: $b exited non-zero:"; tail -3 "$tmp/err.txt"; exit 1; }
	! grep -q '"error_occurred": true' "$tmp/out.json" || { echo "FAIL: $b reported an error:"; grep error_message "$tmp/out.json" | head -3; exit 1; }
	grep -q "\"layout_variant\": \"" "$tmp/out.json" || { echo "FAIL: $b does not record its layout variant"; exit 1; }
	if [ "$b" != "$base" ]; then
		grep -q "\"layout_seed\": \"$(cat "$b.seed")\"" "$tmp/out.json" || { echo "FAIL: $b does not record its seed"; exit 1; }
	fi
done
echo "layout variants: $# checked"
