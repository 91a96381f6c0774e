#!/usr/bin/env bash
# Usage: compare/compare.sh [--agree] [--out OUTDIR] INPUT INPUT...
# Compares runs of the sweep from different machines, compilers or commits.
# INPUT is a results directory of run.sh or its export DIR.tar.gz
# (compare/export.sh). Writes OUTDIR/compare.md (what differs between the
# inputs, what is not in all of them, and per series each input's crossover
# bracket and its ratio per N with the 95% interval), compare.csv, and
# compare.png/svg (the ratios overlaid, one panel per series; needs
# gnuplot). OUTDIR defaults to results/compare-<UTC timestamp>.
# --agree: how far runs of the same sweep agree (run.sh --repeat, ./run.sh
# agree). Per series (of one build) and N: each run's ratio with its
# interval, z of every pair of runs against its t limit, how often one
# run's interval holds another's estimate, N resolved opposite ways, and
# the verdicts (with states) that differ. Prints the markdown; with --out,
# writes OUTDIR/repeat.md (its last line the one-line summary), repeat.csv,
# repeat.dat and repeat.png.
# OUTDIR appears whole or not at all.
# Exit 2: bad usage or an input that is not a run; 1 (compare only): no
# series or N in common.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
. "$here/lib.sh"
agree="" out="" args=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
	--agree) agree=1 ;;
	--out) [ $# -ge 2 ] || die "--out needs a directory"; out=$2; shift ;;
	--out=*) out=${1#--out=} ;;
	--) shift; args+=("$@"); break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) args+=("$1") ;;
	esac
	shift
done
[ ${#args[@]} -ge 2 ] || die "give two or more results directories or exports to compare (--help)"
# Without --out, compare writes into results/ and agree prints.
[ -n "$out$agree" ] || out=$top/results/compare-$(date -u +%Y%m%dT%H%M%SZ)
if [ -n "$out" ]; then
	[ "$out" != / ] || die "--out: / is not a directory to write"
	out=${out%/}
	if [ -e "$out" ] && { [ ! -d "$out" ] || [ -n "$(ls -A "$out")" ]; }; then
		die "--out: $out exists and is not an empty directory"
	fi
fi

scratch=$(mktemp -d "${TMPDIR:-/tmp}/inlinecost-compare.XXXXXX")
stage=""
trap 'rm -rf "$scratch" ${stage:+"$stage"}' EXIT
trap 'exit 130' INT TERM

# Each input as a directory (exports are unpacked into the scratch space),
# then its files in the order read.awk reads them: a meta line naming the
# input, run.conf and benchmark.json when it has them, its tables.
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
		d=$(find "$scratch/in$i" -mindepth 1 -maxdepth 3 -name ratios.csv -printf '%h\n' 2>/dev/null |
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

# The two modes differ in their writer and plot (MODE.awk, MODE.gp), the
# files they write (NAME.*) and where the plot's data goes.
new=$scratch/out
if [ -n "$agree" ]; then
	mode=agree name=repeat plots=$new terms=png
else
	mode=compare name=compare plots=$new/plots terms="png svg"
fi
mkdir -p "$plots"
rc=0
awk -f "$here/read.awk" -f "$here/$mode.awk" -v md="$new/$name.md" -v csv="$new/$name.csv" -v dat="$plots/$name.dat" \
	-v gp="$plots/data.gp" -v err="$scratch/error" "${files[@]}" pass=2 "${files[@]}" || rc=$?
if [ $rc -eq 3 ]; then fail "$(head -n 1 "$scratch/error")"; fi
[ $rc -eq 0 ] || fail "reading the inputs' tables failed (awk exit $rc)"
if [ -z "$out" ]; then
	cat "$new/repeat.md"
	exit 0
fi

# gp_quote: a gnuplot single-quoted string ('' for a quote).
gp_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }
if ! command -v gnuplot >/dev/null 2>&1; then
	say "no gnuplot: tables written, no plot (apt-get install gnuplot-nox, then run this again)"
else
	for term in $terms; do
		if ! gnuplot -e "ic_dir=$(gp_quote "$plots"); ic_src=$(gp_quote "$top/report"); ic_term='$term'; ic_out=$(gp_quote "$new/$name.$term")" \
			"$here/$mode.gp" >"$scratch/gnuplot.log" 2>&1; then
			say "plot failed ($term): $(grep -v '^ *$' "$scratch/gnuplot.log" | tail -n 1); the tables are written"
			rm -f "$new/$name.png" "$new/$name.svg"
			break
		fi
	done
fi
rm -f "$new/data.gp"   # agree's plot settings, beside its tables

# In place as a whole: staged beside OUTDIR (same file system), then renamed.
parent=$(dirname "$out")
mkdir -p "$parent" || fail "cannot create $parent"
stage=$(mktemp -d "$parent/.compare.XXXXXX") || fail "cannot write in $parent"
cp -R "$new/." "$stage/"
[ ! -d "$out" ] || rmdir "$out" 2>/dev/null || fail "--out: $out is no longer empty"
mv -T "$stage" "$out" || fail "cannot move the comparison into $out"
stage=""
[ -z "$agree" ] || exit 0   # quiet: the sweep's --repeat says what it wrote
say "wrote $out/compare.md ($(grep -c '^## .*: ' "$out/compare.md") series), compare.csv$([ -f "$out/compare.png" ] && echo ", compare.png, compare.svg")"
echo "$out"
