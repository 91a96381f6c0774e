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

# conf_meta RUN.CONF: its settings as conf.<name><TAB><value>. The file is
# `declare -p` output from another machine, so it is parsed, never sourced.
conf_meta() {
	awk '
		function unesc(s,   o, i, ch) {   # declare -p escapes " \ $ ` with a backslash
			o = ""
			for (i = 1; i <= length(s); i++) {
				ch = substr(s, i, 1)
				if (ch == "\\" && i < length(s)) { i++; ch = substr(s, i, 1) }
				o = o ch
			}
			return o
		}
		/^declare -[-a-zA-Z]* [A-Za-z_][A-Za-z0-9_]*="/ {
			s = $0; sub(/^declare -[-a-zA-Z]* /, "", s)
			name = s; sub(/=.*/, "", name); v = substr(s, length(name) + 2)
			if (v !~ /^".*"$/) next
			print "conf." name "\t" unesc(substr(v, 2, length(v) - 2))
		}' "$1"
}

# context_meta BENCHMARK.JSON: the JSON context's scalar members as
# ctx.<key><TAB><value>. A small tokenizer, so pretty or compact JSON both
# read; it stops where the context ends, before the benchmarks.
context_meta() {
	awk '
		function unesc(s) { gsub(/\\"/, "\"", s); gsub(/\\\//, "/", s); gsub(/\\\\/, "\\", s); return s }
		{
			s = $0
			while (s != "") {
				if (match(s, /^[ \t\r]+/)) { s = substr(s, RLENGTH + 1); continue }
				if (match(s, /^"([^"\\]|\\.)*"/)) { typ = "s"; tok = unesc(substr(s, 2, RLENGTH - 2)) }
				else if (match(s, /^[][{},:]/)) { typ = tok = substr(s, 1, 1) }
				else if (match(s, /^[^][{},:" \t\r]+/)) { typ = "v"; tok = substr(s, 1, RLENGTH) }
				else exit   # a string broken over lines: not JSON we know
				s = substr(s, RLENGTH + 1)
				if (typ == "{" || typ == "[") {
					if (depth == 1 && key1 == "context" && typ == "{") inctx = 1
					depth++; havekey = 0; continue
				}
				if (typ == "}" || typ == "]") { depth--; if (inctx && depth == 1) exit; continue }
				if (depth == 1 && typ == "s" && !seen1) { key1 = tok; seen1 = 1; continue }
				if (depth == 1 && typ == ",") { seen1 = 0; continue }
				if (!inctx || depth != 2) continue
				if (typ == ",") havekey = 0
				else if (typ == "s" && !havekey) { key = tok; havekey = 1 }
				else if ((typ == "s" || typ == "v") && havekey) { print "ctx." key "\t" (typ == "v" && tok == "null" ? "" : tok); havekey = 0 }
			}
		}' "$1"
}

# Each input as a directory: exports are unpacked into the scratch space.
dirs=() names=() kinds=()
for i in "${!args[@]}"; do
	p=${args[$i]}
	if [ -d "$p" ]; then
		d=$(cd -P "$p" && pwd)
		is_results_dir "$d" || die "$p is not a results directory of run.sh (no report/ratios.csv and crossover.csv)"
		dirs+=("$d"); names+=("$(basename "$d")"); kinds+=(directory)
	elif [ -f "$p" ] && [[ $p == *.tar.gz || $p == *.tgz ]]; then
		x=$scratch/in$i
		mkdir -p "$x"
		tar -xzf "$p" -C "$x" --no-same-owner 2>/dev/null || die "$p is not a readable export (tar -xzf failed)"
		d=$(find "$x" -mindepth 1 -maxdepth 3 \( -path '*/report/ratios.csv' -o -name ratios.csv \) -printf '%h\n' 2>/dev/null |
			sed 's,/report$,,' | sort | sed -n 1p)
		[ -n "$d" ] && is_results_dir "$d" || die "$p is not an export of a results directory (no ratios.csv and crossover.csv inside)"
		dirs+=("$d"); names+=("$(basename "$d")"); kinds+=("export $(basename "$p")")
	elif [ -e "$p" ]; then
		die "$p is neither a results directory of run.sh nor an export (.tar.gz)"
	else
		die "$p: no such results directory or export"
	fi
done

# The meta file and CSVs of every input, in the order compare.awk reads them.
files=()
for i in "${!dirs[@]}"; do
	d=${dirs[$i]} meta=$scratch/meta$i
	{
		echo "#compare-meta"
		printf 'input.dir\t%s\ninput.kind\t%s\n' "${names[$i]}" "${kinds[$i]}"
		[ ! -f "$d/run.conf" ] || conf_meta "$d/run.conf"
		if j=$(results_file "$d" benchmark.json); then context_meta "$j"; fi
	} >"$meta"
	pts=$(results_file "$d" points.csv) || pts=/dev/null
	files+=("$meta" "$(results_file "$d" ratios.csv)" "$(results_file "$d" crossover.csv)" "$pts")
done

new=$scratch/out
mkdir -p "$new/plots"
rc=0
awk -f "$here/read.awk" -f "$here/compare.awk" -v md="$new/compare.md" -v csv="$new/compare.csv" -v dat="$new/plots/compare.dat" \
	-v gp="$new/plots/data.gp" -v err="$scratch/error" "${files[@]}" || rc=$?
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
