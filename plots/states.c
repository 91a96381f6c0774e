/* States of a series' processes; the rule is in states.h. */
#include "states.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "splitmix64.h"
#include "stats.h"

#define STATES_SIM_TRIALS 4000   /* the 99th percentile to about +-2% */

static int states_cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

double ic_states_split(const double *x, size_t n, size_t *kout, double *gap, double *within)
{
	double mean = 0.0, s1 = 0.0, s2 = 0.0, t1 = 0.0, t2 = 0.0, best = INFINITY;
	size_t bestk = 0;

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
		lo = s2 - s1 * s1 / (double)k;
		hi = (t2 - s2) - (t1 - s1) * (t1 - s1) / (double)(n - k);
		if (fmax(0.0, lo) + fmax(0.0, hi) < best) {
			best = fmax(0.0, lo) + fmax(0.0, hi);
			bestk = k;
			*gap = (t1 - s1) / (double)(n - k) - s1 / (double)k;
		}
	}
	*kout = bestk;
	*within = sqrt(best / (double)(n - 2));
	if (*within > 0.0)
		return *gap / *within;
	return *gap > 0.0 ? INFINITY : 0.0;
}

/* Standard normal pair by Box-Muller from the fixed-seed generator. */
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
	double *stat, *x, v = NAN;
	uint64_t rng = 0x5eed0000u + n;   /* the same figure on every run */
	size_t k, m = 0;

	for (size_t i = 0; i < ncache; i++)
		if (cache[i].n == n && cache[i].q == q)
			return cache[i].v;
	if (n < 4)
		return NAN;
	stat = malloc(STATES_SIM_TRIALS * sizeof(*stat));
	x = malloc(n * sizeof(*x));
	if (stat && x) {
		for (size_t t = 0; t < STATES_SIM_TRIALS; t++) {
			double gap, within;

			for (size_t i = 0; i < n; i++)
				x[i] = states_normal(&rng);
			qsort(x, n, sizeof(*x), states_cmp_double);
			stat[m++] = ic_states_split(x, n, &k, &gap, &within);
		}
		qsort(stat, m, sizeof(*stat), states_cmp_double);
		v = ic_stats_quantile_sorted(stat, m, q);
	}
	free(stat);
	free(x);
	if (isfinite(v) && ncache < sizeof(cache) / sizeof(cache[0]))
		cache[ncache++] = (typeof(cache[0])){ n, q, v };
	return v;
}

void ic_states_free(struct ic_states *s)
{
	if (!s)
		return;
	free(s->unit);
	free(s->variant);
	free(s->level);
	free(s->own);
	free(s->state);
	free(s->time_rank);
	free(s->sites);
	free(s->logr);
	free(s->st[0].ratios);
	free(s->st[1].ratios);
	free(s);
}

static const struct ic_unit *states_unit(const struct ic_point *p, unsigned unit)
{
	for (size_t i = 0; i < p->nunits; i++)
		if (p->units[i].unit == unit)
			return &p->units[i];
	return NULL;
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

/* The processes, their log ratios at every N and their repetitions'
 * standard error of it (rse, same layout). */
static int states_collect(struct ic_states *s, const struct ic_group *g, double **rse,
			  double **rep1)
{
	size_t cap = 0;

	for (size_t i = 0; i < g->nratios; i++)
		cap += g->ratios[i].cmp->nunits;
	s->unit = malloc((cap ? cap : 1) * sizeof(*s->unit));
	if (!s->unit)
		return -1;
	for (size_t i = 0; i < g->nratios; i++) {
		const struct ic_point *c = g->ratios[i].cmp;

		for (size_t j = 0; j < c->nunits; j++) {
			size_t k;

			for (k = 0; k < s->nproc && s->unit[k] != c->units[j].unit; k++)
				;
			if (k == s->nproc)
				s->unit[s->nproc++] = c->units[j].unit;
		}
	}
	for (size_t a = 1; a < s->nproc; a++) {   /* ascending; a few dozen */
		unsigned v = s->unit[a];
		size_t b = a;

		for (; b > 0 && s->unit[b - 1] > v; b--)
			s->unit[b] = s->unit[b - 1];
		s->unit[b] = v;
	}
	s->nsites = g->nratios;
	s->sites = malloc((s->nsites ? s->nsites : 1) * sizeof(*s->sites));
	s->logr = malloc((s->nsites * s->nproc + 1) * sizeof(*s->logr));
	*rse = malloc((s->nsites * s->nproc + 1) * sizeof(**rse));
	*rep1 = malloc((s->nsites * s->nproc + 1) * sizeof(**rep1));
	s->variant = calloc(s->nproc ? s->nproc : 1, sizeof(*s->variant));
	if (!s->sites || !s->logr || !*rse || !*rep1 || !s->variant)
		return -1;
	s->reps = NAN;
	for (size_t i = 0; i < g->nratios; i++) {
		const struct ic_point *c = g->ratios[i].cmp, *b = g->ratios[i].base;
		/* Repetitions per process of each form, for the median's error. */
		double rc = c->nunits_gross ? (double)c->nreps / (double)c->nunits_gross : NAN;
		double rb = b->nunits_gross ? (double)b->nreps / (double)b->nunits_gross : NAN;

		s->sites[i] = g->ratios[i].sites;
		if (i == 0)
			s->reps = fmin(rc, rb);
		for (size_t p = 0; p < s->nproc; p++) {
			const struct ic_unit *uc = states_unit(c, s->unit[p]), *ub = states_unit(b, s->unit[p]);
			double *y = &s->logr[i * s->nproc + p], *e = &(*rse)[i * s->nproc + p];
			double *e1 = &(*rep1)[i * s->nproc + p];

			*y = *e = *e1 = NAN;
			if (!uc || !ub || !(uc->med > 0.0) || !(ub->med > 0.0))
				continue;
			*y = log(uc->med / ub->med);
			/* The median's standard error is about 1.2533 sigma / sqrt(r). */
			*e = 1.2533 * sqrt(uc->cv * uc->cv / rc + ub->cv * ub->cv / rb);
			*e1 = uc->cv * uc->cv + ub->cv * ub->cv;
			s->variant[p] = uc->variant;
		}
	}
	return 0;
}

/* One N's figures for states_variance (stats.h's one-way analysis): the
 * between-variant component and the mean square between processes within
 * variants. */
static void states_anova(const double *y, const int *cl, size_t n, double *vb, double *msw)
{
	struct ic_stats_nested s;

	ic_stats_nested(y, cl, n, &s);
	*vb = s.var_between;
	*msw = s.ms_within;
}

/* The variance components of states.h, from the log ratios, the processes'
 * states and the repetitions' variance of each process median (rse^2). */
static int states_variance(struct ic_states *s, const double *rse, const double *rep1)
{
	size_t np = s->nproc, nn = s->nsites;
	double *y = malloc((np + 1) * sizeof(*y)), *z = malloc((np + 1) * sizeof(*z));
	double *vv = malloc((nn + 1) * sizeof(*vv)), *vp = malloc((nn + 1) * sizeof(*vp));
	double *vs = malloc((nn + 1) * sizeof(*vs)), *buf = malloc((np * nn + nn + 1) * sizeof(*buf));
	int *cl = malloc((np + 1) * sizeof(*cl)), rc = -1;

	if (!y || !z || !vv || !vp || !vs || !buf || !cl)
		goto out;
	for (size_t i = 0; i < nn; i++) {
		double rep = 0.0, mean[2] = { 0.0, 0.0 }, msw_state, vb_state;
		size_t m = 0, cnt[2] = { 0, 0 };

		for (size_t p = 0; p < np; p++) {
			double v = s->logr[i * np + p], e = rse[i * np + p];

			if (!isfinite(v))
				continue;
			y[m] = v;
			cl[m] = s->variant[p];
			rep += isfinite(e) ? e * e : 0.0;
			mean[s->state[p]] += v;
			cnt[s->state[p]]++;
			m++;
		}
		vv[i] = vp[i] = vs[i] = NAN;
		if (m < 2)
			continue;
		rep /= (double)m;
		states_anova(y, cl, m, &vv[i], &vp[i]);
		vp[i] = fmax(0.0, vp[i] - rep);
		/* Within a state: each process less its state's mean at this N. */
		for (int k = 0; k < 2; k++)
			mean[k] = cnt[k] ? mean[k] / (double)cnt[k] : 0.0;
		m = 0;
		for (size_t p = 0; p < np; p++)
			if (isfinite(s->logr[i * np + p]))
				z[m++] = s->logr[i * np + p] - mean[s->state[p]];
		/* Within variants too, as the process level above: with one
		 * state this is that level itself. */
		states_anova(z, cl, m, &vb_state, &msw_state);
		vs[i] = s->nstates == 1 ? vp[i] : fmax(0.0, msw_state - rep);
	}
	s->var_variant = states_median(vv, nn, buf);
	s->var_process = states_median(vp, nn, buf);
	s->var_process_state = states_median(vs, nn, buf);
	s->var_rep = states_median(rep1, np * nn, buf);
	rc = 0;
out:
	free(y);
	free(z);
	free(vv);
	free(vp);
	free(vs);
	free(buf);
	free(cl);
	return rc;
}

/* level(p) and own(p) of states.h. */
static int states_levels(struct ic_states *s, const double *rse)
{
	size_t np = s->nproc, nn = s->nsites;
	double *c = malloc((nn ? nn : 1) * sizeof(*c));
	double *d = malloc((nn ? nn : 1) * sizeof(*d));
	double *buf = malloc(((np > nn ? np : nn) + 1) * sizeof(*buf));

	s->level = malloc((np ? np : 1) * sizeof(*s->level));
	s->own = malloc((np ? np : 1) * sizeof(*s->own));
	if (!c || !d || !buf || !s->level || !s->own) {
		free(c);
		free(d);
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < nn; i++)
		c[i] = states_median(&s->logr[i * np], np, buf);
	for (size_t p = 0; p < np; p++) {
		size_t m = 0;
		double spread = NAN, rep;

		for (size_t i = 0; i < nn; i++)
			d[i] = s->logr[i * np + p] - c[i];
		s->level[p] = states_median(d, nn, buf);
		for (size_t i = 0; i < nn; i++)
			if (isfinite(d[i]))
				d[m++] = fabs(d[i] - s->level[p]);
		if (m >= 3)
			spread = 1.4826 * ic_stats_median(d, m);
		for (size_t i = 0; i < nn; i++)
			d[i] = rse[i * np + p];
		rep = states_median(d, nn, buf);
		s->own[p] = isfinite(spread) && isfinite(rep) ? fmax(spread, rep)
			  : isfinite(spread) ? spread : rep;
	}
	free(c);
	free(d);
	free(buf);
	return 0;
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

/* Apply the rule: s->nstates, s->state. */
static int states_split(struct ic_states *s)
{
	size_t np = s->nproc, k, nf = 0;
	struct states_sortable *o = malloc((np ? np : 1) * sizeof(*o));
	double *x = malloc((np ? np : 1) * sizeof(*x)), stat;

	s->state = calloc(np ? np : 1, sizeof(*s->state));
	if (!o || !x || !s->state) {
		free(o);
		free(x);
		return -1;
	}
	s->nstates = 1;
	s->gap = s->within = s->critical = NAN;
	s->own_median = states_median(s->own, np, x);
	/* A process without a level (no N with both forms) stays in state 0. */
	for (size_t p = 0; p < np; p++)
		if (isfinite(s->level[p]))
			o[nf++] = (struct states_sortable){ s->level[p], p };
	qsort(o, nf, sizeof(*o), states_cmp_sortable);
	for (size_t p = 0; p < nf; p++)
		x[p] = o[p].key;
	if (nf >= IC_STATES_MIN_PROC) {
		stat = ic_states_split(x, nf, &k, &s->gap, &s->within);
		s->critical = ic_states_critical(nf, IC_STATES_QUANTILE);
		if (stat > fmax(s->critical, IC_STATES_SEPARATION) &&
		    s->gap > IC_STATES_OWN * s->own_median) {
			s->nstates = 2;
			for (size_t p = k; p < nf; p++)
				s->state[o[p].i] = 1;
		}
	}
	free(o);
	free(x);
	return 0;
}

/* Time ranks from the files' mtimes (file order breaks ties), and what the
 * split follows. */
static int states_follows(struct ic_states *s, const struct ic_results *res)
{
	size_t np = s->nproc, runs = 0;
	struct states_sortable *o = malloc((np ? np : 1) * sizeof(*o));

	s->time_rank = malloc((np ? np : 1) * sizeof(*s->time_rank));
	if (!o || !s->time_rank) {
		free(o);
		return -1;
	}
	for (size_t p = 0; p < np; p++) {
		double t = res && s->unit[p] < res->nfiles ? res->files[s->unit[p]]->mtime : NAN;

		o[p] = (struct states_sortable){ isfinite(t) ? t : (double)s->unit[p], p };
	}
	qsort(o, np, sizeof(*o), states_cmp_sortable);
	for (size_t r = 0; r < np; r++) {
		s->time_rank[o[r].i] = r;
		runs += r == 0 || s->state[o[r].i] != s->state[o[r - 1].i];
	}
	s->time_runs = runs;
	s->follows = IC_FOLLOWS_NEITHER;
	if (s->nstates == 2) {
		for (size_t p = 0; p < np; p++) {
			size_t cnt = 0, ones = 0;
			int first = 1;

			for (size_t q = 0; q < p && first; q++)
				first = s->variant[q] != s->variant[p];
			if (!first)
				continue;
			for (size_t q = p; q < np; q++)
				if (s->variant[q] == s->variant[p]) {
					cnt++;
					ones += s->state[q];
				}
			s->variants_multi += cnt >= 2;
			s->variants_both += ones > 0 && ones < cnt;
		}
		if (runs == 2)
			s->follows = IC_FOLLOWS_TIME;
		else if (s->variants_multi && !s->variants_both)
			s->follows = IC_FOLLOWS_VARIANT;
	}
	free(o);
	return 0;
}

/* One state's overall ratio: each process's mean log ratio over N, nested
 * by variant; and, with two states, its own ratios per N and crossover. */
static int states_state(struct ic_states *s, int which, const struct ic_results *res,
			const struct ic_group *g, const struct ic_analysis_opts *opts)
{
	struct ic_state *st = &s->st[which];
	size_t np = s->nproc, m = 0, nkeep = 0;
	double *y = malloc((np ? np : 1) * sizeof(*y));
	int *cl = malloc((np ? np : 1) * sizeof(*cl));
	unsigned char *keep;
	struct ic_stats_nested ns;

	for (size_t p = 0; p < np; p++)
		nkeep = s->unit[p] + 1 > nkeep ? s->unit[p] + 1 : nkeep;
	if (res && res->nfiles > nkeep)
		nkeep = res->nfiles;
	keep = calloc(nkeep ? nkeep : 1, 1);
	if (!y || !cl || !keep)
		goto fail;
	for (size_t p = 0; p < np; p++) {
		double sum = 0.0;
		size_t k = 0;

		if (s->state[p] != which)
			continue;
		keep[s->unit[p]] = 1;
		for (size_t i = 0; i < s->nsites; i++)
			if (isfinite(s->logr[i * np + p])) {
				sum += s->logr[i * np + p];
				k++;
			}
		if (k) {
			y[m] = sum / (double)k;
			cl[m++] = s->variant[p];
		}
	}
	st->nproc = m;
	st->level = st->lo = st->hi = NAN;
	if (m && ic_stats_nested(y, cl, m, &ns) == 0) {
		ic_stats_nested_interval(&ns, 0.05, &st->lo, &st->hi);
		st->lo = exp(st->lo);
		st->hi = exp(st->hi);
	}
	if (m)
		st->level = exp(ns.mean);
	if (s->nstates == 2) {
		if (ic_results_ratio_series_keep(g, opts->compare, opts->baseline, keep, opts,
						 &st->ratios, &st->nratios))
			goto fail;
		if (ic_crossover_of(st->ratios, st->nratios, &st->xo))
			goto fail;
	}
	free(y);
	free(cl);
	free(keep);
	return 0;
fail:
	free(y);
	free(cl);
	free(keep);
	return -1;
}

struct ic_states *ic_states_analyse(const struct ic_results *res, const struct ic_group *g,
				    const struct ic_analysis_opts *opts)
{
	struct ic_states *s = calloc(1, sizeof(*s));
	double *rse = NULL, *rep1 = NULL;

	if (!s)
		return NULL;
	if (states_collect(s, g, &rse, &rep1) || states_levels(s, rse) || states_split(s) ||
	    states_variance(s, rse, rep1) || states_follows(s, res) ||
	    states_state(s, 0, res, g, opts) || (s->nstates == 2 && states_state(s, 1, res, g, opts))) {
		free(rse);
		free(rep1);
		ic_states_free(s);
		return NULL;
	}
	free(rse);
	free(rep1);
	return s;
}
