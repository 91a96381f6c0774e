/* The writers of summarize's outputs, each to an open stream, from a run's
 * analysis (analysis.h); every one returns 0, or -1 when a write failed. A
 * value not measured is an empty CSV cell or "—", never 0.
 *
 *   answer.c            summary.md's first screen: one line per series
 *   summary.c           the rest of summary.md
 *   attribution_text.c  its "What the difference is made of", per series
 *   tables.c            the CSV tables; every one ends with the build's
 *                       columns (enum ic_build_key order)
 */
#ifndef IC_REPORT_H
#define IC_REPORT_H

#include <stdio.h>

#include "analysis.h"

void ic_answer_write(FILE *f, const struct ic_analysis *an);
int ic_summary_write(FILE *f, const struct ic_analysis *an);
void ic_attribution_write(FILE *f, const struct ic_analysis *an, const struct ic_series *se);

int ic_tables_points_write(FILE *f, const struct ic_analysis *an);
int ic_tables_ratios_write(FILE *f, const struct ic_analysis *an);
int ic_tables_crossover_write(FILE *f, const struct ic_analysis *an);
/* process_ratios.csv: every process's ratio at every N, its layout
 * variant, its rank in time (file mtime) and its state (states.h). */
int ic_tables_process_ratios_write(FILE *f, const struct ic_analysis *an);
/* calibration.csv, only with --planted. */
int ic_tables_calibration_write(FILE *f, const struct ic_analysis *an);
/* refine_next.txt: the N that would narrow the crossover brackets, one a
 * line (analysis.h); empty when there is nothing left to narrow. */
int ic_tables_refine_next_write(FILE *f, const struct ic_analysis *an);

#endif /* IC_REPORT_H */
