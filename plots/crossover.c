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
	default:
		return "unresolved";
	}
}

/* The series seen from the form that wins first (dir = +1: compare):
 * f < 0 while that form is ahead; up < 0 while it is resolved ahead;
 * down > 0 once the other form is resolved ahead. */
static double xo_f(const struct ic_ratio_point *p, int dir)
{
	return dir * (p->ratio - 1.0);
}

static double xo_up(const struct ic_ratio_point *p, int dir)
{
	return dir > 0 ? p->hi - 1.0 : 1.0 - p->lo;
}

static double xo_down(const struct ic_ratio_point *p, int dir)
{
	return dir > 0 ? p->lo - 1.0 : 1.0 - p->hi;
}

/* N where y crosses 0 on the segment between two points, linear in log N. */
static double xo_interp(double n0, double y0, double n1, double y1)
{
	double t;

	if (!isfinite(y0) || !isfinite(y1) || y1 == y0 || n0 <= 0.0 || n1 <= 0.0)
		return NAN;
	t = (0.0 - y0) / (y1 - y0);
	return exp(log(n0) + t * (log(n1) - log(n0)));
}

void ic_crossover_find(const struct ic_ratio_point *pts, size_t n, struct ic_crossover *out)
{
	size_t first = n, other = n, last_win = n, j = n;
	int dir, sign_changes = 0, prev_sign = 0;

	*out = (struct ic_crossover){
		.verdict = IC_VERDICT_UNRESOLVED,
		.sites = NAN, .sites_lo = NAN, .sites_hi = NAN,
		.bracket_lo = NAN, .bracket_hi = NAN,
	};
	for (size_t i = 0; i < n; i++) {
		enum ic_point_side s = ic_ratio_point_side(&pts[i]);
		int sign = pts[i].ratio < 1.0 ? -1 : (pts[i].ratio > 1.0 ? 1 : 0);

		out->n_compare += s == IC_SIDE_COMPARE;
		out->n_baseline += s == IC_SIDE_BASELINE;
		out->n_unresolved += s == IC_SIDE_UNRESOLVED;
		if (s != IC_SIDE_UNRESOLVED && first == n)
			first = i;
		if (sign && prev_sign && sign != prev_sign)
			sign_changes++;
		if (sign)
			prev_sign = sign;
	}
	out->multiple = sign_changes > 1;
	if (first == n)
		return;
	dir = ic_ratio_point_side(&pts[first]) == IC_SIDE_COMPARE ? 1 : -1;
	out->direction = dir;
	for (size_t i = first + 1; i < n && other == n; i++)
		if (xo_down(&pts[i], dir) > 0.0)
			other = i;
	for (size_t i = first; i < other; i++)
		if (xo_up(&pts[i], dir) < 0.0)
			last_win = i;

	if (other < n) {
		out->verdict = IC_VERDICT_CROSSOVER;
	} else {
		out->verdict = dir > 0 ? IC_VERDICT_COMPARE_WINS : IC_VERDICT_BASELINE_WINS;
		if (last_win + 1 >= n)
			return;   /* the first winner is still resolved at the last point */
	}
	/* The medians cross 1 on the first segment after the last resolved win
	 * where f goes from < 0 to >= 0; with the other form resolved at
	 * `other`, such a segment exists before it. */
	for (size_t i = last_win; i + 1 < n && j == n; i++)
		if (xo_f(&pts[i], dir) < 0.0 && xo_f(&pts[i + 1], dir) >= 0.0)
			j = i;
	if (j < n) {
		size_t a = j, b = j + 1;

		out->sites = xo_interp(pts[j].sites, xo_f(&pts[j], dir),
				       pts[j + 1].sites, xo_f(&pts[j + 1], dir));
		out->bracket_lo = pts[j].sites;
		out->bracket_hi = pts[j + 1].sites;
		while (a > last_win && !(xo_up(&pts[a], dir) < 0.0))
			a--;
		out->sites_lo = xo_interp(pts[a].sites, xo_up(&pts[a], dir),
					  pts[a + 1].sites, xo_up(&pts[a + 1], dir));
		if (out->verdict == IC_VERDICT_CROSSOVER) {
			while (b < other && !(xo_down(&pts[b], dir) > 0.0))
				b++;
			out->sites_hi = xo_interp(pts[b - 1].sites, xo_down(&pts[b - 1], dir),
						  pts[b].sites, xo_down(&pts[b], dir));
		}
	} else {
		/* One-sided and the medians never cross back: only the band edge
		 * marks where the win stops being resolved. */
		out->sites_lo = xo_interp(pts[last_win].sites, xo_up(&pts[last_win], dir),
					  pts[last_win + 1].sites, xo_up(&pts[last_win + 1], dir));
		out->bracket_lo = pts[last_win].sites;
		out->bracket_hi = pts[last_win + 1].sites;
	}
}
