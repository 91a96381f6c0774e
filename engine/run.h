/* A finished run of the sweep as compare and agree read it: run.sh's results directory
 * or its .tar.gz export, its run.conf (data, never sourced) and its raw/NAME.json
 * analysed exactly as summarize does; nothing summarize wrote is read back. */
#ifndef IC_RUN_H
#define IC_RUN_H

#include "analysis.h"
#include "load.h"   /* and results.h */
#include "run_conf.h"

/* Which processes: all (both 0), a repeat's (...r<R>_v<V>_p<P>.json, plan/points.c's keys)
 * or a calibration trial's (t<T>_...). */
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
	char *verdict_json;            /* its verdict.json, quoted, never re-derived; NULL: older */
};

/* Opens the run at path (directory or .tar.gz), loads its processes in name order (as
 * summarize gets them), analyses them with run.conf's forms; bad input: -1, err, ic_run_free. */
int ic_run_open(struct ic_run *run, const char *path, char *err, size_t errlen);

/* The same with a selection (NULL: all) and analysis options (NULL: run.conf's forms,
 * else the defaults), as summarize --run reads it. */
int ic_run_open_select(struct ic_run *run, const char *path, const struct ic_run_select *sel,
		       const struct ic_analysis_opts *opts, char *err, size_t errlen);

/* A run.conf setting, "" when the run has none. */
const char *ic_run_conf(const struct ic_run *run, const char *key);

void ic_run_free(struct ic_run *run);

#endif /* IC_RUN_H */
