/* History: results/ knows its runs. A run is a results directory with a run.conf (run.h),
 * timed by its directory's UTC timestamp name, else its run.conf's mtime. Two runs are
 * comparable on the same machine (the first process's CPU model (cpuid brand), L1i size,
 * ways and line, L2 and L3 sizes, host name) and build (run.conf's identity: run_history.c's
 * history_build_keys, the sources' hash, compiler, flags, forms, ...). A run is held against
 * the latest earlier comparable run that is not a smoke design (analysis.h), series by
 * series on their shared N, with agreement.h's statistics over all processes:
 *   agrees       every shared series is equivalent at every shared N
 *                (TOST at IC_AGREE_MARGIN, intersection-union)
 *   differs      some series' joint test (max |t| by permutation) rejects
 *                under Holm's step-down over the series at IC_AGREE_ALPHA
 *   cannot tell  neither */
#ifndef IC_RUN_HISTORY_H
#define IC_RUN_HISTORY_H

#include <stddef.h>

#include "analysis.h"
#include "results.h"
#include "run.h"

struct ic_history_run {
	char *dir;       /* its path */
	char *name;      /* the directory's name */
	double time;     /* s since the epoch, UTC */
};

/* results_dir's runs (directories with a run.conf), newest first: 0; -1, err if unreadable. */
int ic_history_runs(const char *results_dir, struct ic_history_run **out, size_t *n, char *err,
		    size_t errlen);
void ic_history_runs_free(struct ic_history_run *r, size_t n);

/* t, s since the epoch (as ic_history_runs finds), as "2026-12-05 14:00 UTC". */
const char *ic_history_when(char *buf, size_t cap, double t);

/* The machine of a run's first process ("CPU; L1i ...; host ..."). */
const char *ic_history_machine(const struct ic_results *res, char *buf, size_t cap);

/* A series' answer: "crossover (4, 8)", "extern ahead", "nothing resolved", "sides conflict". */
const char *ic_history_bracket(char *buf, size_t cap, const struct ic_crossover *xo,
			       const struct ic_analysis_opts *opts);

/* A series' states in a few words: "" with one, else "1.00 in 3 of 16, 1.44 in 13". */
const char *ic_history_states(char *buf, size_t cap, const struct ic_series *se);

/* Holm's step-down over ascending joint p[0..m-1] at IC_AGREE_ALPHA: how many first differ. */
size_t ic_history_ndiffer(const double *p, size_t m);

/* The run to hold now (analysed, in now_dir) against: the latest earlier
 * comparable run in now_dir's parent, opened into *then (ic_run_free it),
 * its directory (as found) in dir, its time in *t. 0; -1 (nothing open) for none. */
int ic_history_earlier(const struct ic_analysis *now, const char *now_dir, struct ic_run *then,
		       char *dir, size_t cap, double *t);

/* A series of the run held against the earlier run's. */
struct ic_history_series {
	const struct ic_series *now, *then;
	double p;          /* the joint test's */
	int equivalent;    /* at every shared N */
};

/* now's series held against then's, by p ascending, into *out (free it):
 * how many; the first *ndiffer differ (ic_history_ndiffer). */
size_t ic_history_against(const struct ic_analysis *now, const struct ic_analysis *then,
			  struct ic_history_series **out, size_t *ndiffer);

#endif /* IC_RUN_HISTORY_H */
