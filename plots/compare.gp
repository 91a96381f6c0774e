# The compare/baseline ratio vs N of each compared run, overlaid, one panel
# per series: each run's own 95% interval as error bars, a line at 1, and
# each run's crossover bracket as a bar at the foot of the panel.
# ./run.sh compare passes ic_dir (holding data.gp and compare.dat, written
# by chart_data.c here), ic_src (plots/, for the shared style), ic_term and
# ic_out.
load ic_src.'/style.gp'

ic_chart_title = 'Time ratio compare / baseline form vs call sites N, per run (below 1: the compare form is faster)'
# The runs sit side by side at each N (a small step along log x), so one
# run's error bar does not hide another's.
ic_shift(k) = 2 ** ((k - (ic_k + 1) / 2.0) * 0.1)
# The full labels (CPU model, directory) are long: they go once, under the
# title, in each run's colour; the panels' keys name the runs by letter.
# The panels move down by the lines they take.
do for [k = 1:ic_k] {
	set label 100 + k ic_label[k] at screen 0.5, 1.0 - (38.0 + 16 * (k - 1)) / ic_height center tc rgb ic_other_color(k + 1) font ",10"
}
ic_top = 106.0 + 16 * ic_k
eval ic_multiplot
set ylabel 'time ratio compare / baseline'
do for [p = 1:ic_npanels] {
	set title ic_title[p]
	unset arrow
	do for [k = 1:ic_k] {
		i = (p - 1) * ic_k + k
		if (ic_xo_lo[i] == ic_xo_lo[i] && ic_xo_hi[i] == ic_xo_hi[i]) {
			set arrow k from first ic_xo_lo[i], graph 0.015 + 0.025 * k to first ic_xo_hi[i], graph 0.015 + 0.025 * k \
				nohead lw 5 lc rgb ic_other_color(k + 1) front
		}
	}
	plot for [k = 1:ic_k] ic_dir.'/compare.dat' index ((p - 1) * ic_k + k - 1) using ($1 * ic_shift(k)):2:3:4 \
		with yerrorlines lw 1.5 pt 7 ps 0.6 lc rgb ic_other_color(k + 1) title ic_letter[k], \
	     1 with lines dt 2 lw 1.5 lc rgb ic_ink title 'no difference'
	unset label 99
	do for [k = 1:ic_k] { unset label 100 + k }
}
unset multiplot
