/* ./run.sh compare: runs of the sweep from different machines, compilers or
 * commits side by side. Every figure comes from the engine's analysis of each
 * run's raw process JSON (engine/run.h), as the run's own summary does.
 *
 * A series is op/layout/order/threads/mode (/filler:F when F > 0) and the
 * forms compared. The settings that define a point (compiler, cflags, lock,
 * codegen, per_caller, body, lto) come from the build a series ran, else
 * from the run's first process context and run.conf. One that takes
 * several values within a run joins the series name, so its values are
 * matched, never pooled; one that is constant within each run but differs
 * between them is what compare compares, and labels the runs.
 */
#define _GNU_SOURCE
#include "across_runs.h"

#include <gsl/gsl_sort_ulong.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agreement.h"
#include "gnuplot_run.h"
#include "kit.h"

enum cmp_attr {
	A_COMPILER, A_CFLAGS, A_LOCK, A_CODEGEN, A_PER_CALLER, A_BODY, A_LTO, A_COUNT
};
struct cmp_input {
	struct ic_run *run;
	char *vals[A_COUNT];       /* its distinct values, " + " between */
	char **seen[A_COUNT];
	size_t nseen[A_COUNT];
	size_t nser, npts;         /* series and (series, N) with a ratio */
	const char *cpu;
	char *label;               /* CPU (directory), the settings that differ */
	char ctxbuf[IC_RESULTS_CONTEXT_MAX];
};

struct cmp_series {
	char *id, *pair;
	const struct ic_group *g[IC_RUNS_MAX];   /* its group in each run */
	unsigned in;               /* the runs that have a ratio in it, a bit each */
	unsigned long *n;          /* its N, as first seen */
	unsigned *at;              /* the runs that have a ratio at n[i] */
	size_t nn;
	int compared;              /* some N in every run */
};

struct cmp {
	struct cmp_input in[IC_RUNS_MAX];
	size_t k;
	unsigned all;              /* every run's bit */
	int keyed[A_COUNT];
	struct cmp_series *s;
	size_t ns;
	unsigned long nmin, nmax;
};

/* Each setting's name, its build key (results.h; -1 for one no build
 * records) and its run.conf key. */
static const struct {
	const char *name;
	int build;
	const char *conf;
} cmp_attr[A_COUNT] = {
	{ "compiler", IC_B_COMPILER, "build_cc" }, { "cflags", IC_B_CFLAGS, "build_cflags" },
	{ "lock", IC_B_LOCK, "build_lock" }, { "codegen", IC_B_CODEGEN, "vectorised" },
	{ "per_caller", -1, "per_caller" }, { "body", IC_B_BODY, "body" }, { "lto", IC_B_LTO, "lto" },
};

#define CMP_LETTER(k) ((char)('A' + (k)))

/* s, else what stands for nothing: "—" in a table, "(none)" in a list. */
static const char *cmp_or(const char *s, const char *none)
{
	return *s ? s : none;
}

static const char *cmp_ctx(struct cmp_input *in, const char *key)
{
	return ic_results_context_named(&in->run->res, key, in->ctxbuf, sizeof(in->ctxbuf));
}

/* A setting that defines a point, for a series of group g: its build's,
 * else what the run recorded (its first process's context but for the
 * compiler and flags, else run.conf). */
static const char *cmp_setting(struct cmp_input *in, const struct ic_group *g, int a)
{
	int b = cmp_attr[a].build;
	const char *v;

	if (b >= 0 && *(v = in->run->res.builds[g->build].v[b]))
		return v;
	if (a > A_CFLAGS && *(v = cmp_ctx(in, cmp_attr[a].name)))
		return v;
	v = ic_run_conf(in->run, cmp_attr[a].conf);
	if (a == A_CODEGEN)
		return !*v ? v : !strcmp(v, "1") ? "vector" : "general-regs-only";
	return a != A_LTO ? v : strcmp(v, "1") ? "" : "callers";
}

/* Each setting's values in run k, " + " between; two values make it part
 * of every series name. */
static void cmp_note_settings(struct cmp *c, size_t k)
{
	struct cmp_input *in = &c->in[k];
	const struct ic_analysis *an = &in->run->an;

	for (int pass = 0; pass < 2; pass++)   /* the series with ratios first */
		for (size_t g = 0; g < an->nseries; g++)
			for (int a = 0; a < A_COUNT && (pass || an->series[g].group.nratios); a++) {
				const char *v = cmp_setting(in, &an->series[g].group, a);
				size_t i = 0;

				while (i < in->nseen[a] && strcmp(in->seen[a][i], v))
					i++;
				if (i < in->nseen[a])
					continue;
				in->seen[a] = ic_xrealloc(in->seen[a], in->nseen[a] + 1, sizeof(char *));
				in->seen[a][in->nseen[a]++] = ic_xalloc(strdup(v));
				c->keyed[a] |= in->nseen[a] > 1;
			}
	for (int a = 0; a < A_COUNT; a++)
		for (size_t i = 0; i < in->nseen[a]; i++)
			in->vals[a] = in->nseen[a] == 1 ? in->seen[a][0]
				    : ic_out_append(in->vals[a], "%s%s", i ? " + " : "", cmp_or(in->seen[a][i], "(none)"));
}

/* Run k's ratios under their series. */
static void cmp_add_series(struct cmp *c, size_t k)
{
	struct cmp_input *in = &c->in[k];
	const struct ic_analysis *an = &in->run->an;

	for (size_t gi = 0; gi < an->nseries; gi++) {
		const struct ic_group *g = &an->series[gi].group;
		char *id = ic_out_series_id(g), *pair = ic_out_append(NULL, "%s/%s", an->opts.compare, an->opts.baseline);
		struct cmp_series *s;
		size_t j;

		for (int a = 0; a < A_COUNT; a++)
			if (c->keyed[a])
				id = ic_out_append(id, "/%s:%s", cmp_attr[a].name, cmp_setting(in, g, a));
		for (j = 0; j < c->ns && (strcmp(c->s[j].id, id) || strcmp(c->s[j].pair, pair)); j++)
			;
		for (size_t i = 0; i < g->nratios; i++) {
			unsigned long n = g->ratios[i].sites;
			size_t a;

			if (!isfinite(g->ratios[i].ratio))
				continue;   /* not measured at this N */
			if (j == c->ns) {   /* a new series, which takes id and pair */
				c->s = ic_xrealloc(c->s, c->ns + 1, sizeof(*c->s));
				c->s[c->ns++] = (struct cmp_series){ .id = id, .pair = pair };
				id = pair = NULL;
			}
			s = &c->s[j];
			if (!s->g[k]) {
				s->g[k] = g;
				s->in |= 1u << k;
				in->nser++;
			}
			c->nmin = c->nmin && c->nmin < n ? c->nmin : n;
			c->nmax = n > c->nmax ? n : c->nmax;
			for (a = 0; a < s->nn && s->n[a] != n; a++)
				;
			if (a == s->nn) {
				s->n = ic_xrealloc(s->n, s->nn + 1, sizeof(*s->n));
				s->at = ic_xrealloc(s->at, s->nn + 1, sizeof(*s->at));
				s->n[s->nn] = n;
				s->at[s->nn++] = 0;
			}
			s->at[a] |= 1u << k;
			in->npts++;
		}
		free(id);
		free(pair);
	}
}

/* The order of series s's N, ascending. */
static size_t *cmp_order(const struct cmp_series *s)
{
	size_t *o = ic_xalloc(malloc(s->nn * sizeof(*o)));

	gsl_sort_ulong_index(o, s->n, 1, s->nn);
	return o;
}

/* The runs in the set in, "A, B" (with_dir: "A (dir), B (dir)"). */
static char *cmp_holders(const struct cmp *c, unsigned in, int with_dir)
{
	char *w = NULL;

	for (size_t k = 0; k < c->k; k++)
		if (in >> k & 1)
			w = with_dir ? ic_out_append(w, "%s%c (%s)", w ? ", " : "", CMP_LETTER(k), c->in[k].run->name)
				     : ic_out_append(w, "%s%c", w ? ", " : "", CMP_LETTER(k));
	return w;
}

/* What is not in every run, one line each; marks the series that are
 * compared. */
static char *cmp_left_out(struct cmp *c)
{
	char *only = NULL;

	for (size_t j = 0; j < c->ns; j++) {
		struct cmp_series *s = &c->s[j];
		size_t *o;

		if (s->in != c->all) {
			char *w = cmp_holders(c, s->in, 1);

			only = ic_out_append(only, "- only in %s: series %s (%s)\n", w, s->id, s->pair);
			free(w);
			continue;
		}
		o = cmp_order(s);
		/* The N only some runs have, grouped by those runs: a line at
		 * each group's first N. */
		for (size_t a = 0; a < s->nn; a++) {
			unsigned in = s->at[o[a]];
			char *w, *part = NULL;
			size_t b = 0;

			s->compared |= in == c->all;
			while (b < a && s->at[o[b]] != in)
				b++;
			if (in == c->all || b < a)
				continue;
			for (b = a; b < s->nn; b++)
				if (s->at[o[b]] == in)
					part = ic_out_append(part, "%s%lu", part ? ", " : "", s->n[o[b]]);
			w = cmp_holders(c, in, 0);
			only = ic_out_append(only, "- %s (%s): N = %s only in %s\n", s->id, s->pair, part, w);
			free(part);
			free(w);
		}
		free(o);
		if (!s->compared)
			only = ic_out_append(only, "- %s (%s): no N in every input\n", s->id, s->pair);
	}
	return only;
}

/* What a run built: build_source today (a hash of the measured sources),
 * the git commit in an older run.conf. */
static const char *cmp_source(const struct cmp_input *in)
{
	const char *v = ic_run_conf(in->run, "build_source");

	return *v ? v : ic_run_conf(in->run, "build_commit");
}

/* What "What differs" names, in order, and where each value comes from:
 * a setting that defines the point (its enum cmp_attr), the run's context,
 * run.conf (D_DESIGN: a setting that only changes the intervals' width),
 * what it built, its forms. */
enum { D_CONTEXT = -1, D_CONF = -2, D_DESIGN = -3, D_SOURCE = -4, D_FORMS = -5 };
static const struct {
	const char *key;
	int from;
} cmp_differs[] = {
	{ "cpu_model", D_CONTEXT }, { "compiler", A_COMPILER }, { "cflags", A_CFLAGS },
	{ "lock", A_LOCK }, { "codegen", A_CODEGEN }, { "per_caller", A_PER_CALLER },
	{ "body", A_BODY }, { "l1i_size", D_CONTEXT }, { "l2_size", D_CONTEXT },
	{ "cores", D_CONTEXT }, { "smt", D_CONTEXT }, { "source", D_SOURCE },
	{ "codegens", D_CONF }, { "vectorised", D_CONF }, { "forms", D_CONF },
	{ "compare/baseline", D_FORMS }, { "sites", D_CONF }, { "layouts_random", D_DESIGN },
	{ "processes", D_DESIGN }, { "reps", D_DESIGN }, { "min_time", D_DESIGN },
	{ "counters", D_CONF }, { "counter_source", D_CONTEXT },
};

/* Row i of "What differs" for one run. */
static const char *cmp_differs_value(struct cmp_input *in, size_t i, char *buf, size_t cap)
{
	const char *key = cmp_differs[i].key;
	int from = cmp_differs[i].from;

	if (from >= 0)
		return in->vals[from] ? in->vals[from] : "";
	if (from == D_SOURCE)
		return cmp_source(in);
	if (from == D_CONTEXT)
		return cmp_ctx(in, key);
	if (from != D_FORMS)
		return ic_run_conf(in->run, key);
	if (!*ic_run_conf(in->run, "compare"))
		return "";
	snprintf(buf, cap, "%s/%s", ic_run_conf(in->run, "compare"), ic_run_conf(in->run, "baseline"));
	return buf;
}

/* Each run's own verdict, quoted from its verdict.json as its summary
 * said it (with its smoke mark), never re-derived here. */
static void cmp_write_verdicts(FILE *md, const struct cmp *c)
{
	fputs("\n## Each input's verdict, as its summary said it\n\n", md);
	for (size_t k = 0; k < c->k; k++) {
		const struct ic_run *r = c->in[k].run;
		json_t *doc = r->verdict_json ? json_loads(r->verdict_json, 0, NULL) : NULL;
		json_t *series = json_object_get(doc, "series"), *se;
		const char *mark = json_string_value(json_object_get(doc, "smoke_mark"));
		size_t i;

		fprintf(md, "- %c (%s)", CMP_LETTER(k), r->name);
		if (!r->verdict_json)
			fputs(": no verdict.json (a run from before the suite wrote one)\n", md);
		else if (!json_is_array(series))
			fputs(": verdict.json is not readable\n", md);
		else
			fprintf(md, "%s%s:\n", mark ? ", " : "", mark ? mark : "");
		json_array_foreach(series, i, se) {
			const char *label = json_string_value(json_object_get(se, "label"));
			const char *v = json_string_value(json_object_get(se, "verdict"));

			fprintf(md, "  - %s: %s\n", label ? label : "(no label)", v ? v : "(no verdict)");
		}
		json_decref(doc);
	}
}

/* compare.md's head: the runs, what differs, what is left out. Sets each
 * run's label. */
static void cmp_write_head(FILE *md, struct cmp *c, const char *only)
{
	char *tag[IC_RUNS_MAX] = { NULL };
	size_t nd = 0;

	fprintf(md, "# inlinecost: %zu runs compared\n\n", c->k);
	fputs("Each input is labelled by its CPU model (`cpu_model` in its JSON context) and its directory.\n"
	      "The ratio is time per call site of the compare form / the baseline form, formed within each run (below 1: the compare form is faster),\n"
	      "with that run's own 95% interval at N; *faster* is the side that run's Holm step-down resolves (unresolved: neither).\n"
	      "*sides*: whether the inputs resolve the same side at N. Ratios are compared across runs; times per call site are not\n"
	      "(machines and sessions differ in speed). Nothing is pooled across inputs.\n\n"
	      "| input | CPU model | directory | from | date | source | series | ratios (series x N) |\n"
	      "|---|---|---|---|---|---|---:|---:|\n", md);
	for (size_t k = 0; k < c->k; k++) {
		struct cmp_input *in = &c->in[k];

		in->cpu = *cmp_ctx(in, "cpu_model") ? ic_xalloc(strdup(cmp_ctx(in, "cpu_model")))
						    : "CPU not recorded";
		fprintf(md, "| %c | %s | %s | %s | %s | %.12s | %zu | %zu |\n", CMP_LETTER(k), in->cpu,
			in->run->name, cmp_or(in->run->from, "—"), cmp_or(cmp_ctx(in, "date"), "—"),
			cmp_or(cmp_source(in), "—"), in->nser, in->npts);
	}

	cmp_write_verdicts(md, c);

	/* What differs: the machine, then the settings that define a point
	 * (one that differs only between the runs labels their columns). */
	fputs("\n## What differs\n\n", md);
	for (size_t i = 0; i < sizeof(cmp_differs) / sizeof(cmp_differs[0]); i++) {
		char *line = NULL, buf[2 * IC_RESULTS_CONTEXT_MAX], first[1024];
		const char *why = "", *key = cmp_differs[i].key;
		int same = 1, attr = cmp_differs[i].from;

		for (size_t k = 0; k < c->k; k++) {
			const char *v = cmp_or(cmp_differs_value(&c->in[k], i, buf, sizeof(buf)), "—");

			if (k == 0)
				snprintf(first, sizeof(first), "%s", v);
			same &= !strcmp(v, first);
			line = ic_out_append(line, "%s%c %s", k ? "; " : "", CMP_LETTER(k), v);
		}
		if (!same && attr >= 0 && c->keyed[attr]) {
			why = " (defines the point; varies within an input, so it is part of the series name)";
		} else if (!same && attr >= 0) {
			why = " (defines the point: the inputs measured different series, kept apart and labelled, never pooled)";
			for (size_t k = 0; k < c->k; k++)
				tag[k] = ic_out_append(tag[k], ", %s %s", key,
						    cmp_or(cmp_differs_value(&c->in[k], i, buf, sizeof(buf)), "—"));
		} else if (!same && attr == D_DESIGN) {
			why = " (design: changes the intervals' width, not what is measured)";
		}
		if (!same) {
			fprintf(md, "- **%s**%s: %s\n", key, why, line);
			nd++;
		}
		free(line);
	}
	if (nd == 0)
		fputs("Nothing that run.conf and the JSON context record differs (besides dates and layout seeds).\n", md);
	fputs("\n## Not in every input\n\n", md);
	if (!only)
		fputs("Every series and N is in every input.\n", md);
	else
		fprintf(md, "The tables below hold only the series and N that every input measured; these are left out:\n\n%s",
			only);
	for (size_t k = 0; k < c->k; k++) {
		c->in[k].label = ic_out_append(NULL, "%s (%s)%s", c->in[k].cpu, c->in[k].run->name,
					    tag[k] ? tag[k] : "");
		free(tag[k]);
	}
}

/* The median code bytes per site of form in the series: its first point's. */
static double cmp_bytes(const struct ic_group *g, const char *form)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (!strcmp(g->points[i]->form, form))
			return g->points[i]->med[IC_F_CODE];
	return NAN;
}

/* A row of a series' first table: label, then each run's cell. */
static void cmp_crossover_rows(FILE *md, const struct cmp *c, const struct cmp_series *s,
			       const char *cf, const char *bf)
{
	static const char *const label[] = { "verdict", "crossover bracket", "small-N winner" };

	for (int row = 0; row < 4; row++) {
		if (row < 3)
			fprintf(md, "| %s", label[row]);
		else
			fprintf(md, "| points resolved %s / %s / neither", cf, bf);
		for (size_t k = 0; k < c->k; k++) {
			const struct ic_crossover *xo = &s->g[k]->xo;

			fputs(" | ", md);
			if (row == 0)
				fputs(ic_verdict_name(xo->verdict), md);
			else if (row == 1 && isfinite(xo->bracket_lo))
				fprintf(md, "(%.0f, %.0f)", xo->bracket_lo, xo->bracket_hi);
			else if (row == 1)
				fputs("—", md);
			else if (row == 2)
				fputs(ic_out_winner(&c->in[k].run->an, xo, "—"), md);
			else
				fprintf(md, "%zu / %zu / %zu", xo->n_compare, xo->n_baseline,
					xo->n_unresolved);
		}
		fputs(" |\n", md);
	}
	fprintf(md, "| code bytes per site %s / %s", cf, bf);
	for (size_t k = 0; k < c->k; k++) {
		ic_out_num(md, cmp_bytes(s->g[k], cf), " | %.10g", " | —");
		ic_out_num(md, cmp_bytes(s->g[k], bf), " / %.10g", " / —");
	}
	fputs(" |\n\n", md);
}

/* One compared series: its tables in md, its rows in csv, its data for
 * the chart (panel p). */
static void cmp_write_series(FILE *md, FILE *csv, FILE *gp, FILE *dat, struct cmp *c,
			     const struct cmp_series *s, size_t p)
{
	char cf[64], bf[64], *t = ic_out_append(NULL, "%s: %s", s->id, s->pair);
	size_t *o = cmp_order(s);

	sscanf(s->pair, "%63[^/]/%63s", cf, bf);
	fprintf(gp, "ic_title[%zu] = ", p + 1);
	ic_gnuplot_quote(gp, t);
	fputc('\n', gp);
	free(t);
	fprintf(md, "\n## %s: %s / %s\n\n|", s->id, cf, bf);
	for (size_t k = 0; k < c->k; k++)
		fprintf(md, " | %c: %s", CMP_LETTER(k), c->in[k].label);
	fputs(" |\n|---|", md);
	for (size_t k = 0; k < c->k; k++)
		fputs("---|", md);
	fputc('\n', md);
	cmp_crossover_rows(md, c, s, cf, bf);

	fputs("| N", md);
	for (size_t k = 0; k < c->k; k++)
		fprintf(md, " | %c ratio [95%% CI], faster", CMP_LETTER(k));
	fputs(" | sides |\n|---:", md);
	for (size_t k = 0; k < c->k; k++)
		fputs("|---", md);
	fputs("|---|\n", md);
	for (size_t a = 0; a < s->nn; a++) {
		unsigned long n = s->n[o[a]];
		size_t nc = 0, nb = 0;

		if (s->at[o[a]] != c->all)
			continue;
		fprintf(md, "| %lu", n);
		for (size_t k = 0; k < c->k; k++) {
			struct cmp_input *in = &c->in[k];
			const struct ic_ratio *r = ic_agree_ratio_at(s->g[k]->ratios, s->g[k]->nratios, n);
			const struct ic_crossover *xo = &s->g[k]->xo;
			const struct ic_analysis_opts *o = &in->run->an.opts;
			const char *side = r->side == IC_SIDE_COMPARE ? o->compare
					 : r->side == IC_SIDE_BASELINE ? o->baseline : "unresolved";

			fputs(" | ", md);
			ic_out_ratio(md, r);
			fprintf(md, " %s", side);
			nc += !strcmp(side, cf);
			nb += !strcmp(side, bf);

			ic_csv_quoted(csv, s->id);
			fprintf(csv, ",%lu,%c,", n, CMP_LETTER(k));
			ic_csv_quoted(csv, in->label);
			fprintf(csv, ",%.6f", r->ratio);
			ic_out_num(csv, r->lo, ",%.6f", ",");
			ic_out_num(csv, r->hi, ",%.6f", ",");
			fprintf(csv, ",%s,%s,%s", side, ic_verdict_name(xo->verdict), ic_out_winner(&c->in[k].run->an, xo, ""));
			ic_out_num(csv, xo->bracket_lo, ",%.0f", ",");
			ic_out_num(csv, xo->bracket_hi, ",%.0f", ",");
			fprintf(csv, ",%s,%s", cf, bf);
			/* the CPU, the directory, then the settings compiler .. body:
			 * the series' own where it names them */
			for (int at = -2; at < A_PER_CALLER + 2; at++) {
				fputc(',', csv);
				ic_csv_quoted(csv, at == -2 ? in->cpu : at == -1 ? in->run->name
						   : c->keyed[at] ? cmp_setting(in, s->g[k], at) : in->vals[at] ? in->vals[at] : "");
			}
			fputc('\n', csv);
		}
		fprintf(md, " | %s |\n", nc == c->k || nb == c->k ? "same"
					 : nc && nb ? "**opposite**"
					 : nc + nb == 0 ? "—" : "partly resolved");
	}
	/* The chart's data: every N of each run, one block per (series, run). */
	for (size_t k = 0; k < c->k; k++) {
		size_t i = p * c->k + k + 1;
		const struct ic_crossover *xo = &s->g[k]->xo;

		fprintf(gp, "ic_xo_lo[%zu] = ", i);
		ic_out_num(gp, xo->bracket_lo, "%.0f", "NaN");
		fprintf(gp, "\nic_xo_hi[%zu] = ", i);
		ic_out_num(gp, xo->bracket_hi, "%.0f", "NaN");
		fprintf(gp, "\n");
		fprintf(dat, "# %s %s, input %c: sites ratio lo hi\n", s->id, s->pair, CMP_LETTER(k));
		for (size_t a = 0; a < s->nn; a++) {
			const struct ic_ratio *r = ic_agree_ratio_at(s->g[k]->ratios, s->g[k]->nratios, s->n[a]);

			if (!r)
				continue;
			fprintf(dat, "%lu %.6f ", s->n[a], r->ratio);
			ic_out_num(dat, r->lo, "%.6f ", "NaN ");
			ic_out_num(dat, r->hi, "%.6f\n", "NaN\n");
		}
		fputs("\n\n", dat);
	}
	free(o);
}

/* The one line of exit 1: what each run has instead. */
static void cmp_nothing_shared(const struct cmp *c)
{
	fputs("compare: no comparable series: none (with its N and forms) is measured in every input: ",
	      stderr);
	for (size_t k = 0; k < c->k; k++) {
		size_t cnt = 0;

		fprintf(stderr, "%s%c has ", k ? "; " : "", CMP_LETTER(k));
		for (size_t j = 0; j < c->ns; j++)
			if (c->s[j].g[k] && ++cnt <= 3)
				fprintf(stderr, "%s%s %s", cnt > 1 ? ", " : "", c->s[j].id, c->s[j].pair);
		fputs(cnt == 0 ? "no ratios" : cnt > 3 ? ", ..." : "", stderr);
	}
	fputc('\n', stderr);
}

static int cmp_write(struct cmp *c, const char *out)
{
	static const char *const term[] = { "png", "svg" };
	struct ic_out_dir d;
	char *only = cmp_left_out(c), err[1024];
	size_t ns = 0, p = 0, cols;
	FILE *md, *csv, *gp, *dat;
	int drawn;

	for (size_t j = 0; j < c->ns; j++)
		ns += c->s[j].compared;
	if (ns == 0) {
		cmp_nothing_shared(c);
		return 1;
	}
	ic_out_dir_begin(&d, out, (const char *[]){ "compare.md", "compare.csv", "plots/data.gp", "plots/compare.dat" },
			 (FILE **[]){ &md, &csv, &gp, &dat }, 4);
	cmp_write_head(md, c, only);
	free(only);
	fputs("series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,"
	      "bracket_lo,bracket_hi,compare,baseline,cpu_model,directory,compiler,cflags,lock,"
	      "codegen,per_caller,body\n", csv);
	cols = ns > 1 ? 2 : 1;
	fprintf(gp, "# Written by ./run.sh compare for plots/compare.gp.\nic_k = %zu\n"
		"ic_npanels = %zu\nic_cols = %zu\nic_rows = %zu\n", c->k, ns, cols,
		(ns + cols - 1) / cols);
	fprintf(gp, "ic_sites_min = %lu\nic_sites_max = %lu\nic_caption = ", c->nmin, c->nmax);
	ic_gnuplot_quote(gp, "error bars: each run's own 95% interval at N; bars at the foot: each run's crossover bracket; tables in compare.md");
	fprintf(gp, "\narray ic_label[%zu]\narray ic_title[%zu]\narray ic_xo_lo[%zu]\n"
		"array ic_xo_hi[%zu]\narray ic_letter[%zu]\n", c->k, ns, ns * c->k, ns * c->k, c->k);
	for (size_t k = 0; k < c->k; k++) {
		char *l = ic_out_append(NULL, "%c: %s", CMP_LETTER(k), c->in[k].label);

		fprintf(gp, "ic_label[%zu] = ", k + 1);
		ic_gnuplot_quote(gp, l);
		fprintf(gp, "\nic_letter[%zu] = '%c'\n", k + 1, CMP_LETTER(k));
		free(l);
	}
	for (size_t j = 0; j < c->ns; j++)
		if (c->s[j].compared)
			cmp_write_series(md, csv, gp, dat, c, &c->s[j], p++);
	fputc('\n', md);
	/* A chart that fails leaves the tables without it. */
	drawn = ic_out_dir_finish(&d, "compare", "plots", "compare", term, 2, NULL, err, sizeof(err));
	if (drawn < 0)
		fputs("compare: no gnuplot: tables written, no plot (apt-get install gnuplot-nox, then run this again)\n",
		      stderr);
	else if (drawn < 2)
		fprintf(stderr, "compare: plot failed (%s): %s; the tables are written\n", term[drawn], err);
	fprintf(stderr, "compare: wrote %s/compare.md (%zu series), compare.csv%s\n", out, ns,
		drawn == 2 ? ", compare.png, compare.svg" : "");
	printf("%s\n", out);
	return 0;
}

int ic_compare_runs(struct ic_run *run, size_t k, const char *out)
{
	static struct cmp c;

	for (c.k = 0; c.k < k; c.k++)
		c.in[c.k].run = &run[c.k];
	c.all = (1u << k) - 1;
	/* Which settings vary within a run (they join the series names), then
	 * every ratio under its series. */
	for (size_t i = 0; i < k; i++)
		cmp_note_settings(&c, i);
	for (size_t i = 0; i < k; i++)
		cmp_add_series(&c, i);
	return cmp_write(&c, out);
}
