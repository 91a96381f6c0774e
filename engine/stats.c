#include "stats.h"

#include "kit.h"

#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

void *ic_stats_alloc(size_t n, size_t size)
{
	return ic_xalloc(calloc(n ? n : 1, size));
}

double ic_stats_median(double *x, size_t n)
{
	if (n == 0)
		return NAN;
	gsl_sort(x, 1, n);
	return gsl_stats_median_from_sorted_data(x, 1, n);
}

double ic_stats_cv(const double *x, size_t n)
{
	double mean = gsl_stats_mean(x, 1, n);   /* (0 at n = 0: no element is read) */

	return n < 2 || mean == 0.0 ? NAN : gsl_stats_sd_m(x, 1, n, mean) / mean;
}

double ic_stats_t_cdf(double t, double df)
{
	return df > 0.0 && !isnan(t) ? gsl_cdf_tdist_P(t, df) : NAN;
}

double ic_stats_t_quantile(double p, double df)
{
	return df > 0.0 && p > 0.0 && p < 1.0 ? gsl_cdf_tdist_Pinv(p, df) : NAN;
}

int ic_stats_nested(const double *y, const int *cluster, size_t n, struct ic_stats_nested *out)
{
	double *c = ic_stats_alloc(n, sizeof(*c));   /* the cluster means */
	const double *d;   /* the draws */
	size_t k = 0, draws;

	*out = (struct ic_stats_nested){ .mean = NAN, .se = NAN, .df = NAN };
	/* Each cluster's mean at its first unit (no sort: clusters are few). */
	for (size_t i = 0; i < n; i++) {
		double sum = 0.0, m = 0.0;
		size_t j = cluster ? 0 : i;

		while (j < i && cluster[j] != cluster[i])
			j++;
		if (j < i)
			continue;   /* not its cluster's first unit */
		for (; j < n; j++)
			if (cluster ? cluster[j] == cluster[i] : j == i) {
				sum += y[j];
				m += 1.0;
			}
		c[k++] = sum / m;
	}
	out->clusters = k;
	d = k >= 2 ? c : y;
	draws = k >= 2 ? k : n;
	out->mean = draws ? gsl_stats_mean(d, 1, draws) : NAN;
	if (draws >= 2) {
		out->df = (double)(draws - 1);
		out->se = sqrt(gsl_stats_tss_m(d, 1, draws, out->mean) / (double)(draws - 1) / (double)draws);
	}
	free(c);
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

size_t ic_stats_holm(const double *p, size_t n, double alpha, unsigned char *resolved)
{
	size_t m = 0, step;

	for (size_t i = 0; i < n; i++) {
		resolved[i] = 0;
		m += isfinite(p[i]);
	}
	/* The smallest p not yet resolved, while it passes its step's level. */
	for (step = 0; step < m; step++) {
		size_t best = n;

		for (size_t i = 0; i < n; i++)
			if (!resolved[i] && isfinite(p[i]) && (best == n || p[i] < p[best]))
				best = i;
		if (best == n || p[best] > alpha / (double)(m - step))
			break;
		resolved[best] = 1;
	}
	return step;
}

size_t ic_stats_distinct(const int *x, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		while (j < i && x[j] != x[i])
			j++;
		k += j == i;
	}
	return k;
}

double ic_stats_cut(const double *x, size_t k, size_t m, double *lo, double *hi)
{
	*lo = gsl_stats_mean(x, 1, m);
	*hi = gsl_stats_mean(x + m, 1, k - m);
	return gsl_stats_tss_m(x, 1, m, *lo) + gsl_stats_tss_m(x + m, 1, k - m, *hi);
}
