/* Time in a run: when each process ran (load.h reads it from the JSON;
 * older runs have the files' mtimes only), and a series' compare/baseline
 * ratio along that time at one N, the one where the states part most (the
 * states' model's, states.h): each repetition of the compared form paired
 * with the baseline repetition nearest in time (the model's observations),
 * each in its firm state or in neither, and each process's mean there. The
 * processes that switch inside are the states'.
 */
#ifndef IC_TIMELINE_H
#define IC_TIMELINE_H

#include <stddef.h>

#include "series.h"
#include "results.h"
#include "states.h"

struct ic_timeline_rep {
	size_t proc;               /* index among the processes (ic_process_ratios order) */
	int index;                 /* its repetition_index */
	double t;                  /* minutes from the run's start; NAN untimed */
	double ratio;
	int state;                 /* 0 low, 1 high, -1 in neither (or one level) */
};

struct ic_timeline_proc {
	unsigned unit;             /* its file */
	double start, end;         /* minutes from the run's start; start NAN in older runs */
	double ratio;
	int state;                 /* the states' (0 low, 1 high) */
	int switches;              /* repetitions in both states */
};

struct ic_timeline {
	double t0;                 /* the run's start, s since the epoch (NAN unknown) */
	size_t nproc;
	struct ic_timeline_proc *proc;
	size_t nreps;
	struct ic_timeline_rep *reps;   /* by process, then repetition index */
	int timed;                 /* the repetitions carry their start */
	size_t nlevels;            /* 2 when two levels were found, else 1 */
	double level[2];           /* the states' ratios, low and high (NAN with one) */
	unsigned long sites;       /* the N of every ratio here */
	size_t nswitching;         /* processes that switch */
	const char *moved;         /* with one state: "wanders" or "drifts" where the
	                            * processes' level moved (states.h), else NULL */
};

/* The timeline of a series (its process ratios pr and states st, whose
 * model holds the repetitions) in run res. NULL when memory runs out. */
struct ic_timeline *ic_timeline_analyse(const struct ic_results *res,
					const struct ic_process_ratios *pr,
					const struct ic_states *st);
void ic_timeline_free(struct ic_timeline *tl);

/* One short line, "In time: ..." (no newline), into buf. */
void ic_timeline_line(char *buf, size_t cap, const struct ic_timeline *tl);

#endif /* IC_TIMELINE_H */
