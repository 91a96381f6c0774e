# What the difference is made of: per series with control forms, the
# control ratios vs N with their band over all N (95%, family-wise: what
# decides) as error bars. Each line in its control form's colour (palette
# via chart_data.c's ic_attr_color); the key lists the lines the series
# measured (ic_attr_kinds) by plain names.
load ic_src.'/style.gp'

if (ic_attr_nseries == 0) {
	ic_chart_title = "What the difference is made of: no control forms in this run\n(no series has clone, inline_nolock or extern_nolock beside inline and extern)"
	eval ic_no_chart
}
ic_cols = ic_attr_nseries > 1 ? 2 : 1
ic_rows = (ic_attr_nseries + ic_cols - 1) / ic_cols
# Room for the longest key line ("the lock inlined: inline/inline_nolock"),
# so that a key does not run into the next panel's axis.
ic_key_w = 300.0
eval ic_canvas
ic_chart_title = "What the difference is made of: control ratios vs N\n(error bars: each ratio's band over all N, 95%)"
eval ic_multiplot
set ylabel 'time ratio (log scale; 1: no difference)'
set logscale y 10
# 1 always in view; one wild band cannot flatten the other lines, but the
# lock's own ratio (inline/inline_nolock reached 13 on Zen 5) stays in view.
set yrange [0.25<*<0.95 : 1.05<*<16] noextend
# Each panel's tics are chart_data.c's (ic_attr_ytics): round ratios, none
# crowding the next.
set offsets 0, 0, graph 0.05, graph 0.05
ic_n = |ic_attr_name|
# Ratios side by side at each N (a tenth of a doubling apart) so the bars
# do not hide each other.
ic_shift(k) = 2 ** ((k - (ic_n + 1) / 2.0) * 0.1)
do for [s = 1:ic_attr_nseries] {
	set title ic_attr_title[s]
	eval ic_attr_ytics[s]
	plot for [k in ic_attr_kinds[s]] ic_dir.'/attribution.dat' index ((s - 1) * ic_n + int(k) - 1) \
		using ($1 * ic_shift(int(k))):2:6:7 with yerrorlines lw 1.5 pt 7 ps 0.6 \
		lc rgb ic_attr_color[int(k)] title ic_attr_name[int(k)], \
	     1 with lines dt 2 lw 1.2 lc rgb ic_ink title 'no difference'
	unset label 99
}
unset multiplot
