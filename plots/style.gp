# Shared setup for the charts. gnuplot_run.c passes ic_dir (DIR/plots: data.gp
# and the *.dat files), ic_src (plots/), ic_term ('png' or 'svg') and ic_out.
# The palette first: data.gp names its colours.
load ic_src.'/palette.gp'
load ic_dir.'/data.gp'
if (!exists('ic_smoke')) { ic_smoke = 0 }

set encoding utf8
# Panels of 560x400 pixels keep 10-point text legible at 1:1; the margins
# are in pixels so that one column keeps room for the y label; each panel
# has ic_key_w pixels on its right for its key, so that no key covers data.
# A chart that changes ic_rows / ic_cols / ic_key_w evals ic_canvas again.
ic_key_w = 240.0
ic_canvas = 'ic_width = (560 + ic_key_w) * ic_cols; ic_height = 400 * ic_rows + 145; ' . \
	'if (ic_term eq "svg") { set terminal svg size ic_width, ic_height dynamic noenhanced ' . \
	'font "Sans,11" background rgb "white" } else { set terminal pngcairo size ic_width, ' . \
	'ic_height noenhanced font "Sans,10" background rgb "white" }; set output ic_out; ' . \
	'set label 99 ic_caption at screen 0.5, 18.0 / ic_height center font ",9" tc rgb "#404040"'
eval ic_canvas

set grid lc rgb '#d0d0d0'
# Right of the panel, top-aligned: outside the data and the crossover bracket.
ic_key = 'set key at graph 1.03, graph 1 left top Left reverse box opaque font ",8" samplen 2 spacing 1.0'
eval ic_key
set logscale x 2
set format x '%.0f'
set xlabel 'call sites N (log scale)'
set mxtics 1
# Every panel the same N, the first and last off the frame (offsets do not
# pad a log axis whose ends fall on tics).
ic_xrange = 'set xrange [ic_sites_min / 1.4 : ic_sites_max * 1.4]'
eval ic_xrange

# A smoke run (--quick, or any design too small for a verdict) says so
# under every chart's title.
ic_smoke_note = ic_smoke ? sprintf("\nsmoke test, not an answer (%s)", ic_smoke_why) : ''

# The caption (label 99) is drawn with the first panel; each chart unsets it after that.
# ic_top: pixels above the panels, for the title (compare.gp adds its run labels).
ic_top = 100.0 + (ic_smoke ? 20 : 0)
ic_multiplot = 'set multiplot layout ic_rows, ic_cols title ic_chart_title.ic_smoke_note font ",13" ' . \
	'margins 80.0 / ic_width, 1 - (25.0 + ic_key_w) / ic_width, 80.0 / ic_height, 1 - ic_top / ic_height ' . \
	'spacing (90.0 + ic_key_w) / ic_width, 120.0 / ic_height'

# An empty panel that says why (ic_empty_text).
ic_empty_panel = 'unset logscale; set xrange [0:1]; set yrange [0:1]; unset xtics; unset ytics; ' . \
	'unset xlabel; unset ylabel; unset border; unset grid; unset key; ' . \
	'set label 98 ic_empty_text at graph 0.5, 0.5 center; plot 2 notitle; unset label 98; ' . \
	'set border; set grid; set xtics; set ytics; set autoscale; eval ic_xrange; set logscale x 2; ' . \
	'set xlabel "call sites N (log scale)"; eval ic_key'
# A chart with nothing to draw: its title says why, and no panel.
ic_no_chart = 'ic_rows = 0; ic_cols = 1; ic_key_w = 340; eval ic_canvas; ' . \
	'set label 97 ic_chart_title.ic_smoke_note at screen 0.5, 1 - 40.0 / ic_height center font ",13"; ' . \
	'unset border; unset tics; unset key; unset grid; unset xlabel; unset ylabel; unset logscale; ' . \
	'set xrange [0:1]; set yrange [0:1]; plot 2 notitle; exit'

# Where the time and L1i panels leave room above the data for n cache
# labels (chart_data.c stacks them ic_mark_h apart from the top).
ic_headroom(n) = n > 0 ? (ic_mark_h * n + 0.04) / (1 - ic_mark_h * n - 0.04) : 0.02
