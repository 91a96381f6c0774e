/* Statistics for repeated benchmark runs: medians with distribution-free
 * intervals, a seeded bootstrap for the ratio of two medians, and the
 * Mann-Whitney U test. No distribution is assumed: run times are skewed
 * (interrupts and migrations only ever add time).
 */
#ifndef IC_STATS_H
#define IC_STATS_H

#include <stddef.h>
#include <stdint.h>

/* Median of x[0..n-1]; sorts x in place. NaN when n == 0. */
double ic_stats_median(double *x, size_t n);

/* 95% interval of the median from order statistics: with x sorted, the
 * interval [x(k), x(n+1-k)] covers the median with probability
 * 1 - 2 P(Binomial(n, 1/2) < k); k is the largest rank keeping that at
 * least 0.95. Needs n >= 6; below that the interval is [min, max] and its
 * coverage (1 - 2^(1-n)) is returned in *coverage so callers can say so.
 * Sorts x in place. Returns 0, or -1 when n == 0. */
int ic_stats_median_ci(double *x, size_t n, double *lo, double *hi, double *coverage);

/* Sample standard deviation (n - 1) over mean, as Google Benchmark's _cv.
 * NaN when n < 2 or the mean is 0. */
double ic_stats_cv(const double *x, size_t n);

/* Two-sided p-value of the Mann-Whitney U test. Exact distribution when
 * there are no ties and both samples have at most IC_STATS_U_EXACT_MAX
 * values; otherwise the normal approximation with tie and continuity
 * correction (as scipy.stats.mannwhitneyu, which Google Benchmark's
 * compare.py uses). NaN when a sample is empty. */
#define IC_STATS_U_EXACT_MAX 50
double ic_stats_mannwhitney_p(const double *a, size_t na, const double *b, size_t nb);

/* Deterministic generator (splitmix64) so that bootstrap output is the same
 * on every machine and every run. */
struct ic_stats_rng {
	uint64_t state;
};
void ic_stats_rng_seed(struct ic_stats_rng *rng, uint64_t seed);
uint64_t ic_stats_rng_next(struct ic_stats_rng *rng);
/* Uniform in [0, n). */
size_t ic_stats_rng_below(struct ic_stats_rng *rng, size_t n);

/* FNV-1a of a string: mixes a point's name into the seed, so one point's
 * interval does not depend on which other points are in the run. */
uint64_t ic_stats_hash(const char *s);

/* Percentile bootstrap of median(a) / median(b): each resample draws na
 * values from a and nb from b with replacement. Writes the 2.5% and 97.5%
 * quantiles. Returns 0, or -1 when a sample is empty, resamples < 2 or
 * memory runs out. */
int ic_stats_bootstrap_ratio(const double *a, size_t na, const double *b, size_t nb,
			     unsigned resamples, uint64_t seed, double *lo, double *hi);

/* Quantile of sorted x by linear interpolation between order statistics
 * (Hyndman-Fan type 7, the default of R and numpy). */
double ic_stats_quantile_sorted(const double *x, size_t n, double p);

#endif /* IC_STATS_H */
