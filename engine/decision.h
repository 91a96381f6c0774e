/* A series' ratios (series.h's) decided: the band drawn, Holm's sides, the crossover bracket. */
#ifndef IC_DECISION_H
#define IC_DECISION_H

#include "series.h"   /* and results.h */

/* g's compare/baseline ratios into g->ratios, their crossover into g->xo (ic_group_free frees). */
void ic_group_decide(struct ic_group *g, const struct ic_analysis_opts *opts);

/* The ratio num/den of one series at every N where both forms have a time, with its band
 * and Holm's side; *out malloc'd (NULL, *n = 0 when none). ic_ratio_contrast: forms[0] /
 * forms[1] (nt 2) or the interaction (nt 4) (a/a0)/(b/b0) per N within each process that
 * ran all four, named a over b; only processes (file indices) u < nkeep with keep[u] (keep
 * NULL: all), e.g. one state's. Per process y = the signed sum of the forms' log medians,
 * clustered by layout variant (by repeat from IC_REPEATS_TOP). 0; -1 if nt > 4. */
int ic_ratio_series(const struct ic_group *g, const char *num, const char *den,
		    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);
int ic_ratio_contrast(const struct ic_group *g, const char *const *forms, size_t nt,
		      const unsigned char *keep, size_t nkeep, const struct ic_analysis_opts *opts,
		      struct ic_ratio **out, size_t *n);

/* The band and Holm's sides of a series' ratios r[0..n-1] (ratio, lo, hi, p, est set) over the m
 * with an interval (docs/method.md, "The rules"). The band is Bonferroni's, each t interval at
 * family / m. Holm's step-down decides: with p ascending, p(j) is resolved when p(i) <= family /
 * (m - i + 1) for all i <= j; holm_lo/hi is the interval at its step's level (the failed step's for
 * the rest), excluding 1 exactly where Holm resolves; p_holm the adjusted p. */
void ic_ratio_decide(struct ic_ratio *r, size_t n, const struct ic_analysis_opts *opts);

/* The crossover of ratios r[0..n-1] (ascending N) by Holm's sides; returns 0. */
int ic_ratio_crossover(const struct ic_ratio *r, size_t n, struct ic_crossover *out);

/* Holm resolves a side: the difference from 1 is stated. */
int ic_ratio_resolved(const struct ic_ratio *r);

#endif /* IC_DECISION_H */
