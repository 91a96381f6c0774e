/* States of a series' processes; the rule is in states.h. */
#include "states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "stats.h"

#define STATES_SIM_TRIALS 8000   /* 40 beyond the 99.5% quantile per law */

/* Every array here may be empty: never ask for 0 bytes. */
static void *states_alloc(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

double ic_states_split(const double *x, size_t n, size_t *kout, double *gap, double *within)
{
	double mean = 0.0, s1 = 0.0, s2 = 0.0, t1 = 0.0, t2 = 0.0, best = INFINITY;

	*kout = 0;
	*gap = *within = NAN;
	if (n < 4)
		return NAN;
	for (size_t i = 0; i < n; i++)
		mean += x[i] / (double)n;
	for (size_t i = 0; i < n; i++) {
		t1 += x[i] - mean;
		t2 += (x[i] - mean) * (x[i] - mean);
	}
	/* Centred prefix sums: the within-group sum of squares of every split. */
	for (size_t k = 1; k + 1 < n; k++) {
		double y = x[k - 1] - mean, lo, hi;

		s1 += y;
		s2 += y * y;
		if (k < IC_STATES_MIN_GROUP(n) || n - k < IC_STATES_MIN_GROUP(n))
			continue;
		lo = fmax(0.0, s2 - s1 * s1 / (double)k);
		hi = fmax(0.0, (t2 - s2) - (t1 - s1) * (t1 - s1) / (double)(n - k));
		if (lo + hi < best) {
			best = lo + hi;
			*kout = k;
			*gap = (t1 - s1) / (double)(n - k) - s1 / (double)k;
		}
	}
	*within = sqrt(best / (double)(n - 2));
	if (*within > 0.0)
		return *gap / *within;
	return *gap > 0.0 ? INFINITY : 0.0;
}

const char *ic_states_law_name(enum ic_states_law law)
{
	static const char *const name[IC_LAW_COUNT] = {
		[IC_LAW_NORMAL] = "normal", [IC_LAW_T3] = "t3", [IC_LAW_LOGNORMAL] = "lognormal",
		[IC_LAW_FEW_SLOW] = "few slow",
	};

	return (unsigned)law < IC_LAW_COUNT ? name[law] : "?";
}

double ic_states_law_draw(gsl_rng *rng, enum ic_states_law law)
{
	switch (law) {
	case IC_LAW_T3:
		return gsl_ran_tdist(rng, 3.0);
	case IC_LAW_LOGNORMAL:
		return gsl_ran_lognormal(rng, 0.0, 0.5);
	case IC_LAW_FEW_SLOW:
		/* Slowed by an amount of its own: no second level to find. */
		return gsl_ran_gaussian(rng, 1.0) +
		       (gsl_rng_uniform(rng) < 0.125 ? gsl_ran_exponential(rng, 3.0) : 0.0);
	default:
		return gsl_ran_gaussian(rng, 1.0);
	}
}

void ic_states_simulate(gsl_rng *rng, enum ic_states_law law, size_t np, size_t nn, double *y)
{
	for (size_t p = 0; p < np; p++) {
		double level = ic_states_law_draw(rng, law);

		/* The per-N noise as large as the process spread: the levels'
		 * spread is mostly the processes', where the rule decides. */
		for (size_t i = 0; i < nn; i++)
			y[i * np + p] = level + (law == IC_LAW_T3 ? gsl_ran_tdist(rng, 3.0)
							       : gsl_ran_gaussian(rng, 1.0));
	}
}

/* level(p) of states.h for y[i * np + p] over all nn N; buf holds
 * max(np, nn) + nn. */
static void states_levels(const double *y, size_t np, size_t nn, double *level, double *buf)
{
	double *c = buf + (np > nn ? np : nn), *d = buf;

	for (size_t i = 0; i < nn; i++) {
		memcpy(d, &y[i * np], np * sizeof(*d));
		c[i] = ic_stats_median(d, np);
	}
	for (size_t p = 0; p < np; p++) {
		for (size_t i = 0; i < nn; i++)
			d[i] = y[i * np + p] - c[i];
		level[p] = ic_stats_median(d, nn);
	}
}

double ic_states_critical_law(size_t n, size_t nsites, enum ic_states_law law, double q)
{
	static struct { size_t n, nn; int law; double q, v; } cache[256];
	static size_t ncache;
	double *y, *level, *buf, *stat, v = NAN;
	gsl_rng *rng;
	size_t k;

	for (size_t i = 0; i < ncache; i++)
		if (cache[i].n == n && cache[i].nn == nsites && cache[i].law == (int)law && cache[i].q == q)
			return cache[i].v;
	if (n < 4 || nsites < 1)
		return NAN;
	y = malloc(n * nsites * sizeof(*y));
	level = malloc(n * sizeof(*level));
	buf = malloc(((n > nsites ? n : nsites) + nsites) * sizeof(*buf));
	stat = malloc(STATES_SIM_TRIALS * sizeof(*stat));
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (y && level && buf && stat && rng) {
		/* The same figure on every run and machine. */
		gsl_rng_set(rng, 0x5eed0000ul + 1000ul * n + 10ul * nsites + (unsigned long)law);
		for (size_t t = 0; t < STATES_SIM_TRIALS; t++) {
			double gap, within;

			ic_states_simulate(rng, law, n, nsites, y);
			states_levels(y, n, nsites, level, buf);
			gsl_sort(level, 1, n);
			stat[t] = ic_states_split(level, n, &k, &gap, &within);
		}
		gsl_sort(stat, 1, STATES_SIM_TRIALS);
		v = gsl_stats_quantile_from_sorted_data(stat, 1, STATES_SIM_TRIALS, q);
	}
	free(y);
	free(level);
	free(buf);
	free(stat);
	if (rng)
		gsl_rng_free(rng);
	if (isfinite(v) && ncache < sizeof(cache) / sizeof(cache[0]))
		cache[ncache++] = (typeof(cache[0])){ n, nsites, (int)law, q, v };
	return v;
}

double ic_states_critical(size_t n, size_t nsites, double q)
{
	double v = NAN;

	for (int law = 0; law < IC_LAW_COUNT; law++)
		v = fmax(v, ic_states_critical_law(n, nsites, (enum ic_states_law)law, q));
	return v;
}

void ic_states_free(struct ic_states *s)
{
	if (!s)
		return;
	free(s->state);
	free(s->unsteady);
	free(s->st[0].ratios);
	free(s->st[1].ratios);
	free(s);
}

/* Median of the finite values of x[0..n-1] (copied: x stays). */
static double states_median(const double *x, size_t n, double *buf)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]))
			buf[m++] = x[i];
	return ic_stats_median(buf, m);
}

struct states_sortable {
	double key;
	size_t i;
};

static int states_cmp_sortable(const void *pa, const void *pb)
{
	const struct states_sortable *a = pa, *b = pb;
	int c = (a->key > b->key) - (a->key < b->key);

	return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The rule of states.h on the N i with i % 2 == parity (parity < 0: every
 * N): h's figures, unsteady[p], and assign[p], each process's group in the
 * best split of the levels (0 everywhere when there is none). */
static int states_fit(const struct ic_process_ratios *pr, int parity, struct ic_states_half *h,
		      int *unsteady, int *assign)
{
	size_t np = pr->nproc, nn = pr->nsites, nf = 0, k = 0;
	double *c = states_alloc(nn, sizeof(*c)), *d = states_alloc(nn, sizeof(*d));
	double *buf = states_alloc(np > nn ? np : nn, sizeof(*buf));
	double *level = states_alloc(np, sizeof(*level)), *own = states_alloc(np, sizeof(*own));
	struct states_sortable *o = states_alloc(np, sizeof(*o));
	int rc = -1;

	if (!c || !d || !buf || !level || !own || !o)
		goto out;
	*h = (struct ic_states_half){ .nstates = 1, .stat = NAN, .gap = NAN, .within = NAN,
				      .critical = NAN };
	/* NAN at the N left out: every median below passes over them. */
	for (size_t i = 0; i < nn; i++) {
		int in = parity < 0 || (int)(i % 2) == parity;

		h->nsites += in;
		c[i] = in ? states_median(&pr->logr[i * np], np, buf) : NAN;
	}
	for (size_t p = 0; p < np; p++) {
		size_t m = 0;
		double spread = NAN;

		for (size_t i = 0; i < nn; i++)
			d[i] = pr->logr[i * np + p] - c[i];
		level[p] = states_median(d, nn, buf);
		for (size_t i = 0; i < nn; i++)
			if (isfinite(d[i]))
				d[m++] = fabs(d[i] - level[p]);
		if (m >= 3)
			spread = 1.4826 * ic_stats_median(d, m);
		for (size_t i = 0; i < nn; i++)
			d[i] = isfinite(c[i]) ? pr->rse[i * np + p] : NAN;
		/* Both are finite or NAN; fmax passes over a NAN. */
		own[p] = fmax(spread, states_median(d, nn, buf));
	}
	h->own_median = states_median(own, np, buf);
	/* A process without a level (no N with both forms) stays in group 0. */
	for (size_t p = 0; p < np; p++) {
		assign[p] = 0;
		unsteady[p] = isfinite(level[p]) && own[p] > IC_STATES_UNSTEADY * h->own_median;
		if (isfinite(level[p]) && !unsteady[p])
			o[nf++] = (struct states_sortable){ level[p], p };
	}
	h->nsteady = nf;
	qsort(o, nf, sizeof(*o), states_cmp_sortable);
	for (size_t p = 0; p < nf; p++)
		buf[p] = o[p].key;
	h->stat = ic_states_split(buf, nf, &k, &h->gap, &h->within);
	if (k) {
		double lo = 0.0, hi = 0.0, mid;

		for (size_t p = 0; p < nf; p++) {
			lo += p < k ? buf[p] / (double)k : 0.0;
			hi += p < k ? 0.0 : buf[p] / (double)(nf - k);
			assign[o[p].i] = p >= k;
		}
		/* The unsteady join the nearer group. */
		mid = 0.5 * (lo + hi);
		for (size_t p = 0; p < np; p++)
			if (unsteady[p])
				assign[p] = level[p] > mid;
	}
	if (nf >= IC_STATES_MIN_PROC) {
		h->critical = ic_states_critical(nf, h->nsites, IC_STATES_QUANTILE);
		if (h->stat > fmax(h->critical, IC_STATES_SEPARATION) &&
		    h->gap > IC_STATES_OWN * h->own_median)
			h->nstates = 2;
	}
	rc = 0;
out:
	free(c);
	free(d);
	free(buf);
	free(level);
	free(own);
	free(o);
	return rc;
}

/* How far a half is past its limit: below 1 it does not split. */
static double states_margin(const struct ic_states_half *h)
{
	double sep = h->stat / fmax(h->critical, IC_STATES_SEPARATION);
	double own = h->gap / (IC_STATES_OWN * h->own_median);

	return isfinite(sep) && isfinite(own) ? fmin(sep, own) : -INFINITY;
}

/* The rule on every N (the states' members), then on each half (the
 * decision and the cross-fitting); assign2[h][p] is half h's group of p. */
static int states_rule(struct ic_states *s, const struct ic_process_ratios *pr, int *assign2[2])
{
	size_t np = s->nproc;
	struct ic_states_half all;
	int *scratch = states_alloc(np, sizeof(*scratch)), *assign = states_alloc(np, sizeof(*assign));
	int rc = -1, deciding;

	s->state = states_alloc(np, sizeof(*s->state));
	s->unsteady = states_alloc(np, sizeof(*s->unsteady));
	if (!scratch || !assign || !s->state || !s->unsteady ||
	    states_fit(pr, -1, &all, s->unsteady, assign))
		goto out;
	s->crossfit = pr->nsites >= 2;
	for (int h = 0; h < 2; h++) {
		if (!s->crossfit) {
			s->half[h] = all;
			memcpy(assign2[h], assign, np * sizeof(*assign));
		} else if (states_fit(pr, h, &s->half[h], scratch, assign2[h])) {
			goto out;
		}
	}
	s->nstates = s->half[0].nstates == 2 && s->half[1].nstates == 2 ? 2 : 1;
	for (size_t p = 0; p < np; p++) {
		s->nunsteady += s->unsteady[p];
		s->state[p] = s->nstates == 2 ? assign[p] : 0;
		s->moved += s->nstates == 2 && assign2[0][p] != assign2[1][p];
	}
	s->halves_disagree = s->half[0].nstates != s->half[1].nstates || s->moved;
	/* The figures said are the half nearer its limit: the one that
	 * decided. */
	deciding = states_margin(&s->half[1]) < states_margin(&s->half[0]);
	s->gap = s->half[deciding].gap;
	s->within = s->half[deciding].within;
	s->own_median = s->half[deciding].own_median;
	s->critical = s->half[deciding].critical;
	rc = 0;
out:
	free(scratch);
	free(assign);
	return rc;
}

/* What the split follows: one switch in the time order, or the layout
 * variants. */
static int states_follows(struct ic_states *s, const struct ic_process_ratios *pr)
{
	size_t np = s->nproc, runs = 0, multi = 0, both = 0;
	struct states_sortable *o = states_alloc(np, sizeof(*o));
	size_t *by_time = states_alloc(np, sizeof(*by_time));

	if (!o || !by_time) {
		free(o);
		free(by_time);
		return -1;
	}
	for (size_t p = 0; p < np; p++)
		by_time[pr->time_rank[p]] = p;
	for (size_t r = 0; r < np; r++)
		runs += r == 0 || s->state[by_time[r]] != s->state[by_time[r - 1]];
	/* The variants with 2+ processes, and those holding both states. */
	for (size_t p = 0; p < np; p++)
		o[p] = (struct states_sortable){ pr->variant[p], p };
	qsort(o, np, sizeof(*o), states_cmp_sortable);
	for (size_t a = 0, b; a < np; a = b) {
		size_t ones = 0;

		for (b = a; b < np && o[b].key == o[a].key; b++)
			ones += s->state[o[b].i];
		multi += b - a >= 2;
		both += ones > 0 && ones < b - a;
	}
	free(o);
	free(by_time);
	s->follows = IC_FOLLOWS_NEITHER;
	if (s->nstates == 2 && runs == 2)
		s->follows = IC_FOLLOWS_TIME;
	else if (s->nstates == 2 && multi && !both)
		s->follows = IC_FOLLOWS_VARIANT;
	return 0;
}

/* One state's overall ratio: each process's mean log ratio over N, nested
 * by variant; and, with two states, its own ratios per N and crossover.
 * With two states both are cross-fitted: at the i-th N a process counts
 * for the state that the other half of the N (assign2[1 - i % 2]) put it
 * in. */
static int states_state(struct ic_states *s, int which, const struct ic_process_ratios *pr,
			const struct ic_group *g, const struct ic_analysis_opts *opts,
			int *const assign2[2])
{
	struct ic_state *st = &s->st[which];
	size_t np = s->nproc, m = 0;
	size_t nkeep = np ? pr->unit[np - 1] + 1 : 0;   /* keep[] is by file index */
	double *y = states_alloc(np, sizeof(*y));
	int *cl = states_alloc(np, sizeof(*cl)), rc = -1;
	unsigned char *keep[2] = { states_alloc(nkeep, 1), states_alloc(nkeep, 1) };
	struct ic_stats_nested ns;

	if (!y || !cl || !keep[0] || !keep[1])
		goto out;
	st->nproc = 0;
	for (size_t p = 0; p < np; p++) {
		double sum = 0.0;
		size_t k = 0;
		int member[2];   /* by the parity of the N: the other half's choice */

		for (int h = 0; h < 2; h++) {
			member[h] = s->nstates == 2 ? assign2[1 - h][p] == which : 1;
			keep[h][pr->unit[p]] = (unsigned char)member[h];
		}
		for (size_t i = 0; i < pr->nsites; i++)
			if (member[i % 2] && isfinite(pr->logr[i * np + p])) {
				sum += pr->logr[i * np + p];
				k++;
			}
		if (k) {
			y[m] = sum / (double)k;
			cl[m++] = pr->variant[p];
		}
		st->nproc += s->state[p] == which;   /* every process has a ratio at some N */
	}
	st->lo = st->hi = NAN;
	if (ic_stats_nested(y, cl, m, &ns) == 0) {
		ic_stats_nested_interval(&ns, 0.05, &st->lo, &st->hi);
		st->lo = exp(st->lo);
		st->hi = exp(st->hi);
	}
	st->level = exp(ns.mean);   /* NAN without processes */
	if (s->nstates == 2 &&
	    (ic_ratio_series_crossfit(g, opts->compare, opts->baseline,
				      (const unsigned char *const *)keep, nkeep, opts, &st->ratios,
				      &st->nratios) ||
	     ic_ratio_crossover(st->ratios, st->nratios, &st->xo)))
		goto out;
	rc = 0;
out:
	free(y);
	free(cl);
	free(keep[0]);
	free(keep[1]);
	return rc;
}

/* Each state's share of the processes and its exact (Clopper-Pearson)
 * 95% interval: a state of 4 in 12 could be a third of the processes or
 * two thirds of that, and the verdict says so. */
static void states_shares(struct ic_states *s)
{
	double n = (double)s->nproc;

	for (size_t k = 0; k < 2; k++) {
		struct ic_state *st = &s->st[k];
		double x = (double)st->nproc;

		st->share = st->share_lo = st->share_hi = NAN;
		if (k >= s->nstates || !s->nproc)
			continue;
		st->share = x / n;
		st->share_lo = x > 0 ? gsl_cdf_beta_Pinv(0.025, x, n - x + 1) : 0.0;
		st->share_hi = x < n ? gsl_cdf_beta_Pinv(0.975, x + 1, n - x) : 1.0;
	}
}

struct ic_states *ic_states_analyse(const struct ic_process_ratios *pr, const struct ic_group *g,
				    const struct ic_analysis_opts *opts)
{
	struct ic_states *s = calloc(1, sizeof(*s));
	int *assign2[2] = { states_alloc(pr->nproc, sizeof(int)), states_alloc(pr->nproc, sizeof(int)) };
	int rc = -1;

	if (s && assign2[0] && assign2[1]) {
		s->nproc = pr->nproc;
		rc = states_rule(s, pr, assign2) || states_follows(s, pr) ||
		     states_state(s, 0, pr, g, opts, assign2) ||
		     (s->nstates == 2 && states_state(s, 1, pr, g, opts, assign2)) ? -1 : 0;
	}
	free(assign2[0]);
	free(assign2[1]);
	if (rc) {
		ic_states_free(s);
		return NULL;
	}
	states_shares(s);
	return s;
}
