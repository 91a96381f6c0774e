# The ratio per N of each of K runs of the sweep, one panel per series:
# where the lines part, the answer did not hold still. ./run.sh agree --out
# passes ic_dir (holding repeat.dat and data.gp: the number of runs ic_k
# and the series names), ic_src (plots/, for the palette) and ic_out (the PNG).
set encoding utf8
load ic_src.'/palette.gp'
load ic_dir.'/data.gp'
stats ic_dir.'/repeat.dat' using 3 nooutput
ic_n = int(STATS_max)
ic_cols = ic_n > 1 ? 2 : 1
ic_rows = (ic_n + ic_cols - 1) / ic_cols
set terminal pngcairo size 760 * ic_cols, 400 * ic_rows + 60 noenhanced font "Sans,10" background rgb "white"
set output ic_out
set grid lc rgb '#d0d0d0'
set logscale x 2
set format x '%.0f'
set xlabel 'call sites N (log scale)'
set ylabel 'time ratio (below 1: the first form is faster)'
set key at graph 1.03, graph 1 left top Left reverse box opaque font ',8' samplen 2
set offsets graph 0.03, graph 0.03, 0, 0
set multiplot layout ic_rows, ic_cols margins 80.0 / (760 * ic_cols), 1 - 225.0 / (760 * ic_cols), 0.1, 0.88 spacing 300.0 / (760 * ic_cols), 0.12 title sprintf('Ratio per N in %d runs of the same sweep', ic_k) font ",13"
do for [s = 1:ic_n] {
	set title ic_series[s]
	plot for [k = 1:ic_k] ic_dir.'/repeat.dat' index (s - 1) using 1:(column(3 + k)) \
		with linespoints lw 1.5 pt 7 ps 0.6 lc rgb ic_other_color(k + 1) title sprintf('run %d', k), \
	     1 with lines dt 2 lc rgb ic_ink title 'no difference'
}
unset multiplot
