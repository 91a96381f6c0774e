/* States in time: a repetition's y = log(compare / its process's baseline repetition at that N
 * nearest in start time) at t, its start. A series' observations from every process, in time
 * order, are one path of a two-state continuous-time Markov chain (rate a from state 0 to 1, b
 * back) seen through noise, y | state s, j-th N ~ mu[s][j] + sigma[j] * t4 (t4: a slow repetition
 * is an outlier, not a state; a level per N: the N where the states agree do not dilute those
 * where they part), fitted by EM; the same with one state gives the likelihood to beat. Two states
 * when each IC_SM_* rule below holds and BIC prefers two. Intervals, simulations: docs/method.md. */
#ifndef IC_STATE_MODEL_H
#define IC_STATE_MODEL_H

#include <stddef.h>

#define IC_SM_NU 4.0            /* t degrees of freedom of the noise */
#define IC_SM_MIN_OCC 8.0       /* repetitions a state needs (expected) */
#define IC_SM_MIN_SHARE 0.02    /* and this share of them */
#define IC_SM_SEPARATION 4.0    /* levels apart, in scales of the t noise, at the N they part most */
#define IC_SM_MIN_RUN 3.0       /* repetitions a spell lasts on average */
#define IC_SM_FIRM 0.9          /* a repetition is in a state past this posterior */
#define IC_SM_MIN_OBS 20        /* fewer observations: no model */

struct ic_sm_obs {
	double t;                  /* s since the epoch (its start) */
	double y;                  /* log(compare / baseline nearest in time) */
	unsigned site;             /* the index of its N, < nsites */
	unsigned proc;             /* its process, < nproc */
	int index;                 /* its repetition index (the caller's; not read) */
};

/* Why one state (or two), with its reason in a few words (ic_sm_why_name). */
#define IC_SM_WHYS(X) \
	X(IC_SM_TWO, "two states") \
	X(IC_SM_TOO_FEW, "too few repetitions for a model") \
	X(IC_SM_SMALL_STATE, "a second state would hold too few repetitions") \
	X(IC_SM_CLOSE, "the levels of two states would be too close") \
	X(IC_SM_FLICKER, "a second state would last too few repetitions in a row") \
	X(IC_SM_BIC, "one state explains the data as well")
#define IC_SM_WHY_ENUM(e, name) e,
enum ic_sm_why { IC_SM_WHYS(IC_SM_WHY_ENUM) };

struct ic_sm {
	size_t n, nsites, nproc;
	struct ic_sm_obs *obs;     /* a copy, in time order */
	size_t nstates;            /* 1 or 2: the rule's answer */
	enum ic_sm_why why;
	/* The two-state fit (with enough observations); state 0 the lower over N. */
	double *mu;                /* [s * nsites + j]: log level */
	double *sigma;             /* [j] noise scale */
	double rate[2];            /* per s: leaving state s */
	double spell[2], spell_lo[2], spell_hi[2];   /* mean spell, s (1 / rate) */
	double share, share_lo, share_hi;   /* of time in state 1, with 95% interval */
	double switches[2];        /* expected switches out of each state */
	double sep;                /* max over N of |mu1 - mu0| / sigma */
	size_t sep_site;           /* that N's index */
	double *post;              /* [i]: P(state 1 | everything), time order */
};

/* Fits obs[0..n-1] (any order; copied and sorted by time) over nsites N and nproc processes.
 * Returns 0 (out of memory exits, kit); ic_sm_free frees it. Under IC_SM_MIN_OBS observations,
 * one state (IC_SM_TOO_FEW) and no fit (mu NULL). */
int ic_sm_fit(struct ic_sm *m, const struct ic_sm_obs *obs, size_t n, size_t nsites, size_t nproc);
void ic_sm_free(struct ic_sm *m);

/* Observation i's state: 0 or 1 past IC_SM_FIRM, -1 in neither; 0 with one state. */
int ic_sm_state(const struct ic_sm *m, size_t i);

/* Into draw[0..nproc-1], each process's posterior-weighted mean log ratio in state s at the j-th
 * N (every N when j is (size_t)-1), for those with two repetitions' weight there; how many. */
size_t ic_sm_draws(const struct ic_sm *m, int s, size_t j, double *draw);

/* State s's level (a ratio) there: the mean of those draws with its 95% t interval (lo = hi =
 * NAN with one draw); *nproc the draws. NAN when none. */
double ic_sm_level(const struct ic_sm *m, int s, size_t j, double *lo, double *hi, size_t *nproc);

/* Whether process p holds firm runs of IC_SM_MIN_RUN repetitions of both states (switched
 * inside); into share (unless NULL) its repetitions' shares firmly in each. */
int ic_sm_proc_switches(const struct ic_sm *m, size_t p, double share[2]);

const char *ic_sm_why_name(enum ic_sm_why why);

#endif /* IC_STATE_MODEL_H */
