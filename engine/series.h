/* Series (every form of one build, op, layout, order, filler, threads and mode), their
 * ratios with the nested t interval at each N alone, every process's ratio per N (states.h
 * reads it). The band and Holm: decision.h. */
#ifndef IC_SERIES_H
#define IC_SERIES_H

#include <stddef.h>

#include "results.h"
#include "stats.h"

/* Where does a series' compare/baseline ratio cross 1 as N grows? From each N's deciding
 * interval (its Holm step's, decision.h), claiming only what the resolved N support
 * (docs/method.md, "The rules"): each counts, ends too (Holm holds the family-wise error);
 * they may switch side once (more: a conflict, no claim); a crossover is the bracket
 * (A, B), A the small-N winner's last N, B the other's first (no N between resolved), no
 * point estimate. One sweep point: the ratio estimate and the interval deciding its side. */
struct ic_ratio_point {
	double sites, ratio, lo, hi;
};

enum ic_point_side {
	IC_SIDE_UNRESOLVED,   /* the interval contains 1 (or is unknown) */
	IC_SIDE_COMPARE,      /* hi < 1: the compare form is faster */
	IC_SIDE_BASELINE,     /* lo > 1: the baseline form is faster */
};

enum ic_verdict {
	IC_VERDICT_UNRESOLVED,     /* no point resolved */
	IC_VERDICT_CROSSOVER,      /* each form resolved ahead on one side of (A, B) */
	IC_VERDICT_COMPARE_WINS,   /* only the compare form is resolved ahead */
	IC_VERDICT_BASELINE_WINS,  /* only the baseline form is */
	IC_VERDICT_CONFLICT,       /* the resolved points switch side more than once */
};

struct ic_crossover {
	enum ic_verdict verdict;
	/* +1: compare wins at small N (2004's shape: inlining pays below it); -1: baseline; 0: none */
	int direction;
	double bracket_lo, bracket_hi;   /* CROSSOVER: the bracket (A, B); else NAN */
	size_t switches;   /* side changes among resolved points */
	size_t n_compare, n_baseline, n_unresolved;
};

/* p's side; the crossover of pts sorted by sites ascending. */
enum ic_point_side ic_ratio_point_side(const struct ic_ratio_point *p);
void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out);

/* The N to measure next in the bracket [lo, hi] of a series measured at
 * ascending sites[0..n-1]: each neighbouring pair's rounded geometric midpoint
 * strictly between them. Writes at most n - 1 into out; returns how many. */
size_t ic_crossover_midpoints(const unsigned long *sites, size_t n, double lo, double hi,
			      unsigned long *out);

const char *ic_verdict_name(enum ic_verdict v);

/* A ratio at one N of one series (compare/baseline, any pair, or a ratio of ratios):
 * ic_ratio_estimate fills it up to se and nunits; decision.h the rest. */
struct ic_ratio {
	const struct ic_point *cmp, *base;   /* numerator and denominator (the outer ones) */
	unsigned long sites;
	double ratio;              /* geometric mean over variants of the processes' ratios */
	double lo, hi;             /* its 95% interval (this N alone) */
	double band_lo, band_hi;   /* the band over the series' N, drawn (decision.h) */
	double holm_lo, holm_hi;   /* the interval at its Holm step's level: decides */
	double p;                  /* two-sided, of the log ratio; this N alone */
	double p_holm;             /* p adjusted by Holm over the series' N */
	int resolved;              /* Holm resolves this N (the band may hold 1) */
	double df;                 /* degrees of freedom of the interval */
	double se;                 /* standard error of the log ratio */
	struct ic_stats_nested est;   /* of the log ratio (NAN without draws) */
	size_t nunits, nvariants;
	int noisy;                 /* the band is wider than +-noise_ci */
	/* Every moment: states.h's observations (a state's own: those firmly in it). */
	size_t nrep;               /* such pairs at this N (0: none timed or paired) */
	size_t nrep_base, nrep_cmp;   /* of them, the baseline / compared form the faster */
	double spread_lo, spread_hi;   /* 10th and 90th percentile of their ratios */
	enum ic_point_side side;   /* Holm's decision */
};

/* One series, compared by opts' compare/baseline. */
struct ic_group {
	size_t build;
	const char *op, *layout, *order, *mode;
	unsigned long threads, filler;
	struct ic_point **points;  /* sorted like the whole points list */
	size_t npoints;
	struct ic_ratio *ratios;   /* compare/baseline, ascending sites, and */
	size_t nratios;
	struct ic_crossover xo;    /* their crossover (ic_group_decide, decision.h) */
	double code_cmp, code_base;   /* median code_bytes_per_site over the series */
};

/* The series of analysed pts[0..n-1] and its code sizes; ic_group_decide adds the ratios. */
void ic_group_make(struct ic_group *g, struct ic_point *const *pts, size_t n,
		   const struct ic_analysis_opts *opts);
void ic_group_free(struct ic_group *g);

/* The point of form at sites in a series, NULL when not measured. */
const struct ic_point *ic_group_point(const struct ic_group *g, const char *form, unsigned long sites);

/* The first measured N where form's footprint exceeds size bytes (0: none); *at_about
 * (may be NULL) the N where the footprint per site reaches size. */
unsigned long ic_group_cache_pass(const struct ic_group *g, const char *form, double size, double *at_about);

/* r at cmp/base's N from draws y[0..n-1] in clusters cl (NULL: each its own): exp(mean),
 * its 95% interval, p, df and se (NAN where none); no band yet. */
void ic_ratio_estimate(struct ic_ratio *r, const struct ic_point *cmp, const struct ic_point *base,
		       const double *y, const int *cl, size_t n);

/* The 95% interval holds x (false without an interval). */
int ic_ratio_holds(const struct ic_ratio *r, double x);

/* Every process's log ratio of a series' compare/baseline at each N: what states.h splits. */
struct ic_process_ratios {
	size_t nproc;              /* processes with a ratio at any N */
	unsigned *unit;            /* file index of each, ascending */
	int *variant;              /* its layout variant */
	size_t *time_rank;         /* 0 = ran first (file order breaks ties) */
	size_t nsites;
	unsigned long *sites;      /* the series' ratio N, ascending */
	double *logr;              /* [i * nproc + p]: log ratio at sites[i], NAN if missing */
	double *rse;               /* [i * nproc + p]: the repetitions' standard error of it */
};

/* The processes of g's ratios; res gives each file's time. */
void ic_process_ratios_collect(const struct ic_results *res, const struct ic_group *g,
			       struct ic_process_ratios *pr);
void ic_process_ratios_free(struct ic_process_ratios *pr);

/* Processes in two clusters at one N (by layout or process, where the states model finds none).
 * A split needs IC_SPLIT_MIN processes a side, IC_SPLIT_SD SDs (a unimodal sample of 16, normal or
 * t3, splits so far about once in a thousand N, by simulation) and levels IC_SPLIT_RATIO apart. */
#define IC_SPLIT_MIN 3
#define IC_SPLIT_SD 6.0
#define IC_SPLIT_RATIO 1.05
struct ic_split {
	unsigned long sites;      /* the N where the sorted log ratios split best */
	size_t n[2];              /* the clusters' sizes */
	double level[2];          /* low cluster, high cluster: geometric mean ratios */
	double gap_sd;            /* their distance in pooled within-cluster SDs */
};

/* The clearest split over pr's N: 1 with out filled, 0 when none. */
int ic_process_split(const struct ic_process_ratios *pr, struct ic_split *out);

#endif /* IC_SERIES_H */
