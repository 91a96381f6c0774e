# The compare/baseline ratio of medians vs N with its bootstrap 95% band, a
# line at 1 and the crossover (and its interval) marked.
load ic_src.'/style.gp'

ic_chart_title = sprintf('Time ratio %s / %s vs call sites N (below 1: %s faster)', \
	ic_compare, ic_baseline, ic_compare)
# Labels next to a vertical marker go on the side with more room.
ic_right_half(x) = log(x) > (log(ic_sites_min) + log(ic_sites_max)) / 2
eval ic_multiplot
set ylabel sprintf('time ratio %s / %s', ic_compare, ic_baseline)
do for [p = 1:ic_npanels] {
	set title ic_title[p]."\n".ic_verdict[p]
	unset arrow 1
	unset object 1
	unset label 1
	if (ic_xo[p] == ic_xo[p]) {
		set arrow 1 from first ic_xo[p], graph 0 to first ic_xo[p], graph 1 nohead lw 2 lc rgb '#d62728' front
		if (ic_right_half(ic_xo[p])) {
			set label 1 sprintf('crossover %.0f ', ic_xo[p]) at first ic_xo[p], graph 0.06 right tc rgb '#d62728' front
		} else {
			set label 1 sprintf(' crossover %.0f', ic_xo[p]) at first ic_xo[p], graph 0.06 left tc rgb '#d62728' front
		}
		if (ic_xo_lo[p] == ic_xo_lo[p] && ic_xo_hi[p] == ic_xo_hi[p]) {
			set object 1 rect from first ic_xo_lo[p], graph 0 to first ic_xo_hi[p], graph 1 \
				fc rgb '#d62728' fs transparent solid 0.18 noborder behind
		}
	}
	# One form resolved faster, then no resolvable difference: mark where
	# its band reaches 1.
	unset arrow 2
	unset label 2
	if (ic_edge[p] == ic_edge[p]) {
		set arrow 2 from first ic_edge[p], graph 0 to first ic_edge[p], graph 1 nohead lw 1.5 dt 3 lc rgb '#505050' front
		if (ic_right_half(ic_edge[p])) {
			set label 2 sprintf('band reaches 1 at %.0f ', ic_edge[p]) at first ic_edge[p], graph 0.06 right tc rgb '#505050' front
		} else {
			set label 2 sprintf(' band reaches 1 at %.0f', ic_edge[p]) at first ic_edge[p], graph 0.06 left tc rgb '#505050' front
		}
	}
	if (ic_has_ratio[p]) {
		plot ic_dir.'/ratio.dat' index (p - 1) using 1:3:4 with filledcurves \
			fc rgb '#1f77b4' fs transparent solid 0.25 noborder title '95% interval', \
		     '' index (p - 1) using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb '#1f77b4' \
			title 'ratio of medians', \
		     '' index (p - 1) using 1:($5 > 0 ? $2 : NaN) with points pt 6 ps 1.6 lw 1.5 \
			lc rgb '#ff7f0e' title 'noisy point', \
		     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
	} else {
		ic_empty_text = sprintf('no N with both %s and %s measured', ic_compare, ic_baseline)
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
