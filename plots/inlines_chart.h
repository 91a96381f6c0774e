/* The chart of priced copies: each series' measured ratio against N, with
 * its interval, band and crossover bracket, and a line at each function's N
 * (plots/inlines.gp draws it with gnuplot, PNG and SVG).
 */
#ifndef IC_INLINES_CHART_H
#define IC_INLINES_CHART_H

#include <stddef.h>

#include "census.h"

/* png must end in ".png"; the SVG goes beside it. Returns 0, or -1 with one
 * line in err naming what is wrong with the path (bad input). */
int ic_chart_check(const char *png, const char *results_dir, char *err, size_t errlen);

/* Writes png and its SVG, each renamed into place once whole: binary's
 * functions fns marked on run's curves. Returns 0, or -1 with one line in
 * err (gnuplot missing or failed; nothing is left). */
int ic_chart_draw(const char *png, const char *binary, const struct ic_price_run *run,
		  const struct ic_inline_fn *const *fns, size_t nfns, char *err, size_t errlen);

#endif /* IC_INLINES_CHART_H */
