#!/usr/bin/env bash
# How far K runs of the sweep agree (run.sh --repeat, and ./run.sh agree):
#   compare/agree.sh [--out OUT] DIR DIR...
# DIR is a results directory holding report/{ratios,crossover,points}.csv.
# Per series each run's verdict and bracket; per N each run's ratio with its
# interval, the ratio's spread (max / min over runs), and how often one run's
# 95% interval holds another's estimate (every ordered pair of runs; the same
# for the time per call site). With --out: OUT/repeat.md, repeat.csv,
# repeat.dat and repeat.png (gnuplot); without: the markdown on stdout,
# nothing written.
# Exit 2: bad usage or a DIR that is not a run; 1: writing failed.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(dirname "$here")
prog=agree.sh
die() { echo "$prog: $*" >&2; exit 2; }
fail() { echo "$prog: $*" >&2; exit 1; }
say() { echo "$prog: $*" >&2; }

usage() {
	cat <<'USAGE'
Usage: compare/agree.sh [--out OUT] DIR DIR...
  DIR     a results directory of run.sh (two or more)
  --out   write OUT/repeat.md, repeat.csv, repeat.dat, repeat.png there;
          without it the markdown is printed and nothing is written
USAGE
}

out="" dirs=()
while [ $# -gt 0 ]; do
	case $1 in
	-h | --help) usage; exit 0 ;;
	--out) [ $# -ge 2 ] && [ -n "$2" ] || die "--out needs a directory"; out=$2; shift ;;
	--out=*) out=${1#--out=}; [ -n "$out" ] || die "--out needs a directory" ;;
	--) shift; dirs+=("$@"); break ;;
	-*) die "unknown option '$1' (see --help)" ;;
	*) dirs+=("$1") ;;
	esac
	shift
done
[ ${#dirs[@]} -ge 2 ] || die "give two or more results directories"
for d in "${dirs[@]}"; do
	[ -f "$d/report/ratios.csv" ] || die "$d is not a results directory of run.sh (no report/ratios.csv)"
done

agreement() {
	local out=$1; shift
	local files=() d
	for d in "$@"; do files+=("$d/report/ratios.csv" "$d/report/crossover.csv" "$d/report/points.csv"); done
	for d in "${files[@]}"; do [ -f "$d" ] || fail "$d missing"; done
	awk -F, -v K="$#" -v csv="$out/repeat.csv" -v md="$out/repeat.md" -v dat="$out/repeat.dat" '
		FNR == 1 { delete c; for (i = 1; i <= NF; i++) c[$i] = i
			kind = ("ratio" in c) ? "r" : ("verdict" in c) ? "x" : "p"; if (kind == "r") run++; next }
		{ series = $c["op"] "/" $c["layout"] "/" $c["order"] "/" $c["threads"] "/" $c["mode"]
		  if (("filler" in c) && $c["filler"] + 0 > 0) series = series "/filler:" $c["filler"] }
		kind == "r" {
			if (!(series in seen)) { seen[series] = 1; order[++ns] = series }
			n = $c["sites"]; key = series SUBSEP n
			if (!(key in nseen)) { nseen[key] = 1; nl[series] = nl[series] " " n }
			ratio[key, run] = $c["ratio"]; lo[key, run] = $c["ratio_ci_lo"]; hi[key, run] = $c["ratio_ci_hi"]
			side[key, run] = $c["faster"]
		}
		kind == "x" { verdict[series, run] = $c["verdict"]; blo[series, run] = $c["bracket_lo"]; bhi[series, run] = $c["bracket_hi"] }
		kind == "p" { key = series SUBSEP $c["form"] SUBSEP $c["sites"]; pk[key] = 1
			pe[key, run] = $c["ns_per_op"]; pl[key, run] = $c["ns_ci_lo"]; ph[key, run] = $c["ns_ci_hi"] }
		function covers(l, h, x) { return l != "" && x != "" && l + 0 <= x + 0 && x + 0 <= h + 0 }
		END {
			print "series,sites,runs,ratio_min,ratio_max,spread,covered_pairs,pairs,sides" > csv
			printf "# Agreement of %d runs of the same sweep\n\n", K > md
			print "A pair (i, j) of runs is covered at N when run i'"'"'s 95% interval holds run j'"'"'s estimate; every ordered pair counts.\n" > md
			tc = 0; tp = 0
			for (s = 1; s <= ns; s++) {
				S = order[s]
				printf "## %s\n\nCrossover:", S > md
				for (k = 1; k <= K; k++) printf " run %d %s%s;", k, verdict[S, k], (blo[S, k] != "" ? " (" blo[S, k] ", " bhi[S, k] ")" : "") > md
				print "\n\n| N | ratio [95% CI] per run | spread | covered pairs | sides |" > md
				print "|---:|---|---:|---:|---|" > md
				m = split(substr(nl[S], 2), list, " ")
				for (i = 1; i <= m; i++) {
					n = list[i]; key = S SUBSEP n; mn = ""; mx = ""; rs = ""; sd = ""; cov = 0; pairs = 0
					for (k = 1; k <= K; k++) {
						if (ratio[key, k] == "") continue
						if (mn == "" || ratio[key, k] + 0 < mn) mn = ratio[key, k] + 0
						if (mx == "" || ratio[key, k] + 0 > mx) mx = ratio[key, k] + 0
						rs = rs sprintf("%s%.3f [%s–%s]", rs == "" ? "" : "; ", ratio[key, k], lo[key, k] == "" ? "?" : sprintf("%.3f", lo[key, k]), hi[key, k] == "" ? "?" : sprintf("%.3f", hi[key, k]))
						sd = sd (sd == "" ? "" : " ") side[key, k]
						for (j = 1; j <= K; j++) if (j != k && ratio[key, j] != "") { pairs++; cov += covers(lo[key, k], hi[key, k], ratio[key, j]) }
					}
					tc += cov; tp += pairs
					printf "%s,%s,%d,%s,%s,%s,%d,%d,%s\n", S, n, K, mn, mx, (mn > 0 ? sprintf("%.4f", mx / mn) : ""), cov, pairs, sd > csv
					printf "| %s | %s | %s | %d/%d | %s |\n", n, rs, (mn > 0 ? sprintf("%.3f", mx / mn) : "—"), cov, pairs, sd > md
					printf "%s %s %d", n, (mn > 0 ? mx / mn : "NaN"), s > dat
					for (k = 1; k <= K; k++) printf " %s", (ratio[key, k] == "" ? "NaN" : ratio[key, k]) > dat
					printf "\n" > dat
				}
				print "" > md
				printf "\n\n" > dat
			}
			pc = 0; pp = 0
			for (key in pk) for (k = 1; k <= K; k++) for (j = 1; j <= K; j++)
				if (j != k && pe[key, j] != "" && pe[key, k] != "") { pp++; pc += covers(pl[key, k], ph[key, k], pe[key, j]) }
			printf "Ratios: %d of %d pairs covered (%.0f%%). Time per call site: %d of %d pairs covered (%.0f%%).\n", tc, tp, tp ? 100 * tc / tp : 0, pc, pp, pp ? 100 * pc / pp : 0 > md
			printf "array ic_series[%d]\n", ns > (dat ".gp")
			for (s = 1; s <= ns; s++) printf "ic_series[%d] = \"%s\"\n", s, order[s] > (dat ".gp")
		}' "${files[@]}"
	if command -v gnuplot >/dev/null; then
		gnuplot -e "ic_dir='$out'; ic_k=$#" "$top/plots/repeat.gp" 2>"$out/.repeat-plot.log" ||
			say "plot failed: $(tail -n 1 "$out/.repeat-plot.log")"
		rm -f "$out/.repeat-plot.log"
	fi
	rm -f "$out/repeat.dat.gp"
}

if [ -n "$out" ]; then
	mkdir -p "$out" || fail "cannot make $out"
	agreement "$out" "${dirs[@]}"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	agreement "$tmp" "${dirs[@]}"
	cat "$tmp/repeat.md"
fi
