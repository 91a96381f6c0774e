/* Do two runs of the same sweep agree? Per series and N, d = log(rB / rA), se = sqrt(seA^2 + seB^2)
 * from each run's nested estimate (stats.h: the draws are its layout variants, or its processes
 * with one variant), Welch-Satterthwaite degrees of freedom:
 *   equivalent   the 90% interval of rB / rA lies within 1/(1 + m) .. 1 + m
 *                (TOST: two one-sided tests at 5%; m the margin, 3%)
 *   differ       its 95% interval excludes 1
 *   cannot tell  neither: too noisy (not rejecting a difference is not agreement)
 * Over the series' N, correlated (the same processes ran them all), two joint verdicts: equivalent
 * at every N (intersection-union: the whole then at the same 5%); any difference: T = max over N
 * of |t| (t = d / se) against its permutation distribution, whole draws (a draw's ratios at every
 * N together) shuffled between the runs: every split up to IC_AGREE_EXACT_MAX, else
 * IC_AGREE_PERMUTATIONS from a fixed seed (GSL's generator), so the same runs give the same p. */
#ifndef IC_AGREEMENT_H
#define IC_AGREEMENT_H

#include <stddef.h>

#include "series.h"
#include "results.h"
#include "states.h"

#define IC_AGREE_MARGIN 0.03        /* the 2004 effect: an agreement must hold it */
#define IC_AGREE_ALPHA 0.05
#define IC_AGREE_EXACT_MAX 20000    /* 8 + 8 variants: 12,870 splits, all counted */
#define IC_AGREE_PERMUTATIONS 9999  /* p to about +-0.004 at 0.05 */
#define IC_AGREE_SEED 2004u

enum ic_agree_verdict {
	IC_AGREE_NO_INTERVAL,   /* a run has fewer than two draws at N */
	IC_AGREE_EQUIVALENT, IC_AGREE_DIFFER, IC_AGREE_CANNOT_TELL,
};

/* A run's side: a series' processes, all (state < 0) or a state's (states.h), their ratios. */
struct ic_agree_side {
	const struct ic_ratio *ratios;
	size_t nratios;
	const struct ic_process_ratios *procs;   /* every process's log ratio per N */
	const struct ic_states *states;          /* and its state */
	int state;
};

struct ic_agree_point {
	unsigned long sites;
	const struct ic_ratio *a, *b;     /* each run's ratio at N */
	double d, se, df;                 /* log(rB / rA) */
	double lo90, hi90, lo95, hi95;    /* intervals of rB / rA */
	enum ic_agree_verdict verdict;
};

struct ic_agree_joint {
	size_t counts[4];          /* points per enum ic_agree_verdict */
	int equivalent;            /* every N equivalent (and at least one N) */
	double t_max;              /* max |t| over N; NAN without draws */
	unsigned long t_sites;     /* the N where it is */
	double p;                  /* its permutation p; NAN when not computed */
	double t_95;               /* the permutation distribution's 95% point */
	double p_min;              /* the smallest p these draws can give */
	size_t nsplits;            /* permutations counted */
	int exact;                 /* every split counted */
	size_t draws_a, draws_b;
	int variants_a, variants_b;   /* the draws are layout variants (else processes) */
};

struct ic_agree {
	struct ic_agree_point *pts;   /* the N both runs have, ascending */
	size_t npts;
	struct ic_agree_joint joint;
};

/* Run a against run b at margin m (0.03 for 3%); 0 (out of memory exits, kit). */
int ic_agree_compare(const struct ic_agree_side *a, const struct ic_agree_side *b, double margin,
		     struct ic_agree *out);
void ic_agree_free(struct ic_agree *ag);

/* ratios[0..n-1]'s finite ratio at N = sites; NULL when it has none. */
const struct ic_ratio *ic_agree_ratio_at(const struct ic_ratio *ratios, size_t n, unsigned long sites);

#define IC_RUNS_MAX 26   /* compare labels its runs A to Z */

/* A series across runs (compare's and agree's): name, forms ("compare/baseline"),
 * its analysis in each run (NULL where none; compare's: where it has a ratio). */
struct ic_runs_series {
	char *id, *pair;
	const struct ic_series *se[IC_RUNS_MAX];
	unsigned in;               /* those runs, a bit each */
	int compared;              /* some N in every run */
};

/* Series s's finite ratio at N = n in run k; NULL when it has none. */
const struct ic_ratio *ic_runs_ratio_at(const struct ic_runs_series *s, size_t k, unsigned long n);

/* Every N of series s in the k runs (finite: where one has a finite ratio),
 * ascending and unique, into *n (free it); returns how many. */
size_t ic_runs_sites(const struct ic_runs_series *s, size_t k, int finite, unsigned long **n);

/* The verdict's word: "equivalent", "differ", "cannot tell", "no interval". */
const char *ic_agree_verdict_name(enum ic_agree_verdict v);

/* Fisher's exact two-sided test, k1 of n1 against k2 of n2 (e.g. in a state); NAN: an n is 0. */
double ic_agree_fisher(size_t k1, size_t n1, size_t k2, size_t n2);

#endif /* IC_AGREEMENT_H */
