# ./run.sh watch: the sentinel's ratio over time, a panel per N; every short
# process a dot, the long process's windows a line, coloured by state (grey:
# in neither firmly); each state's level a dashed line, and a dotted line
# where the short processes end and the long one begins.
# cmd/draw DIR watch passes ic_dir (DIR/plots), ic_src, ic_term and ic_out.
load ic_src.'/style.gp'

unset logscale x
set format x '%g'
set xrange [*:*]
set xlabel 'time since the watch began (s)'
set ylabel 'time ratio inline / extern'
set offsets 0, 0, graph 0.3, graph 0.05
set key font ',8' samplen 1.5 spacing 0.9
eval ic_multiplot
ic_d = ic_dir.'/watch.dat'
do for [j = 1:ic_nsites] {
	set title sprintf('N = %s', word(ic_sites, j))
	ic_col = 3 + j
	unset arrow
	if (ic_long_start == ic_long_start) {
		set arrow 1 from ic_long_start, graph 0 to ic_long_start, graph 1 nohead dt 3 lc rgb ic_ink
		set label 98 'long process' at ic_long_start, graph 0.97 offset 0.5, 0 font ',8'
	}
	plot ic_d using 1:($2 == 1 ? column(ic_col) : NaN) with lines lw 1 lc rgb ic_bracket_color \
		title 'long process', \
	     for [s = 1:2] ic_d using 1:($2 == 1 && $3 == s ? column(ic_col) : NaN) with points pt 5 ps 0.5 \
		lc rgb ic_state_color(s) title (ic_nstates == 2 ? sprintf('window, state %d', s) : s == 1 ? 'window' : ''), \
	     for [s = 1:2] ic_d using 1:($2 == 0 && $3 == s ? column(ic_col) : NaN) with points pt 7 ps 0.9 \
		lc rgb ic_state_color(s) \
		title (ic_nstates == 2 ? sprintf('short process, state %d', s) : s == 1 ? 'short process' : ''), \
	     ic_d using 1:($3 == 0 ? column(ic_col) : NaN) with points pt 6 ps 0.7 \
		lc rgb ic_state_color(0) title (ic_nstates == 2 ? 'in neither firmly' : ''), \
	     for [s = 1:2] (ic_nstates == 2 ? 0 + word(s == 1 ? ic_level1 : ic_level2, j) : NaN) with lines dt 2 \
		lw 1.2 lc rgb ic_state_color(s) title (ic_nstates == 2 ? sprintf('state %d level', s) : ''), \
	     1 with lines dt 2 lw 1.5 lc rgb 'black' title 'no difference'
	unset label 99
	unset label 98
}
unset multiplot
