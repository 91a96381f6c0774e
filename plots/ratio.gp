# The compare/baseline ratio vs N: its 95% interval at each N, the wider
# family-wise band that decides, a line at 1 and the crossover bracket;
# every process's own ratio as a dot beside N, coloured by its state, and
# each state's ratio as a dashed line where the processes split in two.
load ic_src.'/style.gp'

ic_chart_title = sprintf('Time ratio %s / %s (below 1: %s faster)', \
	ic_compare, ic_baseline, ic_compare)
# Labels next to a marker go on the side with more room.
ic_right_half(x) = log(x) > (log(ic_sites_min) + log(ic_sites_max)) / 2
eval ic_multiplot
# Room above the data for the key: the dots spread over the whole panel.
set offsets graph 0.03, graph 0.03, graph 0.4, graph 0.02
set key font ',8' samplen 1.5 spacing 0.9
set ylabel sprintf('time ratio %s / %s', ic_compare, ic_baseline)
do for [p = 1:ic_npanels] {
	set title ic_title[p]."\n".ic_verdict[p].(ic_states[p] eq '' ? '' : "\n".ic_states[p])
	unset object 1
	unset label 1
	# The crossover lies somewhere in the bracket; no point estimate is drawn.
	if (ic_xo_lo[p] == ic_xo_lo[p] && ic_xo_hi[p] == ic_xo_hi[p]) {
		set object 1 rect from first ic_xo_lo[p], graph 0 to first ic_xo_hi[p], graph 1 \
			fc rgb '#d62728' fs transparent solid 0.18 noborder behind
		ic_mid = sqrt(ic_xo_lo[p] * ic_xo_hi[p])
		if (ic_right_half(ic_mid)) {
			set label 1 sprintf('crossover in (%.0f, %.0f) ', ic_xo_lo[p], ic_xo_hi[p]) at first ic_xo_lo[p], graph 0.06 right tc rgb '#d62728' front
		} else {
			set label 1 sprintf(' crossover in (%.0f, %.0f)', ic_xo_lo[p], ic_xo_hi[p]) at first ic_xo_hi[p], graph 0.06 left tc rgb '#d62728' front
		}
	}
	if (ic_has_ratio[p]) {
		plot ic_dir.'/ratio.dat' index (p - 1) using 1:6:7 with filledcurves \
			fc rgb '#1f77b4' fs transparent solid 0.12 noborder title 'band, all N (decides)', \
		     '' index (p - 1) using 1:3:4 with filledcurves \
			fc rgb '#1f77b4' fs transparent solid 0.3 noborder title '95% interval at N', \
		     '' index (p - 1) using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb '#1f77b4' \
			title 'ratio', \
		     '' index (p - 1) using 1:($5 > 0 ? $2 : NaN) with points pt 6 ps 1.6 lw 1.5 \
			lc rgb '#ff7f0e' title 'band wider than ±3%', \
		     ic_dir.'/process.dat' index (p - 1) using 1:($3 == 1 ? $2 : NaN) with points \
			pt 7 ps 0.35 lc rgb '#555555' \
			title (ic_states[p] eq '' ? 'one process' : 'one process (state 1)'), \
		     '' index (p - 1) using 1:($3 == 2 ? $2 : NaN) with points pt 7 ps 0.35 \
			lc rgb '#d62728' title (ic_states[p] eq '' ? '' : 'one process (state 2)'), \
		     ic_dir.'/ratio.dat' index (p - 1) using 1:8 with lines dt 3 lw 1.2 \
			lc rgb '#555555' notitle, \
		     '' index (p - 1) using 1:9 with lines dt 3 lw 1.2 lc rgb '#d62728' notitle, \
		     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
	} else {
		ic_empty_text = sprintf('no N with both %s and %s measured', ic_compare, ic_baseline)
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
