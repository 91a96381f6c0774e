/* watch: can this machine give one answer? A fixed sentinel (inline and
 * extern at two N of one series) measured as many short processes and
 * one long process; each short process is one sample, and the long
 * process is cut in time into windows of about a short process's length
 * (each with three or more repetitions of every benchmark), each window one
 * sample. The engine's states rule (states.h) runs on the
 * per-sample ratios of all of them together, so short processes and
 * windows share one set of levels. Then:
 *
 *   share of processes  short processes per state, with the 95%
 *                       Clopper-Pearson interval (exact binomial)
 *   share of time       the long process's time per state; its interval is
 *                       Clopper-Pearson over windows, which are not
 *                       independent (a spell spans many), so it is narrower
 *                       than the truth and said so
 *   spells              maximal runs of one state in time order, in each
 *                       timeline (the short processes, the windows), from
 *                       the first sample's start to the next spell's; the
 *                       first and last of a timeline are cut by the watch
 *                       (censored), the median is over whole spells when
 *                       there are any
 *   where               states switch inside the long process (the machine
 *                       changes over time), or only between processes
 *                       (something drawn when a process starts), or one
 *                       state throughout
 */
#ifndef IC_WATCH_H
#define IC_WATCH_H

#include <stddef.h>

#include "analysis.h"
#include "results.h"

#define IC_WATCH_WINDOW_S 1.5      /* a window about as long as a short process */
#define IC_WATCH_MIN_REPS 3      /* a median needs three repetitions */
#define IC_WATCH_NSITES 2          /* the sentinel's N */

enum ic_watch_where {
	IC_WATCH_TOO_FEW,          /* fewer samples than the states rule needs */
	IC_WATCH_ONE_STATE,
	IC_WATCH_BETWEEN,          /* two states, the long process in one */
	IC_WATCH_INSIDE,           /* the long process switches */
};

struct ic_watch_sample {
	size_t file;               /* index in res.files */
	int in_long;               /* a window of the long process */
	double start, end;         /* wall clock, s since the epoch */
	double ratio[IC_WATCH_NSITES];   /* compare/baseline at each N; NAN if missing */
	int state;                 /* 0 low, 1 high (states.h) */
};

struct ic_watch_share {
	size_t k, n;
	double share, lo, hi;      /* k / n and its 95% Clopper-Pearson interval */
};

struct ic_watch_state {
	double level, lo, hi;      /* the engine's state level over samples and N */
	double ratio[IC_WATCH_NSITES];   /* geometric mean over its samples per N */
	struct ic_watch_share procs;     /* of the short processes */
	struct ic_watch_share windows;   /* of the long process's windows */
	double time_s;             /* the long process's time in it */
	double time_share;         /* of the long process's time */
	size_t spells, censored;   /* spells in it, and those cut by the watch */
	double spell_median_s;     /* over whole spells; over all when none is whole */
	int spell_at_least;        /* the median is of censored spells only */
};

struct ic_watch {
	struct ic_results res;
	struct ic_analysis an;
	int analysed;
	struct ic_watch_sample *samples;   /* in load order: short ones, then windows */
	size_t nsamples, nshort, nwindows;
	double t0, t1;             /* the first start and the last end */
	unsigned long sites[IC_WATCH_NSITES];
	size_t nsites;
	const char *series;        /* "tail_dequeue chain/seq, 1 thread, private" */
	char series_buf[256];
	size_t nstates;
	struct ic_watch_state st[2];
	size_t long_switches;      /* state changes between consecutive windows */
	size_t short_switches;     /* and between consecutive short processes */
	enum ic_watch_where where;
};

void ic_watch_init(struct ic_watch *w);
void ic_watch_free(struct ic_watch *w);

/* Adds one short process's Google Benchmark JSON. On bad input returns -1
 * with one line in err. */
int ic_watch_add_short(struct ic_watch *w, const char *path, char *err, size_t errlen);

/* Adds the long process, cut in time into windows of at least window_s
 * seconds and IC_WATCH_MIN_REPS repetitions of each benchmark (a shorter
 * tail joins the last window). Its repetitions need the rep_start_s
 * counter. */
int ic_watch_add_long(struct ic_watch *w, const char *path, double window_s, char *err,
		      size_t errlen);

/* The analysis of what was added. -1 with err when no series has both
 * forms or memory runs out. */
int ic_watch_analyse(struct ic_watch *w, char *err, size_t errlen);

/* The 95% (1 - alpha) Clopper-Pearson interval of k successes in n. */
void ic_watch_clopper_pearson(size_t k, size_t n, double alpha, double *lo, double *hi);

/* "one state", "between processes", "inside a process", "too few samples" */
const char *ic_watch_where_name(enum ic_watch_where w);

#endif /* IC_WATCH_H */
