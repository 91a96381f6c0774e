# The compare/baseline ratio vs N: its 95% interval at each N, the wider
# band over all N that decides, the crossover bracket shaded, every
# process's ratio as a dot beside N coloured by its state, and each state's
# own ratio dotted where the processes split in two.
load ic_src.'/style.gp'

ic_chart_title = sprintf('Time ratio %s / %s (below 1: %s faster)', ic_compare, ic_baseline, ic_compare)
eval ic_multiplot
# Room above the data for the key: the dots spread over the whole panel.
set offsets 0, 0, graph 0.4, graph 0.02
set key font ',8' samplen 1.5 spacing 0.9
set ylabel sprintf('time ratio %s / %s', ic_compare, ic_baseline)
ic_red = '#d62728'
do for [p = 1:ic_npanels] {
	set title ic_title[p]."\n".ic_verdict[p].(ic_states[p] eq '' ? '' : "\n".ic_states[p])
	ic_two = ic_states[p] ne ''
	ic_xo = ic_xo_lo[p] == ic_xo_lo[p]
	unset object 1
	if (ic_xo) {
		set object 1 rect from first ic_xo_lo[p], graph 0 to first ic_xo_hi[p], graph 1 \
			fc rgb ic_red fs transparent solid 0.18 noborder behind
	}
	if (ic_has_ratio[p]) {
		ic_r = ic_dir.'/ratio.dat'
		ic_p = ic_dir.'/process.dat'
		plot ic_r index (p - 1) using 1:6:7 with filledcurves \
			fc rgb ic_color(1) fs transparent solid 0.12 noborder title 'band, all N (decides)', \
		     ic_r index (p - 1) using 1:3:4 with filledcurves \
			fc rgb ic_color(1) fs transparent solid 0.3 noborder title '95% interval at N', \
		     ic_r index (p - 1) using 1:2 with linespoints lw 1.5 pt 7 ps 0.6 lc rgb ic_color(1) title 'ratio', \
		     ic_r index (p - 1) using 1:($5 > 0 ? $2 : NaN) with points pt 6 ps 1.6 lw 1.5 \
			lc rgb ic_color(5) title sprintf('band wider than ±%g%%', ic_noise_pct), \
		     ic_p index (p - 1) using 1:($3 == 1 ? $2 : NaN) with points pt 7 ps 0.35 lc rgb '#555555' \
			title (ic_two ? 'a process in state 1' : 'a process'), \
		     ic_p index (p - 1) using 1:($3 == 2 ? $2 : NaN) with points pt 7 ps 0.35 lc rgb ic_red \
			title (ic_two ? 'a process in state 2' : ''), \
		     ic_r index (p - 1) using 1:8 with lines dt 3 lw 1.2 lc rgb '#555555' \
			title (ic_two ? 'state 1 ratio' : ''), \
		     ic_r index (p - 1) using 1:9 with lines dt 3 lw 1.2 lc rgb ic_red \
			title (ic_two ? 'state 2 ratio' : ''), \
		     NaN with boxes fs transparent solid 0.18 noborder fc rgb ic_red \
			title (ic_xo ? 'crossover bracket' : ''), \
		     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
	} else {
		ic_empty_text = sprintf('no N with both %s and %s measured', ic_compare, ic_baseline)
		eval ic_empty_panel
	}
	unset label 99
}
unset multiplot
