/* plots/watch.dat and the watch's data.gp; see watch_data.h. */
#include "watch_data.h"

#include <math.h>

#include "gnuplot_run.h"
#include "load.h"

void ic_watch_data_write(FILE *dat, FILE *gp, const struct ic_watch *w)
{
	char cpu[IC_RESULTS_CONTEXT_MAX], title[512];
	const char *model = ic_results_context(&w->res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu));

	fputs("# t_s kind(0 process, 1 window) state", dat);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(dat, " ratio_N%lu", w->sites[j]);
	fputc('\n', dat);
	for (size_t i = 0; i < w->nsamples; i++) {
		const struct ic_watch_sample *s = &w->samples[i];

		fprintf(dat, "%.3f %d %d", 0.5 * (s->start + s->end) - w->t0, s->in_long,
			s->state >= 0 ? s->state + 1 : 0);
		for (size_t j = 0; j < w->nsites; j++)
			fprintf(dat, isfinite(s->ratio[j]) ? " %.5f" : " NaN", s->ratio[j]);
		fputc('\n', dat);
	}
	snprintf(title, sizeof(title), "watch: %s/%s over time, %s", w->an.opts.compare,
		 w->an.opts.baseline, w->series);
	/* The panels side by side: the title and caption need the width. */
	fprintf(gp, "ic_rows = 1\nic_cols = %zu\nic_sites_min = 1\nic_sites_max = 2\nic_nsites = %zu\n",
		w->nsites > 2 ? w->nsites : 2, w->nsites);
	fputs("ic_chart_title = ", gp);
	ic_gnuplot_quote(gp, title);
	fputs("\nic_caption = ", gp);
	snprintf(title, sizeof(title), "%s; %zu short processes (dots), one long process in %zu "
		 "windows (line); colour: state; %s", *model ? model : "CPU not recorded", w->nshort,
		 w->nwindows, ic_watch_where_name(w->where));
	ic_gnuplot_quote(gp, title);
	fputs("\nic_sites = '", gp);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(gp, "%s%lu", j ? " " : "", w->sites[j]);
	fprintf(gp, "'\nic_nstates = %zu\n", w->nstates);
	/* Each state's level per N, and where the long process begins: its
	 * first window (they come last, in time order). */
	for (int s = 0; s < 2; s++) {
		fprintf(gp, "ic_level%d = '", s + 1);
		for (size_t j = 0; j < w->nsites; j++)
			fprintf(gp, "%s%.5f", j ? " " : "", s < (int)w->nstates ? w->st[s].ratio[j] : NAN);
		fputs("'\n", gp);
	}
	if (w->nwindows)
		fprintf(gp, "ic_long_start = %.3f\n", w->samples[w->nsamples - w->nwindows].start - w->t0);
	else
		fputs("ic_long_start = NaN\n", gp);
}
