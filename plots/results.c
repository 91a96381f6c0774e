/* Reading Google Benchmark JSON into points (see results.h) and the
 * statistics, ratios and crossovers over them.
 */
#define _GNU_SOURCE   /* qsort_r */
#include "results.h"
#include "gb_json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "attribution.h"
#include "states.h"
#include "stats.h"

/* User counters summarize reads, by enum ic_field (NS and IPS are GB's own). */
static const char *const results_field_key[IC_F_COUNT] = {
	[IC_F_NS] = "real_time",
	[IC_F_IPS] = "items_per_second",
	[IC_F_CYCLES] = "cycles_per_op",
	[IC_F_L1I] = "l1i_miss_per_op",
	[IC_F_CODE] = "code_bytes_per_site",
	[IC_F_FOOT] = "footprint_bytes",
	[IC_F_INSTR] = "instr_per_op",
	[IC_F_BRANCH] = "branch_miss_per_op",
	[IC_F_ITLB] = "itlb_miss_per_op",
};

const char *const ic_build_key_name[IC_B_COUNT] = {
	[IC_B_COMPILER] = "compiler",
	[IC_B_CFLAGS] = "cflags",
	[IC_B_BODY] = "body",
	[IC_B_LOCK] = "lock",
	[IC_B_LTO] = "lto",
	[IC_B_CODEGEN] = "codegen",
};

static int results_fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

void ic_results_init(struct ic_results *res)
{
	memset(res, 0, sizeof(*res));
}

static void results_point_free(struct ic_point *p)
{
	free(p->key);
	free(p->form);
	free(p->op);
	free(p->layout);
	free(p->order);
	free(p->mode);
	free(p->reps);
	free(p->units);
	free(p);
}

void ic_results_free(struct ic_results *res)
{
	for (size_t i = 0; i < res->npoints; i++)
		results_point_free(res->points[i]);
	for (size_t i = 0; i < res->ngroups; i++) {
		free(res->groups[i].points);
		free(res->groups[i].ratios);
		ic_attribution_free(res->groups[i].attr);
		ic_states_free(res->groups[i].states);
	}
	for (size_t i = 0; i < res->nfiles; i++) {
		free(res->files[i]->path);
		json_decref(res->files[i]->doc);
		free(res->files[i]);
	}
	for (size_t i = 0; i < res->nlayouts; i++)
		free(res->layouts[i]);
	free(res->layouts);
	for (size_t i = 0; i < res->nbuilds; i++)
		for (int k = 0; k < IC_B_COUNT; k++)
			free(res->builds[i].v[k]);
	free(res->builds);
	free(res->files);
	free(res->points);
	free(res->groups);
	memset(res, 0, sizeof(*res));
}

struct results_name {
	char form[64], op[64], layout[64], order[64], mode[64];
	unsigned long sites, threads, filler;
	int has_threads;
};

static int results_token(char *dst, size_t cap, const char *s, size_t len)
{
	if (len == 0 || len >= cap)
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_' && s[i] != '-' && s[i] != '.')
			return -1;
	memcpy(dst, s, len);
	dst[len] = '\0';
	return 0;
}

/* A whole number; zero only when zero_ok (filler:0 is no filler). */
static int results_count(const char *s, size_t len, unsigned long *out, int zero_ok)
{
	char buf[32], *end;

	if (len == 0 || len >= sizeof(buf) || !isdigit((unsigned char)s[0]))
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*out = strtoul(buf, &end, 10);
	return (errno || *end || (*out == 0 && !zero_ok)) ? -1 : 0;
}

static int results_ulong(const char *s, size_t len, unsigned long *out)
{
	return results_count(s, len, out, 0);
}

/* sites/<form>/<op>/<layout>/<order>/<sites>/<mode>[/filler:<F>][/threads:<T>][/...]
 * Further components Google Benchmark may add (real_time, min_time:...,
 * repeats:...) are ignored; no filler component means filler 0, so older
 * results read as before. */
static int results_parse_name(const char *name, struct results_name *rn)
{
	char *fields[5] = { rn->form, rn->op, rn->layout, rn->order, rn->mode };
	const char *p = name + strlen("sites/");
	int idx = 0;

	memset(rn, 0, sizeof(*rn));
	while (*p) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);

		if (idx < 4) {
			if (results_token(fields[idx], 64, p, len))
				return -1;
		} else if (idx == 4) {
			if (results_ulong(p, len, &rn->sites))
				return -1;
		} else if (idx == 5) {
			if (results_token(fields[4], 64, p, len))
				return -1;
		} else if (len > 7 && !strncmp(p, "filler:", 7)) {
			if (results_count(p + 7, len - 7, &rn->filler, 1))
				return -1;
		} else if (len > 8 && !strncmp(p, "threads:", 8)) {
			if (results_ulong(p + 8, len - 8, &rn->threads))
				return -1;
			rn->has_threads = 1;
		}
		idx++;
		if (!slash)
			break;
		p = slash + 1;
	}
	return idx >= 6 ? 0 : -1;
}

static double results_unit_ns(const char *unit)
{
	if (!strcmp(unit, "ns"))
		return 1.0;
	if (!strcmp(unit, "us"))
		return 1e3;
	if (!strcmp(unit, "ms"))
		return 1e6;
	if (!strcmp(unit, "s"))
		return 1e9;
	return NAN;
}

/* While loading, points sort by build, then key: builds share names. */
struct results_key {
	size_t build;
	const char *key;
};

static int results_cmp_key(const void *key, const void *elem)
{
	const struct results_key *k = key;
	const struct ic_point *p = *(struct ic_point *const *)elem;

	if (k->build != p->build)
		return k->build < p->build ? -1 : 1;
	return strcmp(k->key, p->key);
}

/* The point named rn, created when new. While loading, points are sorted
 * by key: each point has many repetitions, so lookups outnumber inserts. */
static struct ic_point *results_point_get(struct ic_results *res, const struct results_name *rn,
					  const struct ic_file *file)
{
	char key[512], fill[40] = "";
	struct results_key k = { file->build, key };
	struct ic_point *p, **found;
	size_t i;

	if (rn->filler)
		snprintf(fill, sizeof(fill), "/filler:%lu", rn->filler);
	snprintf(key, sizeof(key), "sites/%s/%s/%s/%s/%lu/%s%s/threads:%lu", rn->form, rn->op,
		 rn->layout, rn->order, rn->sites, rn->mode, fill, rn->threads);
	found = res->npoints ? bsearch(&k, res->points, res->npoints, sizeof(*res->points),
				       results_cmp_key) : NULL;
	if (found) {
		p = *found;
		/* A process that counted nothing (run.sh simulates with the
		 * ordinary link only) does not mix sources; it lends none. */
		if (!strcmp(file->counter_source, "none"))
			return p;
		if (!strcmp(p->file->counter_source, "none"))
			p->file = file;
		else if (strcmp(p->file->counter_source, file->counter_source))
			p->source_mixed = 1;
		return p;
	}
	if (res->npoints == res->cappoints) {
		size_t cap = res->cappoints ? res->cappoints * 2 : 64;
		struct ic_point **np = realloc(res->points, cap * sizeof(*np));

		if (!np)
			return NULL;
		res->points = np;
		res->cappoints = cap;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->key = strdup(key);
	p->form = strdup(rn->form);
	p->op = strdup(rn->op);
	p->layout = strdup(rn->layout);
	p->order = strdup(rn->order);
	p->mode = strdup(rn->mode);
	if (!p->key || !p->form || !p->op || !p->layout || !p->order || !p->mode) {
		results_point_free(p);
		return NULL;
	}
	p->build = file->build;
	p->sites = rn->sites;
	p->threads = rn->threads;
	p->filler = rn->filler;
	p->file = file;
	/* Into key order: the keys after it move up by one. */
	for (i = res->npoints++; i > 0 && results_cmp_key(&k, &res->points[i - 1]) < 0; i--)
		res->points[i] = res->points[i - 1];
	res->points[i] = p;
	return p;
}

static int results_rep_add(struct ic_point *p, const struct ic_rep *rep)
{
	if (p->nreps == p->capreps) {
		size_t cap = p->capreps ? p->capreps * 2 : 16;
		struct ic_rep *nr = realloc(p->reps, cap * sizeof(*nr));

		if (!nr)
			return -1;
		p->reps = nr;
		p->capreps = cap;
	}
	p->reps[p->nreps++] = *rep;
	return 0;
}

/* A numeric member, NAN when absent or null (a counter that was not read). */
static int results_number(json_t *entry, const char *key, double *out)
{
	json_t *v = json_object_get(entry, key);

	*out = NAN;
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_number(v))
		return -1;
	*out = json_number_value(v);
	return 0;
}

static int results_entry(struct ic_results *res, struct ic_file *file, size_t idx,
			 json_t *entry, char *err, size_t errlen)
{
	const char *path = file->path, *name, *run_type, *unit;
	json_t *jname, *jthreads, *jerr;
	struct results_name rn;
	struct ic_point *p;
	struct ic_rep rep;
	double scale;

	if (!json_is_object(entry))
		return results_fail(err, errlen, "%s: benchmarks[%zu] is not an object", path, idx);
	jname = json_object_get(entry, "run_name");
	if (!json_is_string(jname))
		jname = json_object_get(entry, "name");
	if (!json_is_string(jname))
		return results_fail(err, errlen, "%s: benchmarks[%zu] has no name", path, idx);
	name = json_string_value(jname);
	run_type = json_string_value(json_object_get(entry, "run_type"));
	if (run_type && !strcmp(run_type, "aggregate")) {
		res->n_aggregates++;   /* our own statistics replace GB's */
		return 0;
	}
	if (strncmp(name, "sites/", 6)) {
		res->n_other++;
		return 0;
	}
	if (results_parse_name(name, &rn))
		return results_fail(err, errlen,
				    "%s: benchmarks[%zu] '%s' is not sites/<form>/<op>/<layout>/<order>/<sites>/<mode>[/filler:<F>]/threads:<T>",
				    path, idx, name);
	jthreads = json_object_get(entry, "threads");
	if (json_is_integer(jthreads)) {
		json_int_t t = json_integer_value(jthreads);

		if (t < 1 || (rn.has_threads && (unsigned long)t != rn.threads))
			return results_fail(err, errlen, "%s: benchmarks[%zu] '%s' has threads %lld",
					    path, idx, name, (long long)t);
		rn.threads = (unsigned long)t;
	} else if (!rn.has_threads) {
		rn.threads = 1;
	}
	p = results_point_get(res, &rn, file);
	if (!p)
		return results_fail(err, errlen, "%s: out of memory", path);
	res->n_entries++;
	jerr = json_object_get(entry, "error_occurred");
	if (json_is_true(jerr)) {
		p->nerrors++;
		res->n_errors++;
		if (!p->error)
			p->error = json_string_value(json_object_get(entry, "error_message"));
		return 0;
	}
	unit = json_string_value(json_object_get(entry, "time_unit"));
	scale = results_unit_ns(unit ? unit : "ns");
	if (isnan(scale))
		return results_fail(err, errlen, "%s: benchmarks[%zu] '%s' has time_unit '%s'",
				    path, idx, name, unit);
	for (int f = 0; f < IC_F_COUNT; f++)
		if (results_number(entry, results_field_key[f], &rep.v[f]))
			return results_fail(err, errlen, "%s: benchmarks[%zu] '%s': %s is not a number",
					    path, idx, name, results_field_key[f]);
	if (!isfinite(rep.v[IC_F_NS]) || rep.v[IC_F_NS] <= 0.0)
		return results_fail(err, errlen, "%s: benchmarks[%zu] '%s' has no positive real_time",
				    path, idx, name);
	rep.v[IC_F_NS] *= scale;
	rep.unit = (unsigned)(res->nfiles - 1);
	rep.variant = file->variant;
	if (results_rep_add(p, &rep))
		return results_fail(err, errlen, "%s: out of memory", path);
	return 0;
}

/* A context member as text, "" when absent; see ic_results_context. */
static const char *results_context_text(json_t *ctx, const char *key, char *buf, size_t cap)
{
	json_t *v = json_object_get(ctx, key);

	if (json_is_string(v)) {
		/* Trimmed: /proc/cpuinfo pads some model names with blanks. */
		const char *s = json_string_value(v);
		size_t n;

		while (*s == ' ' || *s == '\t')
			s++;
		n = strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
			n--;
		if (s[n] == '\0' || n >= cap)
			return s;   /* nothing to trim, or too long to copy: as it is */
		memcpy(buf, s, n);
		buf[n] = '\0';
		return buf;
	}
	if (json_is_integer(v)) {
		snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
		return buf;
	}
	if (json_is_real(v)) {
		snprintf(buf, cap, "%g", json_real_value(v));
		return buf;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "true" : "false";
	return "";
}

/* The index of the file's build in res->builds, added when new. -1 when
 * memory runs out. */
static long results_build(struct ic_results *res, json_t *ctx)
{
	char buf[IC_B_COUNT][IC_RESULTS_CONTEXT_MAX];
	const char *v[IC_B_COUNT];
	struct ic_build *nb, *b;
	size_t i;
	int k;

	for (k = 0; k < IC_B_COUNT; k++)
		v[k] = results_context_text(ctx, ic_build_key_name[k], buf[k], sizeof(buf[k]));
	for (i = 0; i < res->nbuilds; i++) {
		for (k = 0; k < IC_B_COUNT && !strcmp(res->builds[i].v[k], v[k]); k++)
			;
		if (k == IC_B_COUNT) {
			res->builds[i].nfiles++;
			return (long)i;
		}
	}
	nb = realloc(res->builds, (i + 1) * sizeof(*nb));
	if (!nb)
		return -1;
	res->builds = nb;
	b = &nb[i];
	memset(b, 0, sizeof(*b));
	for (k = 0; k < IC_B_COUNT; k++) {
		b->v[k] = strdup(v[k]);
		if (!b->v[k]) {
			while (k--)
				free(b->v[k]);
			return -1;
		}
	}
	b->nfiles = 1;
	res->nbuilds++;
	return (long)i;
}

int ic_results_load(struct ic_results *res, const char *path, char *err, size_t errlen)
{
	struct ic_file *file, **nf;
	json_t *doc, *benchmarks, *entry;
	json_int_t max_family = -1;
	size_t idx;

	doc = ic_gb_json_load(path, err, errlen);
	if (!doc)
		return -1;
	benchmarks = json_object_get(doc, "benchmarks");
	if (!json_is_array(benchmarks)) {
		json_decref(doc);
		return results_fail(err, errlen, "%s: no \"benchmarks\" array (not Google Benchmark JSON)", path);
	}
	if (json_array_size(benchmarks) == 0) {
		json_decref(doc);
		return results_fail(err, errlen, "%s: no benchmarks", path);
	}
	nf = realloc(res->files, (res->nfiles + 1) * sizeof(*nf));
	file = calloc(1, sizeof(*file));
	if (nf)
		res->files = nf;
	if (!nf || !file || !(file->path = strdup(path))) {
		free(file);
		json_decref(doc);
		return results_fail(err, errlen, "%s: out of memory", path);
	}
	file->doc = doc;
	{
		struct stat st;

		file->mtime = stat(path, &st) ? NAN
			    : (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec;
	}
	file->context = json_object_get(doc, "context");
	if (!json_is_object(file->context))
		file->context = NULL;
	file->counter_source = json_string_value(json_object_get(file->context, "counter_source"));
	if (!file->counter_source)
		file->counter_source = "";
	{
		const char *v = json_string_value(json_object_get(file->context, "layout_variant"));
		char *end;
		long n = v ? strtol(v, &end, 10) : 0;

		if (v && (*end || end == v || n < 0 || n > 1000000)) {
			results_fail(err, errlen, "%s: context layout_variant '%s' is not a whole number",
				     path, v);
			json_decref(doc);
			free(file->path);
			free(file);
			return -1;
		}
		/* Variant k of one seed is not variant k of another: the cluster
		 * is the pair. Every variant has its own seed; only the ordinary
		 * link (--lto, tests) has none. */
		const char *seed = json_string_value(json_object_get(file->context, "layout_seed"));
		char key[96];
		size_t k;

		snprintf(key, sizeof(key), "%s/%ld", seed ? seed : "", n);
		for (k = 0; k < res->nlayouts && strcmp(res->layouts[k], key); k++)
			;
		if (k == res->nlayouts) {
			char **nl = realloc(res->layouts, (k + 1) * sizeof(*nl));

			if (!nl || !(nl[k] = strdup(key))) {
				if (nl)
					res->layouts = nl;
				json_decref(doc);
				free(file->path);
				free(file);
				return results_fail(err, errlen, "%s: out of memory", path);
			}
			res->layouts = nl;
			res->nlayouts++;
		}
		file->variant = (int)k;
	}
	{
		long b = results_build(res, file->context);

		if (b < 0) {
			json_decref(doc);
			free(file->path);
			free(file);
			return results_fail(err, errlen, "%s: out of memory", path);
		}
		file->build = (size_t)b;
	}
	res->files[res->nfiles++] = file;
	json_array_foreach(benchmarks, idx, entry) {
		json_t *fam;

		if (results_entry(res, file, idx, entry, err, errlen))
			return -1;
		fam = json_object_get(entry, "family_index");
		if (json_is_integer(fam)) {
			json_int_t fi = json_integer_value(fam);

			if (fi > max_family)
				max_family = fi;
			json_object_set_new(entry, "family_index", json_integer(fi + res->next_family));
		}
	}
	res->next_family += max_family + 1;
	return 0;
}

static int results_form_rank(const char *form, const struct ic_analysis_opts *opts)
{
	if (!strcmp(form, opts->compare))
		return 0;
	if (!strcmp(form, opts->baseline))
		return 1;
	return 2;
}

/* Series keys first (build, op, layout, order, filler, threads, mode),
 * then form, then N. */
static int results_cmp_series(const struct ic_point *a, const struct ic_point *b)
{
	int c;

	if (a->build != b->build)
		return a->build < b->build ? -1 : 1;
	if ((c = strcmp(a->op, b->op)) || (c = strcmp(a->layout, b->layout)) ||
	    (c = strcmp(a->order, b->order)))
		return c;
	if (a->filler != b->filler)
		return a->filler < b->filler ? -1 : 1;
	if (a->threads != b->threads)
		return a->threads < b->threads ? -1 : 1;
	return strcmp(a->mode, b->mode);
}

/* qsort_r order of points; opts says which forms come first. */
static int results_cmp_point(const void *pa, const void *pb, void *opts)
{
	const struct ic_point *a = *(struct ic_point *const *)pa, *b = *(struct ic_point *const *)pb;
	int c = results_cmp_series(a, b), ra, rb;

	if (c)
		return c;
	ra = results_form_rank(a->form, opts);
	rb = results_form_rank(b->form, opts);
	if (ra != rb)
		return ra - rb;
	if ((c = strcmp(a->form, b->form)))
		return c;
	return (a->sites > b->sites) - (a->sites < b->sites);
}

/* Values of one field over a point's repetitions, skipping absent ones. */
static size_t results_values(const struct ic_point *p, enum ic_field f, double *out)
{
	size_t n = 0;

	for (size_t i = 0; i < p->nreps; i++)
		if (isfinite(p->reps[i].v[f]))
			out[n++] = p->reps[i].v[f];
	return n;
}

static double results_median_over(struct ic_point **pts, size_t n, const char *form, enum ic_field f)
{
	double *buf = malloc((n ? n : 1) * sizeof(*buf)), m;
	size_t k = 0;

	if (!buf)
		return NAN;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(pts[i]->form, form) && isfinite(pts[i]->med[f]))
			buf[k++] = pts[i]->med[f];
	m = ic_stats_median(buf, k);
	free(buf);
	return m;
}

static int results_cmp_rep_unit(const void *pa, const void *pb)
{
	const struct ic_rep *a = pa, *b = pb;

	return (a->unit > b->unit) - (a->unit < b->unit);
}

static int results_cmp_unit(const void *pa, const void *pb)
{
	const struct ic_unit *a = pa, *b = pb;

	return (a->unit > b->unit) - (a->unit < b->unit);
}

/* Per-process medians of a point's gross time into p->units, ascending by
 * unit. */
static int results_units(struct ic_point *p)
{
	size_t cap = p->nreps ? p->nreps : 1, n = 0;
	struct ic_rep *r = malloc(cap * sizeof(*r));
	double *buf = malloc(cap * sizeof(*buf));
	struct ic_unit *u = malloc(cap * sizeof(*u));

	if (!r || !buf || !u) {
		free(r);
		free(buf);
		free(u);
		return -1;
	}
	memcpy(r, p->reps, p->nreps * sizeof(*r));
	qsort(r, p->nreps, sizeof(*r), results_cmp_rep_unit);
	for (size_t i = 0; i < p->nreps;) {
		size_t j = i, k = 0;

		while (j < p->nreps && r[j].unit == r[i].unit) {
			if (isfinite(r[j].v[IC_F_NS]))
				buf[k++] = r[j].v[IC_F_NS];
			j++;
		}
		if (k) {
			u[n] = (struct ic_unit){ r[i].unit, r[i].variant, 0, ic_stats_cv(buf, k) };
			u[n++].med = ic_stats_median(buf, k);
		}
		i = j;
	}
	free(r);
	free(buf);
	free(p->units);
	p->units = u;
	p->nunits = p->nunits_gross = n;
	return 0;
}

/* The nested estimate over units of log(med). Returns 1 with an interval,
 * 0 without one (fewer than two draws; s->mean is still set), -1 when
 * memory runs out. */
static int results_nested_units(const struct ic_unit *u, size_t n, struct ic_stats_nested *s)
{
	double *y = malloc((n ? n : 1) * sizeof(*y));
	int *cl = malloc((n ? n : 1) * sizeof(*cl)), ok;

	*s = (struct ic_stats_nested){ .mean = NAN, .se = NAN, .df = NAN, .share_between = NAN };
	if (!y || !cl) {
		free(y);
		free(cl);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		y[i] = log(u[i].med);
		cl[i] = u[i].variant;
	}
	ok = n && ic_stats_nested(y, cl, n, s) == 0;
	free(y);
	free(cl);
	return ok;
}

/* Medians of every field over the repetitions, the within-process cv and
 * the gross estimate; the time's estimate waits for the filler baseline. */
static int results_point_gross(struct ic_point *p)
{
	double *buf = malloc((p->nreps ? p->nreps : 1) * sizeof(*buf));
	struct ic_stats_nested s;
	size_t n, ncv = 0;

	if (!buf)
		return -1;
	for (int f = 0; f < IC_F_COUNT; f++) {
		n = results_values(p, f, buf);
		p->med[f] = ic_stats_median(buf, n);
	}
	if (results_units(p)) {
		free(buf);
		return -1;
	}
	for (size_t i = 0; i < p->nunits; i++)
		if (isfinite(p->units[i].cv))
			buf[ncv++] = p->units[i].cv;
	p->cv = ic_stats_median(buf, ncv);
	free(buf);
	return results_nested_units(p->units, p->nunits, &s) < 0 ? -1 : 0;
}

/* The time's estimate and interval from p->units. */
static int results_point_stats(struct ic_point *p)
{
	struct ic_stats_nested s;
	int ok = results_nested_units(p->units, p->nunits, &s);

	if (ok < 0)
		return -1;
	p->ci_lo = p->ci_hi = p->share_layout = NAN;
	p->net = p->net_lo = p->net_hi = p->net_se = NAN;
	p->med[IC_F_NS] = p->nunits ? exp(s.mean) : NAN;
	p->nvariants = p->nunits ? s.clusters : 0;
	p->share_layout = s.share_between;
	if (ok) {
		ic_stats_nested_interval(&s, 0.05, &p->ci_lo, &p->ci_hi);
		p->ci_lo = exp(p->ci_lo);
		p->ci_hi = exp(p->ci_hi);
	}
	return 0;
}

const struct ic_point *ic_group_point(const struct ic_group *g, const char *form,
				      unsigned long sites)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (g->points[i]->sites == sites && !strcmp(g->points[i]->form, form))
			return g->points[i];
	return NULL;
}

/* In a filler series every form but mark gets its net time per site:
 * per process, its median less the same process's mark median at the same
 * N, on the linear scale (a difference can be negative, and is kept), then
 * the nested mean over variants with its t interval. */
static int results_filler_net(struct ic_group *g)
{
	for (size_t i = 0; i < g->npoints; i++) {
		struct ic_point *p = g->points[i];
		const struct ic_point *m = ic_group_point(g, "mark", p->sites);
		double *y = malloc((p->nunits ? p->nunits : 1) * sizeof(*y));
		int *cl = malloc((p->nunits ? p->nunits : 1) * sizeof(*cl));
		struct ic_stats_nested s;
		size_t n = 0;

		p->net = p->net_lo = p->net_hi = p->net_se = NAN;
		if (!y || !cl) {
			free(y);
			free(cl);
			return -1;
		}
		for (size_t j = 0; m && strcmp(p->form, "mark") && j < p->nunits; j++) {
			const struct ic_unit *u = &p->units[j];
			const struct ic_unit *mu = bsearch(u, m->units, m->nunits, sizeof(*u),
							   results_cmp_unit);

			if (mu) {
				y[n] = u->med - mu->med;
				cl[n++] = u->variant;
			}
		}
		p->net_n = n;
		if (n && ic_stats_nested(y, cl, n, &s) == 0) {
			p->net_se = s.se;
			ic_stats_nested_interval(&s, 0.05, &p->net_lo, &p->net_hi);
		}
		if (n)
			p->net = s.mean;
		p->net_near_mark = n && !(fabs(p->net) > IC_NET_NEAR * p->net_se);
		free(y);
		free(cl);
	}
	return 0;
}

/* The per-process values of a contrast: y = sum sign[i] log(med of pts[i])
 * over the processes that ran every point, clustered by layout variant. */
static size_t results_contrast_units(const struct ic_point *const *pts, const int *sign,
				      size_t nt, const unsigned char *keep, double *y, int *cl)
{
	size_t n = 0;

	for (size_t i = 0; i < pts[0]->nunits; i++) {
		const struct ic_unit *u = &pts[0]->units[i];
		double v = sign[0] * log(u->med);
		size_t k;

		if (keep && !keep[u->unit])
			continue;
		for (k = 1; k < nt; k++) {
			const struct ic_unit *o = bsearch(u, pts[k]->units, pts[k]->nunits,
							  sizeof(*u), results_cmp_unit);

			if (!o)
				break;
			v += sign[k] * log(o->med);
		}
		if (k < nt)
			continue;
		y[n] = v;
		cl[n++] = u->variant;
	}
	return n;
}

/* The contrast at one N; its band waits for the series (results_band).
 * *s gets the nested estimate. */
static int results_contrast_at(struct ic_ratio *r, const struct ic_point *const *pts,
			       const int *sign, size_t nt, const unsigned char *keep,
			       struct ic_stats_nested *s)
{
	size_t cap = pts[0]->nunits ? pts[0]->nunits : 1, n;
	double *y = malloc(cap * sizeof(*y));
	int *cl = malloc(cap * sizeof(*cl));

	*r = (struct ic_ratio){ .cmp = pts[0], .base = pts[nt > 1 ? 1 : 0], .sites = pts[0]->sites,
				.ratio = NAN, .lo = NAN, .hi = NAN, .band_lo = NAN, .band_hi = NAN,
				.p = NAN, .p_holm = NAN, .halfwidth = NAN, .share_layout = NAN,
				.df = NAN, .se = NAN };
	*s = (struct ic_stats_nested){ .mean = NAN, .se = NAN, .df = NAN };
	if (!y || !cl) {
		free(y);
		free(cl);
		return -1;
	}
	n = results_contrast_units(pts, sign, nt, keep, y, cl);
	r->nunits = n;
	if (n) {
		int ok = ic_stats_nested(y, cl, n, s) == 0;

		r->ratio = exp(s->mean);
		r->nvariants = s->clusters;
		r->share_layout = s->share_between;
		if (ok) {
			ic_stats_nested_interval(s, 0.05, &r->lo, &r->hi);
			r->lo = exp(r->lo);
			r->hi = exp(r->hi);
			r->p = ic_stats_nested_p(s);
			r->df = s->df;
			r->se = s->se;
		}
	}
	free(y);
	free(cl);
	return 0;
}

struct results_rank {
	double p;
	size_t i;
};

static int results_cmp_rank(const void *pa, const void *pb)
{
	const struct results_rank *a = pa, *b = pb;

	return (a->p > b->p) - (a->p < b->p);
}

/* The band: every N of the series at once, family-wise by Holm's step-down
 * over the m points that have an interval. With the p-values ascending,
 * p(j) is resolved while p(j) <= family / (m - j + 1) for it and every
 * smaller j; the first that fails stops it. A resolved point's band is its
 * interval at its own step's level (so it excludes 1); every other point's
 * is at the level of the step that failed (so it holds 1). The chance of
 * any spurious side stays at most `family`, as with Bonferroni, but only
 * the strongest point pays the full m. p_holm is the adjusted p-value. */
static int results_band(struct ic_ratio *r, size_t n, const struct ic_stats_nested *ns,
			const struct ic_analysis_opts *opts)
{
	struct results_rank *rk = malloc((n ? n : 1) * sizeof(*rk));
	size_t m = 0, stop;
	double adj = 0.0;

	if (!rk)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (isfinite(r[i].lo) && isfinite(r[i].p))
			rk[m++] = (struct results_rank){ r[i].p, i };
	qsort(rk, m, sizeof(*rk), results_cmp_rank);
	for (stop = 0; stop < m && rk[stop].p <= opts->family / (double)(m - stop); stop++)
		;
	for (size_t j = 0; j < m; j++) {
		struct ic_ratio *x = &r[rk[j].i];
		size_t step = j < stop ? j : stop;

		adj = fmax(adj, fmin(1.0, (double)(m - j) * rk[j].p));
		x->p_holm = adj;
		ic_stats_nested_interval(&ns[rk[j].i], opts->family / (double)(m - step), &x->band_lo,
					 &x->band_hi);
		x->band_lo = exp(x->band_lo);
		x->band_hi = exp(x->band_hi);
		x->halfwidth = (x->band_hi - x->band_lo) / 2.0 / x->ratio;
		x->resolved = j < stop;
	}
	for (size_t i = 0; i < n; i++) {
		/* No band (NAN) is noisy too: !(x <= limit). */
		r[i].noisy = !(r[i].halfwidth <= opts->noise_ci);
		r[i].side = !r[i].resolved ? IC_SIDE_UNRESOLVED
			  : r[i].ratio < 1.0 ? IC_SIDE_COMPARE : IC_SIDE_BASELINE;
	}
	free(rk);
	return 0;
}

/* The contrast of forms[] with sign[] at every N where forms[0] and every
 * other form have a time, ascending N. */
static int results_contrast_series(const struct ic_group *g, const char *const *forms,
				   const int *sign, size_t nt, const unsigned char *keep,
				   const struct ic_analysis_opts *opts, struct ic_ratio **out,
				   size_t *nout)
{
	struct ic_ratio *r = calloc(g->npoints ? g->npoints : 1, sizeof(*r));
	struct ic_stats_nested *ns = calloc(g->npoints ? g->npoints : 1, sizeof(*ns));
	const struct ic_point *pts[8];
	size_t n = 0;

	*out = NULL;
	*nout = 0;
	if (!r || !ns || nt > 8) {
		free(r);
		free(ns);
		return -1;
	}
	/* Points sort by form, then N: forms[0]'s points come in ascending N. */
	for (size_t i = 0; i < g->npoints; i++) {
		size_t k;

		pts[0] = g->points[i];
		if (strcmp(pts[0]->form, forms[0]) || !isfinite(pts[0]->med[IC_F_NS]))
			continue;
		for (k = 1; k < nt; k++) {
			pts[k] = ic_group_point(g, forms[k], pts[0]->sites);
			if (!pts[k] || !isfinite(pts[k]->med[IC_F_NS]))
				break;
		}
		if (k < nt)
			continue;
		if (results_contrast_at(&r[n], pts, sign, nt, keep, &ns[n])) {
			free(r);
			free(ns);
			return -1;
		}
		n++;
	}
	if (results_band(r, n, ns, opts)) {
		free(r);
		free(ns);
		return -1;
	}
	free(ns);
	if (!n) {
		free(r);
		r = NULL;
	}
	*out = r;
	*nout = n;
	return 0;
}

int ic_results_ratio_series(const struct ic_group *g, const char *num, const char *den,
			    const struct ic_analysis_opts *opts, struct ic_ratio **out, size_t *n)
{
	const char *forms[2] = { num, den };
	static const int sign[2] = { 1, -1 };

	return results_contrast_series(g, forms, sign, 2, NULL, opts, out, n);
}

int ic_results_ratio_series_keep(const struct ic_group *g, const char *num, const char *den,
				 const unsigned char *keep, const struct ic_analysis_opts *opts,
				 struct ic_ratio **out, size_t *n)
{
	const char *forms[2] = { num, den };
	static const int sign[2] = { 1, -1 };

	return results_contrast_series(g, forms, sign, 2, keep, opts, out, n);
}

int ic_results_interaction_series(const struct ic_group *g, const char *a, const char *a0,
				  const char *b, const char *b0,
				  const struct ic_analysis_opts *opts, struct ic_ratio **out,
				  size_t *n)
{
	const char *forms[4] = { a, a0, b, b0 };
	static const int sign[4] = { 1, -1, -1, 1 };
	int rc = results_contrast_series(g, forms, sign, 4, NULL, opts, out, n);

	/* Named by its outer forms: a over b. */
	for (size_t i = 0; rc == 0 && i < *n; i++)
		(*out)[i].base = ic_group_point(g, b, (*out)[i].sites);
	return rc;
}

int ic_results_contrast(const struct ic_point *const *pts, const int *sign, size_t n,
			struct ic_ratio *out)
{
	struct ic_stats_nested s;
	/* A family of one: the band is the 95% interval itself. */
	static const struct ic_analysis_opts one = { .family = 0.05, .noise_ci = INFINITY };

	if (results_contrast_at(out, pts, sign, n, NULL, &s) || results_band(out, 1, &s, &one))
		return -1;
	out->noisy = 0;
	return 0;
}

static int results_group(struct ic_group *g, const struct ic_analysis_opts *opts)
{
	struct ic_ratio_point *rp;

	if (ic_results_ratio_series(g, opts->compare, opts->baseline, opts, &g->ratios, &g->nratios))
		return -1;
	rp = malloc((g->nratios ? g->nratios : 1) * sizeof(*rp));
	if (!rp)
		return -1;
	for (size_t i = 0; i < g->nratios; i++)
		rp[i] = (struct ic_ratio_point){ (double)g->ratios[i].sites, g->ratios[i].ratio,
						 g->ratios[i].band_lo, g->ratios[i].band_hi };
	ic_crossover_find(rp, g->nratios, &g->xo);
	free(rp);
	g->code_cmp = results_median_over(g->points, g->npoints, opts->compare, IC_F_CODE);
	g->code_base = results_median_over(g->points, g->npoints, opts->baseline, IC_F_CODE);
	return 0;
}

int ic_results_analyse(struct ic_results *res, const struct ic_analysis_opts *opts,
		       char *err, size_t errlen)
{
	res->opts = *opts;
	if (res->npoints == 0)
		return results_fail(err, errlen,
				    "no sites/<form>/... benchmarks in the input (%zu aggregate, %zu other entries)",
				    res->n_aggregates, res->n_other);
	qsort_r(res->points, res->npoints, sizeof(*res->points), results_cmp_point, &res->opts);
	for (size_t i = 0; i < res->npoints; i++)
		if (results_point_gross(res->points[i]))
			return results_fail(err, errlen, "out of memory");
	for (size_t i = 0; i < res->npoints;) {
		size_t j = i + 1;
		struct ic_group *g, *ng;

		while (j < res->npoints && !results_cmp_series(res->points[i], res->points[j]))
			j++;
		ng = realloc(res->groups, (res->ngroups + 1) * sizeof(*ng));
		if (!ng)
			return results_fail(err, errlen, "out of memory");
		res->groups = ng;
		g = &res->groups[res->ngroups++];
		memset(g, 0, sizeof(*g));
		g->build = res->points[i]->build;
		g->op = res->points[i]->op;
		g->layout = res->points[i]->layout;
		g->order = res->points[i]->order;
		g->mode = res->points[i]->mode;
		g->threads = res->points[i]->threads;
		g->filler = res->points[i]->filler;
		g->npoints = j - i;
		g->points = malloc(g->npoints * sizeof(*g->points));
		if (!g->points)
			return results_fail(err, errlen, "out of memory");
		memcpy(g->points, res->points + i, g->npoints * sizeof(*g->points));
		for (size_t k = 0; k < g->npoints; k++)
			if (results_point_stats(g->points[k]))
				return results_fail(err, errlen, "out of memory");
		if (g->filler && results_filler_net(g))
			return results_fail(err, errlen, "out of memory");
		if (results_group(g, &res->opts))
			return results_fail(err, errlen, "out of memory");
		i = j;
	}
	for (size_t g = 0; g < res->ngroups; g++)
		if (ic_attribution_analyse(res, &res->groups[g]) ||
		    !(res->groups[g].states = ic_states_analyse(res, &res->groups[g], &res->opts)))
			return results_fail(err, errlen, "out of memory");
	return 0;
}

json_t *ic_results_merged(const struct ic_results *res)
{
	json_t *merged = json_object(), *all = json_array(), *ctx;

	if (!merged || !all)
		goto fail;
	ctx = res->nfiles && res->files[0]->context ? json_deep_copy(res->files[0]->context)
						     : json_object();
	if (json_object_set_new(merged, "context", ctx))
		goto fail;
	for (size_t i = 0; i < res->nfiles; i++) {
		json_t *entry;
		size_t idx;

		json_array_foreach(json_object_get(res->files[i]->doc, "benchmarks"), idx, entry)
			if (json_array_append(all, entry))
				goto fail;
	}
	if (json_object_set(merged, "benchmarks", all))
		goto fail;
	json_decref(all);
	return merged;
fail:
	json_decref(all);
	json_decref(merged);
	return NULL;
}

const char *ic_results_context(const struct ic_results *res, const char *key, char *buf,
			       size_t cap)
{
	return results_context_text(res->nfiles ? res->files[0]->context : NULL, key, buf, cap);
}

/* Parsed from the text: sites_bench writes sizes as strings ("32768"). */
double ic_results_context_num(const struct ic_results *res, const char *key)
{
	char buf[IC_RESULTS_CONTEXT_MAX];
	const char *s = ic_results_context(res, key, buf, sizeof(buf));
	char *end;
	double v;

	if (!*s)
		return NAN;
	errno = 0;
	v = strtod(s, &end);
	return (errno || *end || end == s) ? NAN : v;
}

int ic_ratio_contains(const struct ic_ratio *r, double x)
{
	return r->lo <= x && x <= r->hi;
}
