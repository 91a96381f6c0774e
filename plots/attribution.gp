# What the difference is made of: one panel per series that has control
# forms, each with clone/extern, inline/inline_nolock, extern/extern_nolock,
# their interaction and inline/extern vs N, the band over each line's N
# (95%, family-wise: what decides) as error bars, and a line at 1. One
# colour per ratio, the same in every panel; a panel's key lists only the
# ratios its series measured.
load ic_src.'/style.gp'

if (ic_attr_nblocks == 0) {
	ic_rows = 1
	ic_cols = 1
	eval ic_canvas
	set title 'What the difference is made of: no control forms in this run' font ",12"
	ic_empty_text = 'no series has clone, inline_nolock or extern_nolock beside inline and extern: nothing to draw'
	eval ic_empty_panel
	exit
}
ic_cols = ic_attr_nseries > 1 ? 2 : 1
ic_rows = (ic_attr_nseries + ic_cols - 1) / ic_cols
eval ic_canvas
ic_chart_title = "What the difference is made of: control ratios vs call sites N\n(error bars: band over all N of each ratio, 95%)"
eval ic_multiplot
set ylabel 'time ratio (log scale; 1: no difference)'
set logscale y 10
# 1 always in view; one wild band cannot flatten the other lines, but the
# lock's own ratio (inline/inline_nolock reached 13 on Zen 5) stays in view.
set yrange [0.25<*<0.95 : 1.05<*<16] noextend
set ytics (0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16)
set format y '%.2g'
# Room above the lines for the key.
set offsets graph 0.03, graph 0.03, graph 0.55, graph 0.05
set key top left box opaque font ",8" samplen 1.5 spacing 0.9
# Ratios side by side at each N so the bars do not hide each other.
ic_ashift(k) = 2 ** ((k - (ic_attr_nkinds + 1) / 2.0) * 0.03)
do for [s = 1:ic_attr_nseries] {
	# The blocks of series s are consecutive.
	j0 = 0
	j1 = -1
	do for [j = 1:ic_attr_nblocks] {
		if (ic_attr_bs[j] == s) {
			if (j0 == 0) { j0 = j }
			j1 = j
		}
	}
	set title ic_attr_title[s]
	plot for [j = j0:j1] ic_dir.'/attribution.dat' index ic_attr_bi[j] \
		using ($1 * ic_ashift(ic_attr_bk[j])):2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.6 \
		lc rgb ic_color(ic_attr_bk[j]) title ic_attr_kind[ic_attr_bk[j]], \
	     1 with lines dt 2 lw 1.2 lc rgb 'black' title 'no difference'
	unset label 99
}
unset multiplot
