# The compare/baseline ratio at one N (where the states part most) against
# time, minutes from the run's start: each process a bar from its start to
# its end at its mean there, each of its repetitions a dot at its start,
# coloured by its state; the two levels dotted where the series has two. A process that switches inside itself has
# dots of both colours under one bar. Older runs have no repetition times:
# their processes are drawn at their files' times.
load ic_src.'/style.gp'

# Colours of the states (ratio.gp draws state 2 in the same red).
ic_state1 = ic_state_color(1)
ic_state2 = ic_state_color(2)
ic_between = ic_other_color(2)   # neither state: a colour no form uses

ic_chart_title = sprintf('Time ratio %s / %s in time', ic_compare, ic_baseline)
# Its longest key line, 'a process in state 1 (start to end)', is wider than the style's room.
ic_key_w = 270.0
eval ic_canvas
eval ic_multiplot
ic_time_axes = 'unset logscale x; set xrange [0:ic_tl_tmax]; set format x "%g"; ' . \
	'set xlabel "minutes from the run''s start"; set offsets 0, 0, graph 0.5, graph 0.05'
set key font ',8' samplen 1.5 spacing 0.9
do for [p = 1:ic_npanels] {
	eval ic_time_axes
	set ylabel sprintf('time ratio %s / %s at N = %d', ic_compare, ic_baseline, ic_tl_sites[p])
	set title ic_title[p]."\n".ic_in_time[p]
	ic_two = ic_level_lo[p] == ic_level_lo[p]
	ic_t = ic_dir.'/timeline.dat'
	if (ic_has_ratio[p]) {
		plot ic_t index (2 * p - 2) using 1:3:($2 - $1):(0.0) with vectors nohead lw 3 \
			lc rgb ic_state1 title (ic_two ? 'a process in state 1 (start to end)' : 'a process (start to end)'), \
		     ic_t index (2 * p - 2) using 1:($4 == 2 ? $3 : NaN):($2 - $1):(0.0) with vectors nohead \
			lw 3 lc rgb ic_state2 title (ic_two ? 'a process in state 2' : ''), \
		     ic_t index (2 * p - 2) using 1:($5 > 0 ? $3 : NaN) with points pt 6 ps 1.8 lw 1.5 \
			lc rgb ic_between title (ic_nswitching[p] > 0 ? 'a process that switches inside' : ''), \
		     ic_t index (2 * p - 1) using 1:($3 == 1 || !ic_two ? $2 : NaN) with points pt 7 ps 0.4 \
			lc rgb ic_state1 title (ic_timeline_timed ? 'a repetition' . (ic_two ? ' in state 1' : '') : ''), \
		     ic_t index (2 * p - 1) using 1:($3 == 2 ? $2 : NaN) with points pt 7 ps 0.4 \
			lc rgb ic_state2 title (ic_two ? 'a repetition in state 2' : ''), \
		     ic_t index (2 * p - 1) using 1:($3 == 0 && ic_two ? $2 : NaN) with points pt 6 ps 0.4 \
			lc rgb ic_between title (ic_two ? 'a repetition in neither' : ''), \
		     (ic_two ? ic_level_lo[p] : NaN) with lines dt 3 lw 1.2 lc rgb ic_state1 \
			title (ic_two ? sprintf('level %.2f', ic_level_lo[p]) : ''), \
		     (ic_two ? ic_level_hi[p] : NaN) with lines dt 3 lw 1.2 lc rgb ic_state2 \
			title (ic_two ? sprintf('level %.2f', ic_level_hi[p]) : ''), \
		     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
	} else {
		ic_empty_text = sprintf('no N with both %s and %s measured', ic_compare, ic_baseline)
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
