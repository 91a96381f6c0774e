/* The watch's chart data (watch.gp draws it): plots/watch.dat, one line per
 * short process or long-process window (its mid time, kind, state and
 * ratio at each N), and data.gp: the panels, title, caption, the states'
 * levels and where the long process begins.
 */
#ifndef IC_WATCH_DATA_H
#define IC_WATCH_DATA_H

#include <stdio.h>

#include "watch_analysis.h"

/* Writes w's chart data to dat (watch.dat) and gp (data.gp). */
void ic_watch_data_write(FILE *dat, FILE *gp, const struct ic_watch *w);

#endif /* IC_WATCH_DATA_H */
