#!/bin/sh
# inlines/bench.sh: how fast the census reads and how much memory it takes
# (docs/inlines.md quotes it). Three measurements, under the machine lock:
#  1. libc's debug file (libc6-dbg) read by inlines and by dwarves'
#     pfunct -t, tries interleaved: median seconds and maximum RSS each;
#  2. every FILE given (a kernel's vmlinux among them), by inlines;
#  3. time against .debug_info bytes over the FILEs, each read from a copy
#     with its debug sections decompressed, so that zlib's time does not
#     blur the slope: a least-squares line and its R^2, one for linked
#     files and one for object files (kernel modules), whose relocations
#     libdwfl applies first.
# usage: inlines/bench.sh [--tries T] INLINES [FILE...]
set -eu
tries=5
if [ "${1:-}" = --tries ]; then
	tries=$2
	shift 2
fi
[ $# -ge 1 ] || { echo "usage: inlines/bench.sh [--tries T] INLINES [FILE...]" >&2; exit 2; }
inlines=$1
shift
[ -x "$inlines" ] || { echo "bench.sh: $inlines is not a program (build the inlines target)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "bench.sh: /usr/bin/time missing: apt-get install time" >&2; exit 2; }

# Timing only under the machine lock (common/measure_lock.h): this script
# again, through the driver run.sh compiled (sweep measure), which waits
# for another measurement and names us to the next.
if [ -z "${IC_INLINES_BENCH_LOCKED:-}" ]; then
	sweep=""
	for f in "$(dirname "$0")"/../build-tools/sweep-*; do   # (not one being compiled: sweep-ID.PID)
		case ${f##*/} in *.*) ;; *) [ -x "$f" ] && sweep=$f ;; esac
	done
	[ -n "$sweep" ] || { echo "bench.sh: no driver in build-tools/ (./run.sh compiles it)" >&2; exit 2; }
	IC_INLINES_BENCH_LOCKED=1 exec "$sweep" measure inlines/bench.sh -- \
		"$0" --tries "$tries" "$inlines" "$@"
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/inlines-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

libc=$(readelf -n /lib/x86_64-linux-gnu/libc.so.6 | awk '/Build ID/ { print $3 }')
libc_debug=/usr/lib/debug/.build-id/$(echo "$libc" | cut -c1-2)/$(echo "$libc" | cut -c3-).debug

# info_bytes FILE: .debug_info's size, uncompressed (readelf -t gives the
# compression header's size for a compressed section).
info_bytes() {
	hex=$(readelf -S -t -W "$1" 2>/dev/null | awk '
		/\] \.debug_info$/ { want = 1; next }
		want && $1 == "PROGBITS" { size = $4; next }
		want && $1 ~ /^(ZLIB|ZSTD),$/ { size = $2; sub(/,$/, "", size); exit }
		want && /^ +\[ *[0-9]+\] / { exit }
		END { print size }')
	echo $((0x${hex:-0}))
}

# mb KB: MiB of /usr/bin/time's KiB.
mb() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }

# run_time OUT CMD...: "seconds max_rss_kb" of one run into OUT's lines.
run_time() {
	out=$1
	shift
	/usr/bin/time -f '%e %M' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" ||
		{ echo "bench.sh: $* failed: $(tail -n 1 "$tmp/err")" >&2; exit 1; }
	cat "$tmp/time" >>"$out"
}

# median FILE COLUMN
median() { sort -n -k "$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# inlines: speed and memory ($(date -u +%Y-%m-%d), $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'))"
echo
echo "Medians of $tries tries; maximum resident set size from /usr/bin/time."
echo
if [ -r "$libc_debug" ]; then
	: >"$tmp/inl" && : >"$tmp/pf"
	have_pfunct=0
	command -v pfunct >/dev/null && have_pfunct=1
	for t in $(seq "$tries"); do
		run_time "$tmp/inl" "$inlines" --csv "$libc_debug"
		[ $have_pfunct = 0 ] || run_time "$tmp/pf" pfunct -t "$libc_debug"
	done
	"$inlines" --csv "$libc_debug" >"$tmp/inl.csv"
	echo "libc's debug file ($libc_debug, $(awk -v b="$(info_bytes "$libc_debug")" 'BEGIN { printf "%.1f", b / 1048576 }') MiB of .debug_info, zlib-compressed):"
	echo
	echo "| tool | seconds | max RSS (MiB) | rows | distinct names |"
	echo "|---|---:|---:|---:|---:|"
	printf '| inlines --csv | %s | %s | %d | %d |\n' "$(median "$tmp/inl" 1)" "$(mb "$(median "$tmp/inl" 2)")" \
		"$(($(wc -l <"$tmp/inl.csv") - 1))" "$(tail -n +2 "$tmp/inl.csv" | cut -d, -f1 | sort -u | wc -l)"
	if [ $have_pfunct = 1 ]; then
		pfunct -t "$libc_debug" >"$tmp/pf.txt"
		printf '| pfunct -t | %s | %s | %d | %d |\n' "$(median "$tmp/pf" 1)" "$(mb "$(median "$tmp/pf" 2)")" \
			"$(($(wc -l <"$tmp/pf.txt") - 1))" "$(tail -n +2 "$tmp/pf.txt" | awk '{ print $1 }' | sort -u | wc -l)"
	else
		echo "| pfunct -t | not measured: no pfunct (apt-get install dwarves) | | | |"
	fi
else
	echo "libc's debug file is not installed ($libc_debug): apt-get install libc6-dbg"
fi
[ $# -gt 0 ] || exit 0

echo
echo "Each file as given, and a copy with its debug sections decompressed (the slope's):"
echo
echo "| file | .debug_info (MiB) | seconds | max RSS (MiB) | decompressed: seconds | MiB/s |"
echo "|---|---:|---:|---:|---:|---:|"
: >"$tmp/fit"
for f in "$@"; do
	: >"$tmp/one" && : >"$tmp/plain"
	objcopy --decompress-debug-sections "$f" "$tmp/plain.elf"
	for t in $(seq "$tries"); do
		run_time "$tmp/one" "$inlines" --csv "$f"
		run_time "$tmp/plain" "$inlines" --csv "$tmp/plain.elf"
	done
	rm -f "$tmp/plain.elf"
	mib=$(awk -v b="$(info_bytes "$f")" 'BEGIN { printf "%.2f", b / 1048576 }')
	s=$(median "$tmp/plain" 1)
	kind=linked
	[ "$(readelf -h "$f" 2>/dev/null | awk '$1 == "Type:" { print $2 }')" = REL ] && kind=object
	echo "$kind $mib $s" >>"$tmp/fit"
	printf '| %s | %s | %s | %s | %s | %s |\n' "$f" "$mib" "$(median "$tmp/one" 1)" \
		"$(mb "$(median "$tmp/one" 2)")" "$s" "$(awk -v m="$mib" -v s="$s" 'BEGIN { printf "%.0f", (s > 0 ? m / s : 0) }')"
done
echo
for kind in linked object; do
	awk -v kind=$kind '$1 == kind { n++; sx += $2; sy += $3; sxx += $2 * $2; sxy += $2 * $3; syy += $3 * $3 }
		END {
			if (n < 2) { if (n) printf "One %s file: no slope.\n", kind; exit }
			b = (n * sxy - sx * sy) / (n * sxx - sx * sx); a = (sy - b * sx) / n
			r = (n * sxy - sx * sy) / sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
			printf "%s files, decompressed: seconds = %.3f + %.4f x MiB of .debug_info (%.0f MiB/s), R^2 = %.4f over %d files.\n", kind, a, b, 1 / b, r * r, n
		}' "$tmp/fit"
done
