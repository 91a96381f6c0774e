#include "states.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

void ic_states_free(struct ic_states *s)
{
	if (!s)
		return;
	for (int k = 0; k < 2; k++) {
		free(s->st[k].ratios);
		free(s->member[k]);
	}
	ic_sm_free(&s->model);
	free(s->state);   /* and unsteady */
	free(s);
}

long ic_states_proc(const struct ic_process_ratios *pr, size_t unit)
{
	for (size_t p = 0; p < pr->nproc; p++)
		if (pr->unit[p] == unit)
			return (long)p;
	return -1;
}

/* Process unit's baseline repetition at point base nearest in time to t (untimed: by index); NULL if none. */
static const struct ic_rep *states_partner(const struct ic_point *base, unsigned unit, double t, int index)
{
	const struct ic_rep *best = NULL;
	double d = INFINITY;

	for (size_t r = 0; r < base->nreps; r++) {
		const struct ic_rep *b = &base->reps[r];
		double e = isfinite(t) && isfinite(b->start) ? fabs(b->start - t) : fabs((double)(b->index - index));

		if (b->unit == unit && isfinite(b->v[IC_F_NS]) && b->v[IC_F_NS] > 0.0 && e < d) {
			d = e;
			best = b;
		}
	}
	return best;
}

/* The model, fitted to every compare repetition of the series with its partner. Untimed ones
 * (older runs) go in process order, a second apart, their index a hundredth: an order, not a time. */
static void states_model(struct ic_states *s, const struct ic_process_ratios *pr,
			 const struct ic_group *g)
{
	size_t n = 0, cap = 0;
	struct ic_sm_obs *obs;

	for (size_t i = 0; i < pr->nsites && i < g->nratios; i++)
		cap += g->ratios[i].cmp->nreps;
	obs = ic_stats_alloc(cap, sizeof(*obs));
	for (size_t i = 0; i < pr->nsites && i < g->nratios; i++) {
		const struct ic_point *c = g->ratios[i].cmp, *b = g->ratios[i].base;

		for (size_t r = 0; r < c->nreps; r++) {
			const struct ic_rep *x = &c->reps[r], *y;
			long p = ic_states_proc(pr, x->unit);

			if (p < 0 || !(x->v[IC_F_NS] > 0.0) ||
			    !(y = states_partner(b, x->unit, x->start, x->index)))
				continue;
			s->nuntimed += !isfinite(x->start);
			obs[n++] = (struct ic_sm_obs){ .y = log(x->v[IC_F_NS] / y->v[IC_F_NS]),
				.t = isfinite(x->start) ? x->start
				   : (double)pr->time_rank[p] + 0.01 * fmax(x->index, 0.0),
				.site = (unsigned)i, .proc = (unsigned)p, .index = x->index };
		}
	}
	ic_sm_fit(&s->model, obs, n, pr->nsites, pr->nproc);
	free(obs);
}

/* What the states follow: one switch in time, or the variants (each variant of 2+ processes in one state). */
static void states_follows(struct ic_states *s, const struct ic_process_ratios *pr)
{
	size_t np = s->nproc, runs = np > 0, multi = 0, both = 0;

	if (s->nstates < 2)
		return;   /* (s->follows is IC_FOLLOWS_NEITHER) */
	/* The runs (the first, and each process in another state than the one before it); at each
	 * variant's first process, its members and those in state 1. */
	for (size_t p = 0; p < np; p++) {
		size_t members = 0, ones = 0;
		int first = 1;

		for (size_t q = 0; q < np; q++) {
			runs += pr->time_rank[q] + 1 == pr->time_rank[p] && s->state[p] != s->state[q];
			if (pr->variant[q] == pr->variant[p]) {
				first &= q >= p;
				members++;
				ones += s->state[q] == 1;
			}
		}
		if (first) {
			multi += members >= 2;
			both += ones > 0 && ones < members;
		}
	}
	s->follows = runs == 2 ? IC_FOLLOWS_TIME : multi && !both ? IC_FOLLOWS_VARIANT : IC_FOLLOWS_NEITHER;
}

/* Whether the split at the N where the levels part most follows the layout variants: a layout slow
 * at one N reads as a second state at just the times it ran that N, its processes "switching" at
 * every other N. So: no variant's firm repetitions there in both levels, and each level held by a
 * variant of two or more processes with a repetition of the other level between its own. Why, or NULL. */
static const char *states_variants_at_sep(struct ic_states *s, const struct ic_process_ratios *pr)
{
	const struct ic_sm *m = &s->model;
	size_t j = m->sep_site, nv = 0;
	int held[2] = { 0, 0 };

	for (size_t p = 0; p < pr->nproc; p++)
		if (pr->variant[p] >= 0 && (size_t)pr->variant[p] + 1 > nv)
			nv = (size_t)pr->variant[p] + 1;
	for (size_t k = 0; k < nv; k++) {
		size_t n[2] = { 0, 0 };
		long proc = -1;
		int multi = 0, lev;
		double t0 = INFINITY, t1 = -INFINITY;

		for (size_t i = 0; i < m->n; i++) {
			const struct ic_sm_obs *o = &m->obs[i];
			int st = ic_sm_state(m, i);

			if (o->site != j || st < 0 || pr->variant[o->proc] != (int)k)
				continue;
			multi |= proc >= 0 && proc != (long)o->proc;
			proc = (long)o->proc;
			n[st]++;
			t0 = fmin(t0, o->t);
			t1 = fmax(t1, o->t);
		}
		if (n[0] && n[1])
			return NULL;
		lev = n[1] > 0;
		for (size_t i = 0; multi && i < m->n && !held[lev]; i++)
			held[lev] = m->obs[i].site == j && ic_sm_state(m, i) == !lev && m->obs[i].t > t0 &&
				    m->obs[i].t < t1;
	}
	if (!held[0] || !held[1])
		return NULL;
	snprintf(s->why_buf, sizeof(s->why_buf),
		 "at N = %lu, where the two levels part most, each layout variant's repetitions sit in "
		 "one level only: a layout's effect, which the band's spread over variants holds",
		 j < pr->nsites ? pr->sites[j] : 0ul);
	return s->why_buf;
}

/* States and per-process offsets look alike: how many pooled SDs of the processes' own means about
 * their state's level the levels are apart where they part most. INFINITY when a state has no
 * process there or neither has two. */
static double states_offsets(const struct ic_states *s, const struct ic_process_ratios *pr)
{
	const struct ic_sm *m = &s->model;
	size_t j = m->sep_site, np = pr->nproc, n[2] = { 0, 0 };
	double *sum = ic_stats_alloc(3 * np, sizeof(double)), *cnt = sum + np, *x = cnt + np, lo, hi, ss;
	double r = INFINITY;

	for (size_t i = 0; i < m->n; i++)
		if (m->obs[i].site == j) {
			sum[m->obs[i].proc] += m->obs[i].y;
			cnt[m->obs[i].proc] += 1.0;
		}
	/* The processes' means, state 0's first: a cut (stats.h). */
	for (int k = 0; k < 2; k++)
		for (size_t p = 0; p < np; p++)
			if (cnt[p] > 0.0 && s->state[p] == k)
				x[(size_t)k * n[0] + n[k]++] = sum[p] / cnt[p];
	ss = ic_stats_cut(x, n[0] + n[1], n[0], &lo, &hi);
	if (n[0] && n[1] && n[0] + n[1] > 2 && ss > 0.0)
		r = fabs(hi - lo) / sqrt(ss / (double)(n[0] + n[1] - 2));
	free(sum);
	return r;
}

/* State k's level, share, spell and members (by share[p][k], process p's repetitions firmly in it),
 * and with two states its ratio at every N: each process's posterior-weighted mean there one draw (so
 * one that switched inside counts in both), a t interval over them and Holm's sides over the N. */
static void states_state(struct ic_states *s, int k, double (*share)[2], const struct ic_process_ratios *pr,
			 const struct ic_group *g, const struct ic_analysis_opts *opts)
{
	struct ic_state *st = &s->st[k];
	const struct ic_sm *m = &s->model;
	size_t nkeep = pr->nproc ? pr->unit[pr->nproc - 1] + 1 : 0, nlev, nn = pr->nsites;
	size_t j = s->nstates < 2 ? (size_t)-1 : m->sep_site;   /* with one state, every N */
	unsigned char *keep = ic_stats_alloc(nkeep, 1);
	double *draw;

	s->member[k] = keep;
	s->nmember = nkeep;
	*st = (struct ic_state){ .level = NAN, .lo = NAN, .hi = NAN, .share = NAN, .share_lo = NAN,
				 .share_hi = NAN, .spell_s = NAN, .spell_lo = NAN, .spell_hi = NAN };
	if (m->mu) {
		st->sites = j < pr->nsites ? pr->sites[j] : 0;
		st->level = ic_sm_level(m, k, j, &st->lo, &st->hi, &nlev);
	}
	for (size_t p = 0; p < pr->nproc; p++) {
		int in = s->nstates < 2 || share[p][k] >= IC_STATES_MEMBER;

		keep[pr->unit[p]] = (unsigned char)in;
		st->nproc += (size_t)in;
	}
	if (s->nstates < 2)
		return;
	st->share = k ? m->share : 1.0 - m->share;
	st->share_lo = k ? m->share_lo : 1.0 - m->share_hi;
	st->share_hi = k ? m->share_hi : 1.0 - m->share_lo;
	if (!s->nuntimed) {
		st->spell_s = m->spell[k];
		st->spell_lo = m->spell_lo[k];
		st->spell_hi = m->spell_hi[k];
	}
	draw = ic_stats_alloc(pr->nproc, sizeof(*draw));
	st->ratios = ic_stats_alloc(nn, sizeof(*st->ratios));
	/* pr's N are g's ratios' (ic_process_ratios_collect). */
	for (j = 0; j < nn; j++) {
		size_t kk = ic_sm_draws(m, k, j, draw);

		ic_ratio_estimate(&st->ratios[j], g->ratios[j].cmp, g->ratios[j].base, draw, NULL, kk);
		st->ratios[j].nvariants = kk;
	}
	st->nratios = nn;
	ic_ratio_decide(st->ratios, nn, opts);
	ic_ratio_crossover(st->ratios, nn, &st->xo);
	free(draw);
}

/* A state whose level at the separating N has fewer than two processes behind it (brief spells
 * scattered over processes, or one process's) is no state this run can read: why, or NULL. */
static const char *states_brief(struct ic_states *s, const struct ic_process_ratios *pr)
{
	struct ic_sm *m = &s->model;

	for (int k = 0; k < 2; k++) {
		double lo, hi;
		size_t nlev = 0;

		ic_sm_level(m, k, m->sep_site, &lo, &hi, &nlev);
		if (nlev >= 2)
			continue;
		s->brief = 1;
		snprintf(s->why_buf, sizeof(s->why_buf),
			 "a second level came in brief spells, %.0f%% of the time, in which %s ran two "
			 "repetitions at N = %lu, where the levels part most: too little to read it as a state",
			 100.0 * (k ? m->share : 1.0 - m->share), nlev ? "only one process" : "no process",
			 m->sep_site < pr->nsites ? pr->sites[m->sep_site] : 0ul);
		return s->why_buf;
	}
	return NULL;
}

const char *ic_states_level_name(enum ic_states_level l)
{
	static const char *const names[] = { "untested", "steady", "not bounded", "layout",
					     "wanders", "drifts" };

	return (size_t)l < sizeof(names) / sizeof(names[0]) ? names[l] : "?";
}

/* The steadiness (states.h), noise pooled over an N's processes (an rse of 2-3 repetitions is heavy-tailed). */
static void states_steadiness(struct ic_states *s, const struct ic_process_ratios *pr)
{
	size_t np = pr->nproc;
	/* One block: y, se, t and vn (the variants) per process. */
	double *y = ic_stats_alloc(4 * np, sizeof(*y)), *se = y + np, *t = se + np, *vn = t + np, best = -1.0;
	int all = 1;

	s->time_p = s->spread_lo = s->spread_hi = s->trend_share = NAN;
	for (size_t i = 0; i < pr->nsites; i++) {
		size_t k = 0;
		double v2 = 0.0;
		struct ic_steady h;

		for (size_t p = 0; p < np; p++) {
			double yy = pr->logr[i * np + p], e = pr->rse[i * np + p];

			if (!isfinite(yy) || !isfinite(e))
				continue;
			y[k] = yy;
			t[k] = (double)pr->time_rank[p];
			vn[k] = pr->variant[p];
			v2 += e * e;
			k++;
		}
		if (k < IC_STATES_MIN_PROC || !(v2 > 0.0))
			continue;
		/* se pooled (above); within variants, each process about its variant's mean. */
		for (size_t j = 0; j < k; j++) {
			double sum = 0.0;
			size_t n = 0;

			se[j] = sqrt(v2 / (double)k);
			if (vn[j] < 0)
				continue;   /* an unknown variant is no variant's */
			for (size_t q = 0; q < k; q++)
				if (vn[q] == vn[j])
					sum += y[q], n++;
			if (n >= 2) {
				double d = y[j] - sum / (double)n;

				s->time_q += d * d / (se[j] * se[j]);
				s->time_df += 1.0 / (double)n * ((double)n - 1.0);
			}
		}
		if (ic_steady_test(y, se, k, IC_STEADY_MARGIN, &h))
			continue;
		all &= h.steady;
		if (!(h.tau > best))
			continue;
		best = h.tau;
		s->steady = h;
		s->steady_sites = pr->sites[i];
		s->trend_share = ic_steady_trend_share(y, se, t, k, &h);
		gsl_sort(y, 1, k);   /* (y is the next N's) */
		s->spread_lo = exp(gsl_stats_quantile_from_sorted_data(y, 1, k, 0.1));
		s->spread_hi = exp(gsl_stats_quantile_from_sorted_data(y, 1, k, 0.9));
	}
	if (best >= 0.0) {
		/* Steady only where every N is. */
		if (s->time_df > 0.0)
			s->time_p = gsl_cdf_chisq_Q(s->time_q, s->time_df);
		s->level = all ? IC_LEVEL_STEADY
			 : s->time_p < 0.05 ? (s->trend_share >= 0.5 ? IC_LEVEL_DRIFTS : IC_LEVEL_WANDERS)
			 : s->steady.p < 0.05 ? IC_LEVEL_LAYOUT : IC_LEVEL_UNBOUNDED;
	}
	free(y);
}

struct ic_states *ic_states_analyse(const struct ic_process_ratios *pr, const struct ic_group *g,
				    const struct ic_analysis_opts *opts)
{
	struct ic_states *s = ic_stats_alloc(1, sizeof(*s));
	double (*share)[2] = ic_stats_alloc(pr->nproc, sizeof(*share));   /* ic_sm_proc_switches' */

	s->nproc = pr->nproc;
	s->state = ic_stats_alloc(2 * pr->nproc, sizeof(*s->state));   /* and unsteady */
	s->unsteady = s->state + pr->nproc;
	states_model(s, pr, g);
	s->nstates = s->model.nstates;
	s->why = ic_sm_why_name(s->model.why);
	for (size_t p = 0; s->nstates == 2 && p < pr->nproc; p++) {
		s->unsteady[p] = ic_sm_proc_switches(&s->model, p, share[p]);
		s->state[p] = share[p][1] > share[p][0];
		s->nunsteady += (size_t)s->unsteady[p];
	}
	states_follows(s, pr);
	/* A split a layout or a process's own offset explains is not the machine's: one state, all in 0. */
	if (s->nstates == 2) {
		const char *why = states_variants_at_sep(s, pr);

		if (!why && !s->nunsteady && s->follows == IC_FOLLOWS_VARIANT)
			why = "the two levels follow the layout variants: a layout's effect, which the "
			      "band's spread over variants holds";
		if (!why && !s->nunsteady && states_offsets(s, pr) < IC_STATES_PROC_SEP)
			why = "no process switched inside, and the two levels are no further apart than the "
			      "processes' own offsets: each process's level, not the machine's state";
		if (!why)
			why = states_brief(s, pr);
		if (why) {
			s->why = why;
			s->nstates = s->model.nstates = 1;
			s->follows = IC_FOLLOWS_NEITHER;
			memset(s->state, 0, 2 * pr->nproc * sizeof(*s->state));   /* and unsteady */
			s->nunsteady = 0;
		}
	}
	for (int k = 0; k < (int)s->nstates; k++)
		states_state(s, k, share, pr, g, opts);
	free(share);
	states_steadiness(s, pr);
	return s;
}

void ic_states_moments(const struct ic_states *s, int k, struct ic_ratio *r, size_t n)
{
	const struct ic_sm *m = &s->model;
	double *y = ic_stats_alloc(m->n, sizeof(*y));

	for (size_t j = 0; j < n; j++) {
		size_t c = 0;

		r[j].nrep_base = r[j].nrep_cmp = 0;
		for (size_t i = 0; i < m->n; i++) {
			const struct ic_sm_obs *o = &m->obs[i];

			if (o->site != j || (k >= 0 && s->nstates == 2 && ic_sm_state(m, i) != k))
				continue;
			y[c++] = o->y;
			r[j].nrep_base += o->y > 0.0;
			r[j].nrep_cmp += o->y < 0.0;
		}
		r[j].nrep = c;
		r[j].spread_lo = r[j].spread_hi = NAN;
		if (c) {
			gsl_sort(y, 1, c);
			r[j].spread_lo = exp(gsl_stats_quantile_from_sorted_data(y, 1, c, 0.1));
			r[j].spread_hi = exp(gsl_stats_quantile_from_sorted_data(y, 1, c, 0.9));
		}
	}
	free(y);
}
