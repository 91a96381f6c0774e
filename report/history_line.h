/* summary.md's one line on the run's history (engine/run_history.h). */
#ifndef IC_HISTORY_LINE_H
#define IC_HISTORY_LINE_H

#include <stdio.h>

#include "analysis.h"

/* "Agrees with the run of ...", "Differs from the run of ...", or why it
 * cannot tell; nothing when the run's processes are not in DIR/raw/ beside
 * a DIR/run.conf, or for a calibration trial. */
void ic_history_line(FILE *f, const struct ic_analysis *an);

#endif /* IC_HISTORY_LINE_H */
