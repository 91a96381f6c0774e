/* Series and the ratios between their forms: a series is every form of one
 * build, op, layout, order, filler, threads and mode; a ratio at one N is
 * formed within each process that ran both forms (per process the ratio of
 * the two medians), with the nested t interval over layout variants, a
 * simultaneous band over the series' N (Bonferroni, at opts->family) that
 * is drawn, and Holm's step-down at the same level that decides the side. Also every process's own ratio per N, which states.h reads.
 */
#ifndef IC_RATIOS_H
#define IC_RATIOS_H

#include <stddef.h>

#include "crossover.h"
#include "results.h"

/* A ratio at one N of one series, from the processes that ran every form
 * in it: compare/baseline, any pair, or a ratio of ratios. */
struct ic_ratio {
	const struct ic_point *cmp, *base;   /* numerator and denominator (of a
	                                      * ratio of ratios: the two outer ones) */
	unsigned long sites;
	double ratio;              /* geometric mean over variants of each process's
	                            * ratio of the forms' medians */
	double lo, hi;             /* its 95% interval (this N alone) */
	double band_lo, band_hi;   /* simultaneous 95% band over the series' N
	                            * (Bonferroni: this N's interval at family/m):
	                            * what is drawn and printed */
	double holm_lo, holm_hi;   /* this N's interval at its Holm step's level:
	                            * excludes 1 exactly where Holm resolves; it
	                            * decides the side, it is no joint band */
	double p;                  /* two-sided, from the t statistic of the log
	                            * ratio; this N alone (uncorrected) */
	double p_holm;             /* p adjusted by Holm over the series' N */
	int resolved;              /* Holm resolves this N (holm_lo..holm_hi excludes
	                            * 1; the band may still hold 1) */
	double df;                 /* degrees of freedom of the interval */
	double se;                 /* standard error of the log ratio */
	size_t nunits, nvariants;
	int noisy;                 /* the band is wider than +-noise_ci */
	enum ic_point_side side;   /* Holm's decision */
};

/* One series, compared by opts' compare/baseline. */
struct ic_group {
	size_t build;
	const char *op, *layout, *order, *mode;
	unsigned long threads, filler;
	struct ic_point **points;  /* sorted like the whole points list */
	size_t npoints;
	struct ic_ratio *ratios;   /* compare/baseline, ascending sites */
	size_t nratios;
	struct ic_crossover xo;
	double code_cmp, code_base;   /* median code_bytes_per_site over the series */
};

/* The series of pts[0..n-1] (one series, analysed points): its
 * compare/baseline ratios, their crossover and the code sizes. Returns 0,
 * or -1 when memory runs out; ic_group_free frees it either way. */
int ic_group_make(struct ic_group *g, struct ic_point *const *pts, size_t n,
		  const struct ic_analysis_opts *opts);
void ic_group_free(struct ic_group *g);

/* The point of form at sites in a series, NULL when not measured. */
const struct ic_point *ic_group_point(const struct ic_group *g, const char *form,
				      unsigned long sites);

/* The first measured N at which `form`'s footprint in the series exceeds
 * `size` bytes, 0 when none does; *at_about (may be NULL) the N where the
 * footprint per site there reaches `size`. */
unsigned long ic_group_cache_pass(const struct ic_group *g, const char *form, double size,
				  double *at_about);

/* The ratio num/den of one series at every N where both forms have a time.
 * *out is malloc'd (NULL with *n = 0 when no N has both). Returns 0, or -1
 * when memory runs out. */
int ic_ratio_series(const struct ic_group *g, const char *num, const char *den,
		    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);

/* The same from the processes u < nkeep with keep[u] != 0 only (u: the
 * process's file index), e.g. the processes of one state (states.h). */
int ic_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
			 const unsigned char *keep, size_t nkeep,
			 const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);

/* The ratio of ratios (a/a0)/(b/b0) per N, formed within each process that
 * ran all four forms, with the same interval and band: e.g. how much more
 * the lock costs inlined, (inline/inline_nolock)/(extern/extern_nolock). */
int ic_ratio_interaction(const struct ic_group *g, const char *a, const char *a0, const char *b,
			 const char *b0, const struct ic_analysis_opts *opts, struct ic_ratio **out,
			 size_t *n);

/* The same from the processes u < nkeep with keep[u] != 0 only. */
int ic_ratio_interaction_keep(const struct ic_group *g, const char *a, const char *a0,
			      const char *b, const char *b0, const unsigned char *keep, size_t nkeep,
			      const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n);

/* The crossover of ratios r[0..n-1] (ascending N), each point's side
 * Holm's decision.
 * Returns 0, or -1 when memory runs out. */
int ic_ratio_crossover(const struct ic_ratio *r, size_t n, struct ic_crossover *out);

/* Holm resolves a side: the difference from 1 is stated. */
int ic_ratio_resolved(const struct ic_ratio *r);

/* The 95% interval holds x (false without an interval). */
int ic_ratio_holds(const struct ic_ratio *r, double x);

/* Every process's log ratio of a series' compare/baseline at each N of its
 * ratios: what states.h splits. */
struct ic_process_ratios {
	size_t nproc;              /* processes with a ratio at any N */
	unsigned *unit;            /* file index of each, ascending */
	int *variant;              /* its layout variant */
	size_t *time_rank;         /* 0 = written first (file mtime; file order breaks ties) */
	size_t nsites;
	unsigned long *sites;      /* the series' ratio N, ascending */
	double *logr;              /* [i * nproc + p]: log ratio at sites[i], NAN if missing */
	double *rse;               /* [i * nproc + p]: the repetitions' standard error of it */
};

/* The processes of g's ratios; res (may be NULL: time in file order) gives
 * each file's mtime. Returns 0, or -1 when memory runs out;
 * ic_process_ratios_free frees it either way. */
int ic_process_ratios_collect(const struct ic_results *res, const struct ic_group *g,
			      struct ic_process_ratios *pr);
void ic_process_ratios_free(struct ic_process_ratios *pr);

#endif /* IC_RATIOS_H */
