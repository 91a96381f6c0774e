/* Where does the compare/baseline ratio cross 1 as the call-site count N
 * grows? Works on one series (one op, layout, order, threads and mode),
 * interpolating on log N between sweep points.
 */
#ifndef IC_CROSSOVER_H
#define IC_CROSSOVER_H

#include <stddef.h>

/* One sweep point: the ratio of medians and its 95% interval. */
struct ic_ratio_point {
	double sites;
	double ratio, lo, hi;
};

enum ic_point_side {
	IC_SIDE_UNRESOLVED,   /* the interval contains 1 (or is unknown) */
	IC_SIDE_COMPARE,      /* hi < 1: the compare form is faster */
	IC_SIDE_BASELINE,     /* lo > 1: the baseline form is faster */
};

enum ic_verdict {
	IC_VERDICT_UNRESOLVED,     /* no point resolved */
	IC_VERDICT_CROSSOVER,      /* both forms win somewhere */
	IC_VERDICT_COMPARE_WINS,   /* only the compare form wins where resolved */
	IC_VERDICT_BASELINE_WINS,  /* only the baseline form wins where resolved */
};

struct ic_crossover {
	enum ic_verdict verdict;
	/* +1: the form winning at small N is the compare form (the 2004 shape:
	 * inlining pays below X); -1: the baseline form wins at small N. 0 when
	 * nothing is resolved. */
	int direction;
	/* Interpolated N where the ratio of medians crosses 1 after the first
	 * winning run; NAN when it does not cross. */
	double sites;
	/* Where the interval band crosses 1: lo where the first winner's band
	 * edge reaches 1, hi where the other form's band edge leaves 1. NAN when
	 * that edge never crosses (always so for hi with a one-sided verdict). */
	double sites_lo, sites_hi;
	/* Sweep points just below and above the crossover (or the band edge
	 * when the medians do not cross): where a bisection on N should look.
	 * NAN when there is nothing to refine. */
	double bracket_lo, bracket_hi;
	/* The ratio of medians crosses 1 more than once inside the range. */
	int multiple;
	size_t n_compare, n_baseline, n_unresolved;
};

enum ic_point_side ic_ratio_point_side(const struct ic_ratio_point *p);

/* pts sorted by sites ascending, n >= 1. */
void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out);

const char *ic_verdict_name(enum ic_verdict v);

#endif /* IC_CROSSOVER_H */
