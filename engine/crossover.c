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
	static const char *const name[] = {
		[IC_VERDICT_UNRESOLVED] = "unresolved", [IC_VERDICT_CROSSOVER] = "crossover",
		[IC_VERDICT_COMPARE_WINS] = "compare_wins", [IC_VERDICT_BASELINE_WINS] = "baseline_wins",
		[IC_VERDICT_CONFLICT] = "conflict",
	};

	return (unsigned)v < sizeof(name) / sizeof(name[0]) ? name[v] : "unresolved";
}

void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out)
{
	enum ic_point_side prev = IC_SIDE_UNRESOLVED;
	size_t last0 = 0, first1 = 0;   /* the first run's last point, the second's first */

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
		if (!out->direction)
			out->direction = s == IC_SIDE_COMPARE ? 1 : -1;
		if (prev != IC_SIDE_UNRESOLVED && s != prev && ++out->switches == 1)
			first1 = i;
		if (!out->switches)
			last0 = i;
		prev = s;
	}
	if (out->switches >= 2) {
		out->verdict = IC_VERDICT_CONFLICT;
		out->direction = 0;
	} else if (out->switches == 1) {
		out->verdict = IC_VERDICT_CROSSOVER;
		out->bracket_lo = pts[last0].sites;
		out->bracket_hi = pts[first1].sites;
	} else if (out->direction) {
		out->verdict = out->direction > 0 ? IC_VERDICT_COMPARE_WINS : IC_VERDICT_BASELINE_WINS;
	}
}

size_t ic_crossover_midpoints(const unsigned long *sites, size_t n, double lo, double hi,
			      unsigned long *out)
{
	size_t k = 0;

	for (size_t i = 1; i < n; i++) {
		unsigned long a = sites[i - 1], b = sites[i], mid;

		if (a < lo || b > hi)
			continue;
		mid = (unsigned long)(sqrt((double)a * (double)b) + 0.5);
		if (mid > a && mid < b)
			out[k++] = mid;
	}
	return k;
}
