/* The states in time (state_model.h) by simulation, on machines planted
 * in memory, a watch's design: processes of 8 s one after another, 0.3 s
 * apart, each running inline and extern at two N, a repetition every 0.1 s
 * alternating the N; each process has an offset of its own (its layout,
 * its start) of 1% SD, each repetition noise of 5% SD.
 *
 *   - two-state Markov machines (mean spell of the high state 5, 15, 30 and
 *     60 s; its share of time 0.1, 0.3 and 0.5; levels 1.0 and 1.65 at one
 *     N, 0.95 and 1.2 at the other) over 10 minutes: where two states are
 *     found, the printed 95% intervals hold the planted level at each N,
 *     share of time and mean spells in >= 90% of trials; and two states
 *     are found in most trials;
 *   - one-state machines with normal, t3, lognormal (skewed slow) and
 *     few-slow (1 repetition in 20 slower by 3 SDs on average) noise are
 *     called two states in <= 5% of trials, and a process switching inside
 *     is never named there;
 *   - the same in a sweep's design: 16 processes of 10 s, 0.5 s apart, the
 *     repetitions cycling over 14 N every 0.06 s, the states equal at the
 *     first 3 N (0.9) and apart at the rest (1.0 and 1.65); planted
 *     machines with mean spells of 15 and 60 s and shares 0.3 and 0.5.
 * Prints the rates it measured. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "check.h"
#include "state_model.h"

#define PROC_S 8.0
#define GAP_S 0.3
#define STEP_S 0.1
#define NOISE 0.05
#define OFFSET 0.01
/* Trials per cell: 20, or 6 with --short (the fast set's; the slow
 * set runs all 20). */
static int ntrials = 20;
static int short_run;   /* --short: also fewer planted cells (spells 5 and 30 s, shares 0.3, 0.5) */

static const double level[2][2] = { { 1.0, 1.65 }, { 0.95, 1.2 } };   /* [N][state] */

enum law { LAW_NORMAL, LAW_T3, LAW_LOGNORMAL, LAW_FEW_SLOW, LAW_COUNT };
static const char *const law_name[] = { "normal", "t3", "lognormal", "few slow" };

static double noise(gsl_rng *r, enum law law)
{
	switch (law) {
	case LAW_T3:
		/* Scaled to the normal's SD. */
		return NOISE * gsl_ran_tdist(r, 3.0) / sqrt(3.0);
	case LAW_LOGNORMAL:
		return NOISE * (gsl_ran_lognormal(r, 0.0, 0.5) - exp(0.125)) / 0.6;
	case LAW_FEW_SLOW:
		return gsl_ran_gaussian(r, NOISE) +
		       (gsl_rng_uniform(r) < 0.05 ? gsl_ran_exponential(r, 3.0 * NOISE) : 0.0);
	default:
		return gsl_ran_gaussian(r, NOISE);
	}
}

/* A machine over duration seconds: its path (rates a out of 0, b out of
 * 1; a = 0 for one state) seen through processes. Returns the count. */
static size_t simulate(gsl_rng *r, double duration, double a, double b, enum law law,
		       struct ic_sm_obs *obs, size_t *nproc)
{
	double t = 0.0, next;
	int s = a > 0.0 && gsl_rng_uniform(r) < a / (a + b);
	size_t n = 0, p = 0;

	next = a > 0.0 ? gsl_ran_exponential(r, 1.0 / (s ? b : a)) : INFINITY;
	for (double start = 0.0; start + PROC_S <= duration; start += PROC_S + GAP_S, p++) {
		double off = gsl_ran_gaussian(r, OFFSET);

		for (t = start; t < start + PROC_S; t += STEP_S) {
			unsigned j = (unsigned)(n % 2);

			while (t >= next) {
				s = !s;
				next += gsl_ran_exponential(r, 1.0 / (s ? b : a));
			}
			obs[n] = (struct ic_sm_obs){ .t = 1e9 + t, .site = j, .proc = (unsigned)p,
						     .y = log(level[j][s]) + off + noise(r, law) };
			n++;
		}
	}
	*nproc = p;
	return n;
}

static int holds(double lo, double hi, double x);

/* A sweep's design: 16 processes of 10 s, 14 N cycling. */
#define SW_PROCS 16
#define SW_PROC_S 10.0
#define SW_GAP_S 0.5
#define SW_STEP_S 0.06
#define SW_NSITES 14

static double sweep_level(unsigned j, int s)
{
	return j < 3 ? 0.9 : s ? 1.65 : 1.0;
}

static size_t simulate_sweep(gsl_rng *r, double a, double b, struct ic_sm_obs *obs)
{
	int s = a > 0.0 && gsl_rng_uniform(r) < a / (a + b);
	double next = a > 0.0 ? gsl_ran_exponential(r, 1.0 / (s ? b : a)) : INFINITY;
	size_t n = 0;

	for (size_t p = 0; p < SW_PROCS; p++) {
		double start = (double)p * (SW_PROC_S + SW_GAP_S), off = gsl_ran_gaussian(r, OFFSET);

		for (double t = start; t < start + SW_PROC_S; t += SW_STEP_S) {
			unsigned j = (unsigned)(n % SW_NSITES);

			while (t >= next) {
				s = !s;
				next += gsl_ran_exponential(r, 1.0 / (s ? b : a));
			}
			obs[n] = (struct ic_sm_obs){ .t = 1e9 + t, .site = j, .proc = (unsigned)p,
						     .y = log(sweep_level(j, s)) + off + gsl_ran_gaussian(r, NOISE) };
			n++;
		}
	}
	return n;
}

static void test_sweep(gsl_rng *r, struct ic_sm_obs *obs)
{
	static const double spells[] = { 15.0, 60.0 }, shares[] = { 0.3, 0.5 };
	size_t found = 0, trials = 0, lev = 0, nlev = 0, share = 0, spell = 0, two = 0;

	for (size_t i = 0; i < 2; i++)
		for (size_t k = 0; k < 2; k++) {
			double s1 = spells[i], s0 = s1 * (1.0 - shares[k]) / shares[k];

			for (int t = 0; t < ntrials / 2; t++) {
				struct ic_sm m;
				size_t n = simulate_sweep(r, 1.0 / s0, 1.0 / s1, obs);

				CHECK(ic_sm_fit(&m, obs, n, SW_NSITES, SW_PROCS) == 0, "fit");
				trials++;
				if (m.nstates == 2) {
					found++;
					for (int s = 0; s < 2; s++) {
						double lo, hi;
						size_t npr;

						ic_sm_level(&m, s, SW_NSITES - 1, &lo, &hi, &npr);
						if (isfinite(lo)) {
							nlev++;
							lev += holds(lo, hi, sweep_level(SW_NSITES - 1, s));
						}
					}
					share += holds(m.share_lo, m.share_hi, shares[k]);
					spell += holds(m.spell_lo[0], m.spell_hi[0], s0) +
						 holds(m.spell_lo[1], m.spell_hi[1], s1);
				}
				ic_sm_free(&m);
			}
		}
	for (int t = 0; t < ntrials; t++) {
		struct ic_sm m;
		size_t n = simulate_sweep(r, 0.0, 0.0, obs);

		CHECK(ic_sm_fit(&m, obs, n, SW_NSITES, SW_PROCS) == 0, "fit");
		two += m.nstates == 2;
		ic_sm_free(&m);
	}
	printf("sweep design: planted two states found in %zu of %zu; levels held %zu of %zu, shares "
	       "%zu of %zu, spells %zu of %zu; one state called two in %zu of %d\n", found, trials, lev,
	       nlev, share, found, spell, 2 * found, two, ntrials);
	CHECK(found >= 0.8 * (double)trials, "sweep: two states found in %zu of %zu", found, trials);
	/* Each state of a found machine spans several processes: most levels
	 * have an interval to check (none would pass the 90% below). */
	CHECK(nlev >= found, "sweep: %zu level intervals in %zu found machines", nlev, found);
	CHECK(lev >= 0.9 * (double)nlev, "sweep: levels held in %zu of %zu", lev, nlev);
	CHECK(share >= 0.9 * (double)found, "sweep: shares held in %zu of %zu", share, found);
	CHECK(spell >= 0.9 * 2.0 * (double)found, "sweep: spells held in %zu of %zu", spell, 2 * found);
	CHECK(two <= 0.05 * ntrials, "sweep: one state called two in %zu of %d", two, ntrials);
}

static int holds(double lo, double hi, double x)
{
	return lo <= x && x <= hi;
}

static void test_planted(gsl_rng *r, struct ic_sm_obs *obs)
{
	static const double spells[] = { 5.0, 15.0, 30.0, 60.0 }, shares[] = { 0.1, 0.3, 0.5 };
	size_t found = 0, trials = 0, lev = 0, share = 0, spell = 0, nlev = 0, nsp = 0;

	for (size_t i = 0; i < sizeof(spells) / sizeof(*spells); i++)
		for (size_t k = 0; k < sizeof(shares) / sizeof(*shares); k++) {
			double s1 = spells[i], s0 = s1 * (1.0 - shares[k]) / shares[k];
			size_t cfound = 0, cshare = 0;

			if (short_run && (i % 2 || k == 0))
				continue;

			for (int t = 0; t < ntrials; t++) {
				struct ic_sm m;
				size_t np, n = simulate(r, 600.0, 1.0 / s0, 1.0 / s1, LAW_NORMAL, obs, &np);

				CHECK(ic_sm_fit(&m, obs, n, 2, np) == 0, "fit");
				trials++;
				if (m.nstates == 2) {
					found++;
					cfound++;
					for (int s = 0; s < 2; s++)
						for (size_t j = 0; j < 2; j++) {
							double lo, hi;
							size_t npr;

							ic_sm_level(&m, s, j, &lo, &hi, &npr);
							if (!isfinite(lo))
								continue;
							nlev++;
							lev += holds(lo, hi, level[j][s]);
						}
					share += holds(m.share_lo, m.share_hi, shares[k]);
					cshare += holds(m.share_lo, m.share_hi, shares[k]);
					nsp += 2;
					spell += holds(m.spell_lo[0], m.spell_hi[0], s0);
					spell += holds(m.spell_lo[1], m.spell_hi[1], s1);
				}
				ic_sm_free(&m);
			}
			printf("planted spell %2.0f s, share %.1f: two states in %zu of %d, share held in %zu\n",
			       s1, shares[k], cfound, ntrials, cshare);
		}
	printf("planted: two states in %zu of %zu; levels held %zu of %zu, shares %zu of %zu, "
	       "spells %zu of %zu\n", found, trials, lev, nlev, share, found, spell, nsp);
	CHECK(found >= 0.8 * (double)trials, "two states found in %zu of %zu", found, trials);
	CHECK(nlev >= 2 * found, "%zu level intervals in %zu found machines", nlev, found);
	CHECK(lev >= 0.9 * (double)nlev, "levels held in %zu of %zu", lev, nlev);
	CHECK(share >= 0.9 * (double)found, "shares held in %zu of %zu", share, found);
	CHECK(spell >= 0.9 * (double)nsp, "spells held in %zu of %zu", spell, nsp);
}

/* A watch's pauses: processes of 1.5 s, 8 s apart, spells of 3 s in each
 * state. Most switches fall in the pauses, several to a pause; counted
 * at most once a gap, the spells came out several times too long. */
static void test_pauses(gsl_rng *r, struct ic_sm_obs *obs)
{
	const double spell = 3.0;
	size_t found = 0, held = 0, nsp = 0;
	double est[64];
	size_t nest = 0;

	for (int t = 0; t < ntrials; t++) {
		int s = gsl_rng_uniform(r) < 0.5;
		double next = gsl_ran_exponential(r, spell);
		size_t n = 0, p = 0;
		struct ic_sm m;

		for (double start = 0.0; start + 1.5 <= 400.0; start += 9.5, p++)
			for (double tt = start; tt < start + 1.5; tt += 0.05) {
				unsigned j = (unsigned)(n % 2);

				while (tt >= next) {
					s = !s;
					next += gsl_ran_exponential(r, spell);
				}
				obs[n] = (struct ic_sm_obs){ .t = 1e9 + tt, .site = j, .proc = (unsigned)p,
							     .y = log(level[j][s]) + gsl_ran_gaussian(r, NOISE) };
				n++;
			}
		CHECK(ic_sm_fit(&m, obs, n, 2, p) == 0, "fit");
		if (m.nstates == 2) {
			found++;
			for (int k = 0; k < 2; k++) {
				nsp++;
				held += holds(m.spell_lo[k], m.spell_hi[k], spell);
				if (nest < 64)
					est[nest++] = m.spell[k];
			}
		}
		ic_sm_free(&m);
	}
	gsl_sort(est, 1, nest);
	printf("pauses of 8 s, spells of %.0f s: two states in %zu of %d, spells held %zu of %zu, "
	       "median estimate %.2f s\n", spell, found, ntrials, held, nsp,
	       nest ? gsl_stats_median_from_sorted_data(est, 1, nest) : NAN);
	CHECK(found >= 0.8 * (double)ntrials, "pauses: two states in %zu of %d", found, ntrials);
	CHECK(nest && fabs(gsl_stats_median_from_sorted_data(est, 1, nest) / spell - 1.0) < 0.35,
	      "pauses: the spells' median estimate is not near the planted %.0f s", spell);
	CHECK(held >= 0.8 * (double)nsp, "pauses: spells held in %zu of %zu", held, nsp);
}

static void test_one_state(gsl_rng *r, struct ic_sm_obs *obs)
{
	for (int law = 0; law < LAW_COUNT; law++) {
		size_t two = 0, inside = 0;

		for (int t = 0; t < ntrials; t++) {
			struct ic_sm m;
			size_t np, n = simulate(r, 240.0, 0.0, 0.0, (enum law)law, obs, &np);

			CHECK(ic_sm_fit(&m, obs, n, 2, np) == 0, "fit");
			two += m.nstates == 2;
			for (size_t p = 0; p < np; p++)
				inside += (size_t)ic_sm_proc_switches(&m, p, NULL);
			ic_sm_free(&m);
		}
		printf("one state, %s noise: two states in %zu of %d, a switch inside named %zu times\n",
		       law_name[law], two, ntrials, inside);
		CHECK(two <= 0.05 * ntrials, "%s: two states in %zu of %d", law_name[law], two, ntrials);
		CHECK(inside == 0, "%s: a switch inside named %zu times on one state", law_name[law],
		      inside);
	}
}

/* Two distinct levels the model must tell apart exactly: a switch in the
 * middle of one process, found with the right levels and no other. */
static void test_worked(void)
{
	struct ic_sm_obs obs[400];
	struct ic_sm m;
	double lo, hi, l;
	size_t np;

	for (int i = 0; i < 400; i++)
		obs[i] = (struct ic_sm_obs){ .t = 100.0 + 0.1 * i, .site = (unsigned)(i % 2),
					     .proc = (unsigned)(i / 100),
					     .y = log(i >= 150 && i < 250 ? 1.6 : 1.0) + 0.01 * ((i * 7) % 5 - 2) };
	CHECK(ic_sm_fit(&m, obs, 400, 2, 4) == 0 && m.nstates == 2, "worked: two states (%s)",
	      ic_sm_why_name(m.why));
	l = ic_sm_level(&m, 1, 0, &lo, &hi, &np);
	CHECK(fabs(l - 1.6) < 0.01 && np == 2, "worked: high level %g from %zu processes", l, np);
	/* Two draws, each near log 1.6: a t interval on 1 degree of freedom,
	 * finite, around the level, and narrow (the noise is 1%). */
	CHECK(isfinite(lo) && isfinite(hi) && lo < l && l < hi && hi / lo < 1.1,
	      "worked: high level's interval [%g, %g]", lo, hi);
	CHECK(ic_sm_proc_switches(&m, 1, NULL) && ic_sm_proc_switches(&m, 2, NULL) &&
	      !ic_sm_proc_switches(&m, 0, NULL) && !ic_sm_proc_switches(&m, 3, NULL),
	      "worked: processes 1 and 2 switch inside, 0 and 3 do not");
	CHECK(fabs(m.share - 0.25) < 0.05, "worked: share %g", m.share);
	ic_sm_free(&m);
	/* Too few: no model. */
	CHECK(ic_sm_fit(&m, obs, 10, 2, 1) == 0 && m.nstates == 1 && m.why == IC_SM_TOO_FEW,
	      "too few observations");
	ic_sm_free(&m);
}

int main(int argc, char **argv)
{
	gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
	struct ic_sm_obs *obs = malloc(12000 * sizeof(*obs));

	CHECK(r && obs, "memory");
	if (argc > 1 && !strcmp(argv[1], "--short"))
		ntrials = 6, short_run = 1;
	gsl_rng_set(r, 20261205);   /* fixed: the same rates every run */
	test_worked();
	test_one_state(r, obs);
	test_planted(r, obs);
	/* Each simulation its own fixed stream: the fast set's fewer cells
	 * above leave the ones below the same draws. */
	gsl_rng_set(r, 20261206);
	test_sweep(r, obs);
	gsl_rng_set(r, 20261207);
	test_pauses(r, obs);
	free(obs);
	gsl_rng_free(r);
	puts("engine state model: ok");
	return 0;
}
