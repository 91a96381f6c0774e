# Your inlined copies on the measured curve: per series of the run, the
# time ratio against N with its 95% interval, the band that decides and the
# crossover bracket, and a vertical line at each priced function's N.
# inlines (inlines_chart.c) passes ic_dir (data.gp, ratio.dat), ic_src (plots/,
# for the palette), ic_term ('png' or 'svg') and ic_out.
load ic_src.'/palette.gp'
load ic_dir.'/data.gp'

set encoding utf8
# 900 x 380 pixels a panel keep 10-point text legible at 1:1.
ic_width = 1200
ic_height = 380 * ic_npanels + 150
if (ic_term eq 'svg') {
	set terminal svg size ic_width, ic_height dynamic noenhanced font 'Sans,11' background rgb 'white'
} else {
	set terminal pngcairo size ic_width, ic_height noenhanced font 'Sans,10' background rgb 'white'
}
set output ic_out

# The ratio in the compare form's colour, the marked functions in colours
# no form uses.
ic_c = ic_form_color(ic_compare)
ic_d = ic_form_dark(ic_compare)
ic_mark_color(k) = ic_other_color(k + 2)

set grid lc rgb '#d0d0d0'
set logscale x 2
set format x '%.0f'
set mxtics 1
set xrange [ic_x_min / 1.5 : ic_x_max * 1.5]
set xlabel 'call sites N (log scale)'
set ylabel sprintf('time ratio %s / %s', ic_compare, ic_baseline)
# The key right of the panel, off the data and the bracket.
set key at graph 1.02, graph 1 left top Left reverse box opaque font ',9' samplen 2 spacing 0.9
set offsets 0, 0, graph 0.05, graph 0.05

set label 99 ic_caption at screen 0.5, 15.0 / ic_height center font ',9' tc rgb '#404040'
set multiplot layout ic_npanels, 1 \
	title sprintf("%s's inlined copies on the measured curve\n%s / %s (below 1: %s faster)", ic_binary, ic_compare, ic_baseline, ic_compare) font ',13' \
	margins 80.0 / ic_width, 1 - 330.0 / ic_width, 70.0 / ic_height, 1 - 90.0 / ic_height \
	spacing 0, 95.0 / ic_height
do for [p = 1:ic_npanels] {
	set title ic_title[p]."\n".ic_verdict[p] font ',10'
	unset object 1
	if (ic_xo_lo[p] == ic_xo_lo[p]) {
		set object 1 rect from first ic_xo_lo[p], graph 0 to first ic_xo_hi[p], graph 1 \
			fc rgb ic_bracket_color fs transparent solid 0.25 noborder behind
	}
	unset arrow
	do for [k = 1:ic_nmarks] {
		set arrow k from first ic_mark_n[k], graph 0 to first ic_mark_n[k], graph 1 nohead \
			lw 2.5 lc rgb ic_mark_color(k) front
	}
	ic_r = ic_dir.'/ratio.dat'
	plot ic_r index (p - 1) using 1:5:6 with filledcurves fc rgb ic_c fs transparent solid 0.18 noborder \
		title 'band over all N (decides the side)', \
	     ic_r index (p - 1) using 1:2:3:4 with yerrorbars lw 1.5 pt 7 ps 0.6 lc rgb ic_d \
		title '95% interval at N', \
	     ic_r index (p - 1) using 1:2 with lines lw 1.5 lc rgb ic_c title 'measured ratio', \
	     NaN with boxes fs transparent solid 0.25 noborder fc rgb ic_bracket_color \
		title (ic_xo_lo[p] == ic_xo_lo[p] ? 'crossover bracket' : ''), \
	     1 with lines dt 2 lw 1.5 lc rgb ic_ink title 'no difference', \
	     for [k = 1:ic_nmarks] NaN with lines lw 2.5 lc rgb ic_mark_color(k) title ic_mark_label[k]
	unset label 99
}
unset multiplot
