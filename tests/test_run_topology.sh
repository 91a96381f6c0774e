#!/usr/bin/env bash
# run.sh's view of the machine (scripts/setup.sh: driver, as `sweep
# machine`) comes from cmd/sweep, compiled straight with cc into
# build-tools/ once per content of its sources: the values agree with what
# the bench records in its context and with glibc's and the kernel's
# (sources outside the project), a second call compiles nothing, and the
# program run.sh compiled plans as the build tree's does.
# Usage: test_run_topology.sh PATH/TO/run.sh PATH/TO/sites_bench_test PATH/TO/sweep
set -u
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(dirname "$run")
bench=$2 sweep=$3
command -v python3 >/dev/null || { echo "skip: python3 not installed"; exit 77; }
pkg-config --exists hwloc 2>/dev/null || { echo "skip: hwloc's pkg-config file (libhwloc-dev) not installed"; exit 77; }
. "$(dirname "$0")/lib.sh"
scratch tmp

# ask TREE FUNCTION ARGS...: a function of run.sh's scripts, run in TREE.
ask() {
	local tree=$1; shift
	# shellcheck disable=SC1090,SC2034 # the scripts need $top, $prog and $caller_pwd
	(top=$tree prog=run.sh caller_pwd=$PWD; . "$top/scripts/common.sh"; . "$top/scripts/setup.sh"; "$@")
}

# A copy of the scripts and the driver's sources, so the first call compiles.
mkdir -p "$tmp/t"
cp -r "$top/scripts" "$top/cmd" "$top/sweep" "$top/plan" "$top/common" "$top/gen" "$top/engine" "$top/hw" "$tmp/t/"
ask "$tmp/t" driver machine >/dev/null || bad "run.sh's scripts did not compile the driver"
bin=$(ls "$tmp"/t/build-tools/sweep-* 2>/dev/null)
[ "$(wc -w <<<"$bin")" -eq 1 ] || bad "want one compiled program in build-tools/, got: $bin"
# value KEY: the machine's KEY as the compiled driver says it.
value() { "$bin" machine | sed -n "s/^$1=//p"; }
cores=$(value cores) l1i=$(value l1i_size) l2=$(value l2_size)
"$bench" --counters=none --threads=1 --benchmark_filter='^sites/mark/.*/16/private/real_time' \
	--benchmark_min_time=0.001 --benchmark_out="$tmp/r.json" --benchmark_format=console >/dev/null 2>"$tmp/err" ||
	bad "the bench did not run: $(tail -n 2 "$tmp/err")"
want=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["context"]
print(c["cores"], c["l1i_size"], c["l2_size"])' "$tmp/r.json")
[ "$cores $l1i $l2" = "$want" ] || bad "the scripts see cores, L1i, L2 '$cores $l1i $l2', the bench '$want'"
# And as sources outside the project see them: glibc's sysconf (CPUID, not
# hwloc) for the caches, the kernel's topology for the cores (a core once
# however many threads it has). Each is checked where the source says.
g_l1i=$(getconf LEVEL1_ICACHE_SIZE 2>/dev/null) g_l2=$(getconf LEVEL2_CACHE_SIZE 2>/dev/null)
[ "${g_l1i:-0}" -le 0 ] || [ "$l1i" = "$g_l1i" ] || bad "L1i: the driver says $l1i, glibc $g_l1i"
[ "${g_l2:-0}" -le 0 ] || [ "$l2" = "$g_l2" ] || bad "L2: the driver says $l2, glibc $g_l2"
k_cores=$(for c in /sys/devices/system/cpu/cpu[0-9]*/topology; do
	[ -r "$c/core_id" ] && echo "$(cat "$c/physical_package_id"):$(cat "$c/core_id")"; done | sort -u | wc -l)
[ "$k_cores" -eq 0 ] || [ "$cores" = "$k_cores" ] || bad "cores: the driver says $cores, the kernel's topology $k_cores"
touch -d '2000-01-01' "$bin"
ask "$tmp/t" driver machine >/dev/null
[ "$(stat -c %Y "$bin")" = "$(date -d '2000-01-01' +%s)" ] || bad "a second call compiled the program again"

# The same plan as the build tree's program, on the same settings.
printf 'forms=inline,extern,clone\nops=tail_dequeue\nseed=1\nmodes=private\nlayout_seed=9\n' >"$tmp/s"
"$bin" resolve <"$tmp/s" >"$tmp/a" && "$sweep" resolve <"$tmp/s" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b" ||
	bad "run.sh's plan and the tree's resolve apart: $(diff "$tmp/a" "$tmp/b")"

[ $fail -eq 0 ] && echo "ok: cores $cores, L1i $l1i B, L2 $l2 B from hwloc as the bench, glibc (L1i ${g_l1i:-?}, L2 ${g_l2:-?}) and the kernel ($k_cores cores) see them; compiled once; the tree's plan agrees"
exit $fail
