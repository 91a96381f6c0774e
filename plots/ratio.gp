# The compare/baseline ratio vs N on a log axis: the band that holds every N
# at once as a filled area, and the interval that decides each N's side
# (Holm's step-down: a side where it excludes 1) as error bars in a darker
# tone, a filled dot where it resolves; the crossover bracket shaded, every process's ratio as a dot beside
# N coloured by its state, and each state's own ratio a bold line where the
# processes split in two (the pooled ratio then thin). The y range is the data's bulk (chart_data.c):
# a dot beyond it is drawn at the edge as a triangle, counted in the key.
load ic_src.'/style.gp'

ic_chart_title = sprintf('Time ratio %s / %s (below 1: %s faster; log scale)', ic_compare, ic_baseline, ic_compare)
eval ic_multiplot
set ylabel sprintf('time ratio %s / %s', ic_compare, ic_baseline)
set logscale y
set mytics default
ic_c = ic_form_color(ic_compare)
ic_d = ic_form_dark(ic_compare)
do for [p = 1:ic_npanels] {
	set title ic_title[p]."\n".ic_verdict[p].(ic_states[p] eq '' ? '' : "\n".ic_states[p])
	ic_two = ic_states[p] ne ''
	ic_xo = ic_xo_lo[p] == ic_xo_lo[p]
	unset object 1
	if (ic_xo) {
		set object 1 rect from first ic_xo_lo[p], graph 0 to first ic_xo_hi[p], graph 1 \
			fc rgb ic_bracket_color fs transparent solid 0.25 noborder behind
	}
	if (ic_has_ratio[p]) {
		set yrange [ic_ylo[p] : ic_yhi[p]]
		eval ic_ytics[p]
		ic_r = ic_dir.'/ratio.dat'
		ic_p = ic_dir.'/process.dat'
		ic_nclip = ic_clip_above[p] + ic_clip_below[p]
		plot ic_r index (p - 1) using 1:6:7 with filledcurves \
			fc rgb ic_c fs transparent solid 0.18 noborder title 'band, all N at once', \
		     ic_r index (p - 1) using 1:2:10:11 with yerrorbars lw 1.5 pt 1 ps 0 lc rgb ic_d \
			title '95% range that decides', \
		     ic_r index (p - 1) using 1:($10 > 1 || $11 < 1 ? $2 : NaN) with points pt 7 ps 0.7 \
			lc rgb ic_d title 'on a side: it excludes 1', \
		     ic_r index (p - 1) using 1:($10 > 1 || $11 < 1 ? NaN : $2) with points pt 6 ps 0.7 \
			lc rgb ic_d title 'unresolved: it holds 1', \
		     ic_r index (p - 1) using 1:2 with lines lw (ic_two ? 0.8 : 1.5) lc rgb ic_c \
			title (ic_two ? 'ratio (time average)' : 'ratio'), \
		     ic_p index (p - 1) using 1:($3 == 1 && $5 == 0 ? $2 : NaN) with points pt 7 ps 0.35 \
			lc rgb (ic_two ? ic_state_color(1) : ic_d) title (ic_two ? 'a process in state 1' : 'a process'), \
		     ic_p index (p - 1) using 1:($3 == 2 && $5 == 0 ? $2 : NaN) with points pt 7 ps 0.35 \
			lc rgb ic_state_color(2) title (ic_two ? 'a process in state 2' : ''), \
		     ic_p index (p - 1) using 1:($5 > 0 ? $4 : NaN) with points pt 9 ps 1.0 lc rgb ic_clip_color \
			title (ic_nclip ? sprintf('%d beyond the panel, at its edge', ic_nclip) : ''), \
		     ic_p index (p - 1) using 1:($5 < 0 ? $4 : NaN) with points pt 11 ps 1.0 lc rgb ic_clip_color \
			notitle, \
		     ic_r index (p - 1) using 1:8 with linespoints pt 7 ps 0.5 lw 2 lc rgb ic_state_color(1) \
			title (ic_two ? 'state 1 ratio' : ''), \
		     ic_r index (p - 1) using 1:9 with linespoints pt 7 ps 0.5 lw 2 lc rgb ic_state_color(2) \
			title (ic_two ? 'state 2 ratio' : ''), \
		     NaN with boxes fs transparent solid 0.25 noborder fc rgb ic_bracket_color \
			title (ic_xo ? 'crossover bracket' : ''), \
		     1 with lines dt 2 lw 1.5 lc rgb ic_ink title 'no difference'
		set autoscale y
	} else {
		ic_empty_text = sprintf('no N with both %s and %s measured', ic_compare, ic_baseline)
		unset logscale y
		eval ic_empty_panel
		set logscale y
	}
	unset label 99
}
unset multiplot
