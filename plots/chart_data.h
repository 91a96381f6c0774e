/* The data the sweep's gnuplot scripts here draw from: time.dat, l1i.dat,
 * ratio.dat, process.dat, attribution.dat, timeline.dat and data.gp, the
 * variables they load (captions, panel layout and titles, verdicts,
 * crossover and cache marks, what each attribution panel plots). */
#ifndef IC_CHART_DATA_H
#define IC_CHART_DATA_H

#include <stdio.h>

#include "analysis.h"

/* The open streams of DIR/plots/, f[] in this order; returns 0, or -1 when a write failed. */
enum { IC_CHART_GP, IC_CHART_TIME, IC_CHART_L1I, IC_CHART_RATIO, IC_CHART_ATTR, IC_CHART_PROCESS,
       IC_CHART_TIMELINE, IC_CHART_COUNT };
int ic_chart_data_write(FILE *const f[IC_CHART_COUNT], const struct ic_analysis *an);

#endif /* IC_CHART_DATA_H */
