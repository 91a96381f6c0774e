/* The watch's chart data (watch.gp draws it): dat, plots/watch.dat, a line
 * per short process or long-process window (its mid time, kind, state and
 * ratio at each N), and gp, data.gp: the panels, title, caption, the states'
 * levels and where the long process begins. */
#ifndef IC_WATCH_DATA_H
#define IC_WATCH_DATA_H

#include <stdio.h>

#include "watch_analysis.h"

void ic_watch_data_write(FILE *dat, FILE *gp, const struct ic_watch *w);

#endif /* IC_WATCH_DATA_H */
