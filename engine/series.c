#include "series.h"

#include "cache_pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_sort_uint.h>

const struct ic_point *ic_group_point(const struct ic_group *g, const char *form, unsigned long sites)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (g->points[i]->sites == sites && !strcmp(g->points[i]->form, form))
			return g->points[i];
	return NULL;
}

unsigned long ic_group_cache_pass(const struct ic_group *g, const char *form, double size, double *at_about)
{
	struct ic_footprint *fp = ic_stats_alloc(g->npoints, sizeof(*fp));
	size_t n = 0;
	long i;

	/* The group's points are in ascending N within a form. */
	for (size_t k = 0; k < g->npoints; k++)
		if (!strcmp(g->points[k]->form, form))
			fp[n++] = (struct ic_footprint){ g->points[k]->sites, g->points[k]->med[IC_F_FOOT] };
	i = ic_cache_pass(fp, n, size, at_about);
	n = i >= 0 ? fp[i].sites : 0;
	free(fp);
	return n;
}

void ic_ratio_estimate(struct ic_ratio *r, const struct ic_point *cmp, const struct ic_point *base,
		       const double *y, const int *cl, size_t n)
{
	struct ic_stats_nested *s = &r->est;

	*r = (struct ic_ratio){ .cmp = cmp, .base = base, .sites = cmp->sites, .ratio = NAN,
				.lo = NAN, .hi = NAN, .band_lo = NAN, .band_hi = NAN,
				.holm_lo = NAN, .holm_hi = NAN, .p = NAN, .p_holm = NAN, .df = NAN,
				.se = NAN, .nunits = n };
	if (ic_stats_nested(y, cl, n, s) == 0) {
		ic_stats_nested_interval(s, 0.05, &r->lo, &r->hi);
		r->lo = exp(r->lo);
		r->hi = exp(r->hi);
		r->p = ic_stats_nested_p(s);
		r->df = s->df;
		r->se = s->se;
	}
	r->ratio = exp(s->mean);
}

int ic_ratio_holds(const struct ic_ratio *r, double x)
{
	return r->lo <= x && x <= r->hi;
}

static double series_median_over(struct ic_point *const *pts, size_t n, const char *form, enum ic_field f)
{
	double *buf = ic_stats_alloc(n, sizeof(*buf)), m;
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i]->form, form) && isfinite(pts[i]->med[f]))
			buf[k++] = pts[i]->med[f];
	m = ic_stats_median(buf, k);
	free(buf);
	return m;
}

void ic_group_make(struct ic_group *g, struct ic_point *const *pts, size_t n,
		   const struct ic_analysis_opts *opts)
{
	*g = (struct ic_group){ .build = pts[0]->build, .op = pts[0]->op, .layout = pts[0]->layout,
				.order = pts[0]->order, .mode = pts[0]->mode,
				.threads = pts[0]->threads, .filler = pts[0]->filler, .npoints = n };
	g->points = ic_stats_alloc(n, sizeof(*g->points));
	memcpy(g->points, pts, n * sizeof(*pts));
	g->code_cmp = series_median_over(g->points, g->npoints, opts->compare, IC_F_CODE);
	g->code_base = series_median_over(g->points, g->npoints, opts->baseline, IC_F_CODE);
}

void ic_group_free(struct ic_group *g)
{
	free(g->points);
	free(g->ratios);
	memset(g, 0, sizeof(*g));
}

/* ---- every process's ratio ------------------------------------------------ */

void ic_process_ratios_collect(const struct ic_results *res, const struct ic_group *g,
			       struct ic_process_ratios *pr)
{
	size_t cap = 0, k = 0, nn = g->nratios, np;
	double *key;

	memset(pr, 0, sizeof(*pr));
	for (size_t i = 0; i < nn; i++)
		cap += g->ratios[i].cmp->nunits;
	/* One block: the units, then (as many at most) their variants. */
	pr->unit = ic_stats_alloc(cap, sizeof(*pr->unit) + sizeof(*pr->variant));
	pr->variant = (int *)(pr->unit + cap);
	for (size_t i = 0; i < nn; i++)
		for (size_t j = 0; j < g->ratios[i].cmp->nunits; j++)
			pr->unit[k++] = g->ratios[i].cmp->units[j].unit;
	gsl_sort_uint(pr->unit, 1, k);
	for (size_t i = 0; i < k; i++)   /* each once */
		if (!pr->nproc || pr->unit[i] != pr->unit[pr->nproc - 1])
			pr->unit[pr->nproc++] = pr->unit[i];
	np = pr->nproc;
	pr->nsites = nn;
	pr->sites = ic_stats_alloc(nn, sizeof(*pr->sites));
	pr->logr = ic_stats_alloc(2 * nn * np, sizeof(*pr->logr));   /* and rse */
	pr->rse = pr->logr + nn * np;
	for (size_t i = 0; i < nn; i++) {
		const struct ic_point *c = g->ratios[i].cmp, *b = g->ratios[i].base;
		/* Repetitions per process of each form, for the median's error. */
		double rc = c->nunits ? (double)c->nreps / (double)c->nunits : NAN;
		double rb = b->nunits ? (double)b->nreps / (double)b->nunits : NAN;

		pr->sites[i] = g->ratios[i].sites;
		for (size_t p = 0; p < np; p++) {
			const struct ic_unit *uc = ic_point_unit(c, pr->unit[p]), *ub = ic_point_unit(b, pr->unit[p]);
			double *y = &pr->logr[i * np + p], *e = &pr->rse[i * np + p];

			*y = *e = NAN;
			if (!uc || !ub || !(uc->med > 0.0) || !(ub->med > 0.0))
				continue;
			*y = log(uc->med / ub->med);
			/* The median's standard error is about 1.2533 sigma / sqrt(r). */
			*e = 1.2533 * sqrt(uc->cv * uc->cv / rc + ub->cv * ub->cv / rb);
			pr->variant[p] = uc->variant;
		}
	}
	/* Time ranks (how many come before each) by start (older runs: mtime; file order breaks
	 * ties and stands in without a time). */
	key = ic_stats_alloc(np, sizeof(*key));
	pr->time_rank = ic_stats_alloc(np, sizeof(*pr->time_rank));
	for (size_t p = 0; p < np; p++) {
		double t = ic_file_time(res->files[pr->unit[p]]);

		key[p] = isfinite(t) ? t : (double)pr->unit[p];
	}
	for (size_t p = 0; p < np; p++)
		for (size_t q = 0; q < np; q++)
			pr->time_rank[p] += key[q] < key[p] || (key[q] == key[p] && q < p);
	free(key);
}

void ic_process_ratios_free(struct ic_process_ratios *pr)
{
	free(pr->unit);   /* and variant */
	free(pr->time_rank);
	free(pr->sites);
	free(pr->logr);   /* and rse */
	memset(pr, 0, sizeof(*pr));
}

int ic_process_split(const struct ic_process_ratios *pr, struct ic_split *out)
{
	double *x = ic_stats_alloc(pr->nproc, sizeof(*x));

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < pr->nsites; i++) {
		size_t k = 0;

		for (size_t p = 0; p < pr->nproc; p++)
			if (isfinite(pr->logr[i * pr->nproc + p]))
				x[k++] = pr->logr[i * pr->nproc + p];
		if (k < 2 * IC_SPLIT_MIN)
			continue;
		gsl_sort(x, 1, k);
		/* Every cut of the sorted ratios into a low and a high cluster. */
		for (size_t m = IC_SPLIT_MIN; m + IC_SPLIT_MIN <= k; m++) {
			double ma, mb, sd = sqrt(ic_stats_cut(x, k, m, &ma, &mb) / (double)(k - 2));
			double gap = sd > 0.0 ? (mb - ma) / sd : 0.0;

			if (gap >= IC_SPLIT_SD && exp(mb - ma) >= IC_SPLIT_RATIO && gap > out->gap_sd)
				*out = (struct ic_split){ pr->sites[i], { m, k - m }, { exp(ma), exp(mb) }, gap };
		}
	}
	free(x);
	return out->gap_sd > 0.0;   /* a split is IC_SPLIT_SD apart */
}
