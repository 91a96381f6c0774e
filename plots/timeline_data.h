/* The timeline chart's data (timeline.gp draws it): plots/timeline.dat,
 * two blocks per series (its processes, then its repetitions, against
 * minutes from the run's start), and its lines of data.gp.
 */
#ifndef IC_TIMELINE_DATA_H
#define IC_TIMELINE_DATA_H

#include <stdio.h>

#include "analysis.h"

/* Appends to gp (data.gp, after ic_chart_data_write) and writes dat.
 * Returns 0, or -1 when a write failed. */
int ic_timeline_data_write(FILE *gp, FILE *dat, const struct ic_analysis *an);

#endif /* IC_TIMELINE_DATA_H */
