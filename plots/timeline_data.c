/* plots/timeline.dat and the timeline's lines of data.gp; see chart_data.h. */
#include "chart_data.h"

#include <math.h>

#include "format.h"
#include "gnuplot_run.h"

static void num(FILE *f, double x)
{
	fprintf(f, isfinite(x) ? " %.6g" : " NaN", x);
}

/* Block 2g: "start end ratio state switches" per process, start its end where the
 * run has no start (older runs: the file's mtime). Block 2g + 1: "t ratio
 * state switches" per repetition, state 0 in neither. Every ratio at the
 * timeline's one N (analysis.h). Empty: a NaN row. */
static void series_blocks(FILE *f, const struct ic_timeline *tl, const char *title)
{
	size_t n = 0;

	fprintf(f, "# %s: processes: start end ratio state switches (minutes from the run's start)\n",
		title);
	for (size_t p = 0; p < tl->nproc; p++) {
		const struct ic_timeline_proc *tp = &tl->proc[p];

		if (!isfinite(tp->ratio) || !isfinite(tp->end))
			continue;
		fprintf(f, " %.6g %.6g %.6g %d %d\n", isfinite(tp->start) ? tp->start : tp->end, tp->end, tp->ratio,
			tp->state + 1, tp->switches);
		n++;
	}
	fputs(n ? "\n\n" : "NaN NaN NaN 0 0\n\n\n", f);
	fprintf(f, "# %s: repetitions: t ratio state switches\n", title);
	n = 0;
	for (size_t i = 0; i < tl->nreps; i++) {
		const struct ic_timeline_rep *r = &tl->reps[i];

		if (!isfinite(r->t))
			continue;
		num(f, r->t);
		num(f, r->ratio);
		fprintf(f, " %d %d\n", r->state + 1, tl->proc[r->proc].switches);
		n++;
	}
	fputs(n ? "\n\n" : "NaN NaN 0 0\n\n\n", f);
}

int ic_timeline_data_write(FILE *gp, FILE *dat, const struct ic_analysis *an)
{
	char title[512], line[256];
	int timed = 0;
	double tmax = 0.0;
	size_t ng = an->nseries ? an->nseries : 1;

	fprintf(gp, "array ic_in_time[%zu]\narray ic_level_lo[%zu]\narray ic_level_hi[%zu]\n"
		"array ic_nswitching[%zu]\narray ic_tl_sites[%zu]\n", ng, ng, ng, ng, ng);
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_timeline *tl = an->series[g].timeline;

		ic_fmt_series(title, sizeof(title), an, &an->series[g].group);
		series_blocks(dat, tl, title);
		ic_timeline_line(line, sizeof(line), tl);
		fprintf(gp, "ic_in_time[%zu] = ", g + 1);
		ic_gnuplot_quote(gp, line);
		for (int s = 0; s < 2; s++) {
			fprintf(gp, "; ic_level_%s[%zu] =", s ? "hi" : "lo", g + 1);
			num(gp, tl->nlevels == 2 ? tl->level[s] : NAN);
		}
		fprintf(gp, "; ic_nswitching[%zu] = %zu; ic_tl_sites[%zu] = %lu\n", g + 1, tl->nswitching, g + 1, tl->sites);
		timed |= tl->timed;
		for (size_t k = 0; k < tl->nproc; k++)
			if (isfinite(tl->proc[k].end))
				tmax = fmax(tmax, tl->proc[k].end);
	}
	fprintf(gp, "ic_timeline_timed = %d\n", timed);
	/* The axis's end: processes whose files share one time (a fresh
	 * clone's) would leave gnuplot an empty range. */
	fprintf(gp, "ic_tl_tmax = %.6g\n", tmax > 0.0 ? tmax * 1.02 : 0.1);
	return ferror(gp) || ferror(dat) ? -1 : 0;
}
