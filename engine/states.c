/* States of a series' processes; the rule is in states.h. */
#include "states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "splitmix64.h"
#include "stats.h"

#define STATES_SIM_TRIALS 4000   /* the 99th percentile to about +-2% */

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
		if (k < 2 || n - k < 2)
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

/* A standard normal by Box-Muller from the fixed-seed generator. */
static double states_normal(uint64_t *rng)
{
	double u = ((double)(ic_splitmix64_next(rng) >> 11) + 0.5) / 9007199254740992.0;
	double v = (double)(ic_splitmix64_next(rng) >> 11) / 9007199254740992.0;

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}

double ic_states_critical(size_t n, double q)
{
	static struct { size_t n; double q, v; } cache[64];
	static size_t ncache;
	static double stat[STATES_SIM_TRIALS];
	double *x, v = NAN;
	uint64_t rng = 0x5eed0000u + n;   /* the same figure on every run */
	size_t k;

	for (size_t i = 0; i < ncache; i++)
		if (cache[i].n == n && cache[i].q == q)
			return cache[i].v;
	if (n < 4)
		return NAN;
	x = malloc(n * sizeof(*x));
	if (x) {
		for (size_t t = 0; t < STATES_SIM_TRIALS; t++) {
			double gap, within;

			for (size_t i = 0; i < n; i++)
				x[i] = states_normal(&rng);
			gsl_sort(x, 1, n);
			stat[t] = ic_states_split(x, n, &k, &gap, &within);
		}
		gsl_sort(stat, 1, STATES_SIM_TRIALS);
		v = gsl_stats_quantile_from_sorted_data(stat, 1, STATES_SIM_TRIALS, q);
	}
	free(x);
	if (isfinite(v) && ncache < sizeof(cache) / sizeof(cache[0]))
		cache[ncache++] = (typeof(cache[0])){ n, q, v };
	return v;
}

void ic_states_free(struct ic_states *s)
{
	if (!s)
		return;
	free(s->state);
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

/* The rule of states.h: level(p) and own(p), then s->nstates and s->state. */
static int states_rule(struct ic_states *s, const struct ic_process_ratios *pr)
{
	size_t np = s->nproc, nn = pr->nsites, nf = 0, k;
	double *c = states_alloc(nn, sizeof(*c)), *d = states_alloc(nn, sizeof(*d));
	double *buf = states_alloc(np > nn ? np : nn, sizeof(*buf));
	double *level = states_alloc(np, sizeof(*level)), *own = states_alloc(np, sizeof(*own));
	struct states_sortable *o = states_alloc(np, sizeof(*o));
	int rc = -1;

	s->state = states_alloc(np, sizeof(*s->state));
	if (!c || !d || !buf || !level || !own || !o || !s->state)
		goto out;
	for (size_t i = 0; i < nn; i++)
		c[i] = states_median(&pr->logr[i * np], np, buf);
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
			d[i] = pr->rse[i * np + p];
		/* Both are finite or NAN; fmax passes over a NAN. */
		own[p] = fmax(spread, states_median(d, nn, buf));
	}
	s->nstates = 1;
	s->gap = s->within = s->critical = NAN;
	s->own_median = states_median(own, np, buf);
	/* A process without a level (no N with both forms) stays in state 0. */
	for (size_t p = 0; p < np; p++)
		if (isfinite(level[p]))
			o[nf++] = (struct states_sortable){ level[p], p };
	qsort(o, nf, sizeof(*o), states_cmp_sortable);
	for (size_t p = 0; p < nf; p++)
		buf[p] = o[p].key;
	if (nf >= IC_STATES_MIN_PROC) {
		double stat = ic_states_split(buf, nf, &k, &s->gap, &s->within);

		s->critical = ic_states_critical(nf, IC_STATES_QUANTILE);
		if (stat > fmax(s->critical, IC_STATES_SEPARATION) &&
		    s->gap > IC_STATES_OWN * s->own_median) {
			s->nstates = 2;
			for (size_t p = k; p < nf; p++)
				s->state[o[p].i] = 1;
		}
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
 * by variant; and, with two states, its own ratios per N and crossover. */
static int states_state(struct ic_states *s, int which, const struct ic_process_ratios *pr,
			const struct ic_group *g, const struct ic_analysis_opts *opts)
{
	struct ic_state *st = &s->st[which];
	size_t np = s->nproc, m = 0;
	size_t nkeep = np ? pr->unit[np - 1] + 1 : 0;   /* keep[] is by file index */
	double *y = states_alloc(np, sizeof(*y));
	int *cl = states_alloc(np, sizeof(*cl)), rc = -1;
	unsigned char *keep = states_alloc(nkeep, 1);
	struct ic_stats_nested ns;

	if (!y || !cl || !keep)
		goto out;
	for (size_t p = 0; p < np; p++) {
		double sum = 0.0;
		size_t k = 0;

		if (s->state[p] != which)
			continue;
		keep[pr->unit[p]] = 1;
		for (size_t i = 0; i < pr->nsites; i++)
			if (isfinite(pr->logr[i * np + p])) {
				sum += pr->logr[i * np + p];
				k++;
			}
		if (k) {
			y[m] = sum / (double)k;
			cl[m++] = pr->variant[p];
		}
	}
	st->nproc = m;
	st->lo = st->hi = NAN;
	if (ic_stats_nested(y, cl, m, &ns) == 0) {
		ic_stats_nested_interval(&ns, 0.05, &st->lo, &st->hi);
		st->lo = exp(st->lo);
		st->hi = exp(st->hi);
	}
	st->level = exp(ns.mean);   /* NAN without processes */
	if (s->nstates == 2 &&
	    (ic_ratio_series_keep(g, opts->compare, opts->baseline, keep, nkeep, opts, &st->ratios,
				  &st->nratios) ||
	     ic_ratio_crossover(st->ratios, st->nratios, &st->xo)))
		goto out;
	rc = 0;
out:
	free(y);
	free(cl);
	free(keep);
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

	if (!s)
		return NULL;
	s->nproc = pr->nproc;
	if (states_rule(s, pr) || states_follows(s, pr) || states_state(s, 0, pr, g, opts) ||
	    (s->nstates == 2 && states_state(s, 1, pr, g, opts))) {
		ic_states_free(s);
		return NULL;
	}
	states_shares(s);
	return s;
}
