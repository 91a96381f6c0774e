/* plots/stats.c against answers worked out by hand (binomial tables,
 * the exact U distribution, a tie-corrected normal approximation). */
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

static void test_bootstrap(void)
{
	double a[10], b[10], c[10], lo1, hi1, lo2, hi2, lo3, hi3;
	unsigned long long s = 7;

	for (int i = 0; i < 10; i++) {
		double u = (double)(ic_test_rand(&s) >> 11) / 9007199254740992.0 - 0.5;
		double v = (double)(ic_test_rand(&s) >> 11) / 9007199254740992.0 - 0.5;

		a[i] = 9.0 * (1.0 + 0.01 * u);    /* about 10% faster than b */
		b[i] = 10.0 * (1.0 + 0.01 * v);
		c[i] = 5.0;
	}
	CHECK(ic_stats_bootstrap_ratio(a, 10, b, 10, 2000, 42, &lo1, &hi1) == 0, "bootstrap");
	CHECK(ic_stats_bootstrap_ratio(a, 10, b, 10, 2000, 42, &lo2, &hi2) == 0, "bootstrap again");
	CHECK(lo1 == lo2 && hi1 == hi2, "same seed, same interval: [%.17g, %.17g] vs [%.17g, %.17g]",
	      lo1, hi1, lo2, hi2);
	CHECK(ic_stats_bootstrap_ratio(a, 10, b, 10, 2000, 43, &lo3, &hi3) == 0, "other seed");
	CHECK(lo3 != lo1 || hi3 != hi1, "another seed resamples differently");
	CHECK(lo1 > 0.88 && hi1 < 0.92 && lo1 < hi1, "interval [%g, %g] around 0.9", lo1, hi1);
	CHECK(ic_stats_bootstrap_ratio(c, 10, c, 10, 500, 1, &lo1, &hi1) == 0, "constant samples");
	CHECK(lo1 == 1.0 && hi1 == 1.0, "constant samples: [%g, %g]", lo1, hi1);
	CHECK(ic_stats_bootstrap_ratio(a, 0, b, 10, 500, 1, &lo1, &hi1) == -1, "empty sample fails");
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
	test_bootstrap();
	test_rng();
	puts("plots stats: ok");
	return 0;
}
