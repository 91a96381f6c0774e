# Code footprint (bytes of code the N call sites execute) vs N per form,
# with the L1i and L2 capacities drawn across.
load ic_src.'/style.gp'

ic_chart_title = 'Code footprint vs call sites N, with cache capacities'
if (!ic_foot_any) {
	ic_rows = 1
	ic_cols = 1
	eval ic_canvas
}
eval ic_multiplot
set ylabel 'code footprint (bytes, log scale)'
set logscale y 2
set format y '%.0b %BB'
# The capacity lines are plotted as constants so that autoscaling keeps
# them in view; NaN (capacity unknown) leaves them out.
ic_caps = ''
if (ic_l1_bytes == ic_l1_bytes) {
	ic_caps = ic_caps . ', ic_l1_bytes with lines dt 2 lw 1.5 lc rgb "#505050" title ic_l1_label'
}
if (ic_l2_bytes == ic_l2_bytes) {
	ic_caps = ic_caps . ', ic_l2_bytes with lines dt 4 lw 1.5 lc rgb "#909090" title ic_l2_label'
}
if (!ic_foot_any) {
	set title 'no code footprint in these results'
	ic_empty_text = 'footprint_bytes was not recorded: nothing to draw'
	unset logscale y
	eval ic_empty_panel
} else {
	do for [p = 1:ic_npanels] {
		set title ic_title[p]
		if (ic_has_foot[p]) {
			eval 'plot for [f = 1:ic_nforms] ic_dir."/footprint.dat" index ((p - 1) * ic_nforms + f - 1) ' . \
				'using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb ic_color(f) title ic_form[f]' . ic_caps
		} else {
			ic_empty_text = 'footprint not recorded for this series'
			unset logscale y
			eval ic_empty_panel
			set logscale y 2
		}
		unset label 99
	}
}
unset multiplot
