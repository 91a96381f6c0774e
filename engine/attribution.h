/* What a series' inline/extern difference is made of: control forms beside them
 * (the lines below), each a ratio decided as decision.h decides, a component named
 * only where its band or interval excludes 1 (docs/method.md, "Attribution"). */
#ifndef IC_ATTRIBUTION_H
#define IC_ATTRIBUTION_H

#include "series.h"
#include "steadiness.h"

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
	const char *l1i_source;      /* L1i counts' "sim", "papi", "mixed", "": evidence table */
	int has_controls;            /* clone or a nolock form has a ratio: a chart panel */
	struct ic_line fit;          /* the interaction where all four fit the L1i (a copy) */
	size_t fit_left_out;         /* N of the interaction left out of fit */
	unsigned long fit_first_out; /* the first of them */
};

/* What moves with the ratio where the processes vary: at the N where steadiness.h finds them
 * varying most (p below IC_ATTR_MOVES_P, not steady), each form's log time on the log ratio in time
 * order (ic_slope_fit), as the change from their 10th to 90th percentile ratio. */
#define IC_ATTR_MOVES_P 0.05        /* as the watch: variation beyond noise shown */
#define IC_ATTR_MOVES_SAME 0.05     /* "unchanged": the change's interval inside +-5% */
#define IC_ATTR_MOVES_MAX 8

enum ic_attr_moves_verdict { IC_ATTR_UNCHANGED, IC_ATTR_WITH, IC_ATTR_AGAINST, IC_ATTR_UNSURE };

struct ic_attr_moves {
	unsigned long sites;         /* the N read; 0: the processes do not vary (or too few) */
	struct ic_steady h;          /* the test there */
	double p10, p90;             /* the processes' ratios there */
	size_t nvariants;            /* layout variants among the processes */
	size_t nforms;
	struct ic_attr_form {
		const char *form;
		struct ic_slope fit;
		double change, change_lo, change_hi;
		enum ic_attr_moves_verdict verdict;
	} f[IC_ATTR_MOVES_MAX];
};

/* Fills out for g's forms (compare, baseline, then the others in order) over pr; 0. */
int ic_attribution_moves(const struct ic_group *g, const struct ic_process_ratios *pr,
			 const struct ic_analysis_opts *opts, struct ic_attr_moves *out);

/* The attribution of g; l1i_size in bytes (NAN: every N fits); keep as ic_ratio_contrast's. */
struct ic_attribution *ic_attribution_analyse_keep(const struct ic_group *g,
						   const struct ic_analysis_opts *opts,
						   double l1i_size, const unsigned char *keep,
						   size_t nkeep);
void ic_attribution_free(struct ic_attribution *a);

#endif /* IC_ATTRIBUTION_H */
