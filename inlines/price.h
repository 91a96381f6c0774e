/* Pricing a census row on a measured run: its copy count N placed on each
 * series of a results directory, analysed as summarize analyses it (the
 * engine's reader of runs, engine/run.h, with the run's compare/baseline).
 */
#ifndef IC_PRICE_H
#define IC_PRICE_H

#include <stddef.h>
#include <stdio.h>

#include "census.h"
#include "run.h"

struct ic_price_run {
	char dir[4096];
	char name[4200];                  /* dir, and the run it links to if it is a link */
	struct ic_run run;                /* run.conf and the processes, analysed */
	const char *compare, *baseline;   /* the forms its analysis compared */
};

/* Loads and analyses DIR (a run: run.conf, and a JSON per process in raw/).
 * Returns 0, or -1 with one line in err (not a run, unreadable, nothing to
 * price on); call ic_price_run_free either way. */
int ic_price_run_load(struct ic_price_run *run, const char *dir, char *err, size_t errlen);
void ic_price_run_free(struct ic_price_run *run);

/* One line naming the run: its directory, ratio, CPU and processes. */
void ic_price_run_line(FILE *f, const struct ic_price_run *run);

/* Where fn's N sits on every series of the run, and what its copies' size
 * says next to the measured site's. */
void ic_price_write(FILE *f, const struct ic_price_run *run, const struct ic_inline_fn *fn);

/* A series' verdict in a few words: "crossover bracket (4, 8): inline
 * ahead below it", "extern ahead wherever resolved", ... */
const char *ic_price_verdict(char *buf, size_t cap, const struct ic_price_run *run, const struct ic_group *g);

/* Whether compare/baseline are an inlined form over a called one, so that
 * lines can say "calls" and "inlined copies". */
int ic_price_classic(const struct ic_price_run *run);

#endif /* IC_PRICE_H */
