/* A series across the sweep's repeats (--repeat K, each a whole run with
 * its own layout seed; results.h takes the repeat from each file): each
 * repeat's own verdict from its processes alone, whether they hold
 * together, and the spread of the compare/baseline log ratio at each level
 * of the design: between runs, between the processes of one run (layout
 * variants included), between the repetitions of one process.
 */
#ifndef IC_REPEATS_H
#define IC_REPEATS_H

#include <stddef.h>

#include "series.h"
#include "results.h"

/* The spread at each level: the SD of the log ratio, pooled over the
 * series' N (sums of squares over degrees of freedom); NAN where the level
 * has no degree of freedom (one run, one process per run, one repetition). */
struct ic_levels {
	double sd_run, sd_proc, sd_rep;
	size_t df_run, df_proc, df_rep;
};

struct ic_repeats {
	size_t nrepeats;           /* repeats with a ratio in this series */
	int *repeat;               /* their numbers, ascending */
	struct ic_crossover *xo;   /* each one's verdict from its processes only */
	int agree;                 /* with 2+: no N that one repeat resolves to one
	                            * side and another to the other */
	struct ic_levels lv;
};

/* The repeats of series g (its process ratios pr) in run res. NULL when
 * memory runs out. */
struct ic_repeats *ic_repeats_analyse(const struct ic_results *res, const struct ic_group *g,
				      const struct ic_process_ratios *pr,
				      const struct ic_analysis_opts *opts);
void ic_repeats_free(struct ic_repeats *rp);

#endif /* IC_REPEATS_H */
