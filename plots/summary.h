/* summary.md: the answer first (answer.h: a line per series, the machine,
 * the build, the design), then per series its verdict in words and the
 * evidence tables, what the difference is made of, where the variance is,
 * the machine, the counter sources and the method, for a reader who will
 * not open the CSV files.
 */
#ifndef IC_SUMMARY_H
#define IC_SUMMARY_H

#include <stdio.h>

#include "results.h"

/* Returns 0, or -1 when a write failed. */
int ic_summary_write(FILE *f, const struct ic_results *res);

#endif /* IC_SUMMARY_H */
