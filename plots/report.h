/* What summarize writes, each to an open stream: the CSV tables, summary.md
 * and the data the gnuplot scripts in plots/ read. All return 0, or -1
 * when a write failed.
 */
#ifndef IC_REPORT_H
#define IC_REPORT_H

#include <stdio.h>

#include "results.h"

int ic_report_points_csv(FILE *f, const struct ic_results *res);
int ic_report_ratios_csv(FILE *f, const struct ic_results *res);
int ic_report_crossover_csv(FILE *f, const struct ic_results *res);
/* Only with --planted. */
int ic_report_calibration_csv(FILE *f, const struct ic_results *res);
int ic_report_summary_md(FILE *f, const struct ic_results *res);

/* The streams of plots/: data.gp (variables), time.dat, l1i.dat,
 * footprint.dat, ratio.dat. */
struct ic_plot_files {
	FILE *gp, *time, *l1i, *foot, *ratio;
};
int ic_report_plot_data(const struct ic_plot_files *pf, const struct ic_results *res);

#endif /* IC_REPORT_H */
