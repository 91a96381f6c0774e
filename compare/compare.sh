#!/usr/bin/env bash
# Usage: compare/compare.sh [--out OUTDIR] INPUT INPUT...
# Compares runs of the sweep from different machines, compilers or commits.
# INPUT is a results directory of run.sh or its export DIR.tar.gz
# (compare/export.sh). Writes OUTDIR/compare.md (what differs between the
# inputs, what is not in all of them, and per series each input's crossover
# bracket and its ratio per N with the 95% interval), compare.csv, and
# compare.png/svg (the ratios overlaid, one panel per series; needs
# gnuplot). OUTDIR defaults to results/compare-<UTC timestamp>; it appears
# whole or not at all.
# Exit 2: bad usage or an input that is not a run; 1: nothing comparable.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
parse_args "$@"
[ ${#args[@]} -ge 2 ] || die "give two or more results directories or exports to compare (--help)"
[ -n "$out" ] || out=$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)
[ "$out" != / ] || die "--out: / is not a directory to write"
out=${out%/}
if [ -e "$out" ] && { [ ! -d "$out" ] || [ -n "$(ls -A "$out")" ]; }; then
	die "--out: $out exists and is not an empty directory"
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/inlinecost-compare.XXXXXX")
stage=""
trap 'rm -rf "$scratch" ${stage:+"$stage"}' EXIT
trap 'exit 130' INT TERM

# Each input as a directory (exports are unpacked into the scratch space),
# then its files in the order compare.awk reads them: a meta line naming
# the input, run.conf and benchmark.json when it has them, its tables.
files=()
for i in "${!args[@]}"; do
	p=${args[$i]}
	kind=directory
	if [ -d "$p" ]; then
		d=$(cd -P "$p" && pwd)
		is_results_dir "$d" || die "$p is not a results directory of run.sh (no report/ratios.csv and crossover.csv)"
	elif [ -f "$p" ] && [[ $p == *.tar.gz || $p == *.tgz ]]; then
		kind="export $(basename "$p")"
		mkdir "$scratch/in$i"
		tar -xzf "$p" -C "$scratch/in$i" --no-same-owner 2>/dev/null || die "$p is not a readable export (tar -xzf failed)"
		d=$(find "$scratch/in$i" -mindepth 1 -maxdepth 3 \( -path '*/report/ratios.csv' -o -name ratios.csv \) -printf '%h\n' 2>/dev/null |
			sed 's,/report$,,' | sort | sed -n 1p)
		[ -n "$d" ] && is_results_dir "$d" || die "$p is not an export of a results directory (no ratios.csv and crossover.csv inside)"
	elif [ -e "$p" ]; then
		die "$p is neither a results directory of run.sh nor an export (.tar.gz)"
	else
		die "$p: no such results directory or export"
	fi
	printf '#compare-meta\t%s\t%s\n' "$(basename "$d")" "$kind" >"$scratch/meta$i"
	files+=("$scratch/meta$i")
	[ ! -f "$d/run.conf" ] || files+=("$d/run.conf")
	for t in benchmark.json ratios.csv crossover.csv points.csv; do
		if f=$(results_file "$d" $t); then
			files+=("$f")
		fi
	done
done

new=$scratch/out
mkdir -p "$new/plots"
rc=0
awk -f "$here/read.awk" -f "$here/compare.awk" -v md="$new/compare.md" -v csv="$new/compare.csv" -v dat="$new/plots/compare.dat" \
	-v gp="$new/plots/data.gp" -v err="$scratch/error" "${files[@]}" pass=2 "${files[@]}" || rc=$?
if [ $rc -eq 3 ]; then fail "$(head -n 1 "$scratch/error")"; fi
[ $rc -eq 0 ] || fail "reading the inputs' tables failed (awk exit $rc)"

# gp_quote: a gnuplot single-quoted string ('' for a quote).
gp_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
if ! command -v gnuplot >/dev/null 2>&1; then
	say "no gnuplot: tables written, no plot (apt-get install gnuplot-nox, then run this again)"
else
	for term in png svg; do
		if ! gnuplot -e "ic_dir=$(gp_quote "$new/plots"); ic_src=$(gp_quote "$top/plots"); ic_term='$term'; ic_out=$(gp_quote "$new/compare.$term")" \
			"$here/compare.gp" >"$scratch/gnuplot.log" 2>&1; then
			say "plot failed ($term): $(grep -v '^ *$' "$scratch/gnuplot.log" | tail -n 1); the tables are written"
			rm -f "$new"/compare.png "$new"/compare.svg
			break
		fi
	done
fi

# In place as a whole: staged beside OUTDIR (same file system), then renamed.
parent=$(dirname "$out")
mkdir -p "$parent" || fail "cannot create $parent"
stage=$(mktemp -d "$parent/.compare.XXXXXX") || fail "cannot write in $parent"
cp -R "$new/." "$stage/"
[ ! -d "$out" ] || rmdir "$out" 2>/dev/null || fail "--out: $out is no longer empty"
mv -T "$stage" "$out" || fail "cannot move the comparison into $out"
stage=""
say "wrote $out/compare.md ($(grep -c '^## .*: ' "$out/compare.md") series), compare.csv$([ -f "$out/compare.png" ] && echo ", compare.png, compare.svg")"
echo "$out"
