#!/usr/bin/env bash
# Usage: compare/agree.sh [--out OUT] DIR DIR...
# How far runs of the same sweep agree (run.sh --repeat, ./run.sh agree).
# DIR holds summarize's tables (report/{ratios,crossover,points}.csv, or
# those files beside it). Per series (of one build) and N: each run's ratio
# with its interval, z of every pair of runs against its t limit, how often
# one run's interval holds another's estimate, N resolved opposite ways, and
# the verdicts (with states) that differ. With --out, writes OUT/repeat.md,
# repeat.csv, repeat.dat and repeat.png (gnuplot); without, prints the
# markdown. The last line of repeat.md is the one-line summary.
# Exit 2: bad usage or a DIR without the tables.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
. "$here/lib.sh"
parse_args "$@"
[ ${#args[@]} -ge 2 ] || die "give two or more results directories (--help)"

files=()
for d in "${args[@]}"; do
	is_results_dir "$d" || die "$d is not a results directory of run.sh (no report/ratios.csv and crossover.csv)"
	p=$(results_file "$d" points.csv) || p=/dev/null
	files+=("$(results_file "$d" ratios.csv)" "$(results_file "$d" crossover.csv)" "$p")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/inlinecost-agree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
awk -f "$here/read.awk" -f "$here/agree.awk" -v K=${#args[@]} -v md="$tmp/repeat.md" \
	-v csv="$tmp/repeat.csv" -v dat="$tmp/repeat.dat" "${files[@]}"

if [ -z "$out" ]; then
	cat "$tmp/repeat.md"
	exit 0
fi
mkdir -p "$out" || die "--out: cannot create $out"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "ic_dir='$tmp'; ic_k=${#args[@]}" "$here/repeat.gp" >"$tmp/plot.log" 2>&1 ||
		say "agreement plot failed: $(tail -n 1 "$tmp/plot.log")"
fi
for f in repeat.md repeat.csv repeat.dat repeat.png; do
	[ -f "$tmp/$f" ] && mv -f "$tmp/$f" "$out/$f"
done
exit 0
