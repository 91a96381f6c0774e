/* watch: can this machine give one answer? A fixed sentinel (inline and
 * extern at two N of one series) measured as many short processes and one
 * long process. The states come from the engine's model of states in time
 * (state_model.h, through states.h): every repetition, paired with the
 * baseline repetition nearest in time, one two-state Markov chain over the
 * whole watch. From it, per state:
 *
 *   level    at each N, with a 95% t interval whose draws are the
 *            processes (the long process is one draw, not one per window)
 *   share    of the time, with its interval from the switches counted
 *   spell    the mean spell, 1 / the rate of leaving the state, with
 *            Garwood's interval; spells cut by the watch's start or end add
 *            time and no switch (censored)
 *   forms    each form's time (inline, extern and the attribution's
 *            controls, where the processes ran them) per state and N: a
 *            repetition takes the state of the sentinel's repetition of its
 *            process nearest in time; each process's mean in a state is one
 *            draw; the change from state 1 to 2 with a Welch interval
 *   probes   the same for each probe the processes ran (bench/probes.h:
 *            the clock, locked adds after a store, calls, code past the
 *            L1i)
 *   where    states switch inside a process (firm runs of both states in
 *            one process: the machine changes over time), or only between
 *            processes, or one state throughout
 *
 * The long process is also cut into windows of about a short process's
 * length for the chart (each window's ratio and its repetitions' state);
 * the windows are drawn, not counted as draws for a state's level.
 *
 * Before the states: is the machine steady? (steadiness.h.) The units are
 * the short processes and the long process's windows; at each N a unit's
 * mean log ratio of its paired repetitions is one draw, with a standard
 * error from its repetitions (their variance pooled over the units at that
 * N: a unit of three repetitions has two degrees of freedom of its own,
 * which would give Q a heavy tail), honest where the noise follows itself
 * in time: its AR(1) correlation, read where the machine's movement
 * cancels (the two N's ratios side by side in each process), raises each
 * unit's error and ties the long process's windows to their neighbours
 * (noise that outlasts a window still averages out over the watch; the
 * margin is about the level). One answer only where the Q-profile's
 * upper bound on the units' SD puts 90% of moments within +-5% of the mean
 * at every N. Otherwise the units' 10th-90th percentiles are the spread in
 * time, and where two states do not describe it, the variation is named:
 * it drifts where a straight line in time takes away at least half of the
 * units' variance beyond noise (IC_WATCH_DRIFT_SHARE), else it wanders.
 * Two states describe it only where their levels are clean: the units
 * firmly in one state vary little beside the gap between the levels (a
 * wander, fitted with two states, still wanders inside each).
 *
 * Then what moves with the ratio (elasticities), where it drifts or
 * wanders: over the same units in time order, each form's (at each N) and
 * each probe's mean log time on the sentinel's log ratio at the N where
 * the units vary most; the slope with its 95% interval (Newey-West: the
 * units' residuals may be correlated with their neighbours') and R^2. The
 * change it implies over the ratio's 10th-90th percentile range names it:
 * with the ratio, against it, unchanged (the interval inside +-5%), or
 * cannot tell. inline and extern are the ratio's own parts, so their noise
 * alone gives each a slope of about +-1/2 on a steady machine; read them
 * where the units' variation is well above their noise, as it is where the
 * machine is not steady. With two states the per-state change stands.
 */
#ifndef IC_WATCH_ANALYSIS_H
#define IC_WATCH_ANALYSIS_H

#include <stddef.h>

#include "analysis.h"
#include "results.h"
#include "steadiness.h"

#define IC_WATCH_WINDOW_S 1.5      /* a window about as long as a short process */
#define IC_WATCH_NSITES 2          /* the sentinel's N */
#define IC_WATCH_DRIFT_SHARE 0.5   /* "drifts": a line in time takes away this much of tau^2 */
#define IC_WATCH_STATES_SEP 4.0    /* two clean levels: this many SDs of the units' variation
                                    * inside a state apart (as state_model.h's separation) */

/* The forms the watch reads per state (what is measured of them): the
 * sentinel's pair, and the attribution's controls where they ran. */
#include "watch_forms.def"
#define IC_WATCH_FORM_NAME(f) #f,
#define IC_WATCH_FORMS { IC_WATCH_FORM_LIST(IC_WATCH_FORM_NAME) }
#define IC_WATCH_FORM_ENUM(f) IC_WATCH_FORM_##f,
enum { IC_WATCH_FORM_LIST(IC_WATCH_FORM_ENUM) IC_WATCH_NFORMS };
#define IC_WATCH_SAME 0.05         /* a change within +-5% whose interval holds 1: no change */

/* What a form's time does between the states, at one N. */
enum ic_watch_change {
	IC_CHANGE_NONE,            /* not measured in both states */
	IC_CHANGE_SAME,            /* its interval holds 1 and lies within +-IC_WATCH_SAME */
	IC_CHANGE_SLOWER,          /* state 2 over state 1 above 1, the interval excluding 1 */
	IC_CHANGE_FASTER,
	IC_CHANGE_UNSURE,          /* the interval holds 1 but is wider than +-IC_WATCH_SAME */
};

/* A time per state (ns; the mean of each process's log mean there, with a
 * 95% t interval over processes) and its change from state 1 to 2. */
struct ic_watch_level {
	double ns[2], lo[2], hi[2];
	size_t nproc[2];
	double change, change_lo, change_hi;
	enum ic_watch_change verdict;
};

/* What a form's or probe's time does as the sentinel's ratio varies. */
enum ic_watch_moves {
	IC_MOVES_NOT_READ,         /* no drift or wander to read, or too few units */
	IC_MOVES_UNCHANGED,        /* the change over the ratio's range inside +-IC_WATCH_SAME */
	IC_MOVES_WITH,             /* slope above 0, the interval excluding 0 */
	IC_MOVES_AGAINST,
	IC_MOVES_UNSURE,           /* the interval holds 0 and reaches past +-IC_WATCH_SAME */
};

/* Its log time on the sentinel's log ratio over the units, and the change
 * that implies from the ratio's 10th to its 90th percentile. */
struct ic_watch_elastic {
	struct ic_slope fit;
	double change, change_lo, change_hi;
	enum ic_watch_moves verdict;
};

/* One form's level at each N. */
struct ic_watch_form {
	const char *form;
	int measured;
	struct ic_watch_level at[IC_WATCH_NSITES];
	struct ic_watch_elastic el[IC_WATCH_NSITES];
};

/* One probe's level (bench/probes.h: the machine in its own terms, ns per
 * iteration); its name and what one iteration is are the results'. */
struct ic_watch_probe {
	const char *name, *what;
	struct ic_watch_level level;
	struct ic_watch_elastic el;
};

enum ic_watch_where {
	IC_WATCH_TOO_FEW,          /* fewer samples than the states rule needs */
	IC_WATCH_ONE_STATE,
	IC_WATCH_BETWEEN,          /* two states, the long process in one */
	IC_WATCH_INSIDE,           /* the long process switches */
	IC_WATCH_BRIEF,            /* a second level in brief spells too short to read as a
	                            * state (states.h): neither one state nor two */
	IC_WATCH_DRIFTS,           /* not steady, no two states; a line in time explains most */
	IC_WATCH_WANDERS,          /* not steady, no two states, no such line */
	IC_WATCH_UNBOUNDED,        /* no variation shown beyond noise, none ruled out */
};

struct ic_watch_sample {
	size_t file;               /* index in res.files */
	int in_long;               /* a window of the long process */
	double start, end;         /* wall clock, s since the epoch */
	double ratio[IC_WATCH_NSITES];   /* compare/baseline at each N; NAN if missing */
	int state;                 /* 0 low, 1 high, -1 neither firmly (states.h) */
	/* As a unit of the steadiness test: the mean log ratio of its paired
	 * repetitions per N, how many, their standard error, and the first
	 * one's place among its process's at that N (the noise it shares with
	 * the process's other units). */
	double ly[IC_WATCH_NSITES], se[IC_WATCH_NSITES];
	size_t nrep[IC_WATCH_NSITES], rank[IC_WATCH_NSITES];
};

/* The steadiness of the sentinel at one N over the units. */
struct ic_watch_steady {
	struct ic_steady h;
	double p10, p90;           /* the units' ratios, 10th and 90th percentiles */
	double trend_share;        /* of tau^2, taken away by a line in time */
	double noise_sd;           /* one repetition's log ratio, pooled within units (its
	                            * own variance, with noise_rho's share the units hide) */
	double within_sd;          /* the same about each unit's own mean, as if independent */
};

struct ic_watch_state {
	double ratio[IC_WATCH_NSITES];   /* its level at each N ... */
	double lo[IC_WATCH_NSITES], hi[IC_WATCH_NSITES];   /* ... its 95% interval */
	size_t nproc[IC_WATCH_NSITES];   /* ... and the processes behind it */
	size_t procs;              /* short processes of it (most of their time in it) */
	double share, share_lo, share_hi;   /* of the watch's time, 95% interval */
	double spell_s, spell_lo, spell_hi; /* mean spell, s, 95% interval */
	double switches;           /* expected switches out of it */
};

struct ic_watch {
	struct ic_results res;
	struct ic_analysis an;
	int analysed;
	struct ic_watch_sample *samples;   /* short ones in load order, then windows */
	size_t nsamples, nshort, nwindows;
	size_t *order;             /* the samples in time order (by start) */
	size_t long_file;          /* the long process's index in res.files */
	int have_long;
	double t0, t1;             /* the first start and the last end */
	double window_s;           /* the chart's windows of the long process */
	unsigned long sites[IC_WATCH_NSITES];
	size_t nsites;
	const char *series;        /* "tail_dequeue chain/seq, 1 thread, private" */
	char series_buf[256];
	size_t nstates;
	const char *why;           /* with one state: why not two (states.h) */
	double separation;         /* the levels' distance in scales of the t noise at the N they part most */
	size_t part;               /* the N where the states' ratios part most: the report reads them there */
	struct ic_watch_state st[2];
	struct ic_watch_form forms[IC_WATCH_NFORMS];   /* per state, with two */
	struct ic_watch_probe *probes;   /* per state, with two: each probe the processes ran */
	size_t nprobes;
	size_t switching;          /* processes with firm runs of both states */
	int long_switches;         /* the long process is one of them */
	struct ic_watch_steady steady[IC_WATCH_NSITES];
	double noise_rho;          /* neighbouring repetitions' noise correlation (steadiness.h) */
	int steady_all;            /* one answer: steady at every N */
	double state_tau;          /* with two states: the units' SD beyond noise inside a state */
	int states_fit;            /* the two levels are IC_WATCH_STATES_SEP such SDs apart */
	char why_buf[160];
	size_t ref;                /* the N whose units vary most: the elasticities' ratio */
	enum ic_watch_where where;
};

void ic_watch_init(struct ic_watch *w);
void ic_watch_free(struct ic_watch *w);

/* Adds one short process's Google Benchmark JSON. On bad input returns -1
 * with one line in err. */
int ic_watch_add_short(struct ic_watch *w, const char *path, char *err, size_t errlen);

/* Adds the long process, one process for the analysis; for the chart it
 * is cut into windows of at least window_s seconds (a shorter tail joins
 * the last window). Its repetitions need the rep_start_s counter. */
int ic_watch_add_long(struct ic_watch *w, const char *path, double window_s, char *err,
		      size_t errlen);

/* The analysis of what was added. -1 with err when no series has both
 * forms or memory runs out. */
int ic_watch_analyse(struct ic_watch *w, char *err, size_t errlen);

/* "one state", "between processes", "inside a process", "drifts", "wanders",
 * "too few samples", ... */
const char *ic_watch_where_name(enum ic_watch_where w);

#endif /* IC_WATCH_ANALYSIS_H */
