/* States: on some machines the same binary runs at one of two speeds,
 * decided per process and held across N within it (a Zen 5 guest: inline/
 * extern 1.0 in some processes, 1.65 in others). Pooling such processes
 * gives an interval around a ratio that no process ran at. This finds the
 * split, from every process's ratios across all N of a series:
 *
 *   level(p) = median over N of (log ratio of p at N - median over the
 *              processes of the log ratio at N)
 *   own(p)   = the spread of p's own log ratios about its level across N
 *              (1.4826 MAD; with fewer than 3 N, the repetitions' standard
 *              error of the ratio), the larger of the two
 *
 * The levels sorted, the split into a low and a high group (each of 2 or
 * more processes) is the one with the least within-group sum of squares.
 * Two states when both hold:
 *   1. gap / within > the 99th percentile of that statistic for a single
 *      normal sample of the same size (by simulation, fixed seed), and > 5:
 *      the levels fall into two groups, not one spread (a uniform spread
 *      gives about 3.5);
 *   2. gap > IC_STATES_OWN x the median own(p): the groups are further
 *      apart than a process's own ratios move, so the state belongs to the
 *      process, at every N.
 * gap: difference of the groups' mean levels; within: pooled SD in them.
 */
#ifndef IC_STATES_H
#define IC_STATES_H

#include <stddef.h>

#include "ratios.h"

#define IC_STATES_QUANTILE 0.99   /* one normal sample splits this rarely */
#define IC_STATES_SEPARATION 5.0  /* gap over within at least, whatever the size */
#define IC_STATES_OWN 3.0         /* gap over a process's own spread */
#define IC_STATES_MIN_PROC 5      /* fewer processes: no split is tried */

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
	struct ic_ratio *ratios;   /* per N from its processes only, Holm band */
	size_t nratios;
	struct ic_crossover xo;
	double share, share_lo, share_hi;   /* its share of the processes, with
	                                     * its 95% Clopper-Pearson interval */
};

struct ic_states {
	size_t nproc;              /* the processes of ic_process_ratios, in its order */
	int *state;                /* 0 low, 1 high; 0 everywhere with one state */
	size_t nstates;            /* 1 or 2 */
	double gap, within, own_median, critical;   /* the rule's figures (log scale) */
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

/* The q quantile of ic_states_split's statistic over normal samples of
 * size n (fixed seed). */
double ic_states_critical(size_t n, double q);

#endif /* IC_STATES_H */
