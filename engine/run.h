/* One finished run of the sweep, as compare and agree read it: a results
 * directory of run.sh, or its .tar.gz export (compare/export.c), read in
 * memory. What a run is: its run.conf (key=value lines, read as data, never
 * sourced) and its processes' raw Google Benchmark JSON (raw/NAME.json, one per
 * process), analysed by the engine exactly as summarize analyses them for
 * the run's own summary. Nothing summarize wrote (the CSV tables,
 * benchmark.json) is read back.
 */
#ifndef IC_RUN_H
#define IC_RUN_H

#include <stddef.h>

#include "analysis.h"
#include "load.h"
#include "results.h"
#include "run_conf.h"

/* Which of a run's processes to read: every one (both 0), one repeat's
 * (a process file named ...r<repeat>_v<V>_p<P>.json, plan/order.c's
 * keys) or one calibration trial's (t<trial>_...). */
struct ic_run_select {
	int repeat, trial;
};

struct ic_run {
	struct ic_run_select sel;      /* the processes read */
	char *name;                    /* the results directory's name */
	char *from;                    /* "directory" or "export NAME.tar.gz" */
	struct ic_settings conf;       /* run.conf */
	struct ic_results res;         /* the processes, loaded */
	struct ic_analysis an;         /* and analysed, series by series */
	char *verdict_json;            /* the run's own verdict.json as its summary
	                                * wrote it (quoted, never re-derived); NULL
	                                * when it has none (an older run) */
};

/* Opens the run at path (a directory or a .tar.gz), loads its processes in
 * name order (as summarize gets them) and analyses them with run.conf's
 * compare and baseline forms. On bad input returns -1 with one line in err
 * (no newline) naming the problem; run is then fit only for ic_run_free. */
int ic_run_open(struct ic_run *run, const char *path, char *err, size_t errlen);

/* The same with a selection of the processes (NULL: all) and the analysis
 * options (NULL: run.conf's compare and baseline, the defaults else), as
 * summarize --run reads a run for its report. */
int ic_run_open_select(struct ic_run *run, const char *path, const struct ic_run_select *sel,
		       const struct ic_analysis_opts *opts, char *err, size_t errlen);

/* A run.conf setting, "" when the run has none. */
const char *ic_run_conf(const struct ic_run *run, const char *key);

void ic_run_free(struct ic_run *run);

#endif /* IC_RUN_H */
