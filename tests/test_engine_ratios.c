/* The generalised ratios of results.h and the filler subtraction, on
 * hand-made processes whose answer is worked out below: any pair's ratio
 * and the interaction ratio of ratios with the nested t interval and the
 * Holm band, a per-N interval that excludes 1 while the band does not
 * (the attribution must not state it), the gross ratio of a filler
 * series, with a process lacking the mark, and the filler component of
 * benchmark names. */
#define _GNU_SOURCE   /* open_memstream, mkdtemp */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "attribution.h"
#include "report.h"
#include "check.h"
#include "results.h"
#include "stats.h"

#define NEAR(a, b, tol) (fabs((a) - (b)) <= (tol) * fmax(1.0, fabs(b)))

static char dir[] = "/tmp/test_engine_ratios.XXXXXX";
static int nfiles;

struct entry {
	const char *name;
	double ns;
};

/* One process (one file): one repetition per entry, so its median is ns. */
static void write_process(struct ic_results *res, int variant, const struct entry *e, size_t n)
{
	char path[256], v[16], err[512];
	json_t *doc = json_object(), *bench = json_array();

	snprintf(v, sizeof(v), "%d", variant);
	json_object_set_new(doc, "context", json_pack("{s:s, s:s, s:s}", "layout_variant", v,
						      "layout_seed", "7", "counter_source", "none"));
	for (size_t i = 0; i < n; i++)
		json_array_append_new(bench, json_pack("{s:s, s:s, s:i, s:f, s:s}", "name", e[i].name,
						       "run_type", "iteration", "threads", 1,
						       "real_time", e[i].ns, "time_unit", "ns"));
	json_object_set_new(doc, "benchmarks", bench);
	snprintf(path, sizeof(path), "%s/p%d.json", dir, nfiles++);
	CHECK(json_dump_file(doc, path, 0) == 0, "write %s", path);
	json_decref(doc);
	CHECK(ic_results_load(res, path, err, sizeof(err)) == 0, "load: %s", err);
	unlink(path);
}

static const struct ic_analysis_opts opts = {
	.compare = "inline", .baseline = "extern", .noise_ci = 0.03, .family = 0.05, .planted = NAN,
};

static void analyse(struct ic_results *res)
{
	char err[512];

	CHECK(ic_results_analyse(res, &opts, err, sizeof(err)) == 0, "analyse: %s", err);
}

static char *attribution_text(const struct ic_results *res, const struct ic_group *g)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	CHECK(f, "memstream");
	ic_attribution_write(f, res, g);
	fclose(f);
	return buf;
}

/* clone/extern = exp(a + dv) in three layout variants, dv = -d, 0, +d: the
 * estimate is exp(a), se = d / sqrt(3) on 2 degrees of freedom; at two N
 * the band uses t(1 - 0.05 / 4, 2). With a = 0.09, d = 0.03 the 95%
 * interval excludes 1 (a - 4.303 se > 0) but the band does not
 * (a - 6.205 se < 0). */
static void test_pair_band(void)
{
	const double a = 0.09, d = 0.03, dv[3] = { -d, 0, d };
	struct ic_results res;
	struct ic_ratio *r;
	size_t n;
	char *text;

	ic_results_init(&res);
	for (int v = 0; v < 3; v++) {
		struct entry e[] = {
			{ "sites/clone/tail_dequeue/chain/seq/1/private/threads:1", 10.0 * exp(a + dv[v]) },
			{ "sites/extern/tail_dequeue/chain/seq/1/private/threads:1", 10.0 },
			{ "sites/clone/tail_dequeue/chain/seq/2/private/threads:1", 10.0 * exp(a + dv[v]) },
			{ "sites/extern/tail_dequeue/chain/seq/2/private/threads:1", 10.0 },
		};

		write_process(&res, v, e, 4);
	}
	analyse(&res);
	CHECK(res.ngroups == 1, "one series, got %zu", res.ngroups);
	CHECK(ic_results_ratio_series(&res.groups[0], "clone", "extern", &opts, &r, &n) == 0, "pair");
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
	CHECK(ic_results_ratio_series(&res.groups[0], "extern", "clone", &opts, &r, &n) == 0 && n == 2, "inverse");
	CHECK(NEAR(r[1].ratio, exp(-a), 1e-9) && NEAR(r[1].hi, 1.0 / res.groups[0].attr->line[IC_LINE_COPIES].r[1].lo, 1e-9),
	      "inverse interval");
	free(r);
	CHECK(ic_results_ratio_series(&res.groups[0], "clone", "inline", &opts, &r, &n) == 0 && n == 0 && !r,
	      "a form the series lacks: no N");
	text = attribution_text(&res, &res.groups[0]);
	CHECK(strstr(text, "copies: no evidence at this resolution (bands"), "per-N interval excluding 1 "
	      "must not be stated when the band does not:\n%s", text);
	CHECK(!strstr(text, "copies cost"), "copies stated from a per-N interval:\n%s", text);
	CHECK(strstr(text, "call overhead: not measured (no inline in this series)"), "call line:\n%s", text);
	CHECK(strstr(text, "nothing can be attributed here"), "nothing resolved:\n%s", text);
	free(text);
	ic_results_free(&res);
}

/* Per process (inline/inline_nolock)/(extern/extern_nolock) = 1.2 u with u
 * = exp(dv) per variant: the estimate is 1.2, the interval as above. */
static void test_interaction(void)
{
	const double d = 0.01, dv[3] = { -d, 0, d };
	struct ic_results res;
	struct ic_ratio *r;
	size_t n;
	char *text;

	ic_results_init(&res);
	for (int v = 0; v < 3; v++) {
		struct entry e[] = {
			{ "sites/inline/tail_dequeue/chain/seq/1/private/threads:1", 8.0 * exp(dv[v]) },
			{ "sites/inline_nolock/tail_dequeue/chain/seq/1/private/threads:1", 6.0 },
			{ "sites/extern/tail_dequeue/chain/seq/1/private/threads:1", 10.0 },
			{ "sites/extern_nolock/tail_dequeue/chain/seq/1/private/threads:1", 9.0 },
		};

		write_process(&res, v, e, 4);
	}
	analyse(&res);
	CHECK(ic_results_interaction_series(&res.groups[0], "inline", "inline_nolock", "extern",
					    "extern_nolock", &opts, &r, &n) == 0 && n == 1, "interaction");
	{
		double se = d / sqrt(3.0), t = ic_stats_t_quantile(0.975, 2);

		CHECK(NEAR(r[0].ratio, 1.2, 1e-9), "interaction %g, want 1.2", r[0].ratio);
		CHECK(NEAR(r[0].lo, 1.2 * exp(-t * se), 1e-9), "interaction lo %g", r[0].lo);
		/* One N: the band is the interval. */
		CHECK(NEAR(r[0].band_lo, r[0].lo, 1e-12) && r[0].side == IC_SIDE_BASELINE, "band of one N");
		CHECK(!strcmp(r[0].cmp->form, "inline") && !strcmp(r[0].base->form, "extern"), "outer forms");
	}
	free(r);
	CHECK(ic_results_ratio_series(&res.groups[0], "inline", "inline_nolock", &opts, &r, &n) == 0 &&
	      n == 1 && NEAR(r[0].ratio, 8.0 / 6.0, 1e-9), "inline/inline_nolock");
	free(r);
	text = attribution_text(&res, &res.groups[0]);
	CHECK(strstr(text, "the lock costs more inlined than called: (inline/inline_nolock)/(extern/extern_nolock) is 1.200x"),
	      "resolved interaction stated:\n%s", text);
	CHECK(strstr(text, "calls cost: extern is 1.250x inline at N = 1"), "calls stated:\n%s", text);
	CHECK(strstr(text, "copies: not measured (no clone in this series)"), "copies not measured:\n%s", text);
	free(text);
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
	struct ic_results res;
	const struct ic_group *g = NULL;
	const struct ic_point *inl;

	ic_results_init(&res);
	for (int p = 0; p < 6; p++) {
		double m = isnan(mark[p]) ? 10.0 : mark[p];
		struct entry e[] = {
			{ "sites/inline/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1",
			  p == 5 ? 15.0 : m + 5.0 },
			{ "sites/extern/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1",
			  p == 5 ? 17.0 : m + 7.0 },
			{ "sites/mark/tail_dequeue/chain/seq/4/private/filler:512/real_time/threads:1", m },
			/* filler:0 is no filler: the same series as no component. */
			{ "sites/inline/tail_dequeue/chain/seq/4/private/filler:0/real_time/threads:1", 7.0 },
			{ "sites/extern/tail_dequeue/chain/seq/4/private/real_time/threads:1", 9.0 },
		};

		struct entry nomark[] = { e[0], e[1], e[3], e[4] };

		if (isnan(mark[p]))
			write_process(&res, variant[p], nomark, 4);
		else
			write_process(&res, variant[p], e, 5);
	}
	analyse(&res);
	CHECK(res.ngroups == 2, "filler 0 and 512: two series, got %zu", res.ngroups);
	for (size_t i = 0; i < res.ngroups; i++)
		if (res.groups[i].filler == 512)
			g = &res.groups[i];
	CHECK(g && res.groups[0].filler == 0, "filler 0 first, then 512");
	inl = ic_group_point(g, "inline", 4);
	CHECK(inl && ic_group_point(g, "mark", 4), "points");
	CHECK(inl->nunits == 6, "units: %zu", inl->nunits);
	CHECK(inl->med[IC_F_NS] > 14.0 && inl->med[IC_F_NS] < 17.0, "gross %g", inl->med[IC_F_NS]);
	CHECK(g->nratios == 1 && g->ratios[0].nunits == 6 && g->ratios[0].ratio > 0.85 &&
	      g->ratios[0].ratio < 0.9, "gross ratio %g from %zu processes", g->ratios[0].ratio,
	      g->ratios[0].nunits);
	CHECK(res.groups[0].nratios == 1 && NEAR(res.groups[0].ratios[0].ratio, 7.0 / 9.0, 1e-9),
	      "filler 0 untouched");
	ic_results_free(&res);
}

static void test_bad_filler(void)
{
	struct ic_results res;
	char path[256], err[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bad.json", dir);
	f = fopen(path, "w");
	CHECK(f, "open");
	fputs("{\"benchmarks\": [{\"name\": \"sites/inline/op/chain/seq/4/private/filler:x/threads:1\", "
	      "\"real_time\": 1, \"time_unit\": \"ns\"}]}", f);
	fclose(f);
	ic_results_init(&res);
	CHECK(ic_results_load(&res, path, err, sizeof(err)) == -1, "filler:x accepted");
	CHECK(strstr(err, "[/filler:<F>]"), "message: %s", err);
	ic_results_free(&res);
	unlink(path);
}

int main(void)
{
	CHECK(mkdtemp(dir), "mkdtemp");
	test_pair_band();
	test_interaction();
	test_filler();
	test_bad_filler();
	rmdir(dir);
	puts("engine ratios: ok");
	return 0;
}
