/* Statistics for repeated benchmark runs: medians with distribution-free
 * intervals, the Mann-Whitney U test, Student's t distribution, and the
 * nested (layout variant > process) estimate that every interval of the
 * summary comes from (issue 8). Within a process no distribution is assumed:
 * run times are skewed (interrupts and migrations only ever add time), so a
 * process contributes its median; across processes and layouts the log of
 * those medians is close to normal, and the t interval over layout variants
 * carries every level of the spread.
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

/* Deterministic generator (splitmix64, common/splitmix64.h) so that
 * bootstrap output is the same on every machine and every run. */
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

/* Quantile of sorted x by linear interpolation between order statistics
 * (Hyndman-Fan type 7, the default of R and numpy). */
double ic_stats_quantile_sorted(const double *x, size_t n, double p);

/* Student's t distribution with df > 0 degrees of freedom (GSL): the CDF,
 * and its inverse for 0 < p < 1. NAN outside those ranges. */
double ic_stats_t_cdf(double t, double df);
double ic_stats_t_quantile(double p, double df);

/* A nested estimate of the mean of y over units (processes) grouped in
 * clusters (layout variants). With two or more clusters the clusters are
 * the independent draws: each contributes the mean of its units, and the
 * standard error is the spread of those means (so it holds the between-
 * layout, between-process and within-process variance alike). With one
 * cluster the layout was not varied and the units are the draws; the
 * interval then speaks for that one layout only. */
struct ic_stats_nested {
	double mean;          /* mean of the cluster means (of the units with one cluster) */
	double se;            /* its standard error */
	double df;            /* draws - 1 */
	size_t clusters, units;
	/* One-way random-effects ANOVA of the units: the share of their
	 * variance that lies between clusters, max(0, (MSB - MSW) / n0) over
	 * that plus MSW. NAN without two clusters of which one has 2+ units. */
	double share_between;
};

/* y[i] with cluster[i] (any ints; equal ints are one cluster). Returns 0, or
 * -1 when fewer than two draws (clusters, or units with one cluster) exist
 * or memory runs out; out->mean is still set when n > 0. */
int ic_stats_nested(const double *y, const int *cluster, size_t n, struct ic_stats_nested *out);

/* The two-sided interval mean -+ t(1 - alpha/2, df) se. */
void ic_stats_nested_interval(const struct ic_stats_nested *s, double alpha, double *lo, double *hi);

/* Two-sided p-value of mean = 0 from the t statistic; NAN without an se. */
double ic_stats_nested_p(const struct ic_stats_nested *s);

#endif /* IC_STATS_H */
