/* The data the gnuplot scripts here draw from: the sweep's time.dat, l1i.dat,
 * ratio.dat, process.dat, attribution.dat, timeline.dat and data.gp, the
 * variables they load (captions, panel layout and titles, verdicts,
 * crossover and cache marks, what each attribution panel plots); the watch's,
 * compare's and agree's. */
#ifndef IC_CHART_DATA_H
#define IC_CHART_DATA_H

#include <stdio.h>

#include "agreement.h"
#include "analysis.h"
#include "watch_analysis.h"

/* The open streams of DIR/plots/, f[] in this order; returns 0, or -1 when a write failed. */
enum { IC_CHART_GP, IC_CHART_TIME, IC_CHART_L1I, IC_CHART_RATIO, IC_CHART_ATTR, IC_CHART_PROCESS,
       IC_CHART_TIMELINE, IC_CHART_COUNT };
int ic_chart_data_write(FILE *const f[IC_CHART_COUNT], const struct ic_analysis *an);

/* The watch's (watch.gp draws it): dat, plots/watch.dat, a line per short process or
 * long-process window (its mid time, kind, state and ratio at each N), and gp, data.gp:
 * the panels, title, caption, the states' levels and where the long process begins. */
void ic_watch_data_write(FILE *dat, FILE *gp, const struct ic_watch *w);

/* compare.gp's, of the k runs' series s[0..ns) compared (each in every run; label[r] names run r,
 * nmin..nmax every N of the runs): gp, plots/data.gp (the panels, run labels and each run's
 * crossover bracket) and dat, plots/compare.dat (a block of N, ratio and its 95% interval per
 * series and run). */
void ic_compare_data_write(FILE *dat, FILE *gp, const struct ic_runs_series *s, size_t ns, size_t k,
			   const char *const *label, unsigned long nmin, unsigned long nmax);

/* agree.gp's, of the k runs' series s[0..ns): gp, data.gp (the number of runs, the series' names) and
 * dat, repeat.dat (a block per series: N, the runs' largest ratio over their smallest, the
 * series' number, each run's ratio). */
void ic_agree_data_write(FILE *dat, FILE *gp, const struct ic_runs_series *s, size_t ns, size_t k);

#endif /* IC_CHART_DATA_H */
