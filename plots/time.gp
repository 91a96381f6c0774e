# Time per call site vs N of the two compared forms with 95% interval bars;
# dashed lines where a form's code reaches the L1i and the L2, at the N
# summary.md states, labelled above the data. The other forms are in
# points.csv and the attribution chart.
load ic_src.'/style.gp'

ic_chart_title = 'Time per call site (95% interval)'
# Forms side by side at each N (a few % of a doubling) so the bars do not hide each other.
ic_shift(f) = 2 ** ((f - (ic_time_nforms + 1) / 2.0) * 0.04)
eval ic_multiplot
do for [p = 1:ic_npanels] {
	# With several threads a site's time is the wall time over every
	# thread's sites: with 2, about half one thread's. Said where it shows.
	set title ic_title[p].(strstrt(ic_title[p], ' threads,') > 0 ? \
		"\n(all threads together: the wall time over every thread's sites)" : '')
	if (ic_time_forms[p] ne '') {
		# linear, or log where the times span more than 4x (chart_data.c)
		eval ic_time_axis[p]
		set offsets 0, 0, graph ic_headroom(ic_time_nmarks[p]), graph 0.02
		eval ic_time_marks[p]
		plot for [f in ic_time_forms[p]] ic_dir.'/time.dat' index ((p - 1) * ic_nforms + f - 1) \
			using ($1 * ic_shift(f)):2:3:4 with yerrorlines lw 1.5 pt 7 ps 0.6 \
			lc rgb ic_form_color(ic_form[int(f)]) title ic_form[int(f)]
		unset arrow
		do for [i = 100:199] { unset label i }
	} else {
		ic_empty_text = 'no timings for this series'
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
