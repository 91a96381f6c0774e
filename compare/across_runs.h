/* ./run.sh compare, agree and export (history is cmd/runs.c's): an entry each
 * for cmd/runs.c, which parses the options and opens the runs (engine/run.h: a
 * results directory or its .tar.gz export). Each says its messages as ic_prog. */
#ifndef IC_ACROSS_RUNS_H
#define IC_ACROSS_RUNS_H

#include <stddef.h>

#include "agreement.h"   /* IC_RUNS_MAX */
#include "run.h"

/* The runs side by side into out (compare.md, compare.csv, the chart), whole or not at all; out's
 * path on stdout. 0; 1 no series and N in every run, or out could not be written. */
int ic_compare_runs(struct ic_run *run, size_t k, const char *out);

/* How far the runs agree (margin: the fraction they may differ by): the summary
 * on stdout; with out (else NULL) the detail there (repeat.md, .csv, .dat,
 * .png), whole or not at all. 0; 1 no series in two runs, or out unwritable. */
int ic_agree_runs(struct ic_run *run, size_t k, double margin, const char *out);

/* The one operand, a results directory DIR, packed into DIR.tar.gz beside it,
 * its path on stdout. 0; 2 not one operand or DIR is not a results directory
 * (nothing written); 1 the archive could not be written. */
int ic_export_run(char **operand, int n);

/* 0 when out, compare's or agree's output directory, can be written (missing,
 * or empty); else one line and 2, bad usage's status. Nothing is made. */
int ic_out_dir_check(const char *out);

#endif /* IC_ACROSS_RUNS_H */
