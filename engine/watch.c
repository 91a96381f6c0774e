/* watch: the states of a sentinel over time, from short processes and the
 * windows of one long process; see watch.h. */
#define _GNU_SOURCE   /* timegm */
#include "watch.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cdf.h>
#include <jansson.h>

#include "context.h"
#include "load.h"
#include "stats.h"

__attribute__((format(printf, 3, 4)))
static int watch_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void ic_watch_init(struct ic_watch *w)
{
	memset(w, 0, sizeof(*w));
	ic_results_init(&w->res);
}

void ic_watch_free(struct ic_watch *w)
{
	if (w->analysed)
		ic_analysis_free(&w->an);
	ic_results_free(&w->res);
	free(w->samples);
	memset(w, 0, sizeof(*w));
}

const char *ic_watch_where_name(enum ic_watch_where v)
{
	static const char *const name[] = {
		[IC_WATCH_TOO_FEW] = "too few samples",
		[IC_WATCH_ONE_STATE] = "one state",
		[IC_WATCH_BETWEEN] = "between processes",
		[IC_WATCH_INSIDE] = "inside a process",
	};

	return name[v];
}

void ic_watch_clopper_pearson(size_t k, size_t n, double alpha, double *lo, double *hi)
{
	double dk = (double)k, dn = (double)n;

	if (!n || k > n) {
		*lo = *hi = NAN;
		return;
	}
	*lo = k == 0 ? 0.0 : gsl_cdf_beta_Pinv(alpha / 2.0, dk, dn - dk + 1.0);
	*hi = k == n ? 1.0 : gsl_cdf_beta_Pinv(1.0 - alpha / 2.0, dk + 1.0, dn - dk);
}

/* "2026-12-04T10:11:12.345Z" as seconds since the epoch; NAN if not that. */
static double watch_iso(const char *s)
{
	struct tm tm = { 0 };
	const char *rest = s ? strptime(s, "%Y-%m-%dT%H:%M:%S", &tm) : NULL;
	double frac = 0.0;

	if (!rest)
		return NAN;
	if (*rest == '.')
		frac = strtod(rest, NULL);
	return (double)timegm(&tm) + frac;
}

/* One repetition's start and end (s): its rep_start_s counter, and that
 * plus its iterations' time. */
static int watch_entry_time(json_t *e, double *start, double *end)
{
	json_t *s = json_object_get(e, IC_REP_START_COUNTER);
	double t = json_number_value(json_object_get(e, "real_time"));
	double it = json_number_value(json_object_get(e, "iterations"));
	const char *unit = json_string_value(json_object_get(e, "time_unit"));
	double scale = 1e-9;

	if (!json_is_number(s))
		return -1;
	if (unit && !strcmp(unit, "us"))
		scale = 1e-6;
	else if (unit && !strcmp(unit, "ms"))
		scale = 1e-3;
	else if (unit && !strcmp(unit, "s"))
		scale = 1.0;
	*start = json_number_value(s);
	*end = *start + (t > 0.0 && it > 0.0 ? t * it * scale : 0.0);
	return 0;
}

static int watch_is_iteration(json_t *e)
{
	const char *rt = json_string_value(json_object_get(e, "run_type"));

	return !rt || strcmp(rt, "aggregate");
}

static struct ic_watch_sample *watch_sample_new(struct ic_watch *w)
{
	struct ic_watch_sample *ns = realloc(w->samples, (w->nsamples + 1) * sizeof(*ns));

	if (!ns)
		return NULL;
	w->samples = ns;
	ns = &ns[w->nsamples];
	memset(ns, 0, sizeof(*ns));
	ns->file = w->res.nfiles;
	return ns;
}

/* doc (a process's JSON, or a window of it) into res as one file, and its
 * sample. */
static int watch_load_doc(struct ic_watch *w, const char *name, json_t *doc, int in_long,
			  double start, double end, char *err, size_t errlen)
{
	struct ic_watch_sample *s;
	char *text = json_dumps(doc, JSON_COMPACT);
	int rc;

	if (!text || !(s = watch_sample_new(w))) {
		free(text);
		return watch_fail(err, errlen, "%s: out of memory", name);
	}
	s->in_long = in_long;
	s->start = start;
	s->end = end;
	rc = ic_results_load_text(&w->res, name, text, strlen(text), start, err, errlen);
	free(text);
	if (rc)
		return -1;
	w->nsamples++;
	return 0;
}

static json_t *watch_read(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_load_file(path, 0, &je);

	if (!doc)
		watch_fail(err, errlen, "%s: not JSON (line %d: %s)", path, je.line, je.text);
	else if (!json_is_array(json_object_get(doc, "benchmarks"))) {
		watch_fail(err, errlen, "%s: no \"benchmarks\" array (not Google Benchmark JSON)", path);
		json_decref(doc);
		doc = NULL;
	}
	return doc;
}

int ic_watch_add_short(struct ic_watch *w, const char *path, char *err, size_t errlen)
{
	json_t *doc = watch_read(path, err, errlen), *e, *ctx;
	double start = INFINITY, end = -INFINITY, a, b;
	size_t i;
	int rc;

	if (!doc)
		return -1;
	json_array_foreach(json_object_get(doc, "benchmarks"), i, e)
		if (watch_is_iteration(e) && !watch_entry_time(e, &a, &b)) {
			start = fmin(start, a);
			end = fmax(end, b);
		}
	/* Without the counter, the process's own clock. */
	ctx = json_object_get(doc, "context");
	if (!isfinite(start)) {
		start = watch_iso(json_string_value(json_object_get(ctx, ic_ctx_name(IC_CTX_PROCESS_START))));
		end = watch_iso(json_string_value(json_object_get(ctx, ic_ctx_name(IC_CTX_PROCESS_END))));
	}
	if (!isfinite(start) || !isfinite(end)) {
		json_decref(doc);
		return watch_fail(err, errlen, "%s: no time (neither %s nor process_start/process_end)",
				  path, IC_REP_START_COUNTER);
	}
	rc = watch_load_doc(w, path, doc, 0, start, end, err, errlen);
	json_decref(doc);
	w->nshort += rc == 0;
	return rc;
}

/* One repetition of the long process, placed in time. */
struct watch_rep {
	json_t *entry;
	const char *name;
	size_t id;                 /* its benchmark, numbered in order of appearance */
	double start, end;
};

static int watch_cmp_rep(const void *pa, const void *pb)
{
	const struct watch_rep *a = pa, *b = pb;

	return (a->start > b->start) - (a->start < b->start);
}

/* The long process's repetitions in time order. Google Benchmark shuffles
 * every (benchmark, repetition) pair, so a repetition index is no round:
 * windows are cut by time. */
static struct watch_rep *watch_reps(json_t *bench, size_t *nr, size_t *nnames, const char *path,
				    char *err, size_t errlen)
{
	size_t i, n = 0, cap = json_array_size(bench);
	struct watch_rep *r = calloc(cap ? cap : 1, sizeof(*r));
	json_t *e;

	*nnames = 0;
	if (!r) {
		watch_fail(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	json_array_foreach(bench, i, e) {
		const char *name = json_string_value(json_object_get(e, "name"));
		size_t k;

		if (!watch_is_iteration(e))
			continue;
		if (!name || watch_entry_time(e, &r[n].start, &r[n].end)) {
			free(r);
			watch_fail(err, errlen, "%s: a repetition without a name or %s", path,
				   IC_REP_START_COUNTER);
			return NULL;
		}
		r[n].entry = e;
		r[n].name = name;
		for (k = 0; k < n && strcmp(r[k].name, name); k++)
			;
		r[n].id = k == n ? (*nnames)++ : r[k].id;
		n++;
	}
	qsort(r, n, sizeof(*r), watch_cmp_rep);
	*nr = n;
	return r;
}

/* Whether r[a..b) holds at least IC_WATCH_MIN_REPS repetitions of each
 * of the process's nnames benchmarks. */
static int watch_full(const struct watch_rep *r, size_t a, size_t b, size_t nnames)
{
	size_t *seen = calloc(nnames ? nnames : 1, sizeof(*seen)), full = 0;

	if (!seen)
		return 0;
	for (size_t i = a; i < b; i++)
		full += ++seen[r[i].id] == IC_WATCH_MIN_REPS;
	free(seen);
	return full >= nnames;
}

/* Window r[a..b) as one document: the context, and those repetitions. */
static json_t *watch_window_doc(json_t *doc, const struct watch_rep *r, size_t a, size_t b,
				size_t k)
{
	json_t *out = json_object(), *bench = json_array(), *ctx;
	char proc[32];

	ctx = json_object_get(doc, "context");
	ctx = ctx ? json_deep_copy(ctx) : json_object();
	if (!out || !bench || !ctx)
		goto oom;
	snprintf(proc, sizeof(proc), "long/w%zu", k);
	json_object_set_new(ctx, ic_ctx_name(IC_CTX_PROCESS), json_string(proc));
	for (size_t i = a; i < b; i++)
		if (json_array_append(bench, r[i].entry))
			goto oom;
	if (json_object_set_new(out, "context", ctx) || json_object_set_new(out, "benchmarks", bench))
		goto oom2;
	return out;
oom:
	json_decref(ctx);
	json_decref(bench);
oom2:
	json_decref(out);
	return NULL;
}

int ic_watch_add_long(struct ic_watch *w, const char *path, double window_s, char *err,
		      size_t errlen)
{
	json_t *doc = watch_read(path, err, errlen);
	struct watch_rep *r;
	size_t nr, nnames, a = 0, k = 0;
	int rc = 0;

	if (!doc)
		return -1;
	if (!(r = watch_reps(json_object_get(doc, "benchmarks"), &nr, &nnames, path, err, errlen))) {
		json_decref(doc);
		return -1;
	}
	if (!nr || !watch_full(r, 0, nr, nnames))
		rc = watch_fail(err, errlen, "%s: fewer than %d repetitions of each benchmark, less "
				"than one window", path, IC_WATCH_MIN_REPS);
	while (!rc && a < nr) {
		size_t b = a + 1;
		char name[4200];
		json_t *win;

		while (b < nr && (r[b - 1].end - r[a].start < window_s || !watch_full(r, a, b, nnames)))
			b++;
		/* A tail too short for a window of its own joins this one. */
		if (b < nr && (r[nr - 1].end - r[b].start < window_s || !watch_full(r, b, nr, nnames)))
			b = nr;
		snprintf(name, sizeof(name), "%s#w%zu", path, k);
		if (!(win = watch_window_doc(doc, r, a, b, k))) {
			rc = watch_fail(err, errlen, "%s: out of memory", path);
			break;
		}
		rc = watch_load_doc(w, name, win, 1, r[a].start, r[b - 1].end, err, errlen);
		json_decref(win);
		w->nwindows += rc == 0;
		a = b;
		k++;
	}
	free(r);
	json_decref(doc);
	return rc;
}

/* The series the sentinel is: the first with compare/baseline ratios. */
static const struct ic_series *watch_series(const struct ic_analysis *an)
{
	for (size_t s = 0; s < an->nseries; s++)
		if (an->series[s].group.nratios && an->series[s].states)
			return &an->series[s];
	return NULL;
}

static int watch_cmp_start(const void *pa, const void *pb)
{
	const struct ic_watch_sample *const *a = pa, *const *b = pb;

	return ((*a)->start > (*b)->start) - ((*a)->start < (*b)->start);
}

/* The spells of one timeline (in_long or not), added to each state's
 * count; their lengths into len[state][...]. Returns the switches. */
static size_t watch_spells(struct ic_watch *w, int in_long, double *len[2], size_t nlen[2],
			   int *whole[2])
{
	const struct ic_watch_sample **t = malloc((w->nsamples ? w->nsamples : 1) * sizeof(*t));
	size_t n = 0, sw = 0;

	if (!t)
		return 0;
	for (size_t i = 0; i < w->nsamples; i++)
		if (w->samples[i].in_long == in_long)
			t[n++] = &w->samples[i];
	qsort(t, n, sizeof(*t), watch_cmp_start);
	for (size_t a = 0, b; a < n; a = b) {
		int s = t[a]->state;
		double end;

		for (b = a; b < n && t[b]->state == s; b++)
			;
		end = b < n ? t[b]->start : t[b - 1]->end;
		len[s][nlen[s]] = end - t[a]->start;
		/* Cut by the watch's start or end: how long it lasted is unknown. */
		whole[s][nlen[s]] = a > 0 && b < n;
		nlen[s]++;
		w->st[s].spells++;
		w->st[s].censored += !(a > 0 && b < n);
		sw += b < n;
	}
	free(t);
	return sw;
}

/* Each state's spell median: over whole spells, else over all. */
static void watch_spell_medians(struct ic_watch *w, double *len[2], size_t nlen[2], int *whole[2])
{
	for (int s = 0; s < 2; s++) {
		double *buf = malloc((nlen[s] ? nlen[s] : 1) * sizeof(*buf));
		size_t m = 0;

		w->st[s].spell_median_s = NAN;
		if (!buf)
			continue;
		for (size_t i = 0; i < nlen[s]; i++)
			if (whole[s][i])
				buf[m++] = len[s][i];
		w->st[s].spell_at_least = m == 0 && nlen[s] > 0;
		if (!m)
			for (size_t i = 0; i < nlen[s]; i++)
				buf[m++] = len[s][i];
		w->st[s].spell_median_s = ic_stats_median(buf, m);
		free(buf);
	}
}

static void watch_share(struct ic_watch_share *sh, size_t k, size_t n)
{
	sh->k = k;
	sh->n = n;
	sh->share = n ? (double)k / (double)n : NAN;
	ic_watch_clopper_pearson(k, n, 0.05, &sh->lo, &sh->hi);
}

/* Each sample's ratios and state, from the series' process ratios. */
static void watch_fill_samples(struct ic_watch *w, const struct ic_series *se)
{
	const struct ic_process_ratios *pr = &se->procs;

	w->nsites = pr->nsites < IC_WATCH_NSITES ? pr->nsites : IC_WATCH_NSITES;
	for (size_t i = 0; i < w->nsites; i++)
		w->sites[i] = pr->sites[i];
	for (size_t i = 0; i < w->nsamples; i++)
		for (size_t j = 0; j < IC_WATCH_NSITES; j++)
			w->samples[i].ratio[j] = NAN;
	for (size_t p = 0; p < pr->nproc; p++)
		for (size_t i = 0; i < w->nsamples; i++) {
			struct ic_watch_sample *s = &w->samples[i];

			if (s->file != pr->unit[p])
				continue;
			s->state = se->states->state[p];
			for (size_t j = 0; j < w->nsites; j++)
				s->ratio[j] = exp(pr->logr[j * pr->nproc + p]);
		}
}

int ic_watch_analyse(struct ic_watch *w, char *err, size_t errlen)
{
	const struct ic_series *se;
	double *len[2] = { NULL, NULL };
	int *whole[2] = { NULL, NULL };
	size_t nlen[2] = { 0, 0 }, nsp = w->nsamples ? w->nsamples : 1, k[2][2] = { { 0 } };
	int rc = -1;

	if (ic_analyse(&w->an, &w->res, &ic_analysis_defaults, err, errlen)) {
		ic_analysis_free(&w->an);
		return -1;
	}
	w->analysed = 1;
	if (!(se = watch_series(&w->an)))
		return watch_fail(err, errlen, "no series has both %s and %s",
				  ic_analysis_defaults.compare, ic_analysis_defaults.baseline);
	snprintf(w->series_buf, sizeof(w->series_buf), "%s %s/%s, %lu thread%s, %s",
		 se->group.op, se->group.layout, se->group.order, se->group.threads,
		 se->group.threads == 1 ? "" : "s", se->group.mode);
	w->series = w->series_buf;
	watch_fill_samples(w, se);
	w->nstates = se->states->nstates;
	w->t0 = INFINITY;
	w->t1 = -INFINITY;
	for (size_t i = 0; i < w->nsamples; i++) {
		const struct ic_watch_sample *s = &w->samples[i];

		w->t0 = fmin(w->t0, s->start);
		w->t1 = fmax(w->t1, s->end);
		k[s->in_long][s->state]++;
		if (s->in_long)
			w->st[s->state].time_s += s->end - s->start;
	}
	for (int s = 0; s < 2; s++) {
		double sum[IC_WATCH_NSITES] = { 0 };
		size_t cnt[IC_WATCH_NSITES] = { 0 };

		w->st[s].level = s < (int)w->nstates ? se->states->st[s].level : NAN;
		w->st[s].lo = s < (int)w->nstates ? se->states->st[s].lo : NAN;
		w->st[s].hi = s < (int)w->nstates ? se->states->st[s].hi : NAN;
		for (size_t i = 0; i < w->nsamples; i++)
			for (size_t j = 0; j < w->nsites; j++)
				if (w->samples[i].state == s && isfinite(w->samples[i].ratio[j])) {
					sum[j] += log(w->samples[i].ratio[j]);
					cnt[j]++;
				}
		for (size_t j = 0; j < IC_WATCH_NSITES; j++)
			w->st[s].ratio[j] = cnt[j] ? exp(sum[j] / (double)cnt[j]) : NAN;
		watch_share(&w->st[s].procs, k[0][s], w->nshort);
		watch_share(&w->st[s].windows, k[1][s], w->nwindows);
	}
	for (int s = 0; s < 2; s++) {
		double lt = w->st[0].time_s + w->st[1].time_s;

		w->st[s].time_share = lt > 0.0 ? w->st[s].time_s / lt : NAN;
	}
	for (int s = 0; s < 2; s++) {
		len[s] = malloc(nsp * sizeof(*len[s]));
		whole[s] = malloc(nsp * sizeof(*whole[s]));
		if (!len[s] || !whole[s]) {
			watch_fail(err, errlen, "out of memory");
			goto out;
		}
	}
	w->short_switches = watch_spells(w, 0, len, nlen, whole);
	w->long_switches = watch_spells(w, 1, len, nlen, whole);
	watch_spell_medians(w, len, nlen, whole);
	if (se->procs.nproc < IC_STATES_MIN_PROC)
		w->where = IC_WATCH_TOO_FEW;
	else if (w->nstates < 2)
		w->where = IC_WATCH_ONE_STATE;
	else if (w->long_switches > 0)
		w->where = IC_WATCH_INSIDE;
	else
		w->where = IC_WATCH_BETWEEN;
	rc = 0;
out:
	for (int s = 0; s < 2; s++) {
		free(len[s]);
		free(whole[s]);
	}
	return rc;
}
