/* The decision over a series' ratios (series.h forms them): the band drawn,
 * Holm's sides (ic_ratio_decide) and the crossover bracket they give. */
#ifndef IC_DECISION_H
#define IC_DECISION_H

#include <stddef.h>

#include "crossover.h"
#include "results.h"
#include "series.h"

/* g's compare/baseline ratios (opts) into g->ratios and their crossover
 * into g->xo. Returns 0, or -1 when memory runs out; ic_group_free frees
 * them either way. */
int ic_group_decide(struct ic_group *g, const struct ic_analysis_opts *opts);

/* The ratio num/den of one series at every N where both forms have a time,
 * with its band and Holm's side; *out is malloc'd (NULL with *n = 0 when
 * no N has both). _interaction: the ratio of ratios (a/a0)/(b/b0) per N,
 * formed within each process that ran all four forms, with the same
 * interval and band: e.g. how much more the lock costs inlined,
 * (inline/inline_nolock)/(extern/extern_nolock). _keep: from the processes
 * u < nkeep with keep[u] != 0 only (u: the process's file index), e.g. the
 * processes of one state (states.h). Return 0, or -1 when memory runs out. */
int ic_ratio_series(const struct ic_group *g, const char *num, const char *den,
		    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);
int ic_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
			 const unsigned char *keep, size_t nkeep,
			 const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);
int ic_ratio_interaction(const struct ic_group *g, const char *a, const char *a0, const char *b,
			 const char *b0, const struct ic_analysis_opts *opts, struct ic_ratio **out,
			 size_t *n);
int ic_ratio_interaction_keep(const struct ic_group *g, const char *a, const char *a0,
			      const char *b, const char *b0, const unsigned char *keep, size_t nkeep,
			      const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);

/* The band and Holm's sides of ratios r[0..n-1] of one series whose
 * ratio, lo, hi, p and est are set (what ic_ratio_series does after
 * forming them), over the m points that have an interval. The drawn band
 * is Bonferroni's: each point's t interval at family / m, so all m cover
 * their true ratios together with chance at least 1 - family. The
 * decisions are Holm's step-down: with the p-values ascending, p(j) is
 * resolved while p(j) <= family / (m - j + 1) for it and every smaller j;
 * the first that fails stops it. holm_lo/holm_hi is each point's interval
 * at its own step's level (the failed step's for the rest), so it excludes
 * 1 exactly where Holm resolves. Holm resolves whatever Bonferroni does
 * and more, at the same family-wise error of a wrong side; its step
 * intervals are not a joint band, so they decide and the Bonferroni band
 * is drawn. p_holm is the adjusted p-value. Returns 0, or -1 when memory
 * runs out. */
int ic_ratio_decide(struct ic_ratio *r, size_t n, const struct ic_analysis_opts *opts);

/* The crossover of ratios r[0..n-1] (ascending N), each point's side
 * Holm's decision. Returns 0, or -1 when memory runs out. */
int ic_ratio_crossover(const struct ic_ratio *r, size_t n, struct ic_crossover *out);

/* Holm resolves a side: the difference from 1 is stated. */
int ic_ratio_resolved(const struct ic_ratio *r);

#endif /* IC_DECISION_H */
