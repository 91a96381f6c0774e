/* The verdict by simulation, on series built in memory (6 layout variants
 * x 2 processes, N = 1, 4, ..., 16384 unless said):
 *   - null: no true difference at any N; Holm's step-down resolves some N in at
 *     most 5% of series, and a crossover (or conflict) is claimed as rarely;
 *   - a planted effect at the first N only and at the last N only is found,
 *     and opposite effects at both ends give the crossover (first, last).
 * The states are test_engine_state_model.c's.
 * Prints the rates it measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decision.h"

#define NV 6
#define NP_MAX 48
#define NN 8
#define TRIALS 2000

static unsigned long long rng = 20131111;   /* fixed: the same rates every run */

static double normal(void)
{
	double u = ((double)(ic_test_rand(&rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = (double)(ic_test_rand(&rng) >> 11) / 9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

/* A series of inline and extern points whose per-process log ratio at N
 * index i is y[p * NN + i] (extern 10 ns everywhere); process p runs
 * layout variant p % NV. */
struct sim {
	struct ic_point pts[2 * NN], *pp[2 * NN];
	struct ic_unit units[2 * NN][NP_MAX];
	struct ic_group g;
};

static void sim_build(struct sim *s, const double *y, size_t np)
{
	struct ic_ratio *r = s->g.ratios;   /* reused by sim_verdict */

	memset(s, 0, sizeof(*s));
	s->g.ratios = r;
	for (size_t f = 0; f < 2; f++)
		for (size_t i = 0; i < NN; i++) {
			struct ic_point *p = &s->pts[f * NN + i];

			strcpy(p->form, f ? "extern" : "inline");
			p->sites = 1ul << (2 * i);
			p->units = s->units[f * NN + i];
			p->nunits = np;
			p->nreps = 10 * np;
			for (size_t u = 0; u < np; u++)
				p->units[u] = (struct ic_unit){ (unsigned)u, (int)(u % NV),
								f ? 10.0 : 10.0 * exp(y[u * NN + i]), 0.02, 1 };
			p->med[IC_F_NS] = 10.0;
			s->pp[f * NN + i] = p;
		}
	s->g.points = s->pp;
	s->g.npoints = 2 * NN;
}

static const struct ic_analysis_opts opts = {
	.compare = "inline", .baseline = "extern", .noise_ci = 0.03, .family = 0.05, .planted = NAN,
};

/* The series' ratios and verdict; g keeps the ratios for the states. */
static struct ic_crossover sim_verdict(struct sim *s)
{
	struct ic_crossover xo;

	free(s->g.ratios);
	CHECK(ic_ratio_series(&s->g, "inline", "extern", &opts, &s->g.ratios, &s->g.nratios) == 0 &&
	      s->g.nratios == NN, "ratios");
	CHECK(ic_ratio_crossover(s->g.ratios, NN, &xo) == 0, "crossover");
	return xo;
}

static void sim_draw(double *y, size_t np, const double *truth)
{
	double lay[NV][NN], proc;

	for (size_t v = 0; v < NV; v++)
		for (size_t i = 0; i < NN; i++)
			lay[v][i] = 0.03 * normal();
	for (size_t p = 0; p < np; p++) {
		proc = 0.03 * normal();
		for (size_t i = 0; i < NN; i++)
			y[p * NN + i] = truth[i] + lay[p % NV][i] + proc + 0.02 * normal();
	}
}

static struct sim sim;

static void test_null(void)
{
	double truth[NN] = { 0 }, y[NP_MAX * NN];
	size_t any = 0, claims = 0;

	for (int t = 0; t < TRIALS; t++) {
		struct ic_crossover xo;

		sim_draw(y, 12, truth);
		sim_build(&sim, y, 12);
		xo = sim_verdict(&sim);
		any += xo.n_compare + xo.n_baseline > 0;
		claims += xo.verdict == IC_VERDICT_CROSSOVER || xo.verdict == IC_VERDICT_CONFLICT;
	}
	printf("null, %d series of %d N: some N resolved in %.2f%%, crossover or conflict claimed in %.2f%%\n",
	       TRIALS, NN, 100.0 * any / TRIALS, 100.0 * claims / TRIALS);
	/* Holm holds the family-wise error at 5%; 0.6% is two Monte Carlo SEs. */
	CHECK(any <= 0.056 * TRIALS, "family-wise false resolutions %zu of %d", any, TRIALS);
	CHECK(claims <= 0.05 * TRIALS, "false crossovers %zu of %d", claims, TRIALS);
}

/* The planted effect: how often the verdict is `want` with that bracket. */
static double planted(const double *truth, enum ic_verdict want, double lo, double hi)
{
	double y[NP_MAX * NN];
	size_t hit = 0;

	for (int t = 0; t < TRIALS / 4; t++) {
		struct ic_crossover xo;

		sim_draw(y, 12, truth);
		sim_build(&sim, y, 12);
		xo = sim_verdict(&sim);
		hit += xo.verdict == want && (isnan(lo) || (xo.bracket_lo == lo && xo.bracket_hi == hi));
	}
	return (double)hit / (TRIALS / 4);
}

static void test_planted_ends(void)
{
	double first[NN] = { log(0.8) }, last[NN] = { 0 }, both[NN] = { log(0.8) };
	double pf, pl, pb;

	last[NN - 1] = log(1.25);
	both[NN - 1] = log(1.25);
	pf = planted(first, IC_VERDICT_COMPARE_WINS, NAN, NAN);
	pl = planted(last, IC_VERDICT_BASELINE_WINS, NAN, NAN);
	pb = planted(both, IC_VERDICT_CROSSOVER, 1.0, 16384.0);
	printf("planted 0.8 at the first N: found in %.1f%%; 1.25 at the last: %.1f%%; both: crossover "
	       "(1, 16384) in %.1f%%\n", 100.0 * pf, 100.0 * pl, 100.0 * pb);
	CHECK(pf >= 0.9 && pl >= 0.9 && pb >= 0.85, "planted ends found %.3f %.3f %.3f", pf, pl, pb);
}

int main(void)
{
	test_null();
	test_planted_ends();
	free(sim.g.ratios);
	puts("engine verdict: ok");
	return 0;
}
