/* summary.md: the recommendation per series in one sentence each, then the
 * evidence tables, the machine, the counter sources and how the numbers
 * were made, for a reader who will not open the CSV files.
 */
#ifndef IC_SUMMARY_H
#define IC_SUMMARY_H

#include <stdio.h>

#include "results.h"

/* Returns 0, or -1 when a write failed. */
int ic_summary_write(FILE *f, const struct ic_results *res);

#endif /* IC_SUMMARY_H */
