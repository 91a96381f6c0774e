/* States: on some machines the same binary runs at one of two speeds,
 * decided per process and held across N within it (a Zen 5 guest: inline/
 * extern 1.0 in some processes, 1.65 in others). Pooling such processes
 * gives an interval around a ratio that no process ran at. This finds the
 * split, from every process's ratios across a set of N of a series:
 *
 *   level(p) = median over N of (log ratio of p at N - median over the
 *              processes of the log ratio at N)
 *   own(p)   = the spread of p's own log ratios about its level across N
 *              (1.4826 MAD; with fewer than 3 N, the repetitions' standard
 *              error of the ratio), the larger of the two
 *
 * A process whose own(p) is over IC_STATES_UNSTEADY x the median own is
 * unsteady (its ratio moves across N, e.g. it changed state inside): it is
 * set apart from the split and joins the nearer group afterwards. The
 * steady levels sorted, the split into a low and a high group (each of
 * IC_STATES_MIN_GROUP or more processes) is the one with the least
 * within-group sum of squares. The N split in two when both hold:
 *   1. gap / within > the critical value and > IC_STATES_SEPARATION. The
 *      critical value is the largest of the 99.5% quantiles of that
 *      statistic over simulated one-state runs of the same design (as many
 *      steady processes and N; per-process level + per-N noise) under four
 *      error laws: normal, t3, lognormal (one-sided slow) and a few slow
 *      processes (fixed seed, GSL). So whichever law the one state's
 *      processes follow, it splits in at most 0.5% of series by this test.
 *   2. gap > IC_STATES_OWN x the median own(p): the groups are further
 *      apart than a process's own ratios move, so the state belongs to the
 *      process, at every N.
 * gap: difference of the groups' mean levels; within: pooled SD in them.
 *
 * Cross-fitting: the rule runs on the even-indexed N and on the odd-indexed
 * N apart. Two states only when both halves find two; each state's per-N
 * ratios and level at an N come from the processes the other half put in
 * it, so no estimate reuses the data that chose its processes. The halves
 * disagree when one finds two states and the other one, or when they put
 * a process in different states; that is said. A series of one N is not
 * halved (the rule runs on that N, and nothing is cross-fitted).
 */
#ifndef IC_STATES_H
#define IC_STATES_H

#include <stddef.h>

#include <gsl/gsl_rng.h>

#include "ratios.h"

#define IC_STATES_QUANTILE 0.995  /* each law's one state splits this rarely: 0.5%
                                   * per half, under the 1% asked per series */
#define IC_STATES_SEPARATION 5.0  /* gap over within at least, whatever the size */
#define IC_STATES_OWN 3.0         /* gap over a process's own spread */
#define IC_STATES_MIN_PROC 5      /* fewer processes: no split is tried */
/* The smallest group of a split: from 12 processes on, a pair at one end is
 * too often two slow processes of one state (with pairs the few-slow law's
 * critical value at 16 x 7 N is 8.3, with triples 5.6). */
#define IC_STATES_MIN_GROUP(n) ((n) >= 12 ? 3 : 2)
#define IC_STATES_UNSTEADY 4.0    /* own spread over the median own: set apart
                                   * (a normal MAD over 7+ N stays under 3x) */

/* The error laws of the simulated one-state runs (states.c draws them). */
enum ic_states_law {
	IC_LAW_NORMAL,
	IC_LAW_T3,          /* Student's t, 3 df: heavy tails both ways */
	IC_LAW_LOGNORMAL,   /* exp(N(0, 0.5^2)): one-sided slow processes (skewness 1.75) */
	IC_LAW_FEW_SLOW,    /* normal, and 1 process in 8 slower by Exp(mean 3 SD) */
	IC_LAW_COUNT
};

/* What the split follows, in the processes' time order (file mtime) or
 * their layout variants. */
enum ic_states_follows {
	IC_FOLLOWS_NEITHER,
	IC_FOLLOWS_VARIANT,    /* every variant's processes share one state */
	IC_FOLLOWS_TIME,       /* one switch in time: all of one state, then the other */
};

struct ic_state {
	size_t nproc;
	double level, lo, hi;      /* ratio over its processes and every N, with
	                            * its 95% interval (processes' mean log ratio
	                            * over N, nested by variant) */
	struct ic_ratio *ratios;   /* per N from its processes only (cross-fitted:
	                            * those the other half of the N chose), with
	                            * its band and Holm's decisions */
	size_t nratios;
	struct ic_crossover xo;
	double share, share_lo, share_hi;   /* its share of the processes, with
	                                     * its 95% Clopper-Pearson interval */
};

/* The rule on one half of the N (or on all of them). */
struct ic_states_half {
	size_t nsites;             /* N in it */
	size_t nsteady;            /* processes with a level that are not unsteady */
	size_t nstates;            /* what the rule finds on these N alone */
	double stat, gap, within, own_median, critical;   /* log scale */
};

struct ic_states {
	size_t nproc;              /* the processes of ic_process_ratios, in its order */
	int *state;                /* 0 low, 1 high; 0 everywhere with one state. With
	                            * two, the best split of the levels over all N */
	int *unsteady;             /* 1: set apart from the split (levels over all N) */
	size_t nunsteady;
	size_t nstates;            /* 1 or 2: 2 when both halves find two */
	double gap, within, own_median, critical;   /* the deciding half's figures
	                                             * (the one nearer its limit) */
	int crossfit;              /* 1: halved as states.h says; 0 with one N */
	struct ic_states_half half[2];   /* [0] the even-indexed N, [1] the odd */
	int halves_disagree;       /* one half finds two states and the other one,
	                            * or they put some process in different states */
	size_t moved;              /* with both halves at two: processes they place
	                            * in different states */
	struct ic_state st[2];     /* st[0] low, st[1] high; st[0] only with one */
	enum ic_states_follows follows;
};

/* The states of a series' processes from their ratios pr (ratios.h); with
 * two, each state's own ratios per N of g (compare/baseline of opts) and
 * their crossover. NULL when memory runs out. */
struct ic_states *ic_states_analyse(const struct ic_process_ratios *pr, const struct ic_group *g,
				    const struct ic_analysis_opts *opts);
void ic_states_free(struct ic_states *s);

/* The rule's statistic for sorted x[0..n-1]: the best split k (x[0..k-1]
 * low) and gap / within. Returns the statistic, NAN when n < 4. */
double ic_states_split(const double *x, size_t n, size_t *k, double *gap, double *within);

/* The q quantile of ic_states_split's statistic over the levels of
 * simulated one-state runs of n processes x nsites N under one law (fixed
 * seed; cached), and the largest over the laws: the rule's critical value. */
double ic_states_critical_law(size_t n, size_t nsites, enum ic_states_law law, double q);
double ic_states_critical(size_t n, size_t nsites, double q);

/* The law's name: "normal", "t3", "lognormal", "few slow". */
const char *ic_states_law_name(enum ic_states_law law);

/* One process's level under law (unit scale, the normal's SD 1). */
double ic_states_law_draw(gsl_rng *rng, enum ic_states_law law);

/* One simulated one-state run under law: y[i * np + p], the log ratio of
 * process p at the i-th of nn N (process level + per-N noise, unit scale).
 * The tests draw their runs with it too. */
void ic_states_simulate(gsl_rng *rng, enum ic_states_law law, size_t np, size_t nn, double *y);

#endif /* IC_STATES_H */
