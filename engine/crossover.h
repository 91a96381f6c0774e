/* Where does a series' compare/baseline ratio cross 1 as N grows? From each
 * N's deciding interval (its Holm step's, decision.h), claiming only what the
 * resolved N support (docs/method.md, "The rules"): each counts, ends too
 * (Holm holds the family-wise error); they may switch side once (more is a
 * conflict, no claim); a crossover is the bracket (A, B), A the small-N
 * winner's last N, B the other's first (no N between resolved): no point estimate. */
#ifndef IC_CROSSOVER_H
#define IC_CROSSOVER_H

#include <stddef.h>

/* One sweep point: the ratio estimate and the interval that decides its side. */
struct ic_ratio_point {
	double sites, ratio, lo, hi;
};

enum ic_point_side {
	IC_SIDE_UNRESOLVED,   /* the interval contains 1 (or is unknown) */
	IC_SIDE_COMPARE,      /* hi < 1: the compare form is faster */
	IC_SIDE_BASELINE,     /* lo > 1: the baseline form is faster */
};

enum ic_verdict {
	IC_VERDICT_UNRESOLVED,     /* no point resolved */
	IC_VERDICT_CROSSOVER,      /* each form resolved ahead on one side of (A, B) */
	IC_VERDICT_COMPARE_WINS,   /* only the compare form is resolved ahead */
	IC_VERDICT_BASELINE_WINS,  /* only the baseline form is */
	IC_VERDICT_CONFLICT,       /* the resolved points switch side more than once */
};

struct ic_crossover {
	enum ic_verdict verdict;
	/* +1: the compare form wins at small N (the 2004 shape: inlining pays
	 * below the crossover); -1: the baseline form does. 0 for no claim. */
	int direction;
	double bracket_lo, bracket_hi;   /* CROSSOVER: the bracket (A, B); else NAN */
	size_t switches;   /* side changes among resolved points */
	size_t n_compare, n_baseline, n_unresolved;
};

/* p's side; the crossover of pts sorted by sites ascending. */
enum ic_point_side ic_ratio_point_side(const struct ic_ratio_point *p);
void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out);

/* The N to measure next in the bracket [lo, hi] of a series measured at
 * ascending sites[0..n-1]: each neighbouring pair's rounded geometric midpoint
 * strictly between them. Writes at most n - 1 into out; returns how many. */
size_t ic_crossover_midpoints(const unsigned long *sites, size_t n, double lo, double hi,
			      unsigned long *out);

const char *ic_verdict_name(enum ic_verdict v);

#endif /* IC_CROSSOVER_H */
