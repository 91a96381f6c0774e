#include "watch_analysis.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>
#include <jansson.h>

#include "gb_json.h"
#include "kit.h"
#include "load.h"
#include "series.h"
#include "stats.h"

void ic_watch_init(struct ic_watch *w)
{
	memset(w, 0, sizeof(*w));
	ic_results_init(&w->res);
}

void ic_watch_free(struct ic_watch *w)
{
	ic_analysis_free(&w->an);   /* empty before ic_analyse or after its failure: harmless */
	free(w->probes);
	ic_results_free(&w->res);
	free(w->samples);
	free(w->order);
	memset(w, 0, sizeof(*w));
}

const char *ic_watch_where_name(enum ic_watch_where v)
{
#define IC_WATCH_WHERE_NAME(e, name) [e] = name,
	static const char *const name[] = { IC_WATCH_WHERES(IC_WATCH_WHERE_NAME) };

	return name[v];
}

static void watch_sample_add(struct ic_watch *w, struct ic_watch_sample s)
{
	w->samples = ic_xrealloc(w->samples, w->nsamples + 1, sizeof(*w->samples));
	w->samples[w->nsamples++] = s;
}

/* The span of doc's repetitions (not aggregates): from the first's rep_start_s to the last's start
 * plus its iterations' time. Returns how many have the counter; *untimed how many do not. */
static size_t watch_span(json_t *doc, double *start, double *end, size_t *untimed)
{
	json_t *e;
	size_t i, n = 0;

	*start = INFINITY;
	*end = -INFINITY;
	*untimed = 0;
	json_array_foreach(json_object_get(doc, "benchmarks"), i, e) {
		json_t *s = json_object_get(e, IC_REP_START_COUNTER);
		const char *rt = json_string_value(json_object_get(e, "run_type"));
		double t = json_number_value(json_object_get(e, "real_time"));
		double it = json_number_value(json_object_get(e, "iterations"));
		double ns = ic_gb_unit_ns(json_string_value(json_object_get(e, "time_unit")));
		double scale = isfinite(ns) ? ns / 1e9 : 1e-9;   /* ns when not said */

		if (rt && !strcmp(rt, "aggregate"))
			continue;
		if (!json_is_number(s)) {
			(*untimed)++;
			continue;
		}
		*start = fmin(*start, json_number_value(s));
		*end = fmax(*end, json_number_value(s) + (t > 0.0 && it > 0.0 ? t * it * scale : 0.0));
		n++;
	}
	return n;
}

/* path's JSON into res as one file; a short process is a sample (the long one's windows follow the analysis). */
static int watch_add(struct ic_watch *w, const char *path, int in_long, double window_s, char *err,
		     size_t errlen)
{
	size_t len, untimed, n;
	char *text;
	double start, end;
	struct ic_file *f;
	int rc;

	if (in_long && w->have_long)
		return ic_fail(err, errlen, "%s: a second long process", path);
	if (!(text = ic_read_path(path, &len)))
		return ic_fail(err, errlen, "%s: %s", path, strerror(errno));
	rc = ic_results_load_text(&w->res, path, text, len, NAN, err, errlen);
	free(text);
	if (rc)
		return -1;
	f = w->res.files[w->res.nfiles - 1];
	n = watch_span(f->doc, &start, &end, &untimed);
	if (in_long && untimed)
		return ic_fail(err, errlen, "%s: a repetition without %s", path, IC_REP_START_COUNTER);
	if (in_long && !n)
		return ic_fail(err, errlen, "%s: no repetitions", path);
	/* Without process_end the loader's end is its first repetition's start. Without the
	 * counter, a short process's own clock (the loader's, from its context). */
	if (!isfinite(f->end))
		f->end = n ? start : NAN;
	start = n ? start : f->start;
	end = n ? end : f->end;
	if (!isfinite(start) || !isfinite(end))
		return ic_fail(err, errlen, "%s: no time (neither %s nor process_start/process_end)", path,
			       IC_REP_START_COUNTER);
	if (in_long) {
		w->long_file = w->res.nfiles - 1;
		w->window_s = window_s;
		w->have_long = 1;
	} else {
		watch_sample_add(w, (struct ic_watch_sample){ .file = w->res.nfiles - 1, .start = start, .end = end });
		w->nshort++;
	}
	return 0;
}

int ic_watch_add_short(struct ic_watch *w, const char *path, char *err, size_t errlen)
{
	return watch_add(w, path, 0, 0.0, err, errlen);
}

int ic_watch_add_long(struct ic_watch *w, const char *path, double window_s, char *err,
		      size_t errlen)
{
	return watch_add(w, path, 1, window_s, err, errlen);
}

/* The short processes' samples: their ratios, and the state most of their firm repetitions are in. */
static void watch_short_samples(struct ic_watch *w, const struct ic_series *se)
{
	const struct ic_process_ratios *pr = &se->procs;

	for (size_t i = 0; i < w->nsamples; i++) {
		struct ic_watch_sample *s = &w->samples[i];
		long p = ic_states_proc(pr, s->file);

		s->state = p < 0 ? -1 : se->states->nstates == 2 ? se->states->state[p] : 0;
		for (size_t j = 0; j < IC_WATCH_NSITES; j++)
			s->ratio[j] = p >= 0 && j < w->nsites ? exp(pr->logr[j * pr->nproc + (size_t)p]) : NAN;
	}
}

/* The long process's windows, for the chart: its repetitions in time order (the model's), cut every
 * window_s seconds; each one's state that of most of its firm repetitions (its ratios: unit means). */
static void watch_windows(struct ic_watch *w, const struct ic_series *se)
{
	const struct ic_states *st = se->states;
	const struct ic_sm *m = &st->model;
	long lp = ic_states_proc(&se->procs, w->long_file);

	if (!w->have_long || lp < 0)
		return;
	for (size_t a = 0, b; a < m->n; a = b) {
		double t0 = NAN, t1 = NAN;
		int votes[2] = { 0, 0 };

		for (b = a; b < m->n; b++) {
			const struct ic_sm_obs *o = &m->obs[b];
			int k = ic_sm_state(m, b);

			if (o->proc != (unsigned)lp)
				continue;
			if (isfinite(t0) && o->t - t0 >= w->window_s)
				break;
			if (!isfinite(t0))
				t0 = o->t;
			t1 = o->t;
			if (k >= 0)
				votes[k]++;
		}
		if (!isfinite(t0))
			continue;
		watch_sample_add(w, (struct ic_watch_sample){ .file = w->long_file, .in_long = 1, .start = t0,
			.end = t1, .state = st->nstates < 2 ? 0 : votes[1] > votes[0] ? 1 : votes[0] > votes[1] ? 0 : -1 });
		w->nwindows++;
	}
}

/* Process p's firm state at time t (of its observation nearest in time; -1: none, or not firm). The
 * observations are in time order, a process's together: a binary search, then p's nearest either side. */
static int watch_state_at(const struct ic_sm *m, size_t p, double t)
{
	size_t lo = 0, hi = m->n;
	long best = -1;
	double d = INFINITY;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->obs[mid].t < t)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < m->n; i++)
		if (m->obs[i].proc == p) {
			d = m->obs[i].t - t;
			best = (long)i;
			break;
		}
	for (size_t i = lo; i-- > 0;)
		if (m->obs[i].proc == p) {
			if (t - m->obs[i].t < d)
				best = (long)i;
			break;
		}
	return best < 0 ? -1 : ic_sm_state(m, (size_t)best);
}

/* The unit (sample) that holds time t of file: a short process's own, or the long process's window
 * that began last at or before t (the first for earlier times); -1 when none. */
static long watch_unit_at(const struct ic_watch *w, size_t file, double t)
{
	size_t first = w->nsamples - w->nwindows;
	long best = -1;

	if (!(w->have_long && file == w->long_file)) {
		for (size_t i = 0; i < first; i++)
			if (w->samples[i].file == file)
				return (long)i;
		return -1;
	}
	for (size_t i = first; i < w->nsamples && (best < 0 || w->samples[i].start <= t); i++)
		best = (long)i;
	return best;
}

/* The sums and counts of reps[0..n-1]'s log times into sc: by process and the state of the
 * sentinel's repetition of it nearest in time (sums sc[2 p + s], counts 2 nproc on), and by unit
 * (sums 4 nproc on, counts nsamples after them). */
static void watch_sums(const struct ic_watch *w, const struct ic_series *se, const struct ic_rep *reps, size_t n,
		       double *sc)
{
	size_t np = se->procs.nproc;
	double *unit = sc + 4 * np;

	memset(sc, 0, (4 * np + 2 * w->nsamples) * sizeof(*sc));
	for (size_t r = 0; r < n; r++) {
		long p = ic_states_proc(&se->procs, reps[r].unit), s, u;
		double y;

		/* A repetition without its start has no state or unit to take. */
		if (!(reps[r].v[IC_F_NS] > 0.0) || !isfinite(reps[r].start))
			continue;
		y = log(reps[r].v[IC_F_NS]);
		if (p >= 0 && (s = watch_state_at(&se->states->model, (size_t)p, reps[r].start)) >= 0) {
			sc[2 * p + s] += y;
			sc[2 * (np + (size_t)p) + (size_t)s] += 1.0;
		}
		if ((u = watch_unit_at(w, reps[r].unit, reps[r].start)) >= 0) {
			unit[u] += y;
			unit[w->nsamples + (size_t)u] += 1.0;
		}
	}
}

/* The level per state from watch_sums' sc, a process's mean log time one draw; 2 over 1 by Welch. */
static void watch_level(const struct ic_watch *w, const struct ic_series *se, double *sc,
			struct ic_watch_level *lv)
{
	const struct ic_process_ratios *pr = &se->procs;
	double mean[2] = { NAN, NAN }, sev[2] = { NAN, NAN };
	double *sum = sc, *cnt = sc + 2 * pr->nproc, *x = sc + 4 * pr->nproc + 2 * w->nsamples;

	*lv = (struct ic_watch_level){ .ns = { NAN, NAN }, .lo = { NAN, NAN }, .hi = { NAN, NAN }, .change = NAN,
				       .change_lo = NAN, .change_hi = NAN, .verdict = IC_CHANGE_NONE };
	if (w->nstates < 2)
		return;
	for (int s = 0; s < 2; s++) {
		size_t k = 0;
		double m = 0.0, ss = 0.0, t;

		for (size_t p = 0; p < pr->nproc; p++)
			if (cnt[2 * p + (size_t)s] > 0.0)
				x[k++] = sum[2 * p + (size_t)s] / cnt[2 * p + (size_t)s];
		/* The mean, with a 95% t interval when two or more. */
		for (size_t i = 0; i < k; i++)
			m += x[i] / (double)k;
		for (size_t i = 0; i < k; i++)
			ss += (x[i] - m) * (x[i] - m);
		mean[s] = k ? m : NAN;
		lv->ns[s] = exp(mean[s]);
		lv->nproc[s] = k;
		if (k < 2)
			continue;
		sev[s] = sqrt(ss / (double)(k - 1) / (double)k);
		t = ic_stats_t_quantile(0.975, (double)(k - 1));
		lv->lo[s] = exp(m - t * sev[s]);
		lv->hi[s] = exp(m + t * sev[s]);
	}
	if (isfinite(sev[0]) && isfinite(sev[1])) {
		/* Welch, its degrees of freedom the smaller group's: conservative. */
		double d = mean[1] - mean[0], sed = sqrt(sev[0] * sev[0] + sev[1] * sev[1]);
		size_t kmin = lv->nproc[0] < lv->nproc[1] ? lv->nproc[0] : lv->nproc[1];
		double t = ic_stats_t_quantile(0.975, (double)(kmin - 1));

		lv->change = exp(d);
		lv->change_lo = exp(d - t * sed);
		lv->change_hi = exp(d + t * sed);
		lv->verdict = lv->change_lo > 1.0 ? IC_CHANGE_SLOWER : lv->change_hi < 1.0 ? IC_CHANGE_FASTER
			    : lv->change_lo >= 1.0 - IC_WATCH_SAME && lv->change_hi <= 1.0 + IC_WATCH_SAME ? IC_CHANGE_SAME
			    : IC_CHANGE_UNSURE;
	}
}

/* The noise's correlation in time (steadiness.h) from the difference of the two N's log ratios at
 * one place in each process, where the machine's movement cancels (docs/method.md, "Where the
 * correlation is read"): the smaller of the differences' pooled AR(1) reading and their neighbours'
 * at lags 1 and 2 by medians (a movement at one N only lifts it less). Too high makes noise of a
 * movement; too low only keeps some noise as movement. 0 with one N, where noise and level are one. */
static double watch_noise_rho(const struct ic_watch *w, const struct ic_series *se)
{
	const struct ic_sm *m = &se->states->model;
	size_t np = se->procs.nproc, nd[2] = { 0, 0 }, cap = m->n;
	struct ic_ar1_unit *u = ic_stats_alloc(np, sizeof(*u));
	double *a = ic_stats_alloc(4 * cap, sizeof(double)), *b = a + cap, *d[2] = { a + 2 * cap, a + 3 * cap };
	double rho;

	for (size_t p = 0; w->nsites >= 2 && p < np; p++) {   /* (no units: rho 0) */
		size_t na = 0, nb = 0, n;
		double mean = 0.0;

		/* Its repetitions at each N in time order. */
		for (size_t i = 0; i < m->n; i++)
			if (m->obs[i].proc == p && m->obs[i].site == 0)
				a[na++] = m->obs[i].y;
			else if (m->obs[i].proc == p && m->obs[i].site == 1)
				b[nb++] = m->obs[i].y;
		n = na < nb ? na : nb;
		for (size_t k = 0; k < n; k++)
			mean += (a[k] - b[k]) / (double)n;
		u[p].n = n;
		for (size_t k = 0; k < n; k++) {
			double z = a[k] - b[k];

			u[p].s0 += (z - mean) * (z - mean);
			if (k)
				u[p].s1 += (z - mean) * (a[k - 1] - b[k - 1] - mean);
			for (size_t l = 1; l <= 2 && l <= k; l++)
				d[l - 1][nd[l - 1]++] = fabs(z - (a[k - l] - b[k - l]));
		}
	}
	rho = ic_steady_ar1_rho(u, np);
	if (nd[0] && nd[1]) {
		double m1 = ic_stats_median(d[0], nd[0]), m2 = ic_stats_median(d[1], nd[1]);

		rho = fmin(rho, ic_steady_ar1_rho_lags(m1 * m1, m2 * m2));
	}
	free(u);
	free(a);
	return rho;
}

/* Each unit's mean log ratio per N from the model's paired repetitions, and its standard error: the
 * repetitions' variance pooled over the units at that N (a unit of three says next to nothing of it)
 * raised by the correlated noise's share a unit's mean hides, times its mean's AR(1) variance. */
static void watch_unit_means(struct ic_watch *w, const struct ic_series *se)
{
	const struct ic_sm *m = &se->states->model;
	size_t np = se->procs.nproc;
	/* Each process's repetitions so far at each N. */
	size_t *seen = ic_stats_alloc(np * IC_WATCH_NSITES, sizeof(*seen));

	/* se[j] holds the sum of squares until the errors are known. */
	for (size_t i = 0; i < m->n; i++) {
		const struct ic_sm_obs *o = &m->obs[i];
		size_t c = (size_t)o->proc * IC_WATCH_NSITES + o->site;
		long u;

		if (o->proc >= np || o->site >= w->nsites)
			continue;
		seen[c]++;
		if ((u = watch_unit_at(w, se->procs.unit[o->proc], o->t)) < 0)
			continue;
		if (!w->samples[u].nrep[o->site])
			w->samples[u].rank[o->site] = seen[c] - 1;
		w->samples[u].ly[o->site] += o->y;
		w->samples[u].se[o->site] += o->y * o->y;
		w->samples[u].nrep[o->site]++;
	}
	w->noise_rho = watch_noise_rho(w, se);
	for (size_t j = 0; j < w->nsites; j++) {
		double df = 0.0, ss = 0.0, e0 = 0.0;

		for (size_t i = 0; i < w->nsamples; i++) {
			struct ic_watch_sample *s = &w->samples[i];
			double n = (double)s->nrep[j];

			if (!s->nrep[j]) {
				s->ly[j] = NAN;
				continue;
			}
			ss += s->se[j] - s->ly[j] * s->ly[j] / n;
			df += n - 1.0;
			e0 += ic_steady_ar1_s0(s->nrep[j], w->noise_rho);
			s->ly[j] /= n;
		}
		for (size_t i = w->nshort; i < w->nsamples; i++)
			w->samples[i].ratio[j] = exp(w->samples[i].ly[j]);
		w->steady[j].within_sd = df > 0.0 ? sqrt(ss / df) : NAN;
		w->steady[j].noise_sd = e0 > 0.0 ? w->steady[j].within_sd * sqrt(df / e0) : NAN;
		for (size_t i = 0; i < w->nsamples; i++)
			w->samples[i].se[j] = w->samples[i].nrep[j] ? w->steady[j].noise_sd *
				sqrt(ic_steady_ar1_mean_var(w->samples[i].nrep[j], w->noise_rho)) : NAN;
	}
	free(seen);
}

/* The units in time order (indexes into samples), and their time span. */
static void watch_time_order(struct ic_watch *w)
{
	size_t *idx = w->order = ic_stats_alloc(w->nsamples, sizeof(*idx));

	w->t0 = INFINITY;
	w->t1 = -INFINITY;
	for (size_t i = 0; i < w->nsamples; i++) {
		size_t k = i;

		w->t0 = fmin(w->t0, w->samples[i].start);
		w->t1 = fmax(w->t1, w->samples[i].end);

		/* Insertion: the samples are nearly in order already. */
		while (k > 0 && w->samples[idx[k - 1]].start > w->samples[i].start) {
			idx[k] = idx[k - 1];
			k--;
		}
		idx[k] = i;
	}
}

/* With two states: the units' SD beyond noise inside each state (the units mostly in it) at the j-th
 * N; they fit where IC_WATCH_STATES_SEP times the larger is inside the gap. The noise: the units'
 * own spread, as the separation was set on (docs/method.md). y, sev: scratch of nsamples each. */
static void watch_states_fit(struct ic_watch *w, size_t j, double *y, double *sev)
{
	double gap = fabs(log(w->st[1].ratio[j] / w->st[0].ratio[j])), tau = 0.0;
	struct ic_steady h;

	for (int s = 0; s < 2; s++) {
		size_t k = 0;

		for (size_t i = 0; i < w->nsamples; i++)
			if (w->samples[i].state == s && w->samples[i].nrep[j]) {
				y[k] = w->samples[i].ly[j];
				sev[k++] = w->steady[j].within_sd / sqrt((double)w->samples[i].nrep[j]);
			}
		if (!ic_steady_test(y, sev, k, IC_STEADY_MARGIN, &h) && h.tau > tau)
			tau = h.tau;
	}
	w->states_fit = IC_WATCH_STATES_SEP * tau <= gap;
	if (!w->states_fit) {
		snprintf(w->why_buf, sizeof(w->why_buf), "the two-state fit's levels are %.1f SDs of the "
			 "units' variation inside a state apart, not %.0f", gap / tau, IC_WATCH_STATES_SEP);
		w->why = w->why_buf;
	}
}

/* Steadiness, spread and drift share at each N; with two states, whether they fit at the fit-th N. */
static void watch_steadiness(struct ic_watch *w, size_t fit)
{
	size_t n = w->nsamples;
	double *y = ic_stats_alloc(4 * n, sizeof(*y)), *sev = y + n, *t = y + 2 * n, *r = y + 3 * n, most = -1.0;
	const struct ic_watch_sample **u = ic_stats_alloc(n, sizeof(*u));

	w->steady_all = w->nsites > 0;
	for (size_t j = 0; j < w->nsites; j++) {
		struct ic_watch_steady *st = &w->steady[j];
		double *v = NULL, var = st->noise_sd * st->noise_sd;
		size_t k = 0;

		for (size_t a = 0; a < w->nsamples; a++) {
			const struct ic_watch_sample *s = &w->samples[w->order[a]];

			if (!s->nrep[j] || !isfinite(s->ly[j]))
				continue;
			u[k] = s;
			y[k] = s->ly[j];
			sev[k] = s->se[j];
			t[k] = 0.5 * (s->start + s->end) - w->t0;
			r[k] = exp(s->ly[j]);
			k++;
		}
		/* Units of one process share its correlated noise: the AR(1) covariance of their
		 * places in it. Without correlation, the diagonal case (independent noise). */
		if (w->noise_rho > 0.0 && (v = ic_stats_alloc(k * k, sizeof(*v))))
			for (size_t a = 0; a < k; a++) {
				v[a * k + a] = u[a]->se[j] * u[a]->se[j];
				for (size_t b = a + 1; b < k; b++)
					if (u[a]->file == u[b]->file)
						v[a * k + b] = v[b * k + a] = var * ic_steady_ar1_cov(u[a]->rank[j],
							u[a]->nrep[j], u[b]->rank[j], u[b]->nrep[j], w->noise_rho);
			}
		if (!v || ic_steady_test_cov(y, v, k, IC_STEADY_MARGIN, &st->h))
			ic_steady_test(y, sev, k, IC_STEADY_MARGIN, &st->h);
		free(v);
		st->trend_share = ic_steady_trend_share(y, sev, t, k, &st->h);
		st->p10 = st->p90 = NAN;
		if (k) {
			gsl_sort(r, 1, k);
			st->p10 = gsl_stats_quantile_from_sorted_data(r, 1, k, 0.10);
			st->p90 = gsl_stats_quantile_from_sorted_data(r, 1, k, 0.90);
		}
		w->steady_all &= st->h.steady;
		if (st->h.tau > most) {
			most = st->h.tau;
			w->ref = j;
		}
	}
	if (w->nstates == 2)
		watch_states_fit(w, fit, y, sev);
	free(y);
	free(u);
}

/* One form's or probe's elasticity from watch_sums' sums per unit (sc): its mean log time per unit
 * against the units' log ratio at the reference N, in time order. */
static void watch_elastic(const struct ic_watch *w, double *sc, struct ic_watch_elastic *el)
{
	const struct ic_watch_steady *st = &w->steady[w->ref];
	double range = log(st->p90 / st->p10), lim = log(1.0 + IC_WATCH_SAME);
	double *sum = sc, *cnt = sc + w->nsamples, *x = cnt + w->nsamples, *y = x + w->nsamples;
	size_t k = 0;

	for (size_t a = 0; a < w->nsamples; a++) {
		size_t i = w->order[a];

		if (cnt[i] > 0.0 && w->samples[i].nrep[w->ref] && isfinite(w->samples[i].ly[w->ref])) {
			x[k] = w->samples[i].ly[w->ref];
			y[k] = sum[i] / cnt[i];
			k++;
		}
	}
	if (ic_slope_fit(x, y, k, &el->fit) || !(range > 0.0))
		return;
	el->change = exp(el->fit.b * range);
	el->change_lo = exp(el->fit.lo * range);
	el->change_hi = exp(el->fit.hi * range);
	el->verdict = fabs(el->fit.lo) * range <= lim && fabs(el->fit.hi) * range <= lim ? IC_MOVES_UNCHANGED
		    : el->fit.lo > 0.0 ? IC_MOVES_WITH : el->fit.hi < 0.0 ? IC_MOVES_AGAINST : IC_MOVES_UNSURE;
}

/* A form's at one N or a probe's: its level per state, and its elasticity
 * where the machine drifts or wanders. sc: scratch of 5 nproc + 4 nsamples. */
static void watch_item(const struct ic_watch *w, const struct ic_series *se, double *sc, const struct ic_rep *reps,
		       size_t n, struct ic_watch_level *lv, struct ic_watch_elastic *el)
{
	*el = (struct ic_watch_elastic){ .fit = { .b = NAN, .lo = NAN, .hi = NAN, .se = NAN, .r2 = NAN },
					 .change = NAN, .change_lo = NAN, .change_hi = NAN, .verdict = IC_MOVES_NOT_READ };
	watch_sums(w, se, reps, n, sc);
	watch_level(w, se, sc, lv);
	if (w->where == IC_WATCH_DRIFTS || w->where == IC_WATCH_WANDERS)
		watch_elastic(w, sc + 4 * se->procs.nproc, el);
}

/* Each form's level per state and elasticity at each sentinel N, and each probe's. */
static void watch_forms(struct ic_watch *w, const struct ic_series *se)
{
#define IC_WATCH_FORM_NAME(f) #f,
	static const char *const names[IC_WATCH_NFORMS] = { IC_WATCH_FORM_LIST(IC_WATCH_FORM_NAME) };
	double *sc = ic_stats_alloc(5 * se->procs.nproc + 4 * w->nsamples, sizeof(*sc));

	w->probes = ic_stats_alloc(w->res.nprobes, sizeof(*w->probes));
	for (size_t f = 0; f < IC_WATCH_NFORMS; f++) {
		struct ic_watch_form *wf = &w->forms[f];

		wf->form = names[f];
		for (size_t j = 0; j < IC_WATCH_NSITES; j++) {
			const struct ic_point *pt = j < w->nsites ? ic_group_point(&se->group, names[f], w->sites[j]) : NULL;

			wf->measured |= pt != NULL;
			watch_item(w, se, sc, pt ? pt->reps : NULL, pt ? pt->nreps : 0, &wf->at[j], &wf->el[j]);
		}
	}
	w->nprobes = w->res.nprobes;
	for (size_t k = 0; k < w->nprobes; k++) {
		const struct ic_probe_reps *p = &w->res.probes[k];

		w->probes[k] = (struct ic_watch_probe){ .name = p->name, .what = p->what };
		watch_item(w, se, sc, p->reps, p->nreps, &w->probes[k].level, &w->probes[k].el);
	}
	free(sc);
}

int ic_watch_analyse(struct ic_watch *w, char *err, size_t errlen)
{
	const struct ic_series *se = NULL;
	const struct ic_states *st;
	const struct ic_sm *m;
	const struct ic_watch_steady *ref;
	long lp;
	double gap = -1.0;

	if (ic_analyse(&w->an, &w->res, &ic_analysis_defaults, err, errlen))
		return -1;   /* (ic_watch_free frees w->an, as after any failure) */
	/* The series the sentinel is: the first with compare/baseline ratios. */
	for (size_t i = 0; !se && i < w->an.nseries; i++)
		if (w->an.series[i].group.nratios && w->an.series[i].states)
			se = &w->an.series[i];
	if (!se)
		return ic_fail(err, errlen, "no series has both %s and %s",
			       ic_analysis_defaults.compare, ic_analysis_defaults.baseline);
	snprintf(w->series, sizeof(w->series), "%s %s/%s, %lu thread%s, %s",
		 se->group.op, se->group.layout, se->group.order, se->group.threads,
		 se->group.threads == 1 ? "" : "s", se->group.mode);
	st = se->states;
	m = &st->model;
	w->nsites = se->procs.nsites < IC_WATCH_NSITES ? se->procs.nsites : IC_WATCH_NSITES;
	memcpy(w->sites, se->procs.sites, w->nsites * sizeof(*w->sites));
	w->nstates = st->nstates;
	w->why = st->why;
	w->separation = m->sep;
	watch_short_samples(w, se);
	watch_windows(w, se);
	watch_time_order(w);
	for (int s = 0; s < (int)w->nstates; s++) {
		struct ic_watch_state *ws = &w->st[s];

		for (size_t j = 0; j < IC_WATCH_NSITES; j++) {
			ws->ratio[j] = ws->lo[j] = ws->hi[j] = NAN;
			if (j < w->nsites && m->mu)
				ws->ratio[j] = ic_sm_level(m, s, j, &ws->lo[j], &ws->hi[j], &ws->nproc[j]);
		}
		ws->of = &st->st[s];
		ws->switches = w->nstates == 2 ? m->switches[s] : 0.0;
		for (size_t i = 0; i < w->nsamples; i++)
			ws->procs += !w->samples[i].in_long && w->samples[i].state == s;
	}
	/* The report's N: where the states' ratios part most (the fit's sep_site weighs the gap by noise). */
	for (size_t j = 0; w->nstates == 2 && j < w->nsites; j++) {
		double x = fabs(log(w->st[1].ratio[j] / w->st[0].ratio[j]));

		if (x > gap) {   /* (false for NaN) */
			gap = x;
			w->part = j;
		}
	}
	w->switching = st->nunsteady;
	lp = ic_states_proc(&se->procs, w->long_file);
	w->long_switches = w->have_long && lp >= 0 && st->unsteady[lp];
	watch_unit_means(w, se);
	watch_steadiness(w, m->sep_site < w->nsites ? m->sep_site : 0);
	/* Steady first: one answer needs the bound, whatever the states. Then two states where they
	 * fit; else the variation named. Brief spells are shorter than a unit: where the units vary
	 * beyond their noise, the variation is longer than that, and named as such. */
	ref = &w->steady[w->ref];
	w->where = se->procs.nproc < IC_STATES_MIN_PROC || m->n < IC_SM_MIN_OBS ||
		   ref->h.k < IC_STEADY_MIN_UNITS ? IC_WATCH_TOO_FEW
		 : w->steady_all ? IC_WATCH_ONE_STATE
		 : w->nstates == 2 && w->states_fit && w->switching ? IC_WATCH_INSIDE
		 : w->nstates == 2 && w->states_fit ? IC_WATCH_BETWEEN
		 : ref->h.p < 0.05 && ref->trend_share >= IC_WATCH_DRIFT_SHARE ? IC_WATCH_DRIFTS
		 : ref->h.p < 0.05 ? IC_WATCH_WANDERS
		 : st->brief ? IC_WATCH_BRIEF : IC_WATCH_UNBOUNDED;
	watch_forms(w, se);
	return 0;
}
