/* agree's report: the console summary and, with --out, repeat.md,
 * repeat.csv and the chart (cmd/agree.c matches the runs). */
#ifndef IC_AGREE_REPORT_H
#define IC_AGREE_REPORT_H

#include <stddef.h>

#include "agreement.h"
#include "analysis.h"
#include "run.h"

#define AGR_MAX_RUNS 26

struct agr_series {
	char *name, *pair;
	const struct ic_group *g[AGR_MAX_RUNS];
	const struct ic_series *se[AGR_MAX_RUNS];   /* its analysis: states, processes */
};

/* One comparison: a pair of runs on a series, all processes or one
 * state matched by level. */
struct agr_cmp {
	size_t a, b, s;
	int state_a, state_b;      /* -1: all processes */
	const char *state;         /* "all", "low", "high" */
	struct ic_agree ag;
	int differ;                /* its joint test resolved by Holm's step-down over
	                            * every comparison of the report (agr_report) */
};

struct agr {
	struct ic_run run[AGR_MAX_RUNS];
	size_t k;
	double margin;
	struct agr_series *s;
	size_t ns;
	struct agr_cmp *c;
	size_t nc;
};

/* Prints the summary; with out, writes the detail there. 0, or 1 when
 * the output could not be written. */
int agr_report(struct agr *x, const char *out);

#endif /* IC_AGREE_REPORT_H */
