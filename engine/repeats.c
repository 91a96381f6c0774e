/* A series across the sweep's repeats; see analysis.h. */
#include "analysis.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_int.h>
#include <gsl/gsl_statistics_double.h>

/* Sums of squares about the mean and degrees of freedom, pooled. */
struct repeats_pool {
	double ss;
	size_t df;
};

static void repeats_pool_add(struct repeats_pool *pl, const double *x, size_t n)
{
	if (n < 2)
		return;
	pl->ss += gsl_stats_tss(x, 1, n);
	pl->df += n - 1;
}

static double repeats_pool_sd(const struct repeats_pool *pl, size_t *df)
{
	*df = pl->df;
	return pl->df ? sqrt(pl->ss / (double)pl->df) : NAN;
}

/* The time of process unit's repetition k at point p; NAN if none. */
static double repeats_rep_ns(const struct ic_point *p, unsigned unit, int k)
{
	for (size_t i = 0; i < p->nreps; i++)
		if (p->reps[i].unit == unit && p->reps[i].index == k)
			return p->reps[i].v[IC_F_NS];
	return NAN;
}

/* Between repetitions: per process and N, the log ratios of its
 * repetitions paired by index (one round each). */
static void repeats_rep_level(const struct ic_group *g, const struct ic_process_ratios *pr,
			      double *buf, size_t cap, struct repeats_pool *pl)
{
	for (size_t i = 0; i < g->nratios; i++)
		for (size_t p = 0; p < pr->nproc; p++) {
			size_t n = 0;

			for (int k = 0; (size_t)k < cap; k++) {
				double c = repeats_rep_ns(g->ratios[i].cmp, pr->unit[p], k);
				double b = repeats_rep_ns(g->ratios[i].base, pr->unit[p], k);

				if (c > 0.0 && b > 0.0)
					buf[n++] = log(c / b);
			}
			repeats_pool_add(pl, buf, n);
		}
}

/* Repeats contradict where one resolves an N to one side and another
 * resolves it to the other: a repeat that merely resolves less (less
 * power) is no contradiction. side[] holds the first resolved side seen
 * at each N of g (IC_SIDE_UNRESOLVED while none); returns 1 on a
 * contradiction. */
static int repeats_contradict(const struct ic_group *g, enum ic_point_side *side,
			      const struct ic_ratio *r, size_t n)
{
	int bad = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < g->nratios; j++) {
			if (g->ratios[j].sites != r[i].sites || r[i].side == IC_SIDE_UNRESOLVED)
				continue;
			if (side[j] == IC_SIDE_UNRESOLVED)
				side[j] = r[i].side;
			else if (side[j] != r[i].side)
				bad = 1;
		}
	return bad;
}

struct ic_repeats *ic_repeats_analyse(const struct ic_results *res, const struct ic_group *g,
				      const struct ic_process_ratios *pr,
				      const struct ic_analysis_opts *opts)
{
	struct ic_repeats *rp = calloc(1, sizeof(*rp));
	size_t np = pr->nproc, maxreps = 1;
	struct repeats_pool run = { 0 }, proc = { 0 }, rep = { 0 };
	unsigned char *keep = calloc(res->nfiles ? res->nfiles : 1, 1);
	double *buf = NULL, *means = NULL;
	/* IC_SIDE_UNRESOLVED at every N: calloc's 0. */
	enum ic_point_side *side = calloc(g->nratios + 1, sizeof(*side));
	int contradict = 0;

	if (!rp || !keep || !side)
		goto oom;
	rp->repeat = malloc((np ? np : 1) * sizeof(*rp->repeat));
	if (!rp->repeat)
		goto oom;
	for (size_t p = 0; p < np; p++)
		rp->repeat[p] = res->files[pr->unit[p]]->repeat;
	gsl_sort_int(rp->repeat, 1, np);
	for (size_t p = 0; p < np; p++)
		if (!rp->nrepeats || rp->repeat[p] != rp->repeat[rp->nrepeats - 1])
			rp->repeat[rp->nrepeats++] = rp->repeat[p];
	for (size_t i = 0; i < g->nratios; i++)
		maxreps = g->ratios[i].cmp->nreps > maxreps ? g->ratios[i].cmp->nreps : maxreps;
	buf = malloc((np + maxreps + 1) * sizeof(*buf));
	means = malloc((rp->nrepeats + 1) * sizeof(*means));
	rp->xo = calloc(rp->nrepeats + 1, sizeof(*rp->xo));
	if (!buf || !means || !rp->xo)
		goto oom;
	/* Between processes within a run, and between the runs' means. */
	for (size_t i = 0; i < pr->nsites; i++) {
		size_t nm = 0;

		for (size_t k = 0; k < rp->nrepeats; k++) {
			size_t n = 0;

			for (size_t p = 0; p < np; p++)
				if (res->files[pr->unit[p]]->repeat == rp->repeat[k] &&
				    isfinite(pr->logr[i * np + p]))
					buf[n++] = pr->logr[i * np + p];
			repeats_pool_add(&proc, buf, n);
			if (n)
				means[nm++] = gsl_stats_mean(buf, 1, n);
		}
		repeats_pool_add(&run, means, nm);
	}
	repeats_rep_level(g, pr, buf, maxreps, &rep);
	rp->lv.sd_run = repeats_pool_sd(&run, &rp->lv.df_run);
	rp->lv.sd_proc = repeats_pool_sd(&proc, &rp->lv.df_proc);
	rp->lv.sd_rep = repeats_pool_sd(&rep, &rp->lv.df_rep);
	/* Each repeat's own verdict, from its processes alone. */
	for (size_t k = 0; rp->nrepeats >= 2 && k < rp->nrepeats; k++) {
		struct ic_ratio *r = NULL;
		size_t n = 0;
		int rc;

		for (size_t u = 0; u < res->nfiles; u++)
			keep[u] = res->files[u]->repeat == rp->repeat[k];
		rc = ic_ratio_series_keep(g, opts->compare, opts->baseline, keep, res->nfiles, opts, &r,
					  &n);
		if (!rc)
			rc = ic_ratio_crossover(r, n, &rp->xo[k]);
		if (!rc)
			contradict |= repeats_contradict(g, side, r, n);
		free(r);
		if (rc)
			goto oom;
	}
	rp->agree = rp->nrepeats >= 2 && !contradict;
	goto out;
oom:
	ic_repeats_free(rp);
	rp = NULL;
out:
	free(side);
	free(keep);
	free(buf);
	free(means);
	return rp;
}

void ic_repeats_free(struct ic_repeats *rp)
{
	if (!rp)
		return;
	free(rp->repeat);
	free(rp->xo);
	free(rp);
}
