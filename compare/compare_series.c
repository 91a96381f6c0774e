/* compare's series; see compare_series.h. */
#define _GNU_SOURCE
#include "compare_series.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kit.h"

const char *const cmp_attr_name[A_COUNT] = {
	"compiler", "cflags", "lock", "codegen", "per_caller", "body", "lto",
};
/* Each setting's build key (results.h), -1 for one no build records. */
const int cmp_attr_build[A_COUNT] = {
	IC_B_COMPILER, IC_B_CFLAGS, IC_B_LOCK, IC_B_CODEGEN, -1, IC_B_BODY, IC_B_LTO,
};

/* s, then more, freeing s. */
__attribute__((format(printf, 2, 3)))
char *cmp_append(char *s, const char *fmt, ...)
{
	char *more, *t;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&more, fmt, ap) < 0)
		more = NULL;
	va_end(ap);
	if (!more || asprintf(&t, "%s%s", s ? s : "", more) < 0)
		t = NULL;
	free(more);
	free(s);
	return ic_xalloc(t);
}

char cmp_letter(size_t k)
{
	return (char)('A' + k);
}

const char *cmp_dash(const char *s)
{
	return *s ? s : "—";
}

const char *cmp_ctx(struct cmp_input *in, const char *key)
{
	return ic_results_context_named(&in->run.res, key, in->ctxbuf, sizeof(in->ctxbuf));
}

/* A setting that defines a point, for a series of group g: its build's,
 * else what the run recorded (its first process's context, else run.conf). */
const char *cmp_setting(struct cmp_input *in, const struct ic_group *g, int a)
{
	const struct ic_run *run = &in->run;
	const char *v;
	int b = cmp_attr_build[a];

	if (b >= 0 && *(v = run->res.builds[g->build].v[b]))
		return v;
	if (a == A_COMPILER)
		return ic_run_conf(run, "build_cc");
	if (a == A_CFLAGS)
		return ic_run_conf(run, "build_cflags");
	if (*(v = cmp_ctx(in, cmp_attr_name[a])))
		return v;
	if (a == A_LOCK)
		return ic_run_conf(run, "build_lock");
	if (a == A_CODEGEN) {
		v = ic_run_conf(run, "vectorised");
		return !*v ? v : !strcmp(v, "1") ? "vector" : "general-regs-only";
	}
	if (a == A_LTO)
		return strcmp(ic_run_conf(run, "lto"), "1") ? "" : "callers";
	return ic_run_conf(run, cmp_attr_name[a]);
}

static const char *cmp_none(const char *s)
{
	return *s ? s : "(none)";
}

/* Notes a setting's value in run k; two values make it part of every
 * series name. */
static void cmp_note_setting(struct cmp *c, size_t k, const struct ic_group *g, int a)
{
	struct cmp_input *in = &c->in[k];
	const char *v = cmp_setting(in, g, a);

	for (size_t i = 0; i < in->nseen[a]; i++)
		if (!strcmp(in->seen[a][i], v))
			return;
	in->seen[a] = ic_xalloc(realloc(in->seen[a], (in->nseen[a] + 1) * sizeof(char *)));
	in->seen[a][in->nseen[a]++] = ic_xalloc(strdup(v));
	if (in->nseen[a] == 1) {
		in->vals[a] = ic_xalloc(strdup(v));
		return;
	}
	c->keyed[a] = 1;
	if (in->nseen[a] == 2) {
		char *first = in->vals[a];

		in->vals[a] = cmp_append(NULL, "%s", cmp_none(first));
		free(first);
	}
	in->vals[a] = cmp_append(in->vals[a], " + %s", cmp_none(v));
}

const struct ic_ratio *cmp_ratio_at(const struct ic_group *g, unsigned long n)
{
	for (size_t i = 0; g && i < g->nratios; i++)
		if (g->ratios[i].sites == n && isfinite(g->ratios[i].ratio))
			return &g->ratios[i];
	return NULL;
}

/* Run k's ratios under their series. */
void cmp_add_series(struct cmp *c, size_t k)
{
	struct cmp_input *in = &c->in[k];
	const struct ic_analysis *an = &in->run.an;

	for (size_t gi = 0; gi < an->nseries; gi++) {
		const struct ic_group *g = &an->series[gi].group;
		char *id = cmp_append(NULL, "%s/%s/%s/%lu/%s", g->op, g->layout, g->order, g->threads,
				      g->mode), *pair;
		struct cmp_series *s = NULL;

		if (g->filler)
			id = cmp_append(id, "/filler:%lu", g->filler);
		for (int a = 0; a < A_COUNT; a++)
			if (c->keyed[a])
				id = cmp_append(id, "/%s:%s", cmp_attr_name[a], cmp_setting(in, g, a));
		pair = cmp_append(NULL, "%s/%s", an->opts.compare, an->opts.baseline);
		for (size_t i = 0; i < c->ns && !s; i++)
			if (!strcmp(c->s[i].id, id) && !strcmp(c->s[i].pair, pair))
				s = &c->s[i];
		for (size_t i = 0; i < g->nratios; i++) {
			unsigned long n = g->ratios[i].sites;
			size_t j;

			if (!isfinite(g->ratios[i].ratio))
				continue;   /* not measured at this N */
			if (!s) {
				c->s = ic_xalloc(realloc(c->s, (c->ns + 1) * sizeof(*c->s)));
				s = &c->s[c->ns++];
				*s = (struct cmp_series){ .id = ic_xalloc(strdup(id)),
							  .pair = ic_xalloc(strdup(pair)) };
				for (int a = 0; a < A_COUNT; a++)
					if (c->keyed[a])
						s->idval[a] = ic_xalloc(strdup(cmp_setting(in, g, a)));
			}
			if (!s->g[k]) {
				s->g[k] = g;
				s->nin++;
				in->nser++;
			}
			if (!c->nmin || n < c->nmin)
				c->nmin = n;
			if (n > c->nmax)
				c->nmax = n;
			for (j = 0; j < s->nn && s->n[j] != n; j++)
				;
			if (j == s->nn) {
				s->n = ic_xalloc(realloc(s->n, (s->nn + 1) * sizeof(*s->n)));
				s->nat = ic_xalloc(realloc(s->nat, (s->nn + 1) * sizeof(*s->nat)));
				s->n[s->nn] = n;
				s->nat[s->nn++] = 0;
			}
			s->nat[j]++;
			in->npts++;
		}
		free(id);
		free(pair);
	}
}

int cmp_ulong(const void *pa, const void *pb)
{
	unsigned long a = *(const unsigned long *)pa, b = *(const unsigned long *)pb;

	return (a > b) - (a < b);
}

/* How many runs have a ratio of series s at N = n. */
size_t cmp_nat(const struct cmp_series *s, unsigned long n)
{
	for (size_t i = 0; i < s->nn; i++)
		if (s->n[i] == n)
			return s->nat[i];
	return 0;
}

/* The runs that have series s at N = n (n == 0: anywhere), "A, B". */
static char *cmp_holders(const struct cmp *c, const struct cmp_series *s, unsigned long n,
			 int with_dir)
{
	char *w = NULL;

	for (size_t k = 0; k < c->k; k++) {
		if (!s->g[k] || (n && !cmp_ratio_at(s->g[k], n)))
			continue;
		w = cmp_append(w, "%s%c", w ? ", " : "", cmp_letter(k));
		if (with_dir)
			w = cmp_append(w, " (%s)", c->in[k].run.name);
	}
	return w ? w : ic_xalloc(strdup(""));
}

/* What is not in every run, one line each, into *only; marks the series
 * that are compared. */
char *cmp_left_out(struct cmp *c)
{
	char *only = NULL;

	for (size_t j = 0; j < c->ns; j++) {
		struct cmp_series *s = &c->s[j];
		char **group = NULL, **part = NULL;
		size_t ngroups = 0, nshared = 0;
		unsigned long *nl;

		if (s->nin < c->k) {
			char *w = cmp_holders(c, s, 0, 1);

			only = cmp_append(only, "- only in %s: series %s (%s)\n", w, s->id, s->pair);
			free(w);
			continue;
		}
		nl = ic_xalloc(malloc(s->nn * sizeof(*nl)));
		memcpy(nl, s->n, s->nn * sizeof(*nl));
		qsort(nl, s->nn, sizeof(*nl), cmp_ulong);
		/* The N only some runs have, grouped by those runs. */
		for (size_t a = 0; a < s->nn; a++) {
			char *w;
			size_t g;

			if (cmp_nat(s, nl[a]) == c->k) {
				nshared++;
				continue;
			}
			w = cmp_holders(c, s, nl[a], 0);
			for (g = 0; g < ngroups && strcmp(group[g], w); g++)
				;
			if (g == ngroups) {
				group = ic_xalloc(realloc(group, (ngroups + 1) * sizeof(*group)));
				part = ic_xalloc(realloc(part, (ngroups + 1) * sizeof(*part)));
				group[ngroups] = w;
				part[ngroups++] = cmp_append(NULL, "%lu", nl[a]);
			} else {
				part[g] = cmp_append(part[g], ", %lu", nl[a]);
				free(w);
			}
		}
		for (size_t g = 0; g < ngroups; g++) {
			only = cmp_append(only, "- %s (%s): N = %s only in %s\n", s->id, s->pair, part[g],
					  group[g]);
			free(group[g]);
			free(part[g]);
		}
		free(group);
		free(part);
		free(nl);
		if (!nshared)
			only = cmp_append(only, "- %s (%s): no N in every input\n", s->id, s->pair);
		s->compared = nshared > 0;
	}
	return only;
}


void cmp_note_settings(struct cmp *c, size_t k)
{
	const struct ic_analysis *an = &c->in[k].run.an;

	for (int pass = 0; pass < 2; pass++)   /* the series with ratios first */
		for (size_t g = 0; g < an->nseries; g++)
			for (int a = 0; a < A_COUNT && (pass || an->series[g].group.nratios); a++)
				cmp_note_setting(c, k, &an->series[g].group, a);
}
