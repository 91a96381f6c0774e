/* plots/stats.c against answers worked out by hand or taken from tables
 * (binomial tables, the exact U distribution, a tie-corrected normal
 * approximation, Student's t quantiles, a one-way ANOVA). */
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

static void test_median_ci(void)
{
	double x10[] = { 7, 3, 10, 1, 5, 9, 2, 8, 4, 6 }, x20[20], x5[] = { 5, 4, 3, 2, 1 };
	double x6[] = { 6, 5, 4, 3, 2, 1 }, lo, hi, cover;

	/* n = 10: P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so ranks 2 and 9. */
	CHECK(ic_stats_median_ci(x10, 10, &lo, &hi, &cover) == 0, "n=10");
	CHECK(lo == 2.0 && hi == 9.0, "n=10 interval [%g, %g], want [2, 9]", lo, hi);
	CHECK(NEAR(cover, 1.0 - 22.0 / 1024.0, 1e-12), "n=10 coverage %g", cover);
	/* n = 20: ranks 6 and 15, coverage 1 - 2 * 21700 / 2^20. */
	for (int i = 0; i < 20; i++)
		x20[i] = 20 - i;
	CHECK(ic_stats_median_ci(x20, 20, &lo, &hi, &cover) == 0, "n=20");
	CHECK(lo == 6.0 && hi == 15.0, "n=20 interval [%g, %g], want [6, 15]", lo, hi);
	CHECK(NEAR(cover, 0.9586105346679688, 1e-12), "n=20 coverage %g", cover);
	/* n = 6 is the smallest n with a 95% interval: [min, max], 1 - 2/64. */
	CHECK(ic_stats_median_ci(x6, 6, &lo, &hi, &cover) == 0, "n=6");
	CHECK(lo == 1.0 && hi == 6.0 && NEAR(cover, 0.96875, 1e-12), "n=6 [%g, %g] %g", lo, hi, cover);
	/* n = 5: min..max, and the coverage says it is below 95%. */
	CHECK(ic_stats_median_ci(x5, 5, &lo, &hi, &cover) == 0, "n=5");
	CHECK(lo == 1.0 && hi == 5.0 && NEAR(cover, 0.9375, 1e-12), "n=5 [%g, %g] %g", lo, hi, cover);
	CHECK(ic_stats_median_ci(x5, 0, &lo, &hi, &cover) == -1, "n=0 fails");
}

static void test_cv(void)
{
	double x[] = { 1, 2, 3, 4, 5 };

	CHECK(NEAR(ic_stats_cv(x, 5), sqrt(2.5) / 3.0, 1e-12), "cv %g", ic_stats_cv(x, 5));
	CHECK(isnan(ic_stats_cv(x, 1)), "cv of one value is NAN");
}

static void test_mannwhitney(void)
{
	double a[60], b[60], same[] = { 1, 2, 3 };
	double ta[] = { 1, 2, 2, 3 }, tb[] = { 2, 3, 4, 5 }, p;

	for (int i = 0; i < 60; i++) {
		a[i] = 1 + i;
		b[i] = 100 + i;
	}
	/* Exact, fully separated: only 2 of C(20,10) orderings are as extreme. */
	p = ic_stats_mannwhitney_p(a, 10, b, 10);
	CHECK(NEAR(p, 2.0 / 184756.0, 1e-15), "separated 10 vs 10: p %g", p);
	p = ic_stats_mannwhitney_p(b, 10, a, 10);
	CHECK(NEAR(p, 2.0 / 184756.0, 1e-15), "two-sided: order of samples does not matter (%g)", p);
	p = ic_stats_mannwhitney_p(a, 3, a + 3, 3);
	CHECK(NEAR(p, 0.1, 1e-12), "1,2,3 vs 4,5,6: p %g, want 2/20", p);
	/* Interleaved without ties: U = mn/2, p = 1. */
	{
		double x[] = { 1, 4, 5, 8 }, y[] = { 2, 3, 6, 7 };

		p = ic_stats_mannwhitney_p(x, 4, y, 4);
		CHECK(NEAR(p, 1.0, 1e-12), "balanced samples: p %g", p);
	}
	/* Ties: normal approximation, tie and continuity corrected. U = 2.5,
	 * var = 16/12 (9 - 30/56), z = 5/sqrt(var). */
	p = ic_stats_mannwhitney_p(ta, 4, tb, 4);
	CHECK(NEAR(p, 0.13665824773814753, 1e-9), "tied samples: p %g", p);
	p = ic_stats_mannwhitney_p(same, 3, same, 3);
	CHECK(NEAR(p, 1.0, 1e-12), "identical samples: p %g", p);
	/* Beyond the exact limit: still tiny for separated samples. */
	p = ic_stats_mannwhitney_p(a, 60, b, 60);
	CHECK(p < 1e-15, "separated 60 vs 60: p %g", p);
	CHECK(isnan(ic_stats_mannwhitney_p(a, 0, b, 3)), "empty sample: NAN");
}

static void test_quantile(void)
{
	double x[] = { 1, 2, 3, 4 };

	CHECK(ic_stats_quantile_sorted(x, 4, 0.5) == 2.5, "median by quantile");
	CHECK(NEAR(ic_stats_quantile_sorted(x, 4, 0.025), 1.075, 1e-12), "2.5%% quantile");
	CHECK(ic_stats_quantile_sorted(x, 4, 1.0) == 4.0, "100%% quantile");
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
	CHECK(s.clusters == 3 && s.units == 6 && s.df == 2.0, "clusters %zu units %zu df %g", s.clusters, s.units, s.df);
	CHECK(NEAR(s.mean, 3.0, 1e-12) && NEAR(s.se, sqrt(7.0 / 3.0), 1e-12), "mean %g se %g", s.mean, s.se);
	ic_stats_nested_interval(&s, 0.05, &lo, &hi);
	CHECK(NEAR(hi - 3.0, 4.302653 * sqrt(7.0 / 3.0), 1e-4) && NEAR(3.0 - lo, hi - 3.0, 1e-9), "interval [%g, %g]", lo, hi);
	/* ANOVA by hand: MSB = 2 * 14 / 2 = 14, MSW = (0.5 + 0 + 2) / 3 = 5/6,
	 * n0 = 2, between = (14 - 5/6) / 2, share = that / (that + 5/6). */
	{
		double vb = (14.0 - 5.0 / 6.0) / 2.0;

		CHECK(NEAR(s.share_between, vb / (vb + 5.0 / 6.0), 1e-12), "share %g", s.share_between);
	}
	/* One cluster: the units are the draws, and no share is defined. */
	CHECK(ic_stats_nested(y, (int[]){ 0, 0, 0, 0, 0, 0 }, 6, &s) == 0, "one cluster");
	CHECK(s.df == 5.0 && NEAR(s.mean, 3.0, 1e-12) && isnan(s.share_between), "one cluster: df %g", s.df);
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

static void test_rng(void)
{
	struct ic_stats_rng r1, r2;
	unsigned seen[7] = { 0 };

	ic_stats_rng_seed(&r1, 5);
	ic_stats_rng_seed(&r2, 5);
	for (int i = 0; i < 1000; i++) {
		size_t k = ic_stats_rng_below(&r1, 7);

		CHECK(k < 7, "below 7: %zu", k);
		CHECK(k == ic_stats_rng_below(&r2, 7), "same seed, same sequence");
		seen[k]++;
	}
	for (int k = 0; k < 7; k++)
		CHECK(seen[k] > 90, "value %d drawn %u times of 1000", k, seen[k]);
	CHECK(ic_stats_hash("a") != ic_stats_hash("b"), "hash separates names");
}

int main(void)
{
	test_median();
	test_median_ci();
	test_cv();
	test_mannwhitney();
	test_quantile();
	test_t();
	test_nested();
	test_rng();
	puts("plots stats: ok");
	return 0;
}
