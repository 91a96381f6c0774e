/* A run's analysis: the points' statistics; per series its ratios and decision, processes'
 * states, attribution, ratio in time and across repeats. report/ reads it; this never calls it. */
#ifndef IC_ANALYSIS_H
#define IC_ANALYSIS_H

#include "attribution.h"   /* and series.h, results.h */
#include "decision.h"
#include "states.h"

/* A series' ratio in the run's time at the N where the states part most: each
 * repetition pair of the states' model (its firm state or neither), each process's mean. */
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
	const char *moved;         /* one state whose level moved: "wanders"/"drifts" (states.h); else NULL */
};

/* One short line, "In time: ..." (no newline), into buf. */
void ic_timeline_line(char *buf, size_t cap, const struct ic_timeline *tl);

/* inline/extern; a band over +-3% is noisy (cannot resolve the 2004 effect); 95% at all N. */
extern const struct ic_analysis_opts ic_analysis_defaults;

/* A series across the sweep's repeats (--repeat K, each its own layout seed): each
 * repeat's verdict, whether they agree, the SD of the log ratio between runs, a run's
 * processes and a process's repetitions, pooled over N; NAN for a level without freedom. */
struct ic_levels {
	double sd_run, sd_proc, sd_rep;
	size_t df_run, df_proc, df_rep;
};

struct ic_repeats {
	size_t nrepeats;           /* repeats with a ratio in this series */
	int *repeat;               /* their numbers, ascending */
	struct ic_crossover *xo;   /* each one's verdict from its processes only */
	int agree;                 /* 2+, and no N resolved to opposite sides by two */
	struct ic_levels lv;
};

struct ic_series {
	struct ic_group group;            /* its points, ratios and crossover */
	struct ic_process_ratios procs;   /* every process's ratio per N */
	struct ic_states *states;
	struct ic_attribution *attr;
	struct ic_attribution *attr_state[2];   /* with two states, each state's own */
	struct ic_timeline *timeline;     /* its ratio per process and repetition in time */
	struct ic_repeats *repeats;       /* across the sweep's repeats; the spread per level */
};

struct ic_analysis {
	const struct ic_results *res;
	struct ic_analysis_opts opts;
	struct ic_series *series;         /* in the points' series order */
	size_t nseries;
};

/* Analyses loaded res (its points sorted, their statistics set in place; an refers to
 * res): 0, or -1 with one line in err without a sites/ benchmark; free it either way. */
int ic_analyse(struct ic_analysis *an, struct ic_results *res, const struct ic_analysis_opts *opts,
	       char *err, size_t errlen);
void ic_analysis_free(struct ic_analysis *an);

/* The next N to measure in every crossover bracket (series.h), ascending, each once;
 * *out malloc'd (NULL, *n = 0 for none). */
int ic_analysis_refine_next(const struct ic_analysis *an, unsigned long **out, size_t *n);

/* Fewer independent draws at an N (layout variants, or processes with one variant) give
 * a t interval too wide to decide: with 4 draws (3 df) t is 3.2 against 2.0 for many. */
#define IC_ANALYSIS_MIN_DRAWS 5

/* 1 with the reason in why ("one layout variant of 3 processes") for a smoke test
 * (--quick), too small for a verdict: some N has fewer draws than IC_ANALYSIS_MIN_DRAWS
 * or processes than IC_STATES_MIN_PROC; else 0 with why empty. */
int ic_analysis_smoke(const struct ic_analysis *an, char *why, size_t cap);

#endif /* IC_ANALYSIS_H */
