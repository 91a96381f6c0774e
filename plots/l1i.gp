# L1i misses per call site vs N, one line per form, from hardware counters
# or valgrind's simulation, with the time chart's cache lines. A series
# without counts is left out and named in the title; with none at all the
# title says so and no panel is drawn (never zeros).
load ic_src.'/style.gp'

if (ic_l1i_panels eq '') {
	ic_chart_title = "L1i misses per call site: not measured in this run\n(no hardware counters, no simulation: nothing drawn, no zeros)"
	eval ic_no_chart
}
ic_chart_title = "L1i misses per call site\n".ic_l1i_title
do for [p in ic_l1i_none] {
	ic_chart_title = ic_chart_title."\nleft out, no L1i counts: ".ic_title[int(p)]
}
ic_top = ic_top + 16 * words(ic_l1i_none)
ic_npanels = words(ic_l1i_panels)
ic_cols = 1
while (ic_cols * ic_cols < ic_npanels) { ic_cols = ic_cols + 1 }
ic_rows = (ic_npanels + ic_cols - 1) / ic_cols
eval ic_canvas
eval ic_multiplot
set ylabel 'L1i misses per call site'
do for [p in ic_l1i_panels] {
	q = int(p)
	set title ic_title[q]
	set offsets 0, 0, graph ic_headroom(ic_time_nmarks[q]), 0
	eval ic_time_marks[q]
	# The compared pair last, on top of the controls (extern hid under
	# extern_nolock where they meet); the key inverted, so it still lists
	# them first.
	set key invert
	plot for [i = words(ic_l1i_forms[q]):1:-1] ic_dir.'/l1i.dat' \
		index ((q - 1) * ic_nforms + int(word(ic_l1i_forms[q], i)) - 1) \
		using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 \
		lc rgb ic_form_color(ic_form[int(word(ic_l1i_forms[q], i))]) title ic_form[int(word(ic_l1i_forms[q], i))]
	set key noinvert
	unset arrow
	do for [i = 100:199] { unset label i }
	unset label 99
}
unset multiplot
