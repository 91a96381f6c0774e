#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "splitmix64.h"

static int stats_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

static void stats_sort(double *x, size_t n)
{
	qsort(x, n, sizeof(*x), stats_cmp_double);
}

double ic_stats_median(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	stats_sort(x, n);
	if (n % 2)
		return x[n / 2];
	return 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

/* P(Binomial(n, 1/2) <= k), in logs so that n in the thousands is fine. */
static double stats_binom_half_cdf(size_t n, size_t k)
{
	double sum = 0.0, lfn = lgamma((double)n + 1.0), ln2n = (double)n * log(2.0);

	for (size_t i = 0; i <= k && i <= n; i++)
		sum += exp(lfn - lgamma((double)i + 1.0) - lgamma((double)(n - i) + 1.0) - ln2n);
	return sum;
}

int ic_stats_median_ci(double *x, size_t n, double *lo, double *hi, double *coverage)
{
	size_t k = 0;

	if (n == 0)
		return -1;
	stats_sort(x, n);
	/* Largest k (1-based rank) with 2 P(B <= k-1) <= 0.05. */
	while (k + 1 <= n / 2 && 2.0 * stats_binom_half_cdf(n, k) <= 0.05)
		k++;
	if (k == 0) {
		*lo = x[0];
		*hi = x[n - 1];
		*coverage = 1.0 - 2.0 * stats_binom_half_cdf(n, 0);
		if (*coverage < 0.0)
			*coverage = 0.0;
		return 0;
	}
	*lo = x[k - 1];
	*hi = x[n - k];
	*coverage = 1.0 - 2.0 * stats_binom_half_cdf(n, k - 1);
	return 0;
}

double ic_stats_cv(const double *x, size_t n)
{
	double mean = 0.0, ss = 0.0;

	if (n < 2)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += x[i];
	mean /= (double)n;
	if (mean == 0.0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (double)(n - 1)) / mean;
}

/* Counts of U = 0..m*n over all C(m+n, m) orderings without ties: the
 * coefficients of the Gaussian binomial [m+n choose m]_q, built as
 * prod_{i=1..m} (1 - q^(n+i)) / (1 - q^i). Low coefficients (the tail the
 * p-value needs) only ever see additions, so they stay exact. */
static double *stats_u_counts(size_t m, size_t n)
{
	size_t top = m * n + m + n + 1, deg = 0;
	double *c = calloc(top + 1, sizeof(*c));

	if (!c)
		return NULL;
	c[0] = 1.0;
	for (size_t i = 1; i <= m; i++) {
		size_t s = n + i;

		for (size_t k = deg + s; k >= s; k--)
			c[k] -= c[k - s];
		deg += s;
		for (size_t k = i; k <= deg; k++)
			c[k] += c[k - i];
		deg -= i;
	}
	return c;
}

static int stats_has_ties(const double *a, size_t na, const double *b, size_t nb,
			  double *tie_term)
{
	size_t n = na + nb;
	double *all = malloc(n * sizeof(*all)), t3 = 0.0;
	int ties = 0;

	if (!all)
		return -1;
	memcpy(all, a, na * sizeof(*a));
	memcpy(all + na, b, nb * sizeof(*b));
	stats_sort(all, n);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;

		while (j < n && all[j] == all[i])
			j++;
		if (j - i > 1) {
			double t = (double)(j - i);

			ties = 1;
			t3 += t * t * t - t;
		}
		i = j;
	}
	free(all);
	*tie_term = t3;
	return ties;
}

double ic_stats_mannwhitney_p(const double *a, size_t na, const double *b, size_t nb)
{
	double u = 0.0, mn, tie_term, p;
	int ties;

	if (na == 0 || nb == 0)
		return NAN;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1.0 : (a[i] == b[j] ? 0.5 : 0.0);
	mn = (double)na * (double)nb;
	ties = stats_has_ties(a, na, b, nb, &tie_term);
	if (ties < 0)
		return NAN;
	if (!ties && na <= IC_STATS_U_EXACT_MAX && nb <= IC_STATS_U_EXACT_MAX) {
		double *c = stats_u_counts(na, nb), tail = 0.0, total = 0.0;
		size_t umin = (size_t)fmin(u, mn - u);

		if (!c)
			return NAN;
		for (size_t k = 0; k <= na * nb; k++) {
			total += c[k];
			if (k <= umin)
				tail += c[k];
		}
		free(c);
		p = 2.0 * tail / total;
	} else {
		double nn = (double)(na + nb);
		double var = mn / 12.0 * ((nn + 1.0) - tie_term / (nn * (nn - 1.0)));
		double z;

		if (var <= 0.0)
			return 1.0;   /* every value tied: no evidence of a difference */
		z = (fabs(u - mn / 2.0) - 0.5) / sqrt(var);
		if (z < 0.0)
			z = 0.0;
		p = erfc(z / sqrt(2.0));
	}
	return p > 1.0 ? 1.0 : p;
}

void ic_stats_rng_seed(struct ic_stats_rng *rng, uint64_t seed)
{
	rng->state = seed;
}

uint64_t ic_stats_rng_next(struct ic_stats_rng *rng)
{
	return ic_splitmix64_next(&rng->state);
}

size_t ic_stats_rng_below(struct ic_stats_rng *rng, size_t n)
{
	/* Multiply-shift on the top 32 bits; the bias for n of a few
	 * hundred repetitions is below 1e-7. */
	return (size_t)(((ic_stats_rng_next(rng) >> 32) * (uint64_t)n) >> 32);
}

uint64_t ic_stats_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

double ic_stats_quantile_sorted(const double *x, size_t n, double p)
{
	double h, frac;
	size_t i;

	if (n == 0)
		return NAN;
	h = (double)(n - 1) * p;
	i = (size_t)floor(h);
	if (i + 1 >= n)
		return x[n - 1];
	frac = h - (double)i;
	return x[i] + frac * (x[i + 1] - x[i]);
}

/* ---- Student's t (GSL) ------------------------------------------------------ */

double ic_stats_t_cdf(double t, double df)
{
	if (!(df > 0.0) || isnan(t))
		return NAN;
	return gsl_cdf_tdist_P(t, df);
}

double ic_stats_t_quantile(double p, double df)
{
	if (!(df > 0.0) || !(p > 0.0 && p < 1.0))
		return NAN;
	return gsl_cdf_tdist_Pinv(p, df);
}

/* ---- the nested estimate --------------------------------------------------- */

struct stats_unit {
	int cluster;
	double y;
};

static int stats_cmp_unit(const void *pa, const void *pb)
{
	const struct stats_unit *a = pa, *b = pb;

	return (a->cluster > b->cluster) - (a->cluster < b->cluster);
}

int ic_stats_nested(const double *y, const int *cluster, size_t n, struct ic_stats_nested *out)
{
	struct stats_unit *u = malloc((n ? n : 1) * sizeof(*u));
	double *cmean = malloc((n ? n : 1) * sizeof(*cmean));
	size_t *csize = malloc((n ? n : 1) * sizeof(*csize));
	size_t k = 0, draws;
	double grand = 0.0, ss = 0.0;

	*out = (struct ic_stats_nested){ .mean = NAN, .se = NAN, .df = NAN, .share_between = NAN };
	if (!u || !cmean || !csize) {
		free(u);
		free(cmean);
		free(csize);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		u[i] = (struct stats_unit){ cluster[i], y[i] };
	qsort(u, n, sizeof(*u), stats_cmp_unit);
	for (size_t i = 0; i < n;) {
		size_t j = i;
		double sum = 0.0;

		while (j < n && u[j].cluster == u[i].cluster)
			sum += u[j++].y;
		cmean[k] = sum / (double)(j - i);
		csize[k++] = j - i;
		i = j;
	}
	out->clusters = k;
	out->units = n;
	if (n == 0)
		goto done;
	if (k >= 2) {
		/* The clusters are the draws. */
		for (size_t c = 0; c < k; c++)
			grand += cmean[c];
		grand /= (double)k;
		for (size_t c = 0; c < k; c++)
			ss += (cmean[c] - grand) * (cmean[c] - grand);
		draws = k;
	} else {
		for (size_t i = 0; i < n; i++)
			grand += u[i].y;
		grand /= (double)n;
		for (size_t i = 0; i < n; i++)
			ss += (u[i].y - grand) * (u[i].y - grand);
		draws = n;
	}
	out->mean = grand;
	if (draws >= 2) {
		out->df = (double)(draws - 1);
		out->se = sqrt(ss / (double)(draws - 1) / (double)draws);
	}
	if (k >= 2 && n > k) {
		/* One-way random effects, unbalanced (n0 as in Searle et al.). */
		double all = 0.0, ssb = 0.0, ssw = 0.0, sum_n2 = 0.0, msb, msw, n0, vb;
		size_t i = 0;

		for (size_t c = 0; c < n; c++)
			all += u[c].y;
		all /= (double)n;
		for (size_t c = 0; c < k; c++) {
			ssb += (double)csize[c] * (cmean[c] - all) * (cmean[c] - all);
			sum_n2 += (double)csize[c] * (double)csize[c];
			for (size_t e = i + csize[c]; i < e; i++)
				ssw += (u[i].y - cmean[c]) * (u[i].y - cmean[c]);
		}
		msb = ssb / (double)(k - 1);
		msw = ssw / (double)(n - k);
		n0 = ((double)n - sum_n2 / (double)n) / (double)(k - 1);
		vb = fmax(0.0, (msb - msw) / n0);
		out->share_between = vb + msw > 0.0 ? vb / (vb + msw) : 0.0;
	}
done:
	free(u);
	free(cmean);
	free(csize);
	return isfinite(out->se) ? 0 : -1;
}

void ic_stats_nested_interval(const struct ic_stats_nested *s, double alpha, double *lo, double *hi)
{
	double t = ic_stats_t_quantile(1.0 - alpha / 2.0, s->df);

	*lo = s->mean - t * s->se;
	*hi = s->mean + t * s->se;
	if (!isfinite(*lo) || !isfinite(*hi))
		*lo = *hi = NAN;
}

double ic_stats_nested_p(const struct ic_stats_nested *s)
{
	if (!isfinite(s->se) || !isfinite(s->mean))
		return NAN;
	if (s->se == 0.0)
		return s->mean == 0.0 ? 1.0 : 0.0;
	return 2.0 * ic_stats_t_cdf(-fabs(s->mean / s->se), s->df);
}
