/* ./run.sh compare, agree (the engine's statistics, engine/agreement.h) and export (at the end,
 * with libarchive): see across_runs.h. Every figure comes from the engine's analysis of each run's
 * raw process JSON (engine/run.h), as the run's own summary does; each output directory is written
 * whole or not at all (out_begin, out_finish).
 *
 * compare's series is op/layout/order/threads/mode (/filler:F when F > 0) and the forms. The
 * settings that define a point (compiler, cflags, lock, codegen, per_caller, body, lto) come from
 * the series' build, else the run's first process context and run.conf. One with several values
 * within a run joins the series name (matched, never pooled); one constant within each run but not
 * between them is what compare compares, and labels the runs.
 *
 * agree's series is one build's: op/layout/order/threads/mode (/filler:F), the build and the forms;
 * runs of two builds are never matched. */
#define _GNU_SOURCE
#include "across_runs.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chart_data.h"
#include "gnuplot_run.h"
#include "kit.h"
#include "stats.h"

int ic_out_dir_check(const char *out)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int empty = 1;

	if (!*out || !strcmp(out, "/"))
		return ic_bad("--out: '%s' is not a directory to write.", out);
	if (stat(out, &st))
		return 0;
	if (S_ISDIR(st.st_mode) && (d = opendir(out))) {
		while (empty && (e = readdir(d)))
			empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
		closedir(d);
		if (empty)
			return 0;
	}
	return ic_bad("--out: %s exists and is not an empty directory.", out);
}

/* s, then more, freeing s (which may be NULL). */
__attribute__((format(printf, 2, 3)))
static char *out_append(char *s, const char *fmt, ...)
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

/* An output directory, whole or not at all: its files go into a hidden stage
 * beside it, renamed into place once all is written. A failure to write says
 * one line (as ic_prog), removes the stage and exits 1. */
struct out_dir {
	char *out;     /* where it goes, as ic_out_dir_check allowed */
	char *stage;   /* OUT's parent/.PROG.XXXXXX while it is written */
	FILE *f[4];    /* the files open in it */
};

/* One line (errno's words after it), the stage removed, exit 1. */
__attribute__((noreturn)) static void out_fail(struct out_dir *d, const char *what)
{
	int e = errno;

	if (d->stage)
		ic_rm_rf(d->stage);
	ic_die(1, "%s %s: %s", what, d->out, strerror(e));
}

/* Makes out's parent (mkdir -p) and the stage, and opens a new file name[i]
 * (may hold one directory: "plots/x.dat") there into *f[i] and d->f[i]. */
static void out_begin(struct out_dir *d, const char *out, const char *const name[4], FILE **const f[4])
{
	size_t len = strlen(out);
	char *copy, *parent;

	while (len > 1 && out[len - 1] == '/')
		len--;
	d->out = ic_xalloc(strndup(out, len));
	parent = dirname(copy = ic_xalloc(strdup(d->out)));   /* may be a static "." */
	/* Beside out, on its file system, so that the rename is one step. */
	d->stage = out_append(NULL, "%s/.%s.XXXXXX", parent, ic_prog);
	if (ic_mkdir_p(parent))
		ic_die(1, "cannot create %s: %s", parent, strerror(errno));
	free(copy);
	if (!mkdtemp(d->stage))
		ic_die(1, "cannot write beside %s: %s", d->out, strerror(errno));
	for (size_t i = 0; i < 4; i++) {
		const char *slash = strchr(name[i], '/');
		char sub[PATH_MAX], path[PATH_MAX];

		snprintf(sub, sizeof(sub), "%s/%.*s", d->stage, slash ? (int)(slash - name[i]) : 0, name[i]);
		snprintf(path, sizeof(path), "%s/%s", d->stage, name[i]);
		if ((slash && mkdir(sub, 0777) && errno != EEXIST) ||
		    !(*f[i] = d->f[i] = fopen(path, "w")))
			out_fail(d, "cannot write the tables beside");
	}
}

/* Closes the files, draws plots/CHART.gp from the stage's folder DATA ("": the
 * stage) into BASE.TERM for each of nterm terminals, removes DROP (if not NULL)
 * and renames the stage into place. nterm; -1 no gnuplot; t < nterm when
 * term[t] failed, its last line in err (gnuplot_run.h), and no chart is left. */
static int out_finish(struct out_dir *d, const char *chart, const char *data, const char *base,
		      const char *const *term, int nterm, const char *drop, char *err, size_t errlen)
{
	char log[PATH_MAX], dir[PATH_MAX], path[PATH_MAX];
	int bad = 0, rc = 0, t;
	mode_t mask = umask(0);

	umask(mask);
	for (size_t i = 0; i < 4; i++)
		bad |= ferror(d->f[i]) | fclose(d->f[i]);
	if (bad)
		out_fail(d, "cannot write the tables beside");
	snprintf(log, sizeof(log), "%s/.gnuplot.log", d->stage);
	snprintf(dir, sizeof(dir), "%s%s%s", d->stage, *data ? "/" : "", data);
	for (t = 0; t < nterm && !rc; t++) {
		snprintf(path, sizeof(path), "%s/%s.%s", d->stage, base, term[t]);
		rc = ic_gnuplot_draw(chart, dir, term[t], path, log, err, errlen);
	}
	for (int i = 0; rc && i < nterm; i++) {
		snprintf(path, sizeof(path), "%s/%s.%s", d->stage, base, term[i]);
		unlink(path);
	}
	if (drop) {
		snprintf(path, sizeof(path), "%s/%s", d->stage, drop);
		unlink(path);
	}
	/* mkdtemp made it private; rename() replaces only an empty directory. */
	if (chmod(d->stage, 0777 & ~mask) || rename(d->stage, d->out))
		out_fail(d, "cannot move the results into");
	free(d->stage);
	free(d->out);
	return rc == 1 ? -1 : rc ? t - 1 : nterm;
}

/* A series' shape, "op/layout/order/threads/mode" (then "/filler:F"). */
static char *out_series_id(const struct ic_group *g)
{
	char *id = out_append(NULL, "%s/%s/%s/%lu/%s", g->op, g->layout, g->order, g->threads, g->mode);

	return g->filler ? out_append(id, "/filler:%lu", g->filler) : id;
}

/* The form that wins at small N in an's crossover xo, else neither. */
static const char *out_winner(const struct ic_analysis *an, const struct ic_crossover *xo, const char *neither)
{
	return xo->direction > 0 ? an->opts.compare : xo->direction < 0 ? an->opts.baseline : neither;
}

/* x as fmt, else none (not measured; a CSV field after its comma: ","). */
static void out_num(FILE *f, double x, const char *fmt, const char *none)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	else
		fputs(none, f);
}

/* A ratio with its 95% interval, "0.9876 [0.9801–0.9952]"; ? where none. */
static void out_ratio(FILE *f, const struct ic_ratio *r)
{
	out_num(f, r->ratio, "%.4f", "?");
	out_num(f, r->lo, " [%.4f", " [?");
	out_num(f, r->hi, "–%.4f]", "–?]");
}

/* Series id (taken) of an's forms in s[0..*ns), added when new. */
static struct ic_runs_series *xr_series_at(struct ic_runs_series **s, size_t *ns, char *id,
					   const struct ic_analysis *an)
{
	char *pair = out_append(NULL, "%s/%s", an->opts.compare, an->opts.baseline);
	size_t j = 0;

	while (j < *ns && (strcmp((*s)[j].id, id) || strcmp((*s)[j].pair, pair)))
		j++;
	if (j < *ns) {
		free(id);
		free(pair);
	} else {
		*s = ic_xrealloc(*s, *ns + 1, sizeof(**s));
		(*s)[(*ns)++] = (struct ic_runs_series){ .id = id, .pair = pair };
	}
	return &(*s)[j];
}

enum cmp_attr {
	A_COMPILER, A_CFLAGS, A_LOCK, A_CODEGEN, A_PER_CALLER, A_BODY, A_LTO, A_COUNT
};
struct cmp_input {
	struct ic_run *run;        /* ic_compare_runs' run[k]: in[0].run is the array */
	char *vals[A_COUNT];       /* its distinct values, " + " between */
	char **seen[A_COUNT];
	size_t nseen[A_COUNT];
	size_t nser, npts;         /* series and (series, N) with a ratio */
	const char *cpu;
	char ctxbuf[IC_RESULTS_CONTEXT_MAX];
};

struct cmp {
	struct cmp_input in[IC_RUNS_MAX];
	char *label[IC_RUNS_MAX];  /* CPU (directory), the settings that differ */
	size_t k;
	unsigned all;              /* every run's bit */
	int keyed[A_COUNT];
	struct ic_runs_series *s;
	size_t ns;
	unsigned long nmin, nmax;
};

/* Each setting's name, build key (results.h; -1: no build records it), run.conf key. */
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

/* A setting that defines a point, for group g's series: its build's, else the
 * run's (its first process's context but for compiler and flags, else run.conf). */
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

/* Each setting's values in run k, " + " between; two make it part of every series name. */
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
				    : out_append(in->vals[a], "%s%s", i ? " + " : "", cmp_or(in->seen[a][i], "(none)"));
}

/* Run k's ratios under their series. */
static void cmp_add_series(struct cmp *c, size_t k)
{
	struct cmp_input *in = &c->in[k];
	const struct ic_analysis *an = &in->run->an;

	for (size_t gi = 0; gi < an->nseries; gi++) {
		const struct ic_group *g = &an->series[gi].group;
		char *id = out_series_id(g);
		struct ic_runs_series *s = NULL;

		for (int a = 0; a < A_COUNT; a++)
			if (c->keyed[a])
				id = out_append(id, "/%s:%s", cmp_attr[a].name, cmp_setting(in, g, a));
		for (size_t i = 0; i < g->nratios; i++) {
			unsigned long n = g->ratios[i].sites;

			if (!isfinite(g->ratios[i].ratio))
				continue;   /* not measured at this N */
			if (!s) {   /* its series, which takes id */
				s = xr_series_at(&c->s, &c->ns, id, an);
				id = NULL;
			}
			if (!s->se[k]) {
				s->se[k] = &an->series[gi];
				s->in |= 1u << k;
				in->nser++;
			}
			c->nmin = c->nmin && c->nmin < n ? c->nmin : n;
			c->nmax = n > c->nmax ? n : c->nmax;
			in->npts++;
		}
		free(id);
	}
}

/* The runs that have a ratio in series s at N = n, a bit each. */
static unsigned cmp_at(const struct cmp *c, const struct ic_runs_series *s, unsigned long n)
{
	unsigned at = 0;

	for (size_t k = 0; k < c->k; k++)
		at |= (unsigned)(ic_runs_ratio_at(s, k, n) != NULL) << k;
	return at;
}

/* The runs in the set in, "A, B" (with_dir: "A (dir), B (dir)"). */
static char *cmp_holders(const struct cmp *c, unsigned in, int with_dir)
{
	char *w = NULL;

	for (size_t k = 0; k < c->k; k++)
		if (in >> k & 1)
			w = with_dir ? out_append(w, "%s%c (%s)", w ? ", " : "", CMP_LETTER(k), c->in[k].run->name)
				     : out_append(w, "%s%c", w ? ", " : "", CMP_LETTER(k));
	return w;
}

/* What is not in every run, one line each; marks the series compared. */
static char *cmp_left_out(struct cmp *c)
{
	char *only = NULL;

	for (size_t j = 0; j < c->ns; j++) {
		struct ic_runs_series *s = &c->s[j];
		unsigned long *n;
		size_t nn;

		if (s->in != c->all) {
			char *w = cmp_holders(c, s->in, 1);

			only = out_append(only, "- only in %s: series %s (%s)\n", w, s->id, s->pair);
			free(w);
			continue;
		}
		nn = ic_runs_sites(s, c->k, 1, &n);
		/* The N only some runs have, a line per set of runs, at its first N. */
		for (size_t a = 0; a < nn; a++) {
			unsigned in = cmp_at(c, s, n[a]);
			char *w, *part = NULL;
			size_t b = 0;

			s->compared |= in == c->all;
			while (b < a && cmp_at(c, s, n[b]) != in)
				b++;
			if (in == c->all || b < a)
				continue;
			for (b = a; b < nn; b++)
				if (cmp_at(c, s, n[b]) == in)
					part = out_append(part, "%s%lu", part ? ", " : "", n[b]);
			w = cmp_holders(c, in, 0);
			only = out_append(only, "- %s (%s): N = %s only in %s\n", s->id, s->pair, part, w);
			free(part);
			free(w);
		}
		free(n);
		if (!s->compared)
			only = out_append(only, "- %s (%s): no N in every input\n", s->id, s->pair);
	}
	return only;
}

/* What a run built: build_source (its sources' hash), else an older run.conf's git commit. */
static const char *cmp_source(const struct cmp_input *in)
{
	const char *v = ic_run_conf(in->run, "build_source");

	return *v ? v : ic_run_conf(in->run, "build_commit");
}

/* What "What differs" names, in order, and each value's source: a setting that
 * defines the point (enum cmp_attr), the run's context, run.conf (D_DESIGN: it
 * changes only the intervals' width), what it built, its forms. */
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

/* Row i of "What differs" for one run (in in's buffer, or the run's own). */
static const char *cmp_differs_value(struct cmp_input *in, size_t i)
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
	snprintf(in->ctxbuf, sizeof(in->ctxbuf), "%s/%s", ic_run_conf(in->run, "compare"),
		 ic_run_conf(in->run, "baseline"));
	return in->ctxbuf;
}

/* Each run's verdict as its summary said it (verdict.json, smoke mark), never re-derived. */
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

/* compare.md's head: the runs, what differs, what is left out; sets their labels. */
static void cmp_write_head(FILE *md, struct cmp *c, const char *only)
{
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

		in->cpu = ic_xalloc(strdup(cmp_or(cmp_ctx(in, "cpu_model"), "CPU not recorded")));
		c->label[k] = out_append(NULL, "%s (%s)", in->cpu, in->run->name);
		fprintf(md, "| %c | %s | %s | %s | %s | %.12s | %zu | %zu |\n", CMP_LETTER(k), in->cpu,
			in->run->name, cmp_or(in->run->from, "—"), cmp_or(cmp_ctx(in, "date"), "—"),
			cmp_or(cmp_source(in), "—"), in->nser, in->npts);
	}

	cmp_write_verdicts(md, c);

	/* The machine, then the settings that define a point (one differing only between runs labels the columns). */
	fputs("\n## What differs\n\n", md);
	for (size_t i = 0; i < sizeof(cmp_differs) / sizeof(cmp_differs[0]); i++) {
		const char *why = "", *key = cmp_differs[i].key, *v[IC_RUNS_MAX];
		char *line = NULL;
		int same = 1, attr = cmp_differs[i].from;

		for (size_t k = 0; k < c->k; k++) {   /* each stays until run k's next value */
			v[k] = cmp_or(cmp_differs_value(&c->in[k], i), "—");
			same &= !strcmp(v[k], v[0]);
			line = out_append(line, "%s%c %s", k ? "; " : "", CMP_LETTER(k), v[k]);
		}
		if (!same && attr >= 0 && c->keyed[attr]) {
			why = " (defines the point; varies within an input, so it is part of the series name)";
		} else if (!same && attr >= 0) {
			why = " (defines the point: the inputs measured different series, kept apart and labelled, never pooled)";
			for (size_t k = 0; k < c->k; k++)
				c->label[k] = out_append(c->label[k], ", %s %s", key, v[k]);
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
}

/* The median code bytes per site of form in the series: its first point's. */
static double cmp_bytes(const struct ic_group *g, const char *form)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (!strcmp(g->points[i]->form, form))
			return g->points[i]->med[IC_F_CODE];
	return NAN;
}

/* xo's crossover bracket, "(lo, hi)" after sep; else none. */
static void out_bracket(FILE *f, const struct ic_crossover *xo, const char *sep, const char *none)
{
	if (isfinite(xo->bracket_lo))
		fprintf(f, "%s(%.0f, %.0f)", sep, xo->bracket_lo, xo->bracket_hi);
	else
		fputs(none, f);
}

/* A series' head, a column for each of the k runs that holds s, headed by compare's label[k]
 * (agree's: NULL, "run K (DIR)"): a row each for the verdict, the crossover bracket (agree's:
 * after the verdict), the small-N winner and the points resolved cw / bw / neither. */
static void out_series_head(FILE *md, const struct ic_runs_series *s, const struct ic_run *run,
			    size_t k, char *const *label, const char *cw, const char *bw)
{
	static const char *const name[] = { "verdict", "crossover bracket", "small-N winner" };

	fputc('|', md);
	for (size_t i = 0; i < k; i++)
		if (s->se[i] && label)
			fprintf(md, " | %c: %s", CMP_LETTER(i), label[i]);
		else if (s->se[i])
			fprintf(md, " | run %zu (%s)", i + 1, run[i].name);
	fputs(" |\n|---|", md);
	for (size_t i = 0; i < k; i++)
		if (s->se[i])
			fputs("---|", md);
	fputc('\n', md);
	for (int row = 0; row < 4; row++) {
		if (row == 1 && !label)
			continue;
		if (row < 3)
			fprintf(md, "| %s", name[row]);
		else
			fprintf(md, "| points resolved %s / %s / neither", cw, bw);
		for (size_t i = 0; i < k; i++) {
			const struct ic_crossover *xo = s->se[i] ? &s->se[i]->group.xo : NULL;

			if (!xo)
				continue;
			fputs(" | ", md);
			if (row == 0) {
				fputs(ic_verdict_name(xo->verdict), md);
				if (!label)
					out_bracket(md, xo, " ", "");
			} else if (row == 1) {
				out_bracket(md, xo, "", "—");
			} else if (row == 2) {
				fputs(out_winner(&run[i].an, xo, "—"), md);
			} else {
				fprintf(md, "%zu / %zu / %zu", xo->n_compare, xo->n_baseline,
					xo->n_unresolved);
			}
		}
		fputs(" |\n", md);
	}
}

/* One compared series: tables in md, rows in csv. */
static void cmp_write_series(FILE *md, FILE *csv, struct cmp *c, const struct ic_runs_series *s)
{
	char cf[64], bf[64];
	unsigned long *sites;
	size_t nn = ic_runs_sites(s, c->k, 1, &sites);

	sscanf(s->pair, "%63[^/]/%63s", cf, bf);
	fprintf(md, "\n## %s: %s / %s\n\n", s->id, cf, bf);
	out_series_head(md, s, c->in[0].run, c->k, c->label, cf, bf);
	fprintf(md, "| code bytes per site %s / %s", cf, bf);
	for (size_t k = 0; k < c->k; k++) {
		out_num(md, cmp_bytes(&s->se[k]->group, cf), " | %.10g", " | —");
		out_num(md, cmp_bytes(&s->se[k]->group, bf), " / %.10g", " / —");
	}
	fputs(" |\n\n", md);

	fputs("| N", md);
	for (size_t k = 0; k < c->k; k++)
		fprintf(md, " | %c ratio [95%% CI], faster", CMP_LETTER(k));
	fputs(" | sides |\n|---:", md);
	for (size_t k = 0; k < c->k; k++)
		fputs("|---", md);
	fputs("|---|\n", md);
	for (size_t a = 0; a < nn; a++) {
		unsigned long n = sites[a];
		size_t nc = 0, nb = 0;

		if (cmp_at(c, s, n) != c->all)
			continue;
		fprintf(md, "| %lu", n);
		for (size_t k = 0; k < c->k; k++) {
			struct cmp_input *in = &c->in[k];
			const struct ic_ratio *r = ic_runs_ratio_at(s, k, n);
			const struct ic_group *g = &s->se[k]->group;
			const struct ic_crossover *xo = &g->xo;
			const struct ic_analysis_opts *o = &in->run->an.opts;
			const char *side = r->side == IC_SIDE_COMPARE ? o->compare
					 : r->side == IC_SIDE_BASELINE ? o->baseline : "unresolved";

			fputs(" | ", md);
			out_ratio(md, r);
			fprintf(md, " %s", side);
			nc += !strcmp(side, cf);
			nb += !strcmp(side, bf);

			ic_csv_quoted(csv, s->id);
			fprintf(csv, ",%lu,%c,", n, CMP_LETTER(k));
			ic_csv_quoted(csv, c->label[k]);
			fprintf(csv, ",%.6f", r->ratio);
			out_num(csv, r->lo, ",%.6f", ",");
			out_num(csv, r->hi, ",%.6f", ",");
			fprintf(csv, ",%s,%s,%s", side, ic_verdict_name(xo->verdict),
				out_winner(&in->run->an, xo, ""));
			out_num(csv, xo->bracket_lo, ",%.0f", ",");
			out_num(csv, xo->bracket_hi, ",%.0f", ",");
			fprintf(csv, ",%s,%s", cf, bf);
			/* CPU, directory, settings compiler .. body (the series' own) */
			for (int at = -2; at <= A_BODY; at++) {
				fputc(',', csv);
				ic_csv_quoted(csv, at == -2 ? in->cpu : at == -1 ? in->run->name
						   : cmp_setting(in, g, at));
			}
			fputc('\n', csv);
		}
		fprintf(md, " | %s |\n", nc == c->k || nb == c->k ? "same"
					 : nc && nb ? "**opposite**"
					 : nc + nb == 0 ? "—" : "partly resolved");
	}
	free(sites);
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
			if (c->s[j].se[k] && ++cnt <= 3)
				fprintf(stderr, "%s%s %s", cnt > 1 ? ", " : "", c->s[j].id, c->s[j].pair);
		fputs(cnt == 0 ? "no ratios" : cnt > 3 ? ", ..." : "", stderr);
	}
	fputc('\n', stderr);
}

int ic_compare_runs(struct ic_run *run, size_t k, const char *out)
{
	static const char *const term[] = { "png", "svg" };
	static struct cmp c;
	struct out_dir d;
	char *only, err[1024];
	size_t ns = 0;
	FILE *md, *csv, *gp, *dat;
	int drawn;

	for (c.k = 0; c.k < k; c.k++)
		c.in[c.k].run = &run[c.k];
	c.all = (1u << k) - 1;
	/* The settings that vary within a run join the series names; then each ratio. */
	for (size_t i = 0; i < k; i++)
		cmp_note_settings(&c, i);
	for (size_t i = 0; i < k; i++)
		cmp_add_series(&c, i);
	only = cmp_left_out(&c);   /* which marks the series compared */
	for (size_t j = 0; j < c.ns; j++)
		ns += c.s[j].compared;
	if (ns == 0) {
		cmp_nothing_shared(&c);
		return 1;
	}
	out_begin(&d, out, (const char *[]){ "compare.md", "compare.csv", "plots/data.gp", "plots/compare.dat" },
		  (FILE **[]){ &md, &csv, &gp, &dat });
	cmp_write_head(md, &c, only);
	free(only);
	fputs("series,sites,input,label,ratio,ratio_ci_lo,ratio_ci_hi,faster,verdict,small_n_winner,"
	      "bracket_lo,bracket_hi,compare,baseline,cpu_model,directory,compiler,cflags,lock,"
	      "codegen,per_caller,body\n", csv);
	for (size_t j = 0; j < c.ns; j++)
		if (c.s[j].compared)
			cmp_write_series(md, csv, &c, &c.s[j]);
	ic_compare_data_write(dat, gp, c.s, c.ns, c.k, (const char *const *)c.label, c.nmin,
			      c.nmax);
	fputc('\n', md);
	/* A chart that fails leaves the tables without it. */
	drawn = out_finish(&d, "compare", "plots", "compare", term, 2, NULL, err, sizeof(err));
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

/* One comparison: a pair of runs on a series, all processes or one state matched by level. */
struct agr_cmp {
	size_t a, b, s;
	int state_a, state_b;      /* -1: all processes */
	const char *state;         /* "all", "low", "high" */
	struct ic_agree ag;
	int differ;                /* its joint test resolved by Holm over all (agr_holm) */
};

struct agr {
	struct ic_run *run;
	size_t k;
	double margin;
	struct ic_runs_series *s;
	size_t ns;
	struct agr_cmp *c;
	size_t nc;
};

/* A series' name: op/layout/order/threads/mode[/filler:F] [its build]. */
static char *agr_series_name(const struct ic_results *res, const struct ic_group *g)
{
	char *s = out_series_id(g);
	const char *sep = " [";

	for (int k = 0; k < IC_B_COUNT; k++) {
		const char *v = res->builds[g->build].v[k];

		if (*v) {
			s = out_append(s, "%s%s %s", sep, ic_ctx_name(ic_ctx_of_build((enum ic_build_key)k)), v);
			sep = "; ";
		}
	}
	return *sep == ';' ? out_append(s, "]") : s;
}

static void agr_match_series(struct agr *x)
{
	for (size_t k = 0; k < x->k; k++) {
		const struct ic_analysis *an = &x->run[k].an;

		for (size_t gi = 0; gi < an->nseries; gi++) {
			char *id = agr_series_name(&x->run[k].res, &an->series[gi].group);
			struct ic_runs_series *e = xr_series_at(&x->s, &x->ns, id, an);

			e->se[k] = &an->series[gi];
			e->in |= 1u << k;
		}
	}
}

/* The runs that hold series s, " 1, 3". */
static void agr_holders(FILE *f, const struct agr *x, const struct ic_runs_series *s)
{
	for (size_t k = 0, n = 0; k < x->k; k++)
		if (s->se[k])
			fprintf(f, "%s %zu", n++ ? "," : "", k + 1);
}

static void agr_add(struct agr *x, size_t a, size_t b, size_t s, int sa, int sb, const char *state)
{
	struct ic_agree_side side[2];
	struct agr_cmp *c;

	for (int i = 0; i < 2; i++) {
		const struct ic_series *e = x->s[s].se[i ? b : a];
		int st = i ? sb : sa;

		side[i] = (struct ic_agree_side){ e->group.ratios, e->group.nratios, &e->procs, e->states, -1 };
		/* A two-state run's state: its own ratios, from its processes. */
		if (st >= 0 && e->states->nstates == 2)
			side[i] = (struct ic_agree_side){ e->states->st[st].ratios, e->states->st[st].nratios,
							  &e->procs, e->states, st };
	}
	x->c = ic_xrealloc(x->c, x->nc + 1, sizeof(*x->c));
	c = &x->c[x->nc++];
	*c = (struct agr_cmp){ .a = a, .b = b, .s = s, .state_a = sa, .state_b = sb, .state = state };
	ic_agree_compare(&side[0], &side[1], x->margin, &c->ag);
}

/* A two-state series' states matched by level: low with low, high with high;
 * a run in one state with the other's state nearest its level. */
static void agr_add_states(struct agr *x, size_t a, size_t b, size_t s)
{
	const struct ic_states *sa = x->s[s].se[a]->states, *sb = x->s[s].se[b]->states;
	static const char *const word[] = { "low", "high" };

	if (sa->nstates == 2 && sb->nstates == 2) {
		agr_add(x, a, b, s, 0, 0, word[0]);
		agr_add(x, a, b, s, 1, 1, word[1]);
	} else if (sa->nstates == 2 || sb->nstates == 2) {
		const struct ic_states *two = sa->nstates == 2 ? sa : sb, *one = two == sa ? sb : sa;
		int near = fabs(log(one->st[0].level / two->st[1].level)) <
			   fabs(log(one->st[0].level / two->st[0].level));

		agr_add(x, a, b, s, two == sa ? near : 0, two == sa ? 0 : near, word[near]);
	}
}

/* "differ" is said over many comparisons (series, states, pairs of runs): Holm
 * over their joint p at IC_AGREE_ALPHA keeps any false "differ" in the report
 * at 5%. nc > 0, as ic_agree_runs makes sure. */
static void agr_holm(struct agr *x)
{
	double *p = ic_xalloc(malloc(x->nc * sizeof(*p)));
	unsigned char *r = ic_xalloc(malloc(x->nc));

	for (size_t i = 0; i < x->nc; i++)
		p[i] = x->c[i].ag.joint.p;
	ic_stats_holm(p, x->nc, IC_AGREE_ALPHA, r);
	for (size_t i = 0; i < x->nc; i++)
		x->c[i].differ = r[i];
	free(p);
	free(r);
}

static const char *agr_interval(char *buf, size_t cap, double lo, double hi)
{
	if (!isfinite(lo))
		return "—";
	snprintf(buf, cap, "[%.4f–%.4f]", lo, hi);
	return buf;
}

/* Each run's verdict, bracket and states: the head of a series. */
static void agr_series_head(FILE *md, const struct agr *x, const struct ic_runs_series *s)
{
	out_series_head(md, s, x->run, x->k, NULL, "compare", "baseline");
	fputs("| states", md);
	for (size_t k = 0; k < x->k; k++) {
		const struct ic_states *st = s->se[k] ? s->se[k]->states : NULL;

		if (st)
			fputs(st->nstates < 2 ? " | one" : " | two:", md);
		for (int i = 0; st && st->nstates >= 2 && i < 2; i++) {
			fprintf(md, "%s %.3f in %zu processes, %s", i ? ";" : "",
				st->st[i].level, st->st[i].nproc,
				ic_verdict_name(st->st[i].xo.verdict));
			out_bracket(md, &st->st[i].xo, " ", "");
		}
	}
	fputs(" |\n", md);
}

static const char *agr_draws(size_t n, int variants)
{
	return variants ? (n == 1 ? "layout variant" : "layout variants")
			: n == 1 ? "process" : "processes";
}

/* The comparison's verdicts over N, one paragraph. */
static void agr_joint(FILE *md, const struct agr *x, const struct agr_cmp *c)
{
	const struct ic_agree_joint *j = &c->ag.joint;

	if (j->equivalent)
		fprintf(md, "Over N: **equivalent at every N** (%zu N) within ±%g%%", c->ag.npts,
			100.0 * x->margin);
	else
		fprintf(md, "Over N: not equivalent at every N (%zu equivalent, %zu differ, %zu cannot tell, %zu without an interval, of %zu N)",
			j->counts[IC_AGREE_EQUIVALENT], j->counts[IC_AGREE_DIFFER],
			j->counts[IC_AGREE_CANNOT_TELL], j->counts[IC_AGREE_NO_INTERVAL], c->ag.npts);
	if (!isfinite(j->p)) {
		fputs("; any difference: not tested (a run has fewer than two draws at every N).\n", md);
		return;
	}
	fprintf(md, "; any difference: the largest |t| is %.2f (N = %lu); over %s%zu splits of "
		"%zu %s + %zu %s", j->t_max, j->t_sites, j->exact ? "all " : "", j->nsplits,
		j->draws_a, agr_draws(j->draws_a, j->variants_a), j->draws_b,
		agr_draws(j->draws_b, j->variants_b));
	fprintf(md, " between the runs, 95%% of the largest |t| fall below %.2f: p = %.3g, %s",
		j->t_95, j->p, c->differ ? "**a difference** (Holm over every comparison here)" :
		j->p <= IC_AGREE_ALPHA ? "no difference shown once corrected for the comparisons' number" :
		"no difference shown");
	if (j->p_min > IC_AGREE_ALPHA)
		fprintf(md, " (these draws cannot give a p below %.2g)", j->p_min);
	fputs(".\n", md);
}

/* One comparison: its table in md, its rows in csv. */
static void agr_comparison(FILE *md, FILE *csv, const struct agr *x, const struct agr_cmp *c)
{
	const struct ic_runs_series *s = &x->s[c->s];
	const struct ic_agree_joint *j = &c->ag.joint;
	const char *field[] = { s->id, s->pair, c->state, x->run[c->a].name, x->run[c->b].name };
	size_t sh[4] = { 0, 0, 0, 0 };
	double share_p;

	/* Each run's processes in its matched state, and all; Fisher's p (NAN: all processes). */
	for (int i = 0; i < 2 && c->state_a >= 0; i++) {
		const struct ic_states *st = s->se[i ? c->b : c->a]->states;

		sh[2 * i + 1] = st->st[0].nproc + (st->nstates == 2 ? st->st[1].nproc : 0);
		sh[2 * i] = st->nstates == 2 ? st->st[i ? c->state_b : c->state_a].nproc : sh[2 * i + 1];
	}
	share_p = ic_agree_fisher(sh[0], sh[1], sh[2], sh[3]);
	fprintf(md, "\n### run %zu against run %zu", c->b + 1, c->a + 1);
	if (c->state_a < 0 && (s->se[c->a]->states->nstates == 2 || s->se[c->b]->states->nstates == 2))
		fputs(": all processes, both states pooled", md);
	else if (c->state_a >= 0)
		fprintf(md, ": the %s state (run %zu: %zu of %zu processes; run %zu: %zu of %zu)", c->state,
			c->a + 1, sh[0], sh[1], c->b + 1, sh[2], sh[3]);
	fprintf(md, "\n\n| N | run %zu ratio [95%% CI] | run %zu ratio [95%% CI] | run %zu / run %zu [90%% CI] | [95%% CI] | verdict |\n"
		"|---:|---|---|---|---|---|\n", c->a + 1, c->b + 1, c->b + 1, c->a + 1);
	for (size_t i = 0; i < c->ag.npts; i++) {
		const struct ic_agree_point *pt = &c->ag.pts[i];
		const double v[] = { pt->a->ratio, pt->b->ratio, exp(pt->d), pt->lo90, pt->hi90, pt->lo95,
				     pt->hi95 };
		char i90[64], i95[64];

		fprintf(md, "| %lu | ", pt->sites);
		out_ratio(md, pt->a);
		fputs(" | ", md);
		out_ratio(md, pt->b);
		fprintf(md, " | %.4f %s | %s | %s |\n", exp(pt->d), agr_interval(i90, sizeof(i90), pt->lo90, pt->hi90),
			agr_interval(i95, sizeof(i95), pt->lo95, pt->hi95), ic_agree_verdict_name(pt->verdict));

		for (size_t f = 0; f < sizeof(field) / sizeof(field[0]); f++) {
			ic_csv_quoted(csv, field[f]);
			fputc(',', csv);
		}
		fprintf(csv, "%lu", pt->sites);
		for (size_t f = 0; f < sizeof(v) / sizeof(v[0]); f++)
			out_num(csv, v[f], ",%.6f", ",");
		out_num(csv, pt->df, ",%.4g", ",");
		out_num(csv, x->margin, ",%g", ",");
		fprintf(csv, ",%s,%d", ic_agree_verdict_name(pt->verdict), j->equivalent);
		out_num(csv, j->t_max, ",%.4g", ",");
		out_num(csv, j->p, ",%.4g", ",");
		fputc('\n', csv);
	}
	fputc('\n', md);
	agr_joint(md, x, c);
	if (isfinite(share_p))
		fprintf(md, "\nThe state's share: run %zu %zu of %zu processes, run %zu %zu of %zu: %s (Fisher's exact test, p = %.3g).\n",
			c->a + 1, sh[0], sh[1], c->b + 1, sh[2], sh[3],
			share_p <= IC_AGREE_ALPHA ? "**the runs' state shares differ**" : "alike", share_p);
}

/* The one line that ends repeat.md and the console summary. */
static void agr_sentence(FILE *f, const struct agr *x)
{
	size_t n[3] = { 0, 0, 0 }, pts[4] = { 0, 0, 0, 0 };

	for (size_t i = 0; i < x->nc; i++) {
		const struct ic_agree_joint *j = &x->c[i].ag.joint;

		n[j->equivalent ? 0 : x->c[i].differ ? 1 : 2]++;
		for (int v = 0; v < 4; v++)
			pts[v] += j->counts[v];
	}
	fprintf(f, "Of %zu comparisons (series and their states, every pair of %zu runs): %zu equivalent at every N within ±%g%%, %zu with a difference (joint tests, Holm at 5%% over the %zu), %zu cannot tell; of their N: %zu equivalent, %zu differ, %zu cannot tell, %zu without an interval.\n",
		x->nc, x->k, n[0], 100.0 * x->margin, n[1], x->nc, n[2], pts[IC_AGREE_EQUIVALENT],
		pts[IC_AGREE_DIFFER], pts[IC_AGREE_CANNOT_TELL], pts[IC_AGREE_NO_INTERVAL]);
}

static void agr_summary(FILE *f, const struct agr *x, int detail_written)
{
	for (size_t k = 0; k < x->k; k++)
		fprintf(f, "run %zu: %s (%s)\n", k + 1, x->run[k].name, x->run[k].from);
	for (size_t i = 0; i < x->nc; i++) {
		const struct agr_cmp *c = &x->c[i];
		const struct ic_agree_joint *j = &c->ag.joint;

		fprintf(f, "%s: %s%s%s, run %zu against run %zu: %s", x->s[c->s].id, x->s[c->s].pair,
			c->state_a >= 0 ? ", " : "", c->state_a >= 0 ? c->state : "", c->b + 1, c->a + 1,
			j->equivalent ? "equivalent" : c->differ ? "differ" : "cannot tell");
		if (j->equivalent)
			fprintf(f, " at every N within ±%g%%", 100.0 * x->margin);
		else
			fprintf(f, " (of %zu N: %zu equivalent, %zu differ, %zu cannot tell)", c->ag.npts,
				j->counts[IC_AGREE_EQUIVALENT], j->counts[IC_AGREE_DIFFER],
				j->counts[IC_AGREE_CANNOT_TELL]);
		if (isfinite(j->p))
			fprintf(f, "; joint p = %.3g", j->p);
		fputs(".\n", f);
	}
	if (!detail_written)
		fputs("(The detail per N: ./run.sh agree --out DIR with the same runs.)\n", f);
	agr_sentence(f, x);
}

/* repeat.md, repeat.csv and the chart into out, whole. */
static void agr_write(const struct agr *x, const char *out)
{
	struct out_dir d;
	char err[1024];
	FILE *md, *csv, *dat, *gp;
	int rc;

	out_begin(&d, out, (const char *[]){ "repeat.md", "repeat.csv", "repeat.dat", "data.gp" },
		  (FILE **[]){ &md, &csv, &dat, &gp });
	fprintf(md, "# Agreement of %zu runs\n\n| run | directory | from | CPU model | date |\n|---:|---|---|---|---|\n",
		x->k);
	for (size_t k = 0; k < x->k; k++) {
		char cpu[IC_RESULTS_CONTEXT_MAX], date[IC_RESULTS_CONTEXT_MAX];

		fprintf(md, "| %zu | %s | %s | %s | %s |\n", k + 1, x->run[k].name, x->run[k].from,
			ic_results_context(&x->run[k].res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu)),
			ic_results_context(&x->run[k].res, IC_CTX_DATE, date, sizeof(date)));
	}
	fprintf(md, "\nPer series (one build's; runs of different builds are never matched) and N, run b against run a: the ratio of their ratios rb / ra, with its interval from each run's nested estimate (its draws: the layout variants, or the processes when it ran one variant; Welch's degrees of freedom). "
		"**equivalent**: the 90%% interval lies within ±%g%% (1/%g to %g: two one-sided tests at 5%%); **differ**: the 95%% interval excludes 1; **cannot tell**: neither, too noisy to say. "
		"Over a series' N: *equivalent at every N* when each N is; *any difference*: the largest |t| over N against its distribution when whole draws are shuffled between the two runs (every split, or %d from a fixed seed), which keeps the N's correlation. "
		"A series whose processes split into two states is also compared state by state, the states matched by level.\n",
		100.0 * x->margin, 1.0 + x->margin, 1.0 + x->margin, IC_AGREE_PERMUTATIONS);
	fputs("series,forms,state,run_a,run_b,sites,ratio_a,ratio_b,ratio_b_over_a,ci90_lo,ci90_hi,ci95_lo,ci95_hi,df,margin,verdict,every_n_equivalent,t_max,joint_p\n",
	      csv);
	for (size_t s = 0, listed = 0; s < x->ns; s++) {
		if (x->s[s].in == (1u << x->k) - 1)
			continue;
		fprintf(md, "%s- %s: %s only in run", listed++ ? "" : "\nNot in every run:\n\n",
			x->s[s].id, x->s[s].pair);
		agr_holders(md, x, &x->s[s]);
		fputc('\n', md);
	}
	for (size_t s = 0; s < x->ns; s++) {
		fprintf(md, "\n## %s: %s\n\n", x->s[s].id, x->s[s].pair);
		agr_series_head(md, x, &x->s[s]);
		for (size_t i = 0; i < x->nc; i++)
			if (x->c[i].s == s)
				agr_comparison(md, csv, x, &x->c[i]);
	}
	fputc('\n', md);
	agr_sentence(md, x);
	ic_agree_data_write(dat, gp, x->s, x->ns, x->k);
	/* data.gp: the chart's settings, not a result */
	rc = out_finish(&d, "agree", "", "repeat", (const char *[]){ "png" }, 1, "data.gp", err, sizeof(err));
	if (rc < 0)
		fputs("agree: no gnuplot: tables written, no chart (apt-get install gnuplot-nox)\n", stderr);
	else if (rc == 0)
		fprintf(stderr, "agree: chart failed: %s; the tables are written\n", err);
}

int ic_agree_runs(struct ic_run *run, size_t k, double margin, const char *out)
{
	static struct agr x;

	x = (struct agr){ .run = run, .k = k, .margin = margin };
	agr_match_series(&x);
	for (size_t a = 0; a < x.k; a++)
		for (size_t b = a + 1; b < x.k; b++)
			for (size_t s = 0; s < x.ns; s++)
				if (x.s[s].se[a] && x.s[s].se[b]) {
					agr_add(&x, a, b, s, -1, -1, "all");
					agr_add_states(&x, a, b, s);
				}
	if (x.nc == 0) {
		/* Nothing to say: one line, as for bad input, but not a usage error. */
		fputs("agree: no series is in two of the runs (a series is one build's: runs of different builds are never matched):", stderr);
		for (size_t s = 0; s < x.ns; s++) {
			fprintf(stderr, "%s %s in run", s ? ";" : "", x.s[s].id);
			agr_holders(stderr, &x, &x.s[s]);
		}
		fputs(".\n", stderr);
		return 1;
	}
	agr_holm(&x);
	agr_summary(stdout, &x, out != NULL);
	if (out)
		agr_write(&x, out);
	for (size_t i = 0; i < x.nc; i++)
		ic_agree_free(&x.c[i].ag);
	return 0;
}

/* ./run.sh export: DIR packed into DIR.tar.gz beside it, to carry to another machine, every link
 * resolved (summary.md -> report/summary.md becomes a file, report/ a directory) and no hidden
 * entry (old report sets, temporary files), so nothing dangles once unpacked; a link to nothing is
 * named and left out. compare and agree read it in place of DIR (engine/run.c); export reads
 * nothing it packs. */

/* The archive while written: hidden beside DIR, renamed once whole, removed on failure (ic_die's exit) or stop. */
static char export_tmp[2 * PATH_MAX + 32];

static void export_remove(void)
{
	if (*export_tmp)
		unlink(export_tmp);
}

static void export_stop(int sig)
{
	(void)sig;
	export_remove();
	_exit(130);
}

/* The walk: where it is on disk and in the archive, the directories above. */
static struct {
	struct archive *a;
	char path[PATH_MAX];   /* on disk */
	char name[PATH_MAX];   /* in the archive: DIR's name, then the path below it */
	struct stat above[64]; /* the directories walked into, against a loop of links */
	size_t len[64];        /* and their names' lengths (len[0]: DIR's name) */
	int depth, packed;     /* how many; how many of them are in the archive */
} ew;

static void export_bad_archive(void)
{
	ic_die(1, "cannot write %s: %s", export_tmp, archive_error_string(ew.a));
}

static int export_visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The walk's path as a plain directory or file (st: the link's target) owned
 * by root: its header, and a file's bytes. */
static void export_entry(const struct stat *st)
{
	struct archive_entry *e = ic_xalloc(archive_entry_new());
	size_t len = 0;
	char *data = S_ISREG(st->st_mode) ? ic_read_path(ew.path, &len) : NULL;

	if (S_ISREG(st->st_mode) && !data)
		ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
	archive_entry_copy_stat(e, st);
	archive_entry_set_pathname(e, ew.name);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	if (archive_write_header(ew.a, e) != ARCHIVE_OK ||
	    (data && archive_write_data(ew.a, data, len) != (la_ssize_t)len))
		export_bad_archive();
	free(data);
	archive_entry_free(e);
}

/* The walk's directory, links followed, in tar --sort=name's byte order:
 * alphasort in the C locale (runs never calls setlocale). */
static void export_dir(void)
{
	size_t pl = strlen(ew.path), nl = strlen(ew.name);
	struct dirent **list;
	int n = scandir(ew.path, &list, export_visible, alphasort);

	if (n < 0)
		ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
	for (int i = 0; i < n; i++) {
		const char *rel = ew.name + ew.len[0] + 1;
		struct stat st, link;
		int loop = 0;

		snprintf(ew.path + pl, sizeof(ew.path) - pl, "/%s", list[i]->d_name);
		snprintf(ew.name + nl, sizeof(ew.name) - nl, "/%s", list[i]->d_name);
		free(list[i]);
		if (stat(ew.path, &st)) {
			if (lstat(ew.path, &link) || !S_ISLNK(link.st_mode))
				ic_die(1, "cannot read %s: %s", ew.path, strerror(errno));
			fprintf(stderr, "%s: left out %s: a link to nothing\n", ic_prog, rel);
			continue;
		}
		for (int d = 0; d < ew.depth; d++)
			loop |= ew.above[d].st_dev == st.st_dev && ew.above[d].st_ino == st.st_ino;
		if (S_ISDIR(st.st_mode) && (loop || ew.depth == 64)) {
			fprintf(stderr, "%s: left out %s: a link into a directory above it\n", ic_prog, rel);
		} else if (S_ISDIR(st.st_mode)) {
			ew.len[ew.depth] = strlen(ew.name);
			ew.above[ew.depth++] = st;
			export_dir();
			ew.packed = --ew.depth < ew.packed ? ew.depth : ew.packed;
		} else if (S_ISREG(st.st_mode)) {
			/* Directories above not yet packed go in with its first file,
			 * as tar packs what find -type f lists. */
			for (; ew.packed < ew.depth; ew.packed++) {
				char *end = ew.name + ew.len[ew.packed], keep = *end;

				*end = '\0';
				export_entry(&ew.above[ew.packed]);
				*end = keep;
			}
			export_entry(&st);
		}
	}
	free(list);
	ew.path[pl] = ew.name[nl] = '\0';
}

int ic_export_run(char **operand, int n)
{
	const char *dir = operand[0];
	char out[PATH_MAX + 16], *slash;
	struct stat st, conf, raw;
	int fd, bad;

	if (n != 1)
		return ic_bad("give one results directory (see ./run.sh export --help).");
	if (stat(dir, &st) || !S_ISDIR(st.st_mode) || !realpath(dir, ew.path))
		return ic_bad("%s: no such results directory.", dir);
	/* A run is its settings and its processes' raw JSON (what compare reads). */
	snprintf(out, sizeof(out), "%s/run.conf", ew.path);
	bad = stat(out, &conf) || !S_ISREG(conf.st_mode);
	snprintf(out, sizeof(out), "%s/raw", ew.path);
	if (bad || stat(out, &raw) || !S_ISDIR(raw.st_mode))
		return ic_bad("%s is not a results directory of ./run.sh (no run.conf and raw/).", dir);
	slash = strrchr(ew.path, '/');
	ew.len[0] = (size_t)snprintf(ew.name, sizeof(ew.name), "%s", slash + 1);
	snprintf(out, sizeof(out), "%s.tar.gz", ew.path);
	snprintf(export_tmp, sizeof(export_tmp), "%.*s/.%s.tar.gz.XXXXXX", (int)(slash - ew.path),
		 ew.path, ew.name);
	if ((fd = mkstemp(export_tmp)) < 0)
		ic_die(1, "cannot write in %.*s: %s", (int)(slash - ew.path), ew.path, strerror(errno));
	atexit(export_remove);
	signal(SIGINT, export_stop);
	signal(SIGTERM, export_stop);
	/* GNU tar's format and gzip, as tar -czf writes them. */
	ew.a = ic_xalloc(archive_write_new());
	if (archive_write_add_filter_gzip(ew.a) != ARCHIVE_OK ||
	    archive_write_set_format_gnutar(ew.a) != ARCHIVE_OK || archive_write_open_fd(ew.a, fd) != ARCHIVE_OK)
		export_bad_archive();
	ew.above[ew.depth++] = st;
	export_dir();
	if (archive_write_close(ew.a) != ARCHIVE_OK)
		export_bad_archive();
	archive_write_free(ew.a);
	if (fchmod(fd, 0644) || close(fd) || rename(export_tmp, out))
		ic_die(1, "cannot move the archive to %s: %s", out, strerror(errno));
	*export_tmp = '\0';
	printf("%s\n", out);
	return 0;
}
