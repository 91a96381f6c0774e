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
	size_t first, last, count;
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
		.verdict = IC_VERDICT_UNRESOLVED,
		.bracket_lo = NAN, .bracket_hi = NAN, .lone_sites = NAN,
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
				run[nruns++] = (struct xo_run){ s, i, i, 0 };
		}
		if (out->switches < 2) {
			run[nruns - 1].last = i;
			run[nruns - 1].count++;
		}
	}
	if (out->switches >= 2) {
		out->verdict = IC_VERDICT_CONFLICT;
		return;
	}
	if (nruns == 1) {
		if (run[0].count >= IC_CROSSOVER_MIN_POINTS) {
			out->verdict = xo_wins(run[0].side);
			out->direction = xo_dir(run[0].side);
		} else {
			out->lone_sites = pts[run[0].first].sites;
			out->lone_side = run[0].side;
		}
		return;
	}
	if (nruns == 2) {
		int big0 = run[0].count >= IC_CROSSOVER_MIN_POINTS;
		int big1 = run[1].count >= IC_CROSSOVER_MIN_POINTS;

		if (big0 && big1) {
			out->verdict = IC_VERDICT_CROSSOVER;
			out->direction = xo_dir(run[0].side);
			out->bracket_lo = pts[run[0].last].sites;
			out->bracket_hi = pts[run[1].first].sites;
		} else if (big0 || big1) {
			const struct xo_run *win = big0 ? &run[0] : &run[1];
			const struct xo_run *lone = big0 ? &run[1] : &run[0];

			out->verdict = xo_wins(win->side);
			out->direction = xo_dir(win->side);
			out->lone_sites = pts[lone->first].sites;
			out->lone_side = lone->side;
		}
	}
}
