/* Statistics for repeated runs (GSL beneath) and the nested (layout variant > process) estimate
 * behind every interval of the summary. Run times are skewed (interrupts and migrations only add
 * time), so a process gives its median; the log of those medians is close to normal across
 * processes and layouts; the t interval over layout variants carries every level of the spread. */
#ifndef IC_STATS_H
#define IC_STATS_H

#include <stddef.h>

/* calloc that never asks for 0 bytes (an array may be empty); never NULL (kit). */
void *ic_stats_alloc(size_t n, size_t size);

/* Median of x[0..n-1]; sorts x in place. NaN when n == 0. */
double ic_stats_median(double *x, size_t n);

/* Sample SD (n - 1) over mean, as Google Benchmark's _cv; NaN when n < 2 or mean 0. */
double ic_stats_cv(const double *x, size_t n);

/* Student's t with df > 0 (GSL): the CDF, its inverse for 0 < p < 1; NAN outside. */
double ic_stats_t_cdf(double t, double df);
double ic_stats_t_quantile(double p, double df);

/* A nested estimate of y's mean over units (processes) in clusters (layout variants). With
 * 2+ clusters each is a draw, its units' mean, so the standard error holds every level's
 * variance; with one (layout not varied) the units are the draws, for that layout only. */
struct ic_stats_nested {
	double mean;          /* mean of the cluster means (of the units with one cluster) */
	double se;            /* its standard error */
	double df;            /* draws - 1 */
	size_t clusters;
};

/* y[i] with cluster[i] (equal ints one cluster; NULL: each unit its own): 0, or -1 with
 * fewer than two draws (out->mean still set when n > 0). */
int ic_stats_nested(const double *y, const int *cluster, size_t n, struct ic_stats_nested *out);

/* The two-sided interval mean -+ t(1 - alpha/2, df) se. */
void ic_stats_nested_interval(const struct ic_stats_nested *s, double alpha, double *lo, double *hi);

/* Two-sided p-value of mean = 0 from the t statistic; NAN without an se. */
double ic_stats_nested_p(const struct ic_stats_nested *s);

/* Holm's step-down over p[0..n-1] at family-wise alpha: resolved[i] set for each p
 * resolved (the j-th smallest while p <= alpha / (m - j), m the finite p's), how many. */
size_t ic_stats_holm(const double *p, size_t n, double alpha, unsigned char *resolved);

/* How many distinct values x[0..n-1] holds. */
size_t ic_stats_distinct(const int *x, size_t n);

/* Ascending x[0..k-1] cut before x[m] (0 < m < k): the two clusters' means into *lo
 * and *hi; returns the within-cluster sum of squares. */
double ic_stats_cut(const double *x, size_t k, size_t m, double *lo, double *hi);

#endif /* IC_STATS_H */
