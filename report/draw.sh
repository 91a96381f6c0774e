#!/bin/sh
# report/draw.sh DIR [CHART...]: draws DIR/plots/CHART.{png,svg} with gnuplot
# (report/CHART.gp) from the data.gp and *.dat files summarize --out DIR (or
# watch_report) wrote, each chart renamed into place once whole; by default
# time, l1i, ratio, timeline and attribution. Without gnuplot it says how to
# get the charts and exits 0. gnuplot runs under the C.UTF-8 locale
# whatever the caller's: style.gp sets `set encoding utf8`, and under C or no
# locale gnuplot warns on every chart that it cannot convert the degree sign
# (common/gnuplot_run.h does the same for the C programs).
set -eu

if [ $# -lt 1 ] || [ "$1" = "--help" ]; then
	echo "usage: report/draw.sh DIR [CHART...]   (DIR written by summarize --out DIR)" >&2
	exit 2
fi
dir=$1
shift
[ $# -gt 0 ] || set -- time l1i ratio timeline attribution
plots=$dir/plots
here=$(cd "$(dirname "$0")" && pwd)
gnuplot=${GNUPLOT:-gnuplot}
if [ ! -f "$plots/data.gp" ]; then
	echo "draw.sh: $plots/data.gp not found: run summarize --out $dir first" >&2
	exit 2
fi
if ! command -v "$gnuplot" >/dev/null 2>&1; then
	echo "draw.sh: gnuplot not found, no charts drawn: apt-get install gnuplot-nox, then report/draw.sh $dir" >&2
	exit 0
fi

# A gnuplot single-quoted string: '' for a quote.
gp_quote() { printf "'%s'" "$(printf '%s' "$1" | sed "s/'/''/g")"; }

log=$plots/.draw.log.$$
trap 'rm -f "$log" "$plots"/.*.tmp.$$' EXIT INT TERM
for chart in "$@"; do
	for term in png svg; do
		tmp=$plots/.$chart.$term.tmp.$$
		if ! LC_ALL=C.UTF-8 "$gnuplot" -e "ic_dir=$(gp_quote "$plots"); ic_src=$(gp_quote "$here"); ic_term='$term'; ic_out=$(gp_quote "$tmp")" \
			"$here/$chart.gp" >"$log" 2>&1; then
			echo "draw.sh: gnuplot failed on $chart.gp ($term): $(grep -v '^ *$' "$log" | tail -n 1)" >&2
			exit 1
		fi
		# A warning is a fault in a script or its data: said, not hidden.
		grep -v '^ *$' "$log" | sed "s|^|draw.sh: $chart.gp ($term): |" >&2
		mv -f "$tmp" "$plots/$chart.$term"
	done
done
