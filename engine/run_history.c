/* A run against its history in results/; see run_history.h. */
#define _GNU_SOURCE   /* timegm, strptime */
#include "run_history.h"

#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "agreement.h"
#include "kit.h"
#include "load.h"
#include "run.h"
#include "stats.h"

/* What makes a build in run.conf: the same values, the same code measured the same way. */
static const char *const history_build_keys[] = {
	"build_source", "build_cc", "build_cflags", "build_lock", "ccs", "cflags_list", "codegens",
	"return_thunks", "lto", "body", "per_caller", "compare", "baseline",
};

/* The build identity of dir's run.conf ("key=value; ..."). */
static const char *history_build(const char *dir, char *buf, size_t cap)
{
	struct ic_settings s = { 0 };
	char path[4200], err[256];
	size_t len = 0;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "%s/run.conf", dir);
	/* an unreadable run.conf reads as every key empty */
	if (ic_settings_load(&s, path, err, sizeof(err)))
		ic_settings_free(&s);
	for (size_t i = 0; i < sizeof(history_build_keys) / sizeof(history_build_keys[0]); i++)
		if (len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "%s%s=%s", i ? "; " : "",
						history_build_keys[i], ic_settings_get(&s, history_build_keys[i]));
	ic_settings_free(&s);
	return buf;
}

/* A run directory's time (run_history.h); NAN when it has neither. */
static double history_time(const char *dir)
{
	const char *name = strrchr(dir, '/');
	char path[4200];
	struct tm tm = { 0 };
	struct stat st;
	const char *rest;

	name = name ? name + 1 : dir;
	rest = strptime(name, "%Y%m%dT%H%M%SZ", &tm);
	if (rest && !*rest)
		return (double)timegm(&tm);
	snprintf(path, sizeof(path), "%s/run.conf", dir);
	return stat(path, &st) ? NAN : (double)st.st_mtim.tv_sec;
}

static int history_cmp_run(const void *pa, const void *pb)
{
	const struct ic_history_run *a = pa, *b = pb;
	int c = (a->time < b->time) - (a->time > b->time);

	return c ? c : strcmp(b->name, a->name);
}

void ic_history_runs_free(struct ic_history_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(r[i].dir);
		free(r[i].name);
	}
	free(r);
}

int ic_history_runs(const char *results_dir, struct ic_history_run **out, size_t *n, char *err,
		    size_t errlen)
{
	DIR *d = opendir(results_dir);
	struct ic_history_run *r = NULL;
	struct dirent *e;
	size_t k = 0;

	if (!d)   /* (its callers read *out only after 0) */
		return ic_fail(err, errlen, "%s: cannot read the directory", results_dir);
	while ((e = readdir(d))) {
		char path[4200];
		struct stat st;
		double t;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "latest"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", results_dir, e->d_name);
		if (lstat(path, &st) || !S_ISDIR(st.st_mode) || !isfinite(t = history_time(path)))
			continue;
		r = ic_xrealloc(r, k + 1, sizeof(*r));
		r[k++] = (struct ic_history_run){ ic_xalloc(strdup(path)), ic_xalloc(strdup(e->d_name)), t };
	}
	closedir(d);
	if (k)
		qsort(r, k, sizeof(*r), history_cmp_run);
	*out = r;
	*n = k;
	return 0;
}

const char *ic_history_when(char *buf, size_t cap, double t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	if (!isfinite(t) || !gmtime_r(&tt, &tm))
		snprintf(buf, cap, "an unknown time");
	else
		strftime(buf, cap, "%Y-%m-%d %H:%M UTC", &tm);
	return buf;
}

const char *ic_history_machine(const struct ic_results *res, char *buf, size_t cap)
{
	static const enum ic_ctx keys[] = { IC_CTX_CPU_MODEL, IC_CTX_L1I_SIZE, IC_CTX_L1I_ASSOC,
					    IC_CTX_L1I_LINE, IC_CTX_L2_SIZE, IC_CTX_L3_SIZE,
					    IC_CTX_HOST_NAME };
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && len < cap; i++) {
		char v[IC_RESULTS_CONTEXT_MAX];

		len += (size_t)snprintf(buf + len, cap - len, "%s%s %s", i ? "; " : "",
					ic_ctx_name(keys[i]), ic_results_context(res, keys[i], v, sizeof(v)));
	}
	return buf;
}

const char *ic_history_bracket(char *buf, size_t cap, const struct ic_crossover *xo,
			       const struct ic_analysis_opts *opts)
{
	if (xo->verdict == IC_VERDICT_CROSSOVER)
		snprintf(buf, cap, "crossover (%.0f, %.0f)", xo->bracket_lo, xo->bracket_hi);
	else if (xo->verdict == IC_VERDICT_COMPARE_WINS || xo->verdict == IC_VERDICT_BASELINE_WINS)
		snprintf(buf, cap, "%s ahead at every resolved N",
			 xo->verdict == IC_VERDICT_COMPARE_WINS ? opts->compare : opts->baseline);
	else
		snprintf(buf, cap, "%s", xo->verdict == IC_VERDICT_CONFLICT ? "sides conflict" : "nothing resolved");
	return buf;
}

const char *ic_history_states(char *buf, size_t cap, const struct ic_series *se)
{
	const struct ic_states *s = se->states;

	buf[0] = '\0';
	if (s && s->nstates == 2)
		snprintf(buf, cap, "%.2f in %zu of %zu processes, %.2f in %zu", s->st[0].level,
			 s->st[0].nproc, s->st[0].nproc + s->st[1].nproc, s->st[1].level,
			 s->st[1].nproc);
	return buf;
}

/* The series of an with g's build and shape, NULL when it has none. */
static const struct ic_series *history_match(const struct ic_analysis *an,
					     const struct ic_results *gres, const struct ic_group *g)
{
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *h = &an->series[s].group;
		int same = 1;

		for (size_t b = 0; b < IC_B_COUNT && same; b++)
			same = !strcmp(an->res->builds[h->build].v[b], gres->builds[g->build].v[b]);
		if (same && !strcmp(h->op, g->op) && !strcmp(h->layout, g->layout) &&
		    !strcmp(h->order, g->order) && !strcmp(h->mode, g->mode) &&
		    h->threads == g->threads && h->filler == g->filler)
			return &an->series[s];
	}
	return NULL;
}

static int history_cmp_p(const void *pa, const void *pb)
{
	const struct ic_history_series *a = pa, *b = pb;

	return (a->p > b->p) - (a->p < b->p);
}

size_t ic_history_ndiffer(const double *p, size_t m)
{
	size_t k = 0;

	while (k < m && p[k] <= IC_AGREE_ALPHA / (double)(m - k))
		k++;
	return k;
}

/* Each series' joint test, then Holm's step-down over the series at IC_AGREE_ALPHA:
 * any one of a default run's series at p < 0.05 would say "differs" far too often. */
size_t ic_history_against(const struct ic_analysis *now, const struct ic_analysis *then,
			  struct ic_history_series **out, size_t *ndiffer)
{
	struct ic_history_series *h = ic_stats_alloc(now->nseries, sizeof(*h));
	double *p = ic_stats_alloc(now->nseries, sizeof(*p));
	size_t m = 0;

	for (size_t s = 0; s < now->nseries; s++) {
		const struct ic_series *a = &now->series[s], *b;
		struct ic_agree_side sa, sb;
		struct ic_agree ag;

		if (!a->group.nratios || !(b = history_match(then, now->res, &a->group)) ||
		    !b->group.nratios)
			continue;
		sb = (struct ic_agree_side){ b->group.ratios, b->group.nratios, &b->procs, b->states, -1 };
		sa = (struct ic_agree_side){ a->group.ratios, a->group.nratios, &a->procs, a->states, -1 };
		ic_agree_compare(&sb, &sa, IC_AGREE_MARGIN, &ag);
		if (ag.npts)
			h[m++] = (struct ic_history_series){ a, b, ag.joint.p, ag.joint.equivalent };
		ic_agree_free(&ag);
	}
	qsort(h, m, sizeof(*h), history_cmp_p);
	for (size_t i = 0; i < m; i++)
		p[i] = h[i].p;
	*ndiffer = ic_history_ndiffer(p, m);
	free(p);
	*out = h;
	return m;
}

int ic_history_earlier(const struct ic_analysis *now, const char *now_dir, struct ic_run *then,
		       char *dir, size_t cap, double *t)
{
	char parent[4096], build_now[8192], build_then[8192], mach_now[2048], mach_then[2048];
	char rerr[512], now_real[PATH_MAX];
	struct ic_history_run *runs;
	double t_now = history_time(now_dir);
	size_t n;
	int found = -1;

	snprintf(parent, sizeof(parent), "%s", now_dir);
	/* A results directory that cannot be read has no history to tell. */
	if (!realpath(now_dir, now_real) || ic_history_runs(dirname(parent), &runs, &n, rerr, sizeof(rerr)))
		return -1;
	history_build(now_dir, build_now, sizeof(build_now));
	ic_history_machine(now->res, mach_now, sizeof(mach_now));
	for (size_t i = 0; i < n && found; i++) {
		char why[96], real[PATH_MAX];

		if (!(runs[i].time < t_now) || !realpath(runs[i].dir, real) || !strcmp(real, now_real) ||
		    strcmp(history_build(runs[i].dir, build_then, sizeof(build_then)), build_now))
			continue;
		if (ic_run_open(then, runs[i].dir, rerr, sizeof(rerr)) == 0 &&
		    !strcmp(ic_history_machine(&then->res, mach_then, sizeof(mach_then)), mach_now) &&
		    !ic_analysis_smoke(&then->an, why, sizeof(why))) {
			snprintf(dir, cap, "%s", runs[i].dir);
			*t = runs[i].time;
			found = 0;
		} else {
			ic_run_free(then);
		}
	}
	ic_history_runs_free(runs, n);
	return found;
}
