/* agree's statistics (engine/agreement.h) on hand-made figures with known
 * answers, and the run reader (engine/run.h) on a recorded run:
 *   - the verdict per N: equivalent, differ, cannot tell, no interval, and
 *     the margin deciding between the first two;
 *   - the joint test: identical runs give p = 1; runs shifted at every N
 *     give the smallest p their splits allow (all 70 of 4 + 4 counted), with
 *     draws by variant or by process as the nested estimate forms them;
 *   - Fisher's exact test against values worked out by hand;
 *   - on a recorded run against another, the largest |t| of the draws is
 *     the largest |d| / se of the engine's nested estimates: the draws are
 *     the estimate's own.
 * Usage: test_compare_engine DATA-DIR (tests/data/compare). Exit 0 pass, 1 fail.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "agreement.h"
#include "check.h"
#include "run.h"

static struct ic_ratio ratio_of(unsigned long sites, double r, double se, double df)
{
	return (struct ic_ratio){ .sites = sites, .ratio = r, .se = se, .df = df };
}

static enum ic_agree_verdict verdict_of(double ra, double rb, double se, double margin)
{
	struct ic_ratio a = ratio_of(1, ra, se, 10), b = ratio_of(1, rb, se, 10);
	struct ic_agree_side sa = { &a, 1, NULL, NULL, -1 }, sb = { &b, 1, NULL, NULL, -1 };
	struct ic_agree ag;
	enum ic_agree_verdict v;

	CHECK(ic_agree_compare(&sa, &sb, margin, &ag) == 0, "out of memory");
	CHECK(ag.npts == 1, "%zu points", ag.npts);
	v = ag.pts[0].verdict;
	ic_agree_free(&ag);
	return v;
}

static void test_verdicts(void)
{
	CHECK(verdict_of(1.0, 1.01, 0.005, 0.03) == IC_AGREE_EQUIVALENT, "1%% apart, se 0.005");
	CHECK(verdict_of(1.0, 1.10, 0.005, 0.03) == IC_AGREE_DIFFER, "10%% apart");
	CHECK(verdict_of(1.0, 1.01, 0.05, 0.03) == IC_AGREE_CANNOT_TELL, "se 0.05: too noisy");
	CHECK(verdict_of(1.0, 1.0, NAN, 0.03) == IC_AGREE_NO_INTERVAL, "no se");
	/* 2.5% apart and sharp: inside a 3% margin, a difference at 2%. */
	CHECK(verdict_of(1.0, 1.025, 1e-4, 0.03) == IC_AGREE_EQUIVALENT, "2.5%% at 3%%");
	CHECK(verdict_of(1.0, 1.025, 1e-4, 0.02) == IC_AGREE_DIFFER, "2.5%% at 2%%");
}

/* Four processes at two N; variant[p] = p, or 0 for all (one variant). */
struct hand_run {
	struct ic_process_ratios pr;
	struct ic_states st;
	double logr[8];
	unsigned unit[4];
	int variant[4], state[4];
	unsigned long sites[2];
	struct ic_ratio r[2];
};

/* shift: of every N's log ratios, or with last_only of N = 64's alone. */
static void hand_run_make(struct hand_run *h, double shift, int one_variant, int last_only)
{
	static const double y[8] = { 0.005, -0.01, 0.015, 0.00, 0.01, 0.005, -0.005, 0.00 };

	memset(h, 0, sizeof(*h));
	for (int i = 0; i < 8; i++)
		h->logr[i] = y[i] + (last_only && i < 4 ? 0.0 : shift);
	for (int p = 0; p < 4; p++) {
		h->unit[p] = (unsigned)p;
		h->variant[p] = one_variant ? 0 : p;
	}
	h->sites[0] = 1;
	h->sites[1] = 64;
	h->pr = (struct ic_process_ratios){ .nproc = 4, .unit = h->unit, .variant = h->variant,
					    .nsites = 2, .sites = h->sites, .logr = h->logr };
	h->st = (struct ic_states){ .nproc = 4, .state = h->state, .nstates = 1 };
	/* The nested estimates of those draws (mean, sd / sqrt 4, df 3). */
	for (int i = 0; i < 2; i++) {
		double m = 0, ss = 0;

		for (int p = 0; p < 4; p++)
			m += h->logr[i * 4 + p] / 4.0;
		for (int p = 0; p < 4; p++)
			ss += pow(h->logr[i * 4 + p] - m, 2);
		h->r[i] = ratio_of(h->sites[i], exp(m), sqrt(ss / 3.0 / 4.0), 3.0);
	}
}

static struct ic_agree_joint joint_of(double shift, int one_variant, int last_only)
{
	static struct hand_run a, b;
	struct ic_agree_side sa, sb;
	struct ic_agree ag;
	struct ic_agree_joint j;

	hand_run_make(&a, 0.0, one_variant, 0);
	hand_run_make(&b, shift, one_variant, last_only);
	sa = (struct ic_agree_side){ a.r, 2, &a.pr, &a.st, -1 };
	sb = (struct ic_agree_side){ b.r, 2, &b.pr, &b.st, -1 };
	CHECK(ic_agree_compare(&sa, &sb, IC_AGREE_MARGIN, &ag) == 0, "out of memory");
	CHECK(ag.npts == 2, "%zu points", ag.npts);
	j = ag.joint;
	ic_agree_free(&ag);
	return j;
}

static void test_joint(void)
{
	struct ic_agree_joint j = joint_of(0.0, 0, 0);

	CHECK(j.t_max == 0.0 && j.p == 1.0, "identical: t %g p %g", j.t_max, j.p);
	CHECK(j.exact && j.nsplits == 70 && j.draws_a == 4 && j.variants_a, "splits %zu draws %zu",
	      j.nsplits, j.draws_a);
	CHECK(j.equivalent, "identical and sharp: equivalent at every N");
	j = joint_of(0.2, 0, 0);
	CHECK(fabs(j.p - 2.0 / 70.0) < 1e-12 && fabs(j.p_min - 2.0 / 70.0) < 1e-12,
	      "shifted by 0.2: p %g, want 2/70", j.p);
	CHECK(j.counts[IC_AGREE_DIFFER] == 2, "shifted: %zu of 2 N differ", j.counts[IC_AGREE_DIFFER]);
	j = joint_of(0.2, 1, 0);
	CHECK(!j.variants_a && j.draws_a == 4 && fabs(j.p - 2.0 / 70.0) < 1e-12,
	      "one variant: the processes are the draws (%zu, p %g)", j.draws_a, j.p);
	/* Equivalent at N = 1, shifted at N = 64: equivalence is at every N
	 * (intersection-union), so the runs are not equivalent. */
	j = joint_of(0.2, 0, 1);
	CHECK(j.counts[IC_AGREE_EQUIVALENT] == 1 && j.counts[IC_AGREE_DIFFER] == 1 && !j.equivalent,
	      "one N of two shifted: %zu equivalent, %zu differ, joint %d",
	      j.counts[IC_AGREE_EQUIVALENT], j.counts[IC_AGREE_DIFFER], j.equivalent);
}

static void test_fisher(void)
{
	/* Worked out from the hypergeometric distribution by hand. */
	CHECK(fabs(ic_agree_fisher(3, 3, 0, 3) - 0.1) < 1e-12, "3/3 vs 0/3");
	CHECK(fabs(ic_agree_fisher(6, 12, 12, 12) - 0.0137299771167048) < 1e-9, "6/12 vs 12/12");
	CHECK(fabs(ic_agree_fisher(12, 12, 6, 12) - 0.0137299771167048) < 1e-9, "12/12 vs 6/12");
	CHECK(fabs(ic_agree_fisher(2, 12, 10, 12) - 0.00332894995702911) < 1e-9, "2/12 vs 10/12");
	CHECK(ic_agree_fisher(5, 10, 5, 10) == 1.0, "alike");
	CHECK(isnan(ic_agree_fisher(0, 0, 1, 2)), "no processes");
}

/* The engine's per-N estimates and agree's draws tell the same t. */
static void test_recorded(const char *data)
{
	char pa[1024], pb[1024], err[1024];
	struct ic_run a, b;

	snprintf(pa, sizeof(pa), "%s/quick-gcc-O2", data);
	snprintf(pb, sizeof(pb), "%s/quick-clang-O2", data);
	CHECK(ic_run_open(&a, pa, err, sizeof(err)) == 0, "%s", err);
	CHECK(ic_run_open(&b, pb, err, sizeof(err)) == 0, "%s", err);
	CHECK(a.an.nseries > 0 && a.an.nseries == b.an.nseries, "series %zu, %zu", a.an.nseries,
	      b.an.nseries);
	for (size_t g = 0; g < a.an.nseries; g++) {
		const struct ic_series *ea = &a.an.series[g], *eb = &b.an.series[g];
		const struct ic_group *ga = &ea->group, *gb = &eb->group;
		struct ic_agree_side sa = { ga->ratios, ga->nratios, &ea->procs, ea->states, -1 };
		struct ic_agree_side sb = { gb->ratios, gb->nratios, &eb->procs, eb->states, -1 };
		struct ic_agree ag;
		double best = 0.0;

		CHECK(ic_agree_compare(&sa, &sb, IC_AGREE_MARGIN, &ag) == 0, "out of memory");
		CHECK(ag.npts == ga->nratios, "group %zu: %zu of %zu N", g, ag.npts, ga->nratios);
		for (size_t i = 0; i < ag.npts; i++)
			best = fmax(best, fabs(ag.pts[i].d) / ag.pts[i].se);
		CHECK(fabs(ag.joint.t_max - best) <= 1e-9 * best, "group %zu: draws' t %.12g, engine's %.12g",
		      g, ag.joint.t_max, best);
		ic_agree_free(&ag);
	}
	ic_run_free(&a);
	ic_run_free(&b);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: test_compare_engine DATA-DIR");
	test_verdicts();
	test_joint();
	test_fisher();
	test_recorded(argv[1]);
	puts("PASS: agree's statistics and the run reader");
	return 0;
}
