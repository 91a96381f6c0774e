/* engine/stats.c against answers worked out by hand or taken from tables
 * (Student's t quantiles). */
#include <math.h>
#include <string.h>

#include "check.h"
#include "stats.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol))

static void test_median(void)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	CHECK(ic_stats_median(odd, 3) == 2.0, "median of 3,1,2");
	CHECK(ic_stats_median(even, 4) == 2.5, "median of 4,1,3,2");
	CHECK(isnan(ic_stats_median(odd, 0)), "median of nothing is NAN");
}

static void test_cv(void)
{
	double x[] = { 1, 2, 3, 4, 5 };

	CHECK(NEAR(ic_stats_cv(x, 5), sqrt(2.5) / 3.0, 1e-12), "cv %g", ic_stats_cv(x, 5));
	CHECK(isnan(ic_stats_cv(x, 1)), "cv of one value is NAN");
}

static void test_t(void)
{
	/* Quantiles from statistical tables (R: qt). */
	CHECK(NEAR(ic_stats_t_quantile(0.975, 1), 12.706205, 1e-5), "t(.975, 1) %g", ic_stats_t_quantile(0.975, 1));
	CHECK(NEAR(ic_stats_t_quantile(0.975, 2), 4.302653, 1e-5), "t(.975, 2)");
	CHECK(NEAR(ic_stats_t_quantile(0.975, 5), 2.570582, 1e-5), "t(.975, 5)");
	CHECK(NEAR(ic_stats_t_quantile(0.995, 10), 3.169273, 1e-5), "t(.995, 10)");
	CHECK(NEAR(ic_stats_t_quantile(0.025, 5), -2.570582, 1e-5), "lower tail is symmetric");
	CHECK(NEAR(ic_stats_t_quantile(0.975, 1e6), 1.959966, 1e-4), "large df is normal");
	/* R: pt(2, 1) = 0.8524164, pt(-1.5, 4) = 0.1040000. */
	CHECK(NEAR(ic_stats_t_cdf(2.0, 1), 0.8524164, 1e-6), "pt(2, 1) %g", ic_stats_t_cdf(2.0, 1));
	CHECK(NEAR(ic_stats_t_cdf(-1.5, 4), 0.1040000, 1e-5), "pt(-1.5, 4) %g", ic_stats_t_cdf(-1.5, 4));
	CHECK(isnan(ic_stats_t_quantile(1.0, 3)) && isnan(ic_stats_t_cdf(1.0, 0)), "out of range: NAN");
}

static void test_nested(void)
{
	/* Three clusters of two units: means 1, 2, 6, grand mean 3, sd of the
	 * means sqrt(7), se sqrt(7/3); df 2. */
	double y[] = { 0.5, 1.5, 2, 2, 5, 7 };
	int c[] = { 4, 4, 9, 9, 1, 1 };
	struct ic_stats_nested s;
	double lo, hi;

	CHECK(ic_stats_nested(y, c, 6, &s) == 0, "nested");
	CHECK(s.clusters == 3 && s.df == 2.0, "clusters %zu df %g", s.clusters, s.df);
	CHECK(NEAR(s.mean, 3.0, 1e-12) && NEAR(s.se, sqrt(7.0 / 3.0), 1e-12), "mean %g se %g", s.mean, s.se);
	ic_stats_nested_interval(&s, 0.05, &lo, &hi);
	CHECK(NEAR(hi - 3.0, 4.302653 * sqrt(7.0 / 3.0), 1e-4) && NEAR(3.0 - lo, hi - 3.0, 1e-9), "interval [%g, %g]", lo, hi);
	/* One cluster: the units are the draws. */
	CHECK(ic_stats_nested(y, (int[]){ 0, 0, 0, 0, 0, 0 }, 6, &s) == 0, "one cluster");
	CHECK(s.df == 5.0 && NEAR(s.mean, 3.0, 1e-12), "one cluster: df %g", s.df);
	/* One draw: no interval. */
	CHECK(ic_stats_nested(y, c, 1, &s) == -1 && s.mean == 0.5, "one unit fails but has a mean");
	/* p from the t statistic t = 3 / sqrt(7/3) with df 2, where the
	 * two-sided tail has the closed form 1 - |t| / sqrt(2 + t^2). */
	{
		double t = 3.0 / sqrt(7.0 / 3.0);

		CHECK(ic_stats_nested(y, c, 6, &s) == 0 &&
		      NEAR(ic_stats_nested_p(&s), 1.0 - t / sqrt(2.0 + t * t), 1e-9), "p %g", ic_stats_nested_p(&s));
	}
}

/* Holm at 0.05 over four p, worked by hand: sorted 0.010, 0.013, 0.020,
 * 0.30 meet 0.05/4 = 0.0125 (yes), 0.05/3 = 0.0167 (yes), 0.05/2 = 0.025
 * (yes), 0.05 (no). Bonferroni (0.0125 for all) would resolve only the
 * first; no correction, the first three; a NAN is no test. */
static void test_holm(void)
{
	const double p[] = { 0.30, 0.013, NAN, 0.010, 0.020 };
	unsigned char r[5];

	CHECK(ic_stats_holm(p, 5, 0.05, r) == 3 && !r[0] && r[1] && !r[2] && r[3] && r[4],
	      "Holm over 0.30, 0.013, -, 0.010, 0.020: %d%d%d%d%d", r[0], r[1], r[2], r[3], r[4]);
	/* 0.02 the smallest of three: 0.02 > 0.05/3, so nothing resolves, though
	 * 0.04 and 0.04 would pass 0.05 uncorrected. */
	{
		const double q[] = { 0.02, 0.04, 0.04 };

		CHECK(ic_stats_holm(q, 3, 0.05, r) == 0 && !r[0], "Holm stops at its first step");
	}
}

int main(void)
{
	test_holm();
	test_median();
	test_cv();
	test_t();
	test_nested();
	puts("engine stats: ok");
	return 0;
}
