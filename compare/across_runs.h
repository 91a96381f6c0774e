/* The work across runs behind ./run.sh compare, agree and export (history
 * lists in cmd/runs.c): one entry each for cmd/runs.c, which parses the options and opens the
 * runs (engine/run.h: a results directory or its .tar.gz export). Each
 * prints its own messages, as ic_prog. Then the output directory of
 * compare and agree (out_dir.c), and the pieces of their tables that both
 * write alike.
 */
#ifndef IC_ACROSS_RUNS_H
#define IC_ACROSS_RUNS_H

#include <stddef.h>
#include <stdio.h>

#include "run.h"

#define IC_RUNS_MAX 26   /* compare labels its runs A to Z */

/* The runs side by side into out (compare.md, compare.csv and the chart),
 * whole or not at all; out's path on stdout. 0; 1 no series and N in
 * every run, or out could not be written. */
int ic_compare_runs(struct ic_run *run, size_t k, const char *out);

/* How far the runs agree, margin the fraction by which they may differ:
 * the summary on stdout; with out (else NULL), the detail there (repeat.md,
 * repeat.csv, repeat.dat, repeat.png), whole or not at all. 0; 1 no series
 * in two of the runs, or out could not be written. */
int ic_agree_runs(struct ic_run *run, size_t k, double margin, const char *out);

/* dir packed into dir.tar.gz beside it, its path on stdout. 0; 2 dir is not
 * a results directory (nothing written); 1 the archive could not be
 * written. */
int ic_export_run(const char *dir);

/* An output directory, written whole or not at all: every file goes into
 * a hidden stage directory beside it, renamed into place once everything
 * is written. Where writing fails, one line says so (as ic_prog), the
 * stage is removed and the program exits 1. */
struct ic_out_dir {
	char *out;     /* where it goes; must not exist, or be an empty directory */
	char *stage;   /* OUT's parent/.PROG.XXXXXX while it is written */
	FILE *f[4];    /* the files open in it */
	size_t nf;
};

/* 0 when out can be written (missing, or an empty directory); else one line
 * and 2, the status of bad usage. Nothing is made. */
int ic_out_dir_check(const char *out);

/* Makes out's parent (mkdir -p) and the stage, and opens a new file
 * name[i] (may hold one directory: "plots/x.dat") there into *f[i], n <= 4. */
void ic_out_dir_begin(struct ic_out_dir *d, const char *out, const char *const *name, FILE **const *f,
		      size_t n);

/* Closes the files, draws plots/CHART.gp from the stage's folder DATA
 * ("" for the stage itself) into BASE.TERM for each of the nterm terminals,
 * removes DROP (NULL: nothing) and renames the stage into place. Returns
 * nterm; -1 no gnuplot; t < nterm when term[t] failed, with its last line
 * in err (gnuplot_run.h), and then no chart is left. */
int ic_out_dir_finish(struct ic_out_dir *d, const char *chart, const char *data, const char *base,
		      const char *const *term, int nterm, const char *drop, char *err, size_t errlen);

/* s, then more, freeing s (which may be NULL). */
__attribute__((format(printf, 2, 3)))
char *ic_out_append(char *s, const char *fmt, ...);

/* A series' shape, "op/layout/order/threads/mode" (then "/filler:F"). */
char *ic_out_series_id(const struct ic_group *g);

/* The form that wins at small N in an's crossover xo, else neither. */
const char *ic_out_winner(const struct ic_analysis *an, const struct ic_crossover *xo, const char *neither);

/* x as fmt, else none (not measured; a CSV field after its comma: ","). */
void ic_out_num(FILE *f, double x, const char *fmt, const char *none);

/* A ratio with its 95% interval, "0.9876 [0.9801–0.9952]", ? where there
 * is none. */
void ic_out_ratio(FILE *f, const struct ic_ratio *r);

#endif /* IC_ACROSS_RUNS_H */
