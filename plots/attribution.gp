# What the difference is made of: the control ratios vs N in one panel,
# clone/extern, inline/inline_nolock, extern/extern_nolock, their
# interaction and inline/extern, with the band over each line's N (95%,
# family-wise: what decides) as error bars. One colour per ratio, one dash
# pattern per series that has control forms; a line at 1. The key names
# colours and dashes once each, and only ratios some series measured.
load ic_src.'/style.gp'

# One panel on the canvas of four: many lines, and the key beside them.
ic_rows = ic_attr_nblocks ? 2 : 1
ic_cols = ic_rows
eval ic_canvas
set tmargin at screen ic_top
set bmargin at screen ic_bottom + 30.0 / ic_height
set lmargin at screen 0.07
set rmargin at screen 0.6
set ylabel 'time ratio (log scale, 1: no difference; clipped to 0.1..10)'
set key at screen 0.61, screen ic_top left top vertical Left reverse box opaque font ",9" spacing 1.2
# Ratios on a log scale, clipped to 1/10..10: one wild band would otherwise
# flatten every other line.
set logscale y 10
set yrange [0.1:10]
ic_sub = ic_attr_nseries == 1 ? ic_attr_title[1] : sprintf('%d series with control forms: dash pattern per series', ic_attr_nseries)
set title "What the difference is made of: control ratios vs call sites N\n(error bars: band over all N of each ratio, 95%)\n".ic_sub font ",12"
# Ratios side by side at each N so the bars do not hide each other.
ic_ashift(j) = 2 ** ((j - (ic_attr_nblocks + 1) / 2.0) * 0.012)
# Whether any series measured ratio kind k.
ic_kind_any(k) = sum [j = 1:ic_attr_nblocks] (ic_attr_bk[j] == k ? 1 : 0) > 0
if (ic_attr_nblocks == 0) {
	set title 'What the difference is made of: no control forms in this run' font ",12"
	ic_empty_text = 'no series has clone, inline_nolock or extern_nolock beside inline and extern: nothing to draw'
	unset lmargin
	unset rmargin
	unset bmargin
	unset tmargin
	eval ic_empty_panel
} else {
	plot for [j = 1:ic_attr_nblocks] ic_dir.'/attribution.dat' index ic_attr_bi[j] \
		using ($1 * ic_ashift(j)):2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.6 dt ic_attr_bs[j] \
		lc rgb ic_color(ic_attr_bk[j]) notitle, \
	     for [k = 1:ic_attr_nkinds] (ic_kind_any(k) ? NaN : 1/0) with linespoints lw 1.5 pt 7 \
		lc rgb ic_color(k) title (ic_kind_any(k) ? ic_attr_kind[k] : ''), \
	     for [s = 1:(ic_attr_nseries > 1 ? ic_attr_nseries : 0)] NaN with lines lw 1.5 dt s \
		lc rgb '#404040' title ic_attr_title[s], \
	     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
}
