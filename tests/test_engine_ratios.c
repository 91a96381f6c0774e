/* The generalised ratios of decision.h and the filler subtraction, on
 * hand-made processes whose answer is worked out below: any pair's ratio
 * and the interaction ratio of ratios with the nested t interval and the
 * Holm band, a per-N interval that excludes 1 while the band does not
 * (the attribution must not state it), the gross ratio of a filler
 * series, with a process lacking the mark, and the filler component of
 * benchmark names. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "check.h"
#include "gbench_doc.h"
#include "load.h"
#include "stats.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol) * fmax(1.0, fabs(b)))

static const struct ic_analysis_opts opts = {
	.compare = "inline", .baseline = "extern", .noise_ci = 0.03, .family = 0.05, .planted = NAN,
};

static void analyse(struct ic_analysis *an, struct ic_results *res)
{
	char err[512];

	CHECK(ic_analyse(an, res, &opts, err, sizeof(err)) == 0, "analyse: %s", err);
}

/* An entry of three_variants: varies, its time moves with the variant. */
struct varied {
	const char *name;
	double ns;
	int varies;
};

/* The n entries (at most 6) in three processes of layout variants v = 0,
 * 1, 2, those that vary at exp((v - 1) d) times their ns; loaded into res
 * and analysed. */
static void three_variants(struct ic_analysis *an, struct ic_results *res, const struct varied *e,
			   size_t n, double d)
{
	ic_results_init(res);
	for (int v = 0; v < 3; v++) {
		struct gbench_entry g[6];

		CHECK(n <= 6, "%zu entries", n);
		for (size_t i = 0; i < n; i++)
			g[i] = (struct gbench_entry){ e[i].name,
						      e[i].ns * (e[i].varies ? exp((v - 1) * d) : 1.0) };
		gbench_process_load(res, v, g, n);
	}
	analyse(an, res);
}

/* No N of the line resolved: what its text calls "no evidence". */
static int none_resolved(const struct ic_line *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].side != IC_SIDE_UNRESOLVED)
			return 0;
	return 1;
}

/* clone/extern = exp(a + dv) in three layout variants, dv = -d, 0, +d: the
 * estimate is exp(a), se = d / sqrt(3) on 2 degrees of freedom; at two N
 * the band uses t(1 - 0.05 / 4, 2). With a = 0.09, d = 0.03 the 95%
 * interval excludes 1 (a - 4.303 se > 0) but the band does not
 * (a - 6.205 se < 0). */
static void test_pair_band(void)
{
	const double a = 0.09, d = 0.03;
	const struct varied e[] = {
		{ "sites/clone/tail_dequeue/chain/seq/1/private/threads:1", 10.0 * exp(a), 1 },
		{ "sites/extern/tail_dequeue/chain/seq/1/private/threads:1", 10.0, 0 },
		{ "sites/clone/tail_dequeue/chain/seq/2/private/threads:1", 10.0 * exp(a), 1 },
		{ "sites/extern/tail_dequeue/chain/seq/2/private/threads:1", 10.0, 0 },
	};
	struct ic_analysis an;
	struct ic_results res;
	const struct ic_attribution *at;
	struct ic_ratio *r;
	size_t n;

	three_variants(&an, &res, e, 4, d);
	CHECK(an.nseries == 1, "one series, got %zu", an.nseries);
	CHECK(ic_ratio_series(&an.series[0].group, "clone", "extern", &opts, &r, &n) == 0, "pair");
	CHECK(n == 2, "two N, got %zu", n);
	{
		double se = d / sqrt(3.0), t = ic_stats_t_quantile(0.975, 2), tb = ic_stats_t_quantile(1 - 0.0125, 2);

		CHECK(NEAR(r[0].ratio, exp(a), 1e-9), "ratio %g, want %g", r[0].ratio, exp(a));
		CHECK(NEAR(r[0].lo, exp(a - t * se), 1e-9) && NEAR(r[0].hi, exp(a + t * se), 1e-9),
		      "interval [%g, %g]", r[0].lo, r[0].hi);
		CHECK(NEAR(r[0].band_lo, exp(a - tb * se), 1e-9) && NEAR(r[0].band_hi, exp(a + tb * se), 1e-9),
		      "band [%g, %g]", r[0].band_lo, r[0].band_hi);
		CHECK(r[0].lo > 1.0 && r[0].band_lo < 1.0, "the design: interval excludes 1, band does not");
		CHECK(r[0].side == IC_SIDE_UNRESOLVED && r[0].df == 2 && r[0].nvariants == 3, "side from the band");
	}
	free(r);
	/* The inverse pair is the reciprocal, interval and all. */
	at = an.series[0].attr;
	CHECK(ic_ratio_series(&an.series[0].group, "extern", "clone", &opts, &r, &n) == 0 && n == 2, "inverse");
	CHECK(NEAR(r[1].ratio, exp(-a), 1e-9) && NEAR(r[1].hi, 1.0 / at->line[IC_LINE_COPIES].r[1].lo, 1e-9),
	      "inverse interval");
	free(r);
	CHECK(ic_ratio_series(&an.series[0].group, "clone", "inline", &opts, &r, &n) == 0 && n == 0 && !r,
	      "a form the series lacks: no N");
	/* What the attribution can state (its text is report_attribution's). */
	CHECK(at->line[IC_LINE_COPIES].n == 2 && none_resolved(&at->line[IC_LINE_COPIES]) &&
	      isfinite(at->line[IC_LINE_COPIES].r[0].band_lo),
	      "copies: a per-N interval excluding 1 must not resolve where the band does not");
	CHECK(at->line[IC_LINE_CALL].n == 0 && at->line[IC_LINE_CALL].missing &&
	      !strcmp(at->line[IC_LINE_CALL].missing, "inline"), "call line: not measured, no inline");
	CHECK(at->line[IC_LINE_INTERACTION].n == 0 && at->has_controls, "nothing else to attribute");
	ic_analysis_free(&an);
	ic_results_free(&res);
}

/* inline/extern = exp(a[i] + dv) at N = 1, 2, 4 in three layout variants,
 * dv = -0.03, 0, +0.03: t = a sqrt(3) / 0.03 on 2 degrees of freedom,
 * whose two-sided p is 1 - t / sqrt(t^2 + 2). Returns the analysed series'
 * ratios (an and res to free). */
static const struct ic_ratio *holm_series(struct ic_analysis *an, struct ic_results *res,
					  const double *a, size_t k)
{
	static const char *const sites[] = { "1", "2", "4" };
	struct varied e[6];
	char name[6][96];

	for (size_t i = 0; i < k; i++) {
		snprintf(name[2 * i], sizeof(name[0]),
			 "sites/inline/tail_dequeue/chain/seq/%s/private/threads:1", sites[i]);
		snprintf(name[2 * i + 1], sizeof(name[0]),
			 "sites/extern/tail_dequeue/chain/seq/%s/private/threads:1", sites[i]);
		e[2 * i] = (struct varied){ name[2 * i], 10.0 * exp(a[i]), 1 };
		e[2 * i + 1] = (struct varied){ name[2 * i + 1], 10.0, 0 };
	}
	three_variants(an, res, e, 2 * k, 0.03);
	CHECK(an->nseries == 1 && an->series[0].group.nratios == k, "one series of %zu N", k);
	return an->series[0].group.ratios;
}

/* Holm's step-down where it and Bonferroni part, worked by hand (family
 * 0.05). a = 0.3: t^2 = 300, p = 0.0033; a = 0.12: t^2 = 48, p = 0.0202;
 * a = 0.09: t^2 = 27, p = 0.0351.
 *   - N = 1, 2 at a = 0.09, 0.3 (m = 2): by p, N = 2 passes 0.025 and
 *     N = 1 then 0.05: both resolved. Bonferroni (0.025 each) resolves
 *     N = 2 only, and Holm taken in N order stops at once. p_holm is
 *     2 x 0.0033 and max(that, 0.0351).
 *   - N = 1, 2, 4 at a = 0.3, 0.12, 0.09 (m = 3): 0.0033 <= 0.0167,
 *     0.0202 <= 0.025, 0.0351 <= 0.05: all three; Bonferroni N = 1 only.
 *   - N = 1, 2, 4 at a = 0.3, 0.09, 0.09 (m = 3): 0.0351 > 0.025 stops
 *     at the second step, so N = 4 stays unresolved although its
 *     0.0351 <= 0.05: the first failure stops the rest. */
static void test_holm_steps(void)
{
	static const double two[] = { 0.09, 0.3 }, all[] = { 0.3, 0.12, 0.09 },
			    stop[] = { 0.3, 0.09, 0.09 };
	const double p3 = 1.0 - sqrt(300.0 / 302.0), p09 = 1.0 - sqrt(27.0 / 29.0);
	struct ic_analysis an;
	struct ic_results res;
	const struct ic_ratio *r;

	r = holm_series(&an, &res, two, 2);
	CHECK(NEAR(r[0].p, p09, 1e-6) && NEAR(r[1].p, p3, 1e-6), "p %g %g, want %g %g", r[0].p,
	      r[1].p, p09, p3);
	CHECK(r[0].resolved && r[1].resolved && r[0].side == IC_SIDE_BASELINE &&
	      r[1].side == IC_SIDE_BASELINE, "m = 2: Holm resolves both (resolved %d %d)",
	      r[0].resolved, r[1].resolved);
	CHECK(r[0].holm_lo > 1.0 && r[0].band_lo < 1.0,
	      "N = 1: its Holm interval [%g, %g] excludes 1, the band [%g, %g] does not",
	      r[0].holm_lo, r[0].holm_hi, r[0].band_lo, r[0].band_hi);
	CHECK(NEAR(r[1].p_holm, 2.0 * p3, 1e-6) && NEAR(r[0].p_holm, p09, 1e-6),
	      "p_holm %g %g", r[0].p_holm, r[1].p_holm);
	ic_analysis_free(&an);
	ic_results_free(&res);

	r = holm_series(&an, &res, all, 3);
	CHECK(r[0].resolved && r[1].resolved && r[2].resolved, "m = 3: Holm resolves all (%d %d %d)",
	      r[0].resolved, r[1].resolved, r[2].resolved);
	ic_analysis_free(&an);
	ic_results_free(&res);

	r = holm_series(&an, &res, stop, 3);
	CHECK(r[0].resolved && !r[1].resolved && !r[2].resolved && r[2].side == IC_SIDE_UNRESOLVED,
	      "m = 3: Holm stops at the first failure (%d %d %d)", r[0].resolved, r[1].resolved,
	      r[2].resolved);
	ic_analysis_free(&an);
	ic_results_free(&res);
}

/* Per process (inline/inline_nolock)/(extern/extern_nolock) = 1.2 u with u
 * = exp(dv) per variant: the estimate is 1.2, the interval as above. */
static void test_interaction(void)
{
	const double d = 0.01;
	static const struct varied e[] = {
		{ "sites/inline/tail_dequeue/chain/seq/1/private/threads:1", 8.0, 1 },
		{ "sites/inline_nolock/tail_dequeue/chain/seq/1/private/threads:1", 6.0, 0 },
		{ "sites/extern/tail_dequeue/chain/seq/1/private/threads:1", 10.0, 0 },
		{ "sites/extern_nolock/tail_dequeue/chain/seq/1/private/threads:1", 9.0, 0 },
	};
	struct ic_analysis an;
	struct ic_results res;
	const struct ic_attribution *at;
	const struct ic_line *l;
	struct ic_ratio *r;
	size_t n;

	three_variants(&an, &res, e, 4, d);
	CHECK(ic_ratio_contrast(&an.series[0].group,
				(const char *[]){ "inline", "inline_nolock", "extern", "extern_nolock" }, 4,
				NULL, 0, &opts, &r, &n) == 0 && n == 1, "interaction");
	{
		double se = d / sqrt(3.0), t = ic_stats_t_quantile(0.975, 2);

		CHECK(NEAR(r[0].ratio, 1.2, 1e-9), "interaction %g, want 1.2", r[0].ratio);
		CHECK(NEAR(r[0].lo, 1.2 * exp(-t * se), 1e-9), "interaction lo %g", r[0].lo);
		/* One N: the band is the interval. */
		CHECK(NEAR(r[0].band_lo, r[0].lo, 1e-12) && r[0].side == IC_SIDE_BASELINE, "band of one N");
		CHECK(!strcmp(r[0].cmp->form, "inline") && !strcmp(r[0].base->form, "extern"), "outer forms");
	}
	free(r);
	CHECK(ic_ratio_series(&an.series[0].group, "inline", "inline_nolock", &opts, &r, &n) == 0 &&
	      n == 1 && NEAR(r[0].ratio, 8.0 / 6.0, 1e-9), "inline/inline_nolock");
	free(r);
	/* The lock costs more inlined (resolved above 1, every N kept without
	 * an L1i size), calls cost, copies not measured. */
	at = an.series[0].attr;
	l = &at->line[IC_LINE_INTERACTION];
	CHECK(l->n == 1 && NEAR(l->r[0].ratio, 1.2, 1e-9) && l->r[0].side == IC_SIDE_BASELINE &&
	      !at->fit_left_out && at->fit.n == 1, "interaction resolved");
	l = &at->line[IC_LINE_CALL];
	CHECK(l->n == 1 && NEAR(l->r[0].ratio, 1.25, 1e-9) && l->r[0].lo > 1.0, "calls cost");
	l = &at->line[IC_LINE_COPIES];
	CHECK(l->n == 0 && l->missing && !strcmp(l->missing, "clone"), "copies not measured");
	ic_analysis_free(&an);
	ic_results_free(&res);
}

/* Filler 512: four processes in two variants with different marks but the
 * same time above the mark (inline 5, extern 7); one without its mark
 * point, one whose mark is slower than the form. The series is a whole
 * program: its ratio is of the gross times, from all six processes. */
static void test_filler(void)
{
	static const double mark[6] = { 10, 12, 9, 11, NAN, 20 };
	static const int variant[6] = { 0, 0, 1, 1, 2, 3 };
	struct ic_analysis an;
	struct ic_results res;
	const struct ic_group *g = NULL, *g0;
	const struct ic_point *inl;

	ic_results_init(&res);
	for (int p = 0; p < 6; p++) {
		double m = isnan(mark[p]) ? 10.0 : mark[p];
		struct gbench_entry e[] = {
			{ "sites/inline/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1",
			  p == 5 ? 15.0 : m + 5.0 },
			{ "sites/extern/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1",
			  p == 5 ? 17.0 : m + 7.0 },
			{ "sites/mark/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1", m },
			/* filler:0 is no filler: the same series as no component. */
			{ "sites/inline/tail_dequeue/chain/seq/4/private/filler:0/real_time/threads:1", 7.0 },
			{ "sites/extern/tail_dequeue/chain/seq/4/private/real_time/threads:1", 9.0 },
		};

		struct gbench_entry nomark[] = { e[0], e[1], e[3], e[4] };

		if (isnan(mark[p]))
			gbench_process_load(&res, variant[p], nomark, 4);
		else
			gbench_process_load(&res, variant[p], e, 5);
	}
	analyse(&an, &res);
	CHECK(an.nseries == 2, "filler 0 and 512: two series, got %zu", an.nseries);
	for (size_t i = 0; i < an.nseries; i++)
		if (an.series[i].group.filler == 512)
			g = &an.series[i].group;
	g0 = &an.series[0].group;
	CHECK(g && g0->filler == 0, "filler 0 first, then 512");
	inl = ic_group_point(g, "inline", 4);
	CHECK(inl && ic_group_point(g, "mark", 4), "points");
	CHECK(inl->nunits == 6, "units: %zu", inl->nunits);
	CHECK(inl->med[IC_F_NS] > 14.0 && inl->med[IC_F_NS] < 17.0, "gross %g", inl->med[IC_F_NS]);
	CHECK(g->nratios == 1 && g->ratios[0].nunits == 6 && g->ratios[0].ratio > 0.85 &&
	      g->ratios[0].ratio < 0.9, "gross ratio %g from %zu processes", g->ratios[0].ratio,
	      g->ratios[0].nunits);
	CHECK(g0->nratios == 1 && NEAR(g0->ratios[0].ratio, 7.0 / 9.0, 1e-9), "filler 0 untouched");
	ic_analysis_free(&an);
	ic_results_free(&res);
}

static void test_bad_filler(void)
{
	static const char text[] =
		"{\"benchmarks\": [{\"name\": \"sites/inline/op/chain/seq/4/private/filler:x/threads:1\", "
		"\"real_time\": 1, \"time_unit\": \"ns\"}]}";
	struct ic_results res;
	char err[512];

	ic_results_init(&res);
	CHECK(ic_results_load_text(&res, "bad.json", text, strlen(text), NAN, err, sizeof(err)) == -1,
	      "filler:x accepted");
	CHECK(strstr(err, "[/filler:<F>]"), "message: %s", err);
	ic_results_free(&res);
}

int main(void)
{
	test_pair_band();
	test_holm_steps();
	test_interaction();
	test_filler();
	test_bad_filler();
	puts("engine ratios: ok");
	return 0;
}
