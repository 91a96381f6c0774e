/* The writers of summarize's outputs to an open stream from a run's analysis
 * (analysis.h), each 0 or -1 when a write failed; a value not measured is an
 * empty CSV cell or "—", never 0. Each file's head says which it writes. */
#ifndef IC_REPORT_H
#define IC_REPORT_H

#include <stdio.h>

#include "analysis.h"

/* Room for one series' verdict, two states' included. */
#define IC_VERDICT_MAX 4096
/* A 95% range wider than this factor each way gets no size printed: "too variable to size here". */
#define IC_VERDICT_SIZE_MAX 0.5
/* One series' verdict as sentences ending in '.': "Inline pays up to N = 4
 * (4-12% faster); from N = 8 extern calls are 1.3-1.7x faster; unresolved at N = 1 and 4096." */
const char *ic_verdict_series(char *buf, size_t cap, const struct ic_analysis *an,
			      const struct ic_series *se);
/* inline or hint against an extern form: said as "inline pays", "extern calls". */
int ic_verdict_classic(const struct ic_analysis *an);
/* A design too small for a verdict (ic_analysis_smoke): 1 with "smoke
 * test: too small a design for a verdict (WHY)" in buf, else 0 and "". */
int ic_verdict_smoke(char *buf, size_t cap, const struct ic_analysis *an);
/* verdict.txt, plain text for the console: the forms, the smoke mark,
 * then "- SERIES: VERDICT" per series. */
int ic_verdict_text_write(FILE *f, const struct ic_analysis *an);
/* verdict.json, the shape docs/verdict-json.md documents. */
int ic_verdict_json_write(FILE *f, const struct ic_analysis *an);
int ic_summary_write(FILE *f, const struct ic_analysis *an);

int ic_tables_points_write(FILE *f, const struct ic_analysis *an);
int ic_tables_ratios_write(FILE *f, const struct ic_analysis *an);
int ic_tables_crossover_write(FILE *f, const struct ic_analysis *an);
/* process_ratios.csv: every process's ratio at every N, its layout
 * variant, its rank in time (file mtime) and its state (states.h). */
int ic_tables_process_ratios_write(FILE *f, const struct ic_analysis *an);
/* calibration.csv, only with --planted. */
int ic_tables_calibration_write(FILE *f, const struct ic_analysis *an);
/* refine_next.txt: the N that would narrow the crossover brackets, one a
 * line (analysis.h); empty when there is nothing left to narrow. */
int ic_tables_refine_next_write(FILE *f, const struct ic_analysis *an);

#endif /* IC_REPORT_H */
