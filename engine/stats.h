/* Statistics for repeated benchmark runs: medians, quantiles and Student's t
 * distribution (GSL), and the nested (layout variant > process) estimate
 * that every interval of the summary comes from. Within a process no
 * distribution is assumed: run times are skewed (interrupts and migrations
 * only ever add time), so a process contributes its median; across processes
 * and layouts the log of those medians is close to normal, and the t
 * interval over layout variants carries every level of the spread.
 */
#ifndef IC_STATS_H
#define IC_STATS_H

#include <stddef.h>

/* calloc that never asks for 0 bytes: every array of the engine may be
 * empty, and NULL must mean out of memory. */
void *ic_stats_alloc(size_t n, size_t size);

/* Median of x[0..n-1]; sorts x in place. NaN when n == 0. */
double ic_stats_median(double *x, size_t n);

/* Sample standard deviation (n - 1) over mean, as Google Benchmark's _cv.
 * NaN when n < 2 or the mean is 0. */
double ic_stats_cv(const double *x, size_t n);

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
	size_t clusters;
};

/* y[i] with cluster[i] (any ints; equal ints are one cluster). Returns 0, or
 * -1 when fewer than two draws (clusters, or units with one cluster) exist
 * or memory runs out; out->mean is still set when n > 0. */
int ic_stats_nested(const double *y, const int *cluster, size_t n, struct ic_stats_nested *out);

/* The two-sided interval mean -+ t(1 - alpha/2, df) se. */
void ic_stats_nested_interval(const struct ic_stats_nested *s, double alpha, double *lo, double *hi);

/* Two-sided p-value of mean = 0 from the t statistic; NAN without an se. */
double ic_stats_nested_p(const struct ic_stats_nested *s);

/* Holm's step-down over p[0..n-1] at family-wise level alpha: resolved[i]
 * set for each p resolved (the j-th smallest while p <= alpha / (m - j),
 * m the finite p's; the first to fail stops it). Returns how many. */
size_t ic_stats_holm(const double *p, size_t n, double alpha, unsigned char *resolved);

/* How many distinct values x[0..n-1] holds. */
size_t ic_stats_distinct(const int *x, size_t n);

/* Ascending x[0..k-1] cut before x[m] (0 < m < k) into a low and a high
 * cluster: their means into *lo and *hi; returns the within-cluster sum
 * of squares. */
double ic_stats_cut(const double *x, size_t k, size_t m, double *lo, double *hi);

#endif /* IC_STATS_H */
