/* A series' difference attributed to calls, copies and the lock (attribution.h);
 * report/summary.c words it. */
#include "attribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>

#include "decision.h"
#include "stats.h"

/* Each line's forms: a/a0, or (a/a0)/(b/b0) for the interaction. */
static const struct {
	const char *name, *form[4];   /* a, a0, b, b0 */
} attr_def[IC_LINE_COUNT] = {
	[IC_LINE_CALL] = { "extern/inline", { "extern", "inline" } },
	[IC_LINE_COPIES] = { "clone/extern", { "clone", "extern" } },
	[IC_LINE_LOCK_INLINE] = { "inline/inline_nolock", { "inline", "inline_nolock" } },
	[IC_LINE_LOCK_EXTERN] = { "extern/extern_nolock", { "extern", "extern_nolock" } },
	[IC_LINE_INTERACTION] = { "(inline/inline_nolock)/(extern/extern_nolock)",
				  { "inline", "inline_nolock", "extern", "extern_nolock" } },
	[IC_LINE_INLINE_EXTERN] = { "inline/extern", { "inline", "extern" } },
};

struct ic_attribution *ic_attribution_analyse_keep(const struct ic_group *g,
						   const struct ic_analysis_opts *opts,
						   double l1i_size, const unsigned char *keep,
						   size_t nkeep)
{
	struct ic_attribution *a = ic_stats_alloc(1, sizeof(*a));
	const struct ic_line *in = &a->line[IC_LINE_INTERACTION];
	const char *src = NULL;

	for (int k = 0; k < IC_LINE_COUNT; k++) {
		struct ic_line *l = &a->line[k];
		const char *const *f = attr_def[k].form;

		l->name = attr_def[k].name;
		for (int i = 0; i < 4 && f[i] && !l->missing; i++) {
			size_t j = 0;

			while (j < g->npoints && strcmp(g->points[j]->form, f[i]))
				j++;
			l->missing = j < g->npoints ? NULL : f[i];
		}
		ic_ratio_contrast(g, f, f[2] ? 4 : 2, keep, nkeep, opts, &l->r, &l->n);
	}
	a->has_controls = a->line[IC_LINE_COPIES].n || a->line[IC_LINE_LOCK_INLINE].n ||
			  a->line[IC_LINE_LOCK_EXTERN].n || a->line[IC_LINE_INTERACTION].n;
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];

		if (isfinite(p->med[IC_F_L1I]))
			src = !src || !strcmp(src, ic_point_source(p)) ? ic_point_source(p) : "mixed";
	}
	a->l1i_source = src ? src : "";
	/* The interaction where all four forms' code fits the L1i: past it the nolock forms'
	 * smaller code also misses less, mixing capacity in. Told by each form's footprint (every
	 * run measures it), not L1i misses (the loop's own, 0.2 per site at N = 1 in valgrind's
	 * simulation, pass any fixed threshold at small N). Without the L1i's size all N stay. */
	a->fit = *in;
	a->fit.n = 0;
	a->fit.r = ic_stats_alloc(in->n, sizeof(*a->fit.r));
	for (size_t i = 0; i < in->n; i++) {
		int spills = 0;

		for (int f = 0; f < 4 && l1i_size > 0; f++) {
			const struct ic_point *p = ic_group_point(g, attr_def[IC_LINE_INTERACTION].form[f],
								  in->r[i].sites);

			spills |= p && p->med[IC_F_FOOT] > l1i_size;
		}
		if (!spills)
			a->fit.r[a->fit.n++] = in->r[i];
		else if (!a->fit_left_out++)
			a->fit_first_out = in->r[i].sites;
	}
	return a;
}

void ic_attribution_free(struct ic_attribution *a)
{
	if (!a)
		return;
	for (int k = 0; k < IC_LINE_COUNT; k++)
		free(a->line[k].r);
	free(a->fit.r);
	free(a);
}

/* ---- what moves with the ratio, over the processes ----------------------- */

/* The N where the processes vary most (largest tau) into out with its test and ratios'
 * 10th and 90th percentiles (sites 0 when no N can be tested); returns its column in pr. */
static size_t attr_moves_site(const struct ic_process_ratios *pr, double *y, double *se,
			      struct ic_attr_moves *out)
{
	size_t best = 0;
	struct ic_steady h;

	for (size_t i = 0; i < pr->nsites; i++) {
		size_t k = 0;

		for (size_t p = 0; p < pr->nproc; p++) {
			double ly = pr->logr[i * pr->nproc + p], e = pr->rse[i * pr->nproc + p];

			if (isfinite(ly) && e > 0.0) {
				y[k] = ly;
				se[k++] = e;
			}
		}
		if (ic_steady_test(y, se, k, IC_STEADY_MARGIN, &h) || (out->sites && !(h.tau > out->h.tau)))
			continue;
		best = i;
		out->sites = pr->sites[i];
		out->h = h;
		gsl_sort(y, 1, k);
		/* The nearest-rank percentiles: few processes, no interpolation. */
		out->p10 = exp(y[(size_t)floor(0.10 * (double)(k - 1) + 0.5)]);
		out->p90 = exp(y[(size_t)floor(0.90 * (double)(k - 1) + 0.5)]);
	}
	return best;
}

int ic_attribution_moves(const struct ic_group *g, const struct ic_process_ratios *pr,
			 const struct ic_analysis_opts *opts, struct ic_attr_moves *out)
{
	size_t np = pr->nproc ? pr->nproc : 1, col, *order = ic_stats_alloc(np, sizeof(*order));
	double *y = ic_stats_alloc(3 * np, sizeof(*y)), *x, *se;   /* one block: y, x, se */
	double range, lim = log(1.0 + IC_ATTR_MOVES_SAME);

	memset(out, 0, sizeof(*out));
	x = y + np;
	se = x + np;
	col = attr_moves_site(pr, y, se, out);
	/* Varied: past noise and one answer (a steady series' processes a percent apart move nothing). */
	if (!out->sites || !(out->h.p < IC_ATTR_MOVES_P) || out->h.steady || !(out->p90 > out->p10)) {
		out->sites = 0;
		goto done;
	}
	range = log(out->p90 / out->p10);
	/* The processes in time order: Newey-West reads neighbours. */
	for (size_t p = 0; p < pr->nproc; p++)
		order[pr->time_rank[p]] = p;
	out->nvariants = ic_stats_distinct(pr->variant, pr->nproc);
	/* compare, baseline, then the series' other forms, each once. */
	for (size_t i = 0; i < g->npoints + 2 && out->nforms < IC_ATTR_MOVES_MAX; i++) {
		const char *form = i == 0 ? opts->compare : i == 1 ? opts->baseline : g->points[i - 2]->form;
		const struct ic_point *pt = ic_group_point(g, form, out->sites);
		struct ic_slope fit;
		size_t k = 0, seen = 0;

		for (size_t f = 0; f < out->nforms; f++)
			seen |= !strcmp(out->f[f].form, form);
		if (seen || !pt)
			continue;
		for (size_t r = 0; r < pr->nproc; r++) {
			size_t p = order[r];
			const struct ic_unit *u = ic_point_unit(pt, pr->unit[p]);
			double lx = pr->logr[col * pr->nproc + p];

			if (isfinite(lx) && u && u->med > 0.0) {
				x[k] = lx;
				y[k++] = log(u->med);
			}
		}
		if (ic_slope_fit(x, y, k, &fit))
			continue;
		out->f[out->nforms++] = (struct ic_attr_form){ form, fit, exp(fit.b * range),
			exp(fit.lo * range), exp(fit.hi * range),
			fabs(fit.lo) * range <= lim && fabs(fit.hi) * range <= lim ? IC_ATTR_UNCHANGED
			: fit.lo > 0.0 ? IC_ATTR_WITH : fit.hi < 0.0 ? IC_ATTR_AGAINST : IC_ATTR_UNSURE };
	}
done:
	free(order);
	free(y);
	return 0;
}
