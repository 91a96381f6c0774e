/* The output directory of compare and agree, written whole or not at all:
 * every file goes into a hidden stage directory beside it, which is renamed
 * into place once everything is written. Charts are drawn there by gnuplot.
 * Where writing fails, one line says so (as ic_prog), the stage is removed
 * and the program exits 1: there is nothing left to do. Then the pieces of
 * their tables that both write alike.
 */
#ifndef IC_OUT_DIR_H
#define IC_OUT_DIR_H

#include <stdio.h>

#include "series.h"

struct ic_out_dir {
	char *out;     /* where it goes; must not exist, or be an empty directory */
	char *stage;   /* OUT's parent/.PROG.XXXXXX while it is written */
};

/* 0 when out can be written (missing, or an empty directory); else one line
 * and 2, the status of bad usage. Nothing is made. */
int ic_out_dir_check(const char *out);

/* Makes out's parent (mkdir -p) and the stage. */
void ic_out_dir_begin(struct ic_out_dir *d, const char *out);

/* A new file NAME (may hold one directory: "plots/x.dat") in the stage. */
FILE *ic_out_dir_open(struct ic_out_dir *d, const char *name);

/* Closes the n files open. */
void ic_out_dir_close(struct ic_out_dir *d, FILE *const *f, size_t n);

/* plots/CHART.gp drawn into the stage's file OUT in the terminal TERM, from
 * the stage's folder DATA ("" for the stage itself). 0 drawn; 1 no
 * gnuplot; -1 it failed, with its last line in err (gnuplot_run.h: under a
 * UTF-8 locale, warnings on stderr). */
int ic_out_dir_gnuplot(struct ic_out_dir *d, const char *chart, const char *data, const char *term,
		       const char *out, char *err, size_t errlen);

/* Removes NAME from the stage (a chart that failed). */
void ic_out_dir_remove(struct ic_out_dir *d, const char *name);

/* Renames the stage into place. */
void ic_out_dir_finish(struct ic_out_dir *d);

/* s, then more, freeing s (which may be NULL). */
__attribute__((format(printf, 2, 3)))
char *ic_out_append(char *s, const char *fmt, ...);

/* A series' shape, "op/layout/order/threads/mode" (then "/filler:F"). */
char *ic_out_series_id(const struct ic_group *g);

/* g's finite ratio at N = n; NULL when g is NULL or has none. */
const struct ic_ratio *ic_out_ratio_at(const struct ic_group *g, unsigned long n);

/* x as fmt, else none (not measured). */
void ic_out_num(FILE *f, double x, const char *fmt, const char *none);

/* The same as a CSV field after its comma, empty when not measured. */
void ic_out_csv_num(FILE *f, double x, const char *fmt);

/* A ratio with its 95% interval, "0.9876 [0.9801–0.9952]", ? where there
 * is none. */
void ic_out_ratio(FILE *f, const struct ic_ratio *r);

/* qsort's comparison of unsigned longs, ascending. */
int ic_out_cmp_ulong(const void *pa, const void *pb);

#endif /* IC_OUT_DIR_H */
