/* The statistics, ratios, bands and crossovers over loaded points (see
 * results.h); load.c fills the points.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "states.h"
#include "stats.h"

static int results_form_rank(const char *form, const struct ic_analysis_opts *opts)
{
	if (!strcmp(form, opts->compare))
		return 0;
	if (!strcmp(form, opts->baseline))
		return 1;
	return 2;
}

/* Series keys first (build, op, layout, order, filler, threads, mode),
 * then form, then N. */
static int results_cmp_series(const struct ic_point *a, const struct ic_point *b)
{
	int c;

	if (a->build != b->build)
		return a->build < b->build ? -1 : 1;
	if ((c = strcmp(a->op, b->op)) || (c = strcmp(a->layout, b->layout)) ||
	    (c = strcmp(a->order, b->order)))
		return c;
	if (a->filler != b->filler)
		return a->filler < b->filler ? -1 : 1;
	if (a->threads != b->threads)
		return a->threads < b->threads ? -1 : 1;
	return strcmp(a->mode, b->mode);
}

/* qsort_r order of points; opts says which forms come first. */
static int results_cmp_point(const void *pa, const void *pb, void *opts)
{
	const struct ic_point *a = *(struct ic_point *const *)pa, *b = *(struct ic_point *const *)pb;
	int c = results_cmp_series(a, b);

	if (c || (c = results_form_rank(a->form, opts) - results_form_rank(b->form, opts)) ||
	    (c = strcmp(a->form, b->form)))
		return c;
	return (a->sites > b->sites) - (a->sites < b->sites);
}

static double results_median_over(struct ic_point **pts, size_t n, const char *form, enum ic_field f)
{
	double *buf = malloc((n ? n : 1) * sizeof(*buf)), m;
	size_t k = 0;

	if (!buf)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i]->form, form) && isfinite(pts[i]->med[f]))
			buf[k++] = pts[i]->med[f];
	m = ic_stats_median(buf, k);
	free(buf);
	return m;
}

static int results_cmp_unit(const void *pa, const void *pb)
{
	const struct ic_unit *a = pa, *b = pb;

	return (a->unit > b->unit) - (a->unit < b->unit);
}

unsigned long ic_group_cache_pass(const struct ic_group *gr, const char *form, double size,
				   double *at_about)
{
	const struct ic_point *at = NULL;

	for (size_t i = 0; i < gr->npoints; i++) {
		const struct ic_point *p = gr->points[i];

		if (!strcmp(p->form, form) && p->med[IC_F_FOOT] > size && (!at || p->sites < at->sites))
			at = p;
	}
	if (at_about)
		*at_about = at ? size / (at->med[IC_F_FOOT] / (double)at->sites) : NAN;
	return at ? at->sites : 0;
}

const char *ic_point_source(const struct ic_point *p)
{
	return p->source_mixed ? "mixed" : p->file->counter_source;
}

const struct ic_point *ic_group_point(const struct ic_group *g, const char *form,
				      unsigned long sites)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (g->points[i]->sites == sites && !strcmp(g->points[i]->form, form))
			return g->points[i];
	return NULL;
}

/* The contrast at one N: y = sum sign[i] log(med of pts[i]) per process
 * that ran every point (and is kept), clustered by layout variant. Its
 * band waits for the series (results_band); *s gets the nested estimate. */
static int results_contrast_at(struct ic_ratio *r, const struct ic_point *const *pts,
			       const int *sign, size_t nt, const unsigned char *keep,
			       struct ic_stats_nested *s)
{
	size_t cap = pts[0]->nunits ? pts[0]->nunits : 1, n = 0;
	double *y = malloc(cap * sizeof(*y));
	int *cl = malloc(cap * sizeof(*cl));

	*r = (struct ic_ratio){ .cmp = pts[0], .base = pts[nt > 1 ? 1 : 0], .sites = pts[0]->sites,
				.ratio = NAN, .lo = NAN, .hi = NAN, .band_lo = NAN, .band_hi = NAN,
				.p = NAN, .p_holm = NAN, .df = NAN, .se = NAN };
	if (!y || !cl) {
		free(y);
		free(cl);
		return -1;
	}
	for (size_t i = 0; i < pts[0]->nunits; i++) {
		const struct ic_unit *u = &pts[0]->units[i];
		double v = sign[0] * log(u->med);
		size_t k;

		if (keep && !keep[u->unit])
			continue;
		for (k = 1; k < nt; k++) {
			const struct ic_unit *o = bsearch(u, pts[k]->units, pts[k]->nunits,
							  sizeof(*u), results_cmp_unit);

			if (!o)
				break;
			v += sign[k] * log(o->med);
		}
		if (k < nt)
			continue;
		y[n] = v;
		cl[n++] = u->variant;
	}
	r->nunits = n;
	if (n) {
		int ok = ic_stats_nested(y, cl, n, s) == 0;

		r->ratio = exp(s->mean);
		r->nvariants = s->clusters;
		if (ok) {
			ic_stats_nested_interval(s, 0.05, &r->lo, &r->hi);
			r->lo = exp(r->lo);
			r->hi = exp(r->hi);
			r->p = ic_stats_nested_p(s);
			r->df = s->df;
			r->se = s->se;
		}
	}
	free(y);
	free(cl);
	return 0;
}

/* A point's statistics: the median of every field over the repetitions;
 * per process, the median time and its cv (repetitions come in load order,
 * so grouped by process, ascending); the median of those cvs; and the
 * time's estimate and interval, the contrast of the point alone. */
static int results_point_stats(struct ic_point *p)
{
	size_t cap = p->nreps ? p->nreps : 1, ncv = 0;
	double *buf = malloc(cap * sizeof(*buf));
	struct ic_unit *u = p->units = malloc(cap * sizeof(*u));
	const struct ic_point *pt = p;
	static const int plus = 1;
	struct ic_stats_nested s;
	struct ic_ratio r;

	if (!buf || !u) {
		free(buf);
		return -1;
	}
	for (int f = 0; f < IC_F_COUNT; f++) {
		size_t n = 0;

		for (size_t i = 0; i < p->nreps; i++)
			if (isfinite(p->reps[i].v[f]))
				buf[n++] = p->reps[i].v[f];
		p->med[f] = ic_stats_median(buf, n);
	}
	for (size_t i = 0, j; i < p->nreps; i = j) {
		const struct ic_rep *rep = &p->reps[i];
		size_t k = 0;

		for (j = i; j < p->nreps && p->reps[j].unit == rep->unit; j++)
			if (isfinite(p->reps[j].v[IC_F_NS]))
				buf[k++] = p->reps[j].v[IC_F_NS];
		if (k) {
			u[p->nunits] = (struct ic_unit){ rep->unit, rep->variant, 0, ic_stats_cv(buf, k) };
			u[p->nunits++].med = ic_stats_median(buf, k);
		}
	}
	for (size_t i = 0; i < p->nunits; i++)
		if (isfinite(u[i].cv))
			buf[ncv++] = u[i].cv;
	p->cv = ic_stats_median(buf, ncv);
	free(buf);
	if (results_contrast_at(&r, &pt, &plus, 1, NULL, &s))
		return -1;
	p->med[IC_F_NS] = r.ratio;
	p->ci_lo = r.lo;
	p->ci_hi = r.hi;
	p->nvariants = r.nvariants;
	return 0;
}

/* qsort_r order of indices into the ratios r: by p. */
static int results_cmp_p(const void *pa, const void *pb, void *r)
{
	double a = ((const struct ic_ratio *)r)[*(const size_t *)pa].p;
	double b = ((const struct ic_ratio *)r)[*(const size_t *)pb].p;

	return (a > b) - (a < b);
}

/* The band: every N of the series at once, family-wise by Holm's step-down
 * over the m points that have an interval. With the p-values ascending,
 * p(j) is resolved while p(j) <= family / (m - j + 1) for it and every
 * smaller j; the first that fails stops it. A resolved point's band is its
 * interval at its own step's level (so it excludes 1); every other point's
 * is at the level of the step that failed (so it holds 1). The chance of
 * any spurious side stays at most `family`, as with Bonferroni, but only
 * the strongest point pays the full m. p_holm is the adjusted p-value. */
static int results_band(struct ic_ratio *r, size_t n, const struct ic_stats_nested *ns,
			const struct ic_analysis_opts *opts)
{
	size_t *rk = malloc((n ? n : 1) * sizeof(*rk)), m = 0, stop;
	double adj = 0.0;

	if (!rk)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (isfinite(r[i].lo) && isfinite(r[i].p))
			rk[m++] = i;
	qsort_r(rk, m, sizeof(*rk), results_cmp_p, r);
	for (stop = 0; stop < m && r[rk[stop]].p <= opts->family / (double)(m - stop); stop++)
		;
	for (size_t j = 0; j < m; j++) {
		struct ic_ratio *x = &r[rk[j]];
		size_t step = j < stop ? j : stop;

		adj = fmax(adj, fmin(1.0, (double)(m - j) * x->p));
		x->p_holm = adj;
		ic_stats_nested_interval(&ns[rk[j]], opts->family / (double)(m - step), &x->band_lo,
					 &x->band_hi);
		x->band_lo = exp(x->band_lo);
		x->band_hi = exp(x->band_hi);
		x->resolved = j < stop;
	}
	for (size_t i = 0; i < n; i++) {
		/* No band (NAN) is noisy too: !(x <= limit). */
		r[i].noisy = !((r[i].band_hi - r[i].band_lo) / 2.0 / r[i].ratio <= opts->noise_ci);
		r[i].side = !r[i].resolved ? IC_SIDE_UNRESOLVED
			  : r[i].ratio < 1.0 ? IC_SIDE_COMPARE : IC_SIDE_BASELINE;
	}
	free(rk);
	return 0;
}

/* The contrast of forms[] with sign[] at every N where forms[0] and every
 * other form have a time, ascending N. */
static int results_contrast_series(const struct ic_group *g, const char *const *forms,
				   const int *sign, size_t nt, const unsigned char *keep,
				   const struct ic_analysis_opts *opts, struct ic_ratio **out,
				   size_t *nout)
{
	struct ic_ratio *r = calloc(g->npoints ? g->npoints : 1, sizeof(*r));
	struct ic_stats_nested *ns = calloc(g->npoints ? g->npoints : 1, sizeof(*ns));
	const struct ic_point *pts[8];
	size_t n = 0;

	*out = NULL;
	*nout = 0;
	if (!r || !ns || nt > 8)
		goto fail;
	/* Points sort by form, then N: forms[0]'s points come in ascending N. */
	for (size_t i = 0; i < g->npoints; i++) {
		size_t k;

		pts[0] = g->points[i];
		if (strcmp(pts[0]->form, forms[0]) || !isfinite(pts[0]->med[IC_F_NS]))
			continue;
		for (k = 1; k < nt; k++) {
			pts[k] = ic_group_point(g, forms[k], pts[0]->sites);
			if (!pts[k] || !isfinite(pts[k]->med[IC_F_NS]))
				break;
		}
		if (k < nt)
			continue;
		if (results_contrast_at(&r[n], pts, sign, nt, keep, &ns[n]))
			goto fail;
		n++;
	}
	if (results_band(r, n, ns, opts))
		goto fail;
	free(ns);
	if (!n)
		free(r);
	*out = n ? r : NULL;
	*nout = n;
	return 0;
fail:
	free(r);
	free(ns);
	return -1;
}

int ic_results_ratio_series(const struct ic_group *g, const char *num, const char *den,
			    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	return ic_results_ratio_series_keep(g, num, den, NULL, opts, out, n);
}

int ic_results_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
				 const unsigned char *keep, const struct ic_analysis_opts *opts,
				 struct ic_ratio **out, size_t *n)
{
	const char *forms[2] = { num, den };
	static const int sign[2] = { 1, -1 };

	return results_contrast_series(g, forms, sign, 2, keep, opts, out, n);
}

int ic_results_interaction_series(const struct ic_group *g, const char *a, const char *a0,
				  const char *b, const char *b0,
				  const struct ic_analysis_opts *opts, struct ic_ratio **out,
				  size_t *n)
{
	const char *forms[4] = { a, a0, b, b0 };
	static const int sign[4] = { 1, -1, -1, 1 };
	int rc = results_contrast_series(g, forms, sign, 4, NULL, opts, out, n);

	/* Named by its outer forms: a over b. */
	for (size_t i = 0; rc == 0 && i < *n; i++)
		(*out)[i].base = ic_group_point(g, b, (*out)[i].sites);
	return rc;
}

/* One series from its n points: its ratios, crossover and code sizes. */
static int results_group(struct ic_group *g, struct ic_point **pts, size_t n,
			 const struct ic_analysis_opts *opts)
{
	*g = (struct ic_group){ .build = pts[0]->build, .op = pts[0]->op, .layout = pts[0]->layout,
				.order = pts[0]->order, .mode = pts[0]->mode,
				.threads = pts[0]->threads, .filler = pts[0]->filler, .npoints = n };
	g->points = malloc(n * sizeof(*g->points));
	if (!g->points)
		return -1;
	memcpy(g->points, pts, n * sizeof(*pts));
	if (ic_results_ratio_series(g, opts->compare, opts->baseline, opts, &g->ratios, &g->nratios) ||
	    ic_crossover_of(g->ratios, g->nratios, &g->xo))
		return -1;
	g->code_cmp = results_median_over(g->points, g->npoints, opts->compare, IC_F_CODE);
	g->code_base = results_median_over(g->points, g->npoints, opts->baseline, IC_F_CODE);
	return 0;
}

int ic_results_analyse(struct ic_results *res, const struct ic_analysis_opts *opts,
		       char *err, size_t errlen)
{
	res->opts = *opts;
	if (res->npoints == 0)
		return snprintf(err, errlen,
				"no sites/<form>/... benchmarks in the input (%zu aggregate, %zu other entries)",
				res->n_aggregates, res->n_other), -1;
	qsort_r(res->points, res->npoints, sizeof(*res->points), results_cmp_point, &res->opts);
	for (size_t i = 0; i < res->npoints; i++)
		if (results_point_stats(res->points[i]))
			goto oom;
	for (size_t i = 0, j; i < res->npoints; i = j) {
		struct ic_group *ng = realloc(res->groups, (res->ngroups + 1) * sizeof(*ng));

		if (!ng)
			goto oom;
		res->groups = ng;
		for (j = i + 1; j < res->npoints && !results_cmp_series(res->points[i], res->points[j]); j++)
			;
		if (results_group(&ng[res->ngroups++], res->points + i, j - i, &res->opts))
			goto oom;
	}
	for (size_t g = 0; g < res->ngroups; g++)
		if (ic_attribution_analyse(res, &res->groups[g]) ||
		    !(res->groups[g].states = ic_states_analyse(res, &res->groups[g], &res->opts)))
			goto oom;
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void ic_results_init(struct ic_results *res)
{
	memset(res, 0, sizeof(*res));
}

void ic_results_free(struct ic_results *res)
{
	for (size_t i = 0; i < res->npoints; i++) {
		free(res->points[i]->reps);
		free(res->points[i]->units);
		free(res->points[i]);
	}
	for (size_t i = 0; i < res->ngroups; i++) {
		free(res->groups[i].points);
		free(res->groups[i].ratios);
		ic_attribution_free(res->groups[i].attr);
		ic_states_free(res->groups[i].states);
	}
	for (size_t i = 0; i < res->nfiles; i++) {
		free(res->files[i]->path);
		json_decref(res->files[i]->doc);
		free(res->files[i]);
	}
	for (size_t i = 0; i < res->nbuilds; i++)
		for (int k = 0; k < IC_B_COUNT; k++)
			free(res->builds[i].v[k]);
	free(res->points);
	free(res->groups);
	free(res->files);
	free(res->builds);
	memset(res, 0, sizeof(*res));
}
