#!/usr/bin/env bash
# How far runs of the same sweep agree (run.sh --repeat, ./run.sh agree):
# Usage: compare/agree.sh [--out OUT] DIR DIR...
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
top=$(dirname "$here")
die() { echo "agree.sh: $*" >&2; exit 2; }

out=""
dirs=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	--out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
	--out=*) out=${1#--out=} ;;
	--) shift; dirs+=("$@"); break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) dirs+=("$1") ;;
	esac
	shift
done
[ ${#dirs[@]} -ge 2 ] || die "give two or more results directories (--help)"

. "$here/tables.sh"
files=()
for d in "${dirs[@]}"; do
	is_results_dir "$d" || die "$d is not a results directory of run.sh (no report/ratios.csv and crossover.csv)"
	p=$(results_file "$d" points.csv) || p=/dev/null
	files+=("$(results_file "$d" ratios.csv)" "$(results_file "$d" crossover.csv)" "$p")
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/inlinecost-agree.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
awk -f "$here/read.awk" -f "$here/agree.awk" -v K=${#dirs[@]} -v md="$tmp/repeat.md" \
	-v csv="$tmp/repeat.csv" -v dat="$tmp/repeat.dat" "${files[@]}"

if [ -z "$out" ]; then
	cat "$tmp/repeat.md"
	exit 0
fi
mkdir -p "$out" || die "--out: cannot create $out"
if command -v gnuplot >/dev/null 2>&1; then
	gnuplot -e "ic_dir='$tmp'; ic_k=${#dirs[@]}" "$top/plots/repeat.gp" >"$tmp/plot.log" 2>&1 ||
		echo "agree.sh: agreement plot failed: $(tail -n 1 "$tmp/plot.log")" >&2
fi
for f in repeat.md repeat.csv repeat.dat repeat.png; do
	[ -f "$tmp/$f" ] && mv -f "$tmp/$f" "$out/$f"
done
exit 0
