/* How far two runs agree: equivalence per N, the joint tests over N; see agreement.h. */
#include "agreement.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_combination.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_sort_ulong.h>
#include <gsl/gsl_statistics_double.h>

#include "analysis.h"   /* struct ic_series */
#include "kit.h"
#include "stats.h"

const char *ic_agree_verdict_name(enum ic_agree_verdict v)
{
	static const char *const name[] = {
		[IC_AGREE_NO_INTERVAL] = "no interval", [IC_AGREE_EQUIVALENT] = "equivalent",
		[IC_AGREE_DIFFER] = "differ", [IC_AGREE_CANNOT_TELL] = "cannot tell",
	};

	return name[v];
}

const struct ic_ratio *ic_agree_ratio_at(const struct ic_ratio *ratios, size_t n, unsigned long sites)
{
	for (size_t i = 0; i < n; i++)
		if (ratios[i].sites == sites && isfinite(ratios[i].ratio))
			return &ratios[i];
	return NULL;
}

const struct ic_ratio *ic_runs_ratio_at(const struct ic_runs_series *s, size_t k, unsigned long n)
{
	return s->se[k] ? ic_agree_ratio_at(s->se[k]->group.ratios, s->se[k]->group.nratios, n) : NULL;
}

size_t ic_runs_sites(const struct ic_runs_series *s, size_t k, int finite, unsigned long **n)
{
	size_t nn = 0, u = 0;

	*n = NULL;
	for (size_t r = 0; r < k; r++)
		for (size_t i = 0; s->se[r] && i < s->se[r]->group.nratios; i++)
			if (!finite || isfinite(s->se[r]->group.ratios[i].ratio)) {
				*n = ic_xrealloc(*n, nn + 1, sizeof(**n));
				(*n)[nn++] = s->se[r]->group.ratios[i].sites;
			}
	gsl_sort_ulong(*n, 1, nn);
	for (size_t i = 0; i < nn; i++)
		if (!u || (*n)[i] != (*n)[u - 1])
			(*n)[u++] = (*n)[i];
	return u;
}

/* The verdict at one N from the two runs' nested estimates. */
static void agree_point(struct ic_agree_point *pt, double margin)
{
	const struct ic_ratio *a = pt->a, *b = pt->b;
	double bound = log1p(margin), t90, t95, den;

	pt->d = log(b->ratio / a->ratio);
	pt->se = hypot(a->se, b->se);
	pt->df = pt->lo90 = pt->hi90 = pt->lo95 = pt->hi95 = NAN;
	pt->verdict = IC_AGREE_NO_INTERVAL;
	if (!isfinite(pt->se) || !(a->df > 0.0) || !(b->df > 0.0))
		return;
	/* Welch-Satterthwaite; two exact estimates keep both runs' df. */
	den = pow(a->se, 4) / a->df + pow(b->se, 4) / b->df;
	pt->df = den > 0.0 ? pow(pt->se, 4) / den : a->df + b->df;
	t90 = ic_stats_t_quantile(0.95, pt->df);
	t95 = ic_stats_t_quantile(0.975, pt->df);
	pt->lo90 = exp(pt->d - t90 * pt->se);
	pt->hi90 = exp(pt->d + t90 * pt->se);
	pt->lo95 = exp(pt->d - t95 * pt->se);
	pt->hi95 = exp(pt->d + t95 * pt->se);
	pt->verdict = pt->d - t90 * pt->se >= -bound && pt->d + t90 * pt->se <= bound ? IC_AGREE_EQUIVALENT
		      : pt->d - t95 * pt->se > 0.0 || pt->d + t95 * pt->se < 0.0 ? IC_AGREE_DIFFER
		      : IC_AGREE_CANNOT_TELL;
}

/* Side s's independent draws as the nested estimate forms them (stats.h): its layout variants
 * when its processes ran 2+, else its processes. Each draw's mean log ratio at every point
 * (NAN: none) goes after the *ny draws in *y ([draw * npts + point]); *n draws, *by_variant. */
static void agree_draws_of(const struct ic_agree_side *s, const struct ic_agree_point *pts,
			   size_t npts, double **y, size_t *ny, size_t *n, int *by_variant)
{
	const struct ic_process_ratios *st = s->procs;
	size_t np = st ? st->nproc : 0, nvar = 0, *col = ic_stats_alloc(npts, sizeof(*col));
	int *draw = ic_stats_alloc(2 * np, sizeof(*draw)), *vars = draw + np;   /* one block */
	double *cnt, *my;

	*n = 0;
	/* Each point's column in the states' table (the series' N). */
	for (size_t i = 0; i < npts; i++) {
		col[i] = (size_t)-1;
		for (size_t j = 0; st && j < st->nsites; j++)
			if (st->sites[j] == pts[i].sites)
				col[i] = j;
	}
	/* The processes that count: the side's state, a ratio at some point. */
	for (size_t p = 0; p < np; p++) {
		size_t k, any = 0;

		draw[p] = -1;
		if (s->state >= 0 && s->states->state[p] != s->state)
			continue;
		for (size_t i = 0; i < npts; i++)
			any += col[i] != (size_t)-1 && isfinite(st->logr[col[i] * np + p]);
		if (!any)
			continue;
		for (k = 0; k < nvar && vars[k] != st->variant[p]; k++)
			;
		if (k == nvar)
			vars[nvar++] = st->variant[p];
		draw[p] = (int)k;
	}
	*by_variant = nvar >= 2;
	for (size_t p = 0; p < np; p++)
		if (draw[p] >= 0)
			draw[p] = *by_variant ? draw[p] : (int)(*n)++;
	if (*by_variant)
		*n = nvar;
	cnt = ic_stats_alloc(*n * npts, sizeof(*cnt));
	*y = ic_xrealloc(*y, (*ny + *n) * npts + 1, sizeof(**y));
	my = memset(*y + *ny * npts, 0, *n * npts * sizeof(*my));
	for (size_t p = 0; p < np; p++)
		for (size_t i = 0; draw[p] >= 0 && i < npts; i++) {
			double v = col[i] == (size_t)-1 ? NAN : st->logr[col[i] * np + p];

			if (isfinite(v)) {
				my[(size_t)draw[p] * npts + i] += v;
				cnt[(size_t)draw[p] * npts + i] += 1.0;
			}
		}
	for (size_t j = 0; j < *n * npts; j++)
		my[j] = cnt[j] > 0.0 ? my[j] / cnt[j] : NAN;
	*ny += *n;
	free(col);
	free(draw);   /* and vars */
	free(cnt);
}

/* max over points of |t|, Welch's t of the draws marked in_a against the others; *at the
 * point. NAN when no point has two draws on each side. */
static double agree_t_max(const double *y, size_t nd, size_t ns, const unsigned char *in_a,
			  size_t *at)
{
	double best = NAN;

	for (size_t i = 0; i < ns; i++) {
		double s[2] = { 0, 0 }, ss[2] = { 0, 0 }, n[2] = { 0, 0 }, v[2], t;

		for (size_t d = 0; d < nd; d++) {
			double x = y[d * ns + i];

			if (isfinite(x)) {
				s[in_a[d]] += x;
				n[in_a[d]] += 1.0;
			}
		}
		if (n[0] < 2.0 || n[1] < 2.0)
			continue;
		for (size_t d = 0; d < nd; d++) {
			double x = y[d * ns + i], m = s[in_a[d]] / n[in_a[d]];

			if (isfinite(x))
				ss[in_a[d]] += (x - m) * (x - m);
		}
		for (int g = 0; g < 2; g++)
			v[g] = ss[g] / (n[g] - 1.0) / n[g];
		t = s[0] / n[0] - s[1] / n[1];
		/* Two exact runs: no spread, so any difference is infinite t. */
		t = v[0] + v[1] > 0.0 ? fabs(t) / sqrt(v[0] + v[1]) : t != 0.0 ? INFINITY : 0.0;
		if (!(t <= best)) {
			best = t;
			*at = i;
		}
	}
	return best;
}

/* The permutation test of joint->t_max over the pooled draws y (the first na run a's). */
static void agree_permute(const double *y, size_t na, size_t nb, size_t ns,
			  struct ic_agree_joint *j)
{
	size_t n = na + nb, at, *idx = ic_stats_alloc(n, sizeof(*idx) + 1);   /* and in_a */
	double lnc = gsl_sf_lnchoose((unsigned int)n, (unsigned int)na), *t;
	unsigned char *in_a = (unsigned char *)(idx + n);
	gsl_combination *cb = NULL;
	gsl_rng *rng = NULL;
	size_t ge = 0, m;

	j->exact = lnc <= log(IC_AGREE_EXACT_MAX);
	m = j->exact ? (size_t)llround(exp(lnc)) : IC_AGREE_PERMUTATIONS;
	t = ic_stats_alloc(m, sizeof(*t));
	if (j->exact)
		cb = ic_xalloc(gsl_combination_calloc(n, na));
	else
		gsl_rng_set(rng = ic_xalloc(gsl_rng_alloc(gsl_rng_mt19937)), IC_AGREE_SEED);
	for (size_t i = 0; i < n; i++)
		idx[i] = i;
	for (size_t s = 0; s < m; s++) {
		/* A shuffle, or the next na-subset in lexicographic order. */
		if (rng)
			gsl_ran_shuffle(rng, idx, n, sizeof(*idx));
		else if (s > 0 && gsl_combination_next(cb) == GSL_SUCCESS)
			memcpy(idx, gsl_combination_data(cb), na * sizeof(*idx));
		memset(in_a, 0, n);
		for (size_t i = 0; i < na; i++)
			in_a[idx[i]] = 1;
		t[s] = agree_t_max(y, n, ns, in_a, &at);
		/* A tie within rounding counts as reaching it. */
		ge += t[s] >= j->t_max - 1e-9 * fmax(1.0, fabs(j->t_max));
	}
	j->nsplits = m;
	j->p = j->exact ? (double)ge / (double)m : (1.0 + (double)ge) / (1.0 + (double)m);
	/* With equal sides a split and its mirror give the same T. */
	j->p_min = j->exact ? (na == nb ? 2.0 : 1.0) / (double)m : 1.0 / (1.0 + (double)m);
	gsl_sort(t, 1, m);
	j->t_95 = gsl_stats_quantile_from_sorted_data(t, 1, m, 0.95);
	gsl_combination_free(cb);
	gsl_rng_free(rng);
	free(idx);
	free(t);
}

int ic_agree_compare(const struct ic_agree_side *a, const struct ic_agree_side *b, double margin,
		     struct ic_agree *out)
{
	struct ic_agree_joint *j = &out->joint;
	unsigned char *in_a;
	double *y = NULL;   /* a's draws, then b's */
	size_t n = 0, at = 0;

	*out = (struct ic_agree){ .joint = { .t_max = NAN, .p = NAN, .t_95 = NAN, .p_min = NAN } };
	out->pts = ic_stats_alloc(a->nratios, sizeof(*out->pts));
	/* a's ratios come in ascending N. */
	for (size_t i = 0; i < a->nratios; i++) {
		struct ic_agree_point *pt = &out->pts[out->npts];

		if (!isfinite(a->ratios[i].ratio) || !(pt->b = ic_agree_ratio_at(b->ratios, b->nratios, a->ratios[i].sites)))
			continue;
		pt->a = &a->ratios[i];
		pt->sites = pt->a->sites;
		agree_point(pt, margin);
		j->counts[pt->verdict]++;
		out->npts++;
	}
	j->equivalent = out->npts > 0 && j->counts[IC_AGREE_EQUIVALENT] == out->npts;
	/* The joint test over N from the two sides' draws. */
	agree_draws_of(a, out->pts, out->npts, &y, &n, &j->draws_a, &j->variants_a);
	agree_draws_of(b, out->pts, out->npts, &y, &n, &j->draws_b, &j->variants_b);
	in_a = ic_stats_alloc(n, 1);
	memset(in_a, 1, j->draws_a);
	j->t_max = agree_t_max(y, n, out->npts, in_a, &at);
	j->t_sites = isfinite(j->t_max) ? out->pts[at].sites : 0;
	if (isfinite(j->t_max) && j->draws_a && j->draws_b)
		agree_permute(y, j->draws_a, j->draws_b, out->npts, j);
	free(y);
	free(in_a);
	return 0;
}

void ic_agree_free(struct ic_agree *ag)
{
	free(ag->pts);
	memset(ag, 0, sizeof(*ag));
}

double ic_agree_fisher(size_t k1, size_t n1, size_t k2, size_t n2)
{
	unsigned int t = (unsigned int)(k1 + k2), lo, hi;
	double p0, p = 0.0;

	if (!n1 || !n2)
		return NAN;
	/* Given the margins, k1 is hypergeometric: t draws from n1 + n2. */
	p0 = gsl_ran_hypergeometric_pdf((unsigned int)k1, (unsigned int)n1, (unsigned int)n2, t);
	lo = t > n2 ? t - (unsigned int)n2 : 0;
	hi = t < n1 ? t : (unsigned int)n1;
	for (unsigned int k = lo; k <= hi; k++) {
		double pk = gsl_ran_hypergeometric_pdf(k, (unsigned int)n1, (unsigned int)n2, t);

		if (pk <= p0 * (1.0 + 1e-7))
			p += pk;
	}
	return fmin(1.0, p);
}
