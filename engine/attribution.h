/* What the difference between inline and extern is made of, per series:
 * control forms measured beside them, each compared as a ratio with the
 * machinery of series.h and decision.h (per-process ratios, nested t
 * interval, Holm band over the line's N):
 *
 *   call overhead   extern/inline at the smallest N
 *   copies          clone/extern per N (a copy per site, each called)
 *   lock            inline/inline_nolock and extern/extern_nolock per N,
 *                   and their ratio, the locked-instruction interaction
 *
 * and a statement that names a component only where its band (per-N
 * lines) or interval (single comparisons) excludes 1.
 */
#ifndef IC_ATTRIBUTION_H
#define IC_ATTRIBUTION_H

#include "series.h"

enum ic_line_kind {
	IC_LINE_CALL,           /* extern/inline, read at the smallest N */
	IC_LINE_COPIES,         /* clone/extern */
	IC_LINE_LOCK_INLINE,    /* inline/inline_nolock */
	IC_LINE_LOCK_EXTERN,    /* extern/extern_nolock */
	IC_LINE_INTERACTION,    /* (inline/inline_nolock)/(extern/extern_nolock) */
	IC_LINE_INLINE_EXTERN,  /* inline/extern: only drawn, beside the others */
	IC_LINE_COUNT
};

struct ic_line {
	const char *name;       /* "clone/extern" */
	struct ic_ratio *r;     /* ascending N; NULL when n == 0 */
	size_t n;
	const char *missing;    /* a form the series lacks, or NULL */
};

struct ic_attribution {
	struct ic_line line[IC_LINE_COUNT];
	const char *l1i_source;      /* the L1i counts' source: "sim", "papi", "mixed",
	                              * ""; the evidence table names it */
	int has_controls;            /* clone or a nolock form has a ratio here:
	                              * the series has an attribution chart panel */
	int all_noisy;               /* every ratio of the series and its lines is noisy */
	struct ic_line fit;          /* the interaction at the N where all four
	                              * forms' code fits the L1i (its own copy) */
	size_t fit_left_out;         /* N of the interaction left out of fit */
	unsigned long fit_first_out; /* the first of them */
};

/* "clone/extern", "(inline/inline_nolock)/(extern/extern_nolock)", ... */
const char *ic_attr_line_name(enum ic_line_kind k);

/* The attribution of series g; l1i_size in bytes (NAN when unknown: every
 * N counts as fitting). NULL when memory runs out. */
struct ic_attribution *ic_attribution_analyse(const struct ic_group *g,
					      const struct ic_analysis_opts *opts, double l1i_size);

/* The same from the processes u < nkeep with keep[u] only: one state's. */
struct ic_attribution *ic_attribution_analyse_keep(const struct ic_group *g,
						   const struct ic_analysis_opts *opts,
						   double l1i_size, const unsigned char *keep,
						   size_t nkeep);
void ic_attribution_free(struct ic_attribution *a);

#endif /* IC_ATTRIBUTION_H */
