/* watch: can this machine give one answer? A sentinel (inline and extern at two N of one series)
 * measured as short processes and one long process, cut into windows of about a short process's
 * length: the units. First the units' steadiness (steadiness.h); then the engine's two states
 * (states.h), which describe the watch only where their levels are clean; else the variation named
 * (drifts or wanders) and what moves with the ratio. Why each: docs/method.md, docs/watch-json.md. */
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

#include "watch_forms.def"   /* the forms read per state */
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

/* A time per state (ns; the mean of each process's log mean there, with a 95% t interval over
 * processes) and its change from state 1 to 2. */
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

/* Its log time on the sentinel's log ratio over the units, and the change that implies from the
 * ratio's 10th to its 90th percentile. */
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

/* One probe's level (bench/sites_cases.c: the machine in its own terms, ns per iteration); its name
 * and what one iteration is are the results'. */
struct ic_watch_probe {
	const char *name, *what;
	struct ic_watch_level level;
	struct ic_watch_elastic el;
};

/* Where the watch's variation lies, and its name (ic_watch_where_name). */
#define IC_WATCH_WHERES(X) \
	X(IC_WATCH_TOO_FEW, "too few samples")     /* fewer than the states rule needs */ \
	X(IC_WATCH_ONE_STATE, "one state") \
	X(IC_WATCH_BETWEEN, "between processes")   /* two states, the long process in one */ \
	X(IC_WATCH_INSIDE, "inside a process")     /* the long process switches */ \
	/* a second level in spells too short to read as a state (states.h): neither one state nor two */ \
	X(IC_WATCH_BRIEF, "brief spells of a second level") \
	X(IC_WATCH_DRIFTS, "drifts")   /* not steady, no two states; a line in time explains most */ \
	X(IC_WATCH_WANDERS, "wanders") /* not steady, no two states, no such line */ \
	X(IC_WATCH_UNBOUNDED, "not bounded")   /* no variation shown beyond noise, none ruled out */
#define IC_WATCH_WHERE_ENUM(e, name) e,
enum ic_watch_where { IC_WATCH_WHERES(IC_WATCH_WHERE_ENUM) };

struct ic_watch_sample {
	size_t file;               /* index in res.files */
	int in_long;               /* a window of the long process */
	double start, end;         /* wall clock, s since the epoch */
	double ratio[IC_WATCH_NSITES];   /* compare/baseline at each N; NAN if missing */
	int state;                 /* 0 low, 1 high, -1 neither firmly (states.h) */
	/* As a unit per N: its paired repetitions' mean log ratio, count, standard error, and the
	 * first one's rank in its process (for the shared noise). */
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
	const struct ic_state *of; /* the states' own: share of the time, mean spell (s) */
	double switches;           /* expected switches out of it */
};

struct ic_watch {
	struct ic_results res;
	struct ic_analysis an;
	struct ic_watch_sample *samples;   /* short ones in load order, then windows */
	size_t nsamples, nshort, nwindows;
	size_t *order;             /* the samples in time order (by start) */
	size_t long_file;          /* the long process's index in res.files */
	int have_long;
	double t0, t1;             /* the first start and the last end */
	double window_s;           /* the chart's windows of the long process */
	unsigned long sites[IC_WATCH_NSITES];
	size_t nsites;
	char series[256];          /* "tail_dequeue chain/seq, 1 thread, private" */
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
	int states_fit;            /* the levels are IC_WATCH_STATES_SEP inside-state SDs apart */
	char why_buf[160];
	size_t ref;                /* the N whose units vary most: the elasticities' ratio */
	enum ic_watch_where where;
};

void ic_watch_init(struct ic_watch *w);
void ic_watch_free(struct ic_watch *w);

/* Adds one short process's Google Benchmark JSON. On bad input returns -1 with one line in err. */
int ic_watch_add_short(struct ic_watch *w, const char *path, char *err, size_t errlen);

/* Adds the long process, one process for the analysis, for the chart cut into windows of at least
 * window_s seconds (a shorter tail joins the last). Its repetitions need the rep_start_s counter. */
int ic_watch_add_long(struct ic_watch *w, const char *path, double window_s, char *err, size_t errlen);

/* The analysis of what was added. -1 with err when no series has both forms; out of memory exits (kit). */
int ic_watch_analyse(struct ic_watch *w, char *err, size_t errlen);

/* w's name in IC_WATCH_WHERES: "one state", "drifts", ... */
const char *ic_watch_where_name(enum ic_watch_where w);

#endif /* IC_WATCH_ANALYSIS_H */
