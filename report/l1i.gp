# L1i misses per call site vs N, one line per form, from hardware counters
# or valgrind's simulation; where there are none it says so rather than
# drawing zeros.
load ic_src.'/style.gp'

ic_chart_title = "L1i misses per call site\n".ic_l1i_title
if (!ic_l1i_any) {
	ic_chart_title = 'L1i misses: no L1i miss counts in these results'
	ic_empty_text = "L1i misses were not measured (no PAPI counters, no simulation):\nnothing to draw, and no zeros drawn"
	eval ic_no_chart
}
eval ic_multiplot
set ylabel 'L1i misses per call site'
do for [p = 1:ic_npanels] {
	set title ic_title[p]
	if (ic_l1i_forms[p] ne '') {
		plot for [f in ic_l1i_forms[p]] ic_dir.'/l1i.dat' index ((p - 1) * ic_nforms + f - 1) \
			using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb ic_color(f) title ic_form[int(f)]
	} else {
		ic_empty_text = 'L1i misses not measured for this series'
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
