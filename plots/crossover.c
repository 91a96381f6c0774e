#include "crossover.h"

#include <math.h>

enum ic_point_side ic_ratio_point_side(const struct ic_ratio_point *p)
{
	if (p->hi < 1.0)
		return IC_SIDE_COMPARE;
	if (p->lo > 1.0)
		return IC_SIDE_BASELINE;
	return IC_SIDE_UNRESOLVED;   /* also when lo/hi are NAN */
}

const char *ic_verdict_name(enum ic_verdict v)
{
	switch (v) {
	case IC_VERDICT_CROSSOVER:
		return "crossover";
	case IC_VERDICT_COMPARE_WINS:
		return "compare_wins";
	case IC_VERDICT_BASELINE_WINS:
		return "baseline_wins";
	case IC_VERDICT_CONFLICT:
		return "conflict";
	default:
		return "unresolved";
	}
}

/* A run of resolved points on one side: [first, last] as indices into pts. */
struct xo_run {
	enum ic_point_side side;
	size_t first, last;
};

static int xo_dir(enum ic_point_side s)
{
	return s == IC_SIDE_COMPARE ? 1 : -1;
}

static enum ic_verdict xo_wins(enum ic_point_side s)
{
	return s == IC_SIDE_COMPARE ? IC_VERDICT_COMPARE_WINS : IC_VERDICT_BASELINE_WINS;
}

void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out)
{
	struct xo_run run[2];
	size_t nruns = 0;
	enum ic_point_side prev = IC_SIDE_UNRESOLVED;

	*out = (struct ic_crossover){
		.verdict = IC_VERDICT_UNRESOLVED, .bracket_lo = NAN, .bracket_hi = NAN,
	};
	for (size_t i = 0; i < n; i++) {
		enum ic_point_side s = ic_ratio_point_side(&pts[i]);

		out->n_compare += s == IC_SIDE_COMPARE;
		out->n_baseline += s == IC_SIDE_BASELINE;
		out->n_unresolved += s == IC_SIDE_UNRESOLVED;
		if (s == IC_SIDE_UNRESOLVED)
			continue;
		if (prev != s) {
			out->switches += prev != IC_SIDE_UNRESOLVED;
			prev = s;
			/* Past two runs it is a conflict: later runs change nothing. */
			if (out->switches < 2)
				run[nruns++] = (struct xo_run){ s, i, i };
		}
		if (out->switches < 2)
			run[nruns - 1].last = i;
	}
	if (out->switches >= 2) {
		out->verdict = IC_VERDICT_CONFLICT;
	} else if (nruns == 1) {
		out->verdict = xo_wins(run[0].side);
		out->direction = xo_dir(run[0].side);
	} else if (nruns == 2) {
		out->verdict = IC_VERDICT_CROSSOVER;
		out->direction = xo_dir(run[0].side);
		out->bracket_lo = pts[run[0].last].sites;
		out->bracket_hi = pts[run[1].first].sites;
	}
}
