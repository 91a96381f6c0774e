/* The band, Holm's sides and the crossover; see decision.h and series.h. */
#define _GNU_SOURCE   /* qsort_r */
#include "decision.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* qsort_r order of indices into the ratios r: by p. */
static int decision_cmp_p(const void *pa, const void *pb, void *r)
{
	double a = ((const struct ic_ratio *)r)[*(const size_t *)pa].p;
	double b = ((const struct ic_ratio *)r)[*(const size_t *)pb].p;

	return (a > b) - (a < b);
}

void ic_ratio_decide(struct ic_ratio *r, size_t n, const struct ic_analysis_opts *opts)
{
	size_t *rk = ic_stats_alloc(n, sizeof(*rk)), m = 0, stop;
	double adj = 0.0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(r[i].lo) && isfinite(r[i].p))
			rk[m++] = i;
	qsort_r(rk, m, sizeof(*rk), decision_cmp_p, r);
	for (stop = 0; stop < m && r[rk[stop]].p <= opts->family / (double)(m - stop); stop++)
		;
	for (size_t j = 0; j < m; j++) {
		struct ic_ratio *x = &r[rk[j]];
		size_t step = j < stop ? j : stop;

		adj = fmax(adj, fmin(1.0, (double)(m - j) * x->p));
		x->p_holm = adj;
		ic_stats_nested_interval(&x->est, opts->family / (double)m, &x->band_lo,
					 &x->band_hi);
		ic_stats_nested_interval(&x->est, opts->family / (double)(m - step), &x->holm_lo,
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
}

int ic_ratio_contrast(const struct ic_group *g, const char *const *forms, size_t nt,
		      const unsigned char *keep, size_t nkeep, const struct ic_analysis_opts *opts,
		      struct ic_ratio **out, size_t *nout)
{
	static const int sign[4] = { 1, -1, -1, 1 };
	const struct ic_point *pts[4];
	size_t nr = 0, most = 0;
	struct ic_ratio *r;
	double *y;
	int *cl, *rp;

	*out = NULL;
	*nout = 0;
	if (nt > 4)
		return -1;
	for (size_t i = 0; i < g->npoints; i++)
		most = g->points[i]->nunits > most ? g->points[i]->nunits : most;
	r = ic_stats_alloc(g->npoints, sizeof(*r));
	/* One block: each process's draw, its cluster, its repeat. */
	y = ic_stats_alloc(most, sizeof(*y) + 2 * sizeof(*cl));
	cl = (int *)(y + most);
	rp = cl + most;
	/* Points sort by form, then N: forms[0]'s points come in ascending N. */
	for (size_t i = 0; i < g->npoints; i++) {
		size_t k, n = 0, nvar;

		pts[0] = g->points[i];
		if (strcmp(pts[0]->form, forms[0]) || !isfinite(pts[0]->med[IC_F_NS]))
			continue;
		for (k = 1; k < nt && (pts[k] = ic_group_point(g, forms[k], pts[0]->sites)) &&
			    isfinite(pts[k]->med[IC_F_NS]); k++)
			;
		if (k < nt)
			continue;
		for (size_t j = 0; j < pts[0]->nunits; j++) {
			const struct ic_unit *u = &pts[0]->units[j], *o = u;
			double v = sign[0] * log(u->med);

			if (keep && (u->unit >= nkeep || !keep[u->unit]))
				continue;
			for (k = 1; k < nt && o; k++)
				if ((o = ic_point_unit(pts[k], u->unit)))
					v += sign[k] * log(o->med);
			if (!o)
				continue;
			y[n] = v;
			cl[n] = u->variant;
			rp[n++] = u->repeat;
		}
		/* Layout variants are distinct across repeats (each has its seed). */
		nvar = ic_stats_distinct(cl, n);
		/* The kept processes' repeats are the top level from IC_REPEATS_TOP of them: two
		 * would leave one degree of freedom, resolving nothing, so variants stay the unit. */
		if (ic_stats_distinct(rp, n) >= IC_REPEATS_TOP)
			memcpy(cl, rp, n * sizeof(*cl));
		/* An interaction is named by its outer forms: a over b. */
		ic_ratio_estimate(&r[nr], pts[0], pts[nt == 4 ? 2 : nt > 1], y, cl, n);
		r[nr++].nvariants = nvar;
	}
	ic_ratio_decide(r, nr, opts);
	*out = nr ? r : NULL;
	*nout = nr;
	free(nr ? NULL : r);
	free(y);
	return 0;
}

int ic_ratio_series(const struct ic_group *g, const char *num, const char *den,
		    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	return ic_ratio_contrast(g, (const char *[]){ num, den }, 2, NULL, 0, opts, out, n);
}

int ic_ratio_crossover(const struct ic_ratio *r, size_t n, struct ic_crossover *out)
{
	struct ic_ratio_point *rp = ic_stats_alloc(n, sizeof(*rp));

	/* The side is Holm's decision, not the drawn band's. */
	for (size_t i = 0; i < n; i++)
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

void ic_group_decide(struct ic_group *g, const struct ic_analysis_opts *opts)
{
	ic_ratio_series(g, opts->compare, opts->baseline, opts, &g->ratios, &g->nratios);
	ic_ratio_crossover(g->ratios, g->nratios, &g->xo);
}

enum ic_point_side ic_ratio_point_side(const struct ic_ratio_point *p)
{
	/* Unresolved also when lo/hi are NAN. */
	return p->hi < 1.0 ? IC_SIDE_COMPARE : p->lo > 1.0 ? IC_SIDE_BASELINE : IC_SIDE_UNRESOLVED;
}

const char *ic_verdict_name(enum ic_verdict v)
{
	static const char *const name[] = {
		[IC_VERDICT_UNRESOLVED] = "unresolved", [IC_VERDICT_CROSSOVER] = "crossover",
		[IC_VERDICT_COMPARE_WINS] = "compare_wins", [IC_VERDICT_BASELINE_WINS] = "baseline_wins",
		[IC_VERDICT_CONFLICT] = "conflict",
	};

	return (unsigned)v < sizeof(name) / sizeof(name[0]) ? name[v] : "unresolved";
}

void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out)
{
	enum ic_point_side prev = IC_SIDE_UNRESOLVED;
	size_t last0 = 0, first1 = 0;   /* the first run's last point, the second's first */

	*out = (struct ic_crossover){ .verdict = IC_VERDICT_UNRESOLVED, .bracket_lo = NAN, .bracket_hi = NAN };
	for (size_t i = 0; i < n; i++) {
		enum ic_point_side s = ic_ratio_point_side(&pts[i]);

		out->n_compare += s == IC_SIDE_COMPARE;
		out->n_baseline += s == IC_SIDE_BASELINE;
		out->n_unresolved += s == IC_SIDE_UNRESOLVED;
		if (s == IC_SIDE_UNRESOLVED)
			continue;
		if (!out->direction)
			out->direction = s == IC_SIDE_COMPARE ? 1 : -1;
		if (prev != IC_SIDE_UNRESOLVED && s != prev && ++out->switches == 1)
			first1 = i;
		if (!out->switches)
			last0 = i;
		prev = s;
	}
	if (out->switches >= 2) {
		out->verdict = IC_VERDICT_CONFLICT;
		out->direction = 0;
	} else if (out->switches == 1) {
		out->verdict = IC_VERDICT_CROSSOVER;
		out->bracket_lo = pts[last0].sites;
		out->bracket_hi = pts[first1].sites;
	} else if (out->direction) {
		out->verdict = out->direction > 0 ? IC_VERDICT_COMPARE_WINS : IC_VERDICT_BASELINE_WINS;
	}
}

size_t ic_crossover_midpoints(const unsigned long *sites, size_t n, double lo, double hi,
			      unsigned long *out)
{
	size_t k = 0;

	for (size_t i = 1; i < n; i++) {
		unsigned long a = sites[i - 1], b = sites[i], mid;

		if (a < lo || b > hi)
			continue;
		mid = (unsigned long)(sqrt((double)a * (double)b) + 0.5);
		if (mid > a && mid < b)
			out[k++] = mid;
	}
	return k;
}
