/* The CSV tables summarize writes, each to an open stream: points.csv,
 * ratios.csv, crossover.csv and, with --planted, calibration.csv. Cells
 * that were not measured are empty, never 0. Every table ends with the
 * build's columns compiler,cflags,body,lock,lto (empty where the context
 * lacks them: older runs). All return 0, or -1 when a write failed.
 */
#ifndef IC_TABLES_H
#define IC_TABLES_H

#include <stdio.h>

#include "results.h"
#include "states.h"

int ic_tables_points_write(FILE *f, const struct ic_results *res);
int ic_tables_ratios_write(FILE *f, const struct ic_results *res);
int ic_tables_crossover_write(FILE *f, const struct ic_results *res);
/* process_ratios.csv: every process's ratio at every N, its layout
 * variant, its rank in time (file mtime) and its state (states.h). */
int ic_tables_process_ratios_write(FILE *f, const struct ic_results *res);
/* Only with --planted. */
int ic_tables_calibration_write(FILE *f, const struct ic_results *res);

#endif /* IC_TABLES_H */
