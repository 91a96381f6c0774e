/* Series, their ratios, bands and crossovers, and every process's own
 * ratio (see ratios.h). */
#define _GNU_SOURCE   /* qsort_r */
#include "ratios.h"

#include "cache_pass.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static int ratios_cmp_unit(const void *pa, const void *pb)
{
	const struct ic_unit *a = pa, *b = pb;

	return (a->unit > b->unit) - (a->unit < b->unit);
}

const struct ic_point *ic_group_point(const struct ic_group *g, const char *form,
				      unsigned long sites)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (g->points[i]->sites == sites && !strcmp(g->points[i]->form, form))
			return g->points[i];
	return NULL;
}

unsigned long ic_group_cache_pass(const struct ic_group *g, const char *form, double size,
				  double *at_about)
{
	struct ic_footprint *fp = malloc((g->npoints ? g->npoints : 1) * sizeof(*fp));
	size_t n = 0;
	long i;

	if (!fp) {
		if (at_about)
			*at_about = NAN;
		return 0;
	}
	/* The group's points are in ascending N within a form. */
	for (size_t k = 0; k < g->npoints; k++)
		if (!strcmp(g->points[k]->form, form))
			fp[n++] = (struct ic_footprint){ g->points[k]->sites, g->points[k]->med[IC_F_FOOT] };
	i = ic_cache_pass(fp, n, size, at_about);
	n = i >= 0 ? fp[i].sites : 0;
	free(fp);
	return n;
}

/* The contrast at one N: y = sum sign[i] log(med of pts[i]) per process
 * that ran every point (and is kept), clustered by layout variant (by
 * repeat with several). Its
 * band waits for the series (ratios_band); *s gets the nested estimate. */
static int ratios_contrast_at(struct ic_ratio *r, const struct ic_point *const *pts,
			      const int *sign, size_t nt, const unsigned char *keep, size_t nkeep,
			      struct ic_stats_nested *s)
{
	size_t cap = pts[0]->nunits ? pts[0]->nunits : 1, n = 0, nvar = 0;
	double *y = malloc(cap * sizeof(*y));
	int *cl = malloc(cap * sizeof(*cl)), *rp = malloc(cap * sizeof(*rp));

	*r = (struct ic_ratio){ .cmp = pts[0], .base = pts[nt > 1 ? 1 : 0], .sites = pts[0]->sites,
				.ratio = NAN, .lo = NAN, .hi = NAN, .band_lo = NAN, .band_hi = NAN,
				.holm_lo = NAN, .holm_hi = NAN,
				.p = NAN, .p_holm = NAN, .df = NAN, .se = NAN };
	if (!y || !cl || !rp) {
		free(y);
		free(cl);
		free(rp);
		return -1;
	}
	for (size_t i = 0; i < pts[0]->nunits; i++) {
		const struct ic_unit *u = &pts[0]->units[i];
		double v = sign[0] * log(u->med);
		size_t k;

		if (keep && (u->unit >= nkeep || !keep[u->unit]))
			continue;
		for (k = 1; k < nt; k++) {
			const struct ic_unit *o = bsearch(u, pts[k]->units, pts[k]->nunits,
							  sizeof(*u), ratios_cmp_unit);

			if (!o)
				break;
			v += sign[k] * log(o->med);
		}
		if (k < nt)
			continue;
		y[n] = v;
		cl[n] = u->variant;
		rp[n++] = u->repeat;
	}
	/* Layout variants are distinct across repeats (each has its seed). */
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && cl[j] != cl[i])
			j++;
		nvar += j == i;
	}
	/* The kept processes' repeats, when they are several, are the top level. */
	for (size_t i = 1; i < n; i++)
		if (rp[i] != rp[0]) {
			memcpy(cl, rp, n * sizeof(*cl));
			break;
		}
	r->nunits = n;
	if (n) {
		int ok = ic_stats_nested(y, cl, n, s) == 0;

		r->ratio = exp(s->mean);
		r->nvariants = nvar;
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
	free(rp);
	return 0;
}

/* qsort_r order of indices into the ratios r: by p. */
static int ratios_cmp_p(const void *pa, const void *pb, void *r)
{
	double a = ((const struct ic_ratio *)r)[*(const size_t *)pa].p;
	double b = ((const struct ic_ratio *)r)[*(const size_t *)pb].p;

	return (a > b) - (a < b);
}

/* The band and the decisions over the m points of the series that have an
 * interval. The drawn band is Bonferroni's: each point's t interval at
 * family / m, so all m cover their true ratios together with chance at
 * least 1 - family. The decisions are Holm's step-down: with the p-values
 * ascending, p(j) is resolved while p(j) <= family / (m - j + 1) for it and
 * every smaller j; the first that fails stops it. holm_lo/holm_hi is each
 * point's interval at its own step's level (the failed step's for the
 * rest), so it excludes 1 exactly where Holm resolves. Holm resolves
 * whatever Bonferroni does and more, at the same family-wise error of a
 * wrong side; its step intervals are not a joint band, so they decide and
 * the Bonferroni band is drawn. p_holm is the adjusted p-value. */
static int ratios_band(struct ic_ratio *r, size_t n, const struct ic_stats_nested *ns,
		       const struct ic_analysis_opts *opts)
{
	size_t *rk = malloc((n ? n : 1) * sizeof(*rk)), m = 0, stop;
	double adj = 0.0;

	if (!rk)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (isfinite(r[i].lo) && isfinite(r[i].p))
			rk[m++] = i;
	qsort_r(rk, m, sizeof(*rk), ratios_cmp_p, r);
	for (stop = 0; stop < m && r[rk[stop]].p <= opts->family / (double)(m - stop); stop++)
		;
	for (size_t j = 0; j < m; j++) {
		struct ic_ratio *x = &r[rk[j]];
		size_t step = j < stop ? j : stop;

		adj = fmax(adj, fmin(1.0, (double)(m - j) * x->p));
		x->p_holm = adj;
		ic_stats_nested_interval(&ns[rk[j]], opts->family / (double)m, &x->band_lo,
					 &x->band_hi);
		ic_stats_nested_interval(&ns[rk[j]], opts->family / (double)(m - step), &x->holm_lo,
					 &x->holm_hi);
		x->band_lo = exp(x->band_lo);
		x->band_hi = exp(x->band_hi);
		x->holm_lo = exp(x->holm_lo);
		x->holm_hi = exp(x->holm_hi);
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
 * other form have a time, ascending N, from the processes u with keep[u]
 * (keep NULL: all). */
static int ratios_contrast_series(const struct ic_group *g, const char *const *forms,
				  const int *sign, size_t nt, const unsigned char *keep, size_t nkeep, const struct ic_analysis_opts *opts,
				  struct ic_ratio **out, size_t *nout)
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
		if (ratios_contrast_at(&r[n], pts, sign, nt, keep, nkeep, &ns[n]))
			goto fail;
		n++;
	}
	if (ratios_band(r, n, ns, opts))
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

int ic_ratio_series(const struct ic_group *g, const char *num, const char *den,
		    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	return ic_ratio_series_keep(g, num, den, NULL, 0, opts, out, n);
}

int ic_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
			 const unsigned char *keep, size_t nkeep,
			 const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	const char *forms[2] = { num, den };
	static const int sign[2] = { 1, -1 };

	return ratios_contrast_series(g, forms, sign, 2, keep, nkeep, opts, out, n);
}

int ic_ratio_interaction(const struct ic_group *g, const char *a, const char *a0, const char *b,
			 const char *b0, const struct ic_analysis_opts *opts, struct ic_ratio **out,
			 size_t *n)
{
	return ic_ratio_interaction_keep(g, a, a0, b, b0, NULL, 0, opts, out, n);
}

int ic_ratio_interaction_keep(const struct ic_group *g, const char *a, const char *a0,
			      const char *b, const char *b0, const unsigned char *keep, size_t nkeep,
			      const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	const char *forms[4] = { a, a0, b, b0 };
	static const int sign[4] = { 1, -1, -1, 1 };
	int rc = ratios_contrast_series(g, forms, sign, 4, keep, nkeep, opts, out, n);

	/* Named by its outer forms: a over b. */
	for (size_t i = 0; rc == 0 && i < *n; i++)
		(*out)[i].base = ic_group_point(g, b, (*out)[i].sites);
	return rc;
}

int ic_ratio_crossover(const struct ic_ratio *r, size_t n, struct ic_crossover *out)
{
	struct ic_ratio_point *rp = malloc((n ? n : 1) * sizeof(*rp));

	if (!rp)
		return -1;
	for (size_t i = 0; i < n; i++)
		/* The side is Holm's decision, not the drawn band's. */
		rp[i] = (struct ic_ratio_point){ (double)r[i].sites, r[i].ratio, r[i].holm_lo,
						 r[i].holm_hi };
	ic_crossover_find(rp, n, out);
	free(rp);
	return 0;
}

int ic_ratio_resolved(const struct ic_ratio *r)
{
	return r->side != IC_SIDE_UNRESOLVED;
}

int ic_ratio_holds(const struct ic_ratio *r, double x)
{
	return r->lo <= x && x <= r->hi;
}

static double ratios_median_over(struct ic_point *const *pts, size_t n, const char *form,
				 enum ic_field f)
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

int ic_group_make(struct ic_group *g, struct ic_point *const *pts, size_t n,
		  const struct ic_analysis_opts *opts)
{
	*g = (struct ic_group){ .build = pts[0]->build, .op = pts[0]->op, .layout = pts[0]->layout,
				.order = pts[0]->order, .mode = pts[0]->mode,
				.threads = pts[0]->threads, .filler = pts[0]->filler, .npoints = n };
	g->points = malloc(n * sizeof(*g->points));
	if (!g->points)
		return -1;
	memcpy(g->points, pts, n * sizeof(*pts));
	if (ic_ratio_series(g, opts->compare, opts->baseline, opts, &g->ratios, &g->nratios) ||
	    ic_ratio_crossover(g->ratios, g->nratios, &g->xo))
		return -1;
	g->code_cmp = ratios_median_over(g->points, g->npoints, opts->compare, IC_F_CODE);
	g->code_base = ratios_median_over(g->points, g->npoints, opts->baseline, IC_F_CODE);
	return 0;
}

void ic_group_free(struct ic_group *g)
{
	free(g->points);
	free(g->ratios);
	g->points = NULL;
	g->ratios = NULL;
}

/* ---- every process's ratio ------------------------------------------------ */

/* Every array here may be empty: never ask for 0 bytes. */
static void *ratios_alloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static const struct ic_unit *ratios_unit(const struct ic_point *p, unsigned unit)
{
	for (size_t i = 0; i < p->nunits; i++)
		if (p->units[i].unit == unit)
			return &p->units[i];
	return NULL;
}

struct ratios_sortable {
	double key;
	size_t i;
};

static int ratios_cmp_sortable(const void *pa, const void *pb)
{
	const struct ratios_sortable *a = pa, *b = pb;
	int c = (a->key > b->key) - (a->key < b->key);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* Time ranks from the processes' start (their files' mtimes in older runs;
 * file order breaks ties and stands in where there is no time). */
static int ratios_time_rank(struct ic_process_ratios *pr, const struct ic_results *res)
{
	size_t np = pr->nproc;
	struct ratios_sortable *o = ratios_alloc(np, sizeof(*o));

	pr->time_rank = ratios_alloc(np, sizeof(*pr->time_rank));
	if (!o || !pr->time_rank) {
		free(o);
		return -1;
	}
	for (size_t p = 0; p < np; p++) {
		double t = res && pr->unit[p] < res->nfiles ? ic_file_time(res->files[pr->unit[p]]) : NAN;

		o[p] = (struct ratios_sortable){ isfinite(t) ? t : (double)pr->unit[p], p };
	}
	qsort(o, np, sizeof(*o), ratios_cmp_sortable);
	for (size_t r = 0; r < np; r++)
		pr->time_rank[o[r].i] = r;
	free(o);
	return 0;
}

int ic_process_ratios_collect(const struct ic_results *res, const struct ic_group *g,
			      struct ic_process_ratios *pr)
{
	size_t cap = 0, nn = g->nratios, np;

	memset(pr, 0, sizeof(*pr));
	for (size_t i = 0; i < nn; i++)
		cap += g->ratios[i].cmp->nunits;
	pr->unit = ratios_alloc(cap, sizeof(*pr->unit));
	if (!pr->unit)
		return -1;
	for (size_t i = 0; i < nn; i++) {   /* insertion into order: a few dozen */
		for (size_t j = 0; j < g->ratios[i].cmp->nunits; j++) {
			unsigned u = g->ratios[i].cmp->units[j].unit;
			size_t k = pr->nproc;

			while (k > 0 && pr->unit[k - 1] > u)
				k--;
			if (k > 0 && pr->unit[k - 1] == u)
				continue;
			memmove(&pr->unit[k + 1], &pr->unit[k], (pr->nproc++ - k) * sizeof(*pr->unit));
			pr->unit[k] = u;
		}
	}
	np = pr->nproc;
	pr->nsites = nn;
	pr->sites = ratios_alloc(nn, sizeof(*pr->sites));
	pr->logr = ratios_alloc(nn * np, sizeof(*pr->logr));
	pr->variant = ratios_alloc(np, sizeof(*pr->variant));
	pr->rse = ratios_alloc(nn * np, sizeof(*pr->rse));
	if (!pr->sites || !pr->logr || !pr->variant || !pr->rse)
		return -1;
	for (size_t i = 0; i < nn; i++) {
		const struct ic_point *c = g->ratios[i].cmp, *b = g->ratios[i].base;
		/* Repetitions per process of each form, for the median's error. */
		double rc = c->nunits ? (double)c->nreps / (double)c->nunits : NAN;
		double rb = b->nunits ? (double)b->nreps / (double)b->nunits : NAN;

		pr->sites[i] = g->ratios[i].sites;
		for (size_t p = 0; p < np; p++) {
			const struct ic_unit *uc = ratios_unit(c, pr->unit[p]), *ub = ratios_unit(b, pr->unit[p]);
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
	return ratios_time_rank(pr, res);
}

void ic_process_ratios_free(struct ic_process_ratios *pr)
{
	free(pr->unit);
	free(pr->variant);
	free(pr->time_rank);
	free(pr->sites);
	free(pr->logr);
	free(pr->rse);
	memset(pr, 0, sizeof(*pr));
}
