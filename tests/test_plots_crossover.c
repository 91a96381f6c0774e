/* plots/crossover.c on synthetic ratio series with known crossings.
 * The ratios are linear in log2 N, so interpolation on log N is exact. */
#include <math.h>

#include "check.h"
#include "crossover.h"

#define NPTS 11   /* N = 1, 2, 4, ..., 1024 */
#define NEAR(a, b) (fabs((a) - (b)) <= 1e-6 * fabs(b))

/* ratio = 1 + slope * (log2 N - log2 x), band +-half */
static void series_line(struct ic_ratio_point *p, double slope, double x, double half)
{
	for (int i = 0; i < NPTS; i++) {
		p[i].sites = (double)(1u << i);
		p[i].ratio = 1.0 + slope * (i - log2(x));
		p[i].lo = p[i].ratio - half;
		p[i].hi = p[i].ratio + half;
	}
}

static void test_crossover_up(void)
{
	struct ic_ratio_point p[NPTS];
	struct ic_crossover xo;

	/* Compare faster at small N, crossing at 300; the band (+-0.01 =
	 * half a doubling at slope 0.02) crosses at 300/sqrt2 and 300*sqrt2. */
	series_line(p, 0.02, 300.0, 0.01);
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER, "verdict %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == 1, "compare wins first");
	CHECK(NEAR(xo.sites, 300.0), "crossover %g, want 300", xo.sites);
	CHECK(NEAR(xo.sites_lo, 300.0 / sqrt(2.0)), "interval low %g", xo.sites_lo);
	CHECK(NEAR(xo.sites_hi, 300.0 * sqrt(2.0)), "interval high %g", xo.sites_hi);
	CHECK(xo.bracket_lo == 256.0 && xo.bracket_hi == 512.0, "bracket %g..%g", xo.bracket_lo,
	      xo.bracket_hi);
	CHECK(!xo.multiple, "one crossing");
	/* Points with hi < 1: N <= 128 (ratio 0.9754 + 0.01 at 128). */
	CHECK(xo.n_compare == 8 && xo.n_baseline == 2 && xo.n_unresolved == 1,
	      "sides %zu/%zu/%zu", xo.n_compare, xo.n_baseline, xo.n_unresolved);
}

static void test_crossover_down(void)
{
	struct ic_ratio_point p[NPTS];
	struct ic_crossover xo;

	series_line(p, -0.02, 300.0, 0.01);
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER, "verdict %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == -1, "baseline wins first");
	CHECK(NEAR(xo.sites, 300.0), "crossover %g", xo.sites);
	CHECK(NEAR(xo.sites_lo, 300.0 / sqrt(2.0)) && NEAR(xo.sites_hi, 300.0 * sqrt(2.0)),
	      "interval %g..%g", xo.sites_lo, xo.sites_hi);
}

static void test_one_sided(void)
{
	struct ic_ratio_point p[NPTS];
	struct ic_crossover xo;

	series_line(p, 0.0, 1.0, 0.01);
	for (int i = 0; i < NPTS; i++) {
		p[i].ratio = 0.9;
		p[i].lo = 0.89;
		p[i].hi = 0.91;
	}
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_COMPARE_WINS, "all below 1: %s", ic_verdict_name(xo.verdict));
	CHECK(xo.n_compare == NPTS, "every point resolved");
	CHECK(isnan(xo.sites) && isnan(xo.sites_lo) && isnan(xo.sites_hi) && isnan(xo.bracket_lo),
	      "nothing to interpolate");

	for (int i = 0; i < NPTS; i++) {
		p[i].ratio = 1.1;
		p[i].lo = 1.09;
		p[i].hi = 1.11;
	}
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_BASELINE_WINS, "all above 1: %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == -1 && isnan(xo.sites), "baseline wins, no crossing");

	for (int i = 0; i < NPTS; i++) {
		p[i].ratio = i % 2 ? 1.01 : 0.99;
		p[i].lo = p[i].ratio - 0.05;
		p[i].hi = p[i].ratio + 0.05;
	}
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_UNRESOLVED, "all straddle 1: %s", ic_verdict_name(xo.verdict));
	CHECK(xo.direction == 0 && isnan(xo.sites) && isnan(xo.bracket_lo), "no fields");
	CHECK(xo.multiple, "ratio crosses 1 many times");
}

static void test_win_then_unresolved(void)
{
	struct ic_ratio_point p[NPTS];
	struct ic_crossover xo;

	/* Compare resolved faster up to N = 64, then 1.01 +- 0.04 (unresolved). */
	series_line(p, 0.0, 1.0, 0.0);
	for (int i = 0; i < NPTS; i++) {
		p[i].ratio = i <= 6 ? 0.9 : 1.01;
		p[i].lo = p[i].ratio - (i <= 6 ? 0.01 : 0.04);
		p[i].hi = p[i].ratio + (i <= 6 ? 0.01 : 0.04);
	}
	ic_crossover_find(p, NPTS, &xo);
	CHECK(xo.verdict == IC_VERDICT_COMPARE_WINS, "verdict %s", ic_verdict_name(xo.verdict));
	/* Band edge: hi goes 0.91 -> 1.05 between 64 and 128. */
	CHECK(NEAR(xo.sites_lo, 64.0 * pow(2.0, 0.09 / 0.14)), "band edge %g", xo.sites_lo);
	CHECK(isnan(xo.sites_hi), "the other edge never crosses");
	/* Medians: -0.1 -> +0.01 between 64 and 128. */
	CHECK(NEAR(xo.sites, 64.0 * pow(2.0, 0.1 / 0.11)), "median crossing %g", xo.sites);
	CHECK(xo.bracket_lo == 64.0 && xo.bracket_hi == 128.0, "bracket %g..%g", xo.bracket_lo,
	      xo.bracket_hi);
}

static void test_missing_intervals(void)
{
	struct ic_ratio_point p[3] = {
		{ 1, 0.8, NAN, NAN }, { 2, 0.8, 0.79, 0.81 }, { 4, 1.2, 1.19, 1.21 },
	};
	struct ic_crossover xo;

	ic_crossover_find(p, 3, &xo);
	CHECK(ic_ratio_point_side(&p[0]) == IC_SIDE_UNRESOLVED, "no interval: unresolved");
	CHECK(xo.verdict == IC_VERDICT_CROSSOVER && xo.n_unresolved == 1, "verdict %s",
	      ic_verdict_name(xo.verdict));
	CHECK(NEAR(xo.sites, 2.0 * pow(2.0, 0.5)), "crossover %g", xo.sites);
	ic_crossover_find(p, 0, &xo);
	CHECK(xo.verdict == IC_VERDICT_UNRESOLVED, "empty series");
}

int main(void)
{
	test_crossover_up();
	test_crossover_down();
	test_one_sided();
	test_win_then_unresolved();
	test_missing_intervals();
	puts("plots crossover: ok");
	return 0;
}
