/* Google Benchmark JSON into files, builds, layouts and points; the results' accessors. */
#define _GNU_SOURCE   /* strptime, timegm */
#include "load.h"
#include "gb_json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "kit.h"

/* Each context key's name, label word and build column (results.h). */
static const struct {
	const char *name, *word;
	int build;
} ctx_key[IC_CTX_COUNT] = {
#define IC_CTX_ROW(e, name, build, word) [IC_CTX_##e] = { #name, word, build },
	IC_CONTEXT_KEYS(IC_CTX_ROW)
	IC_GB_CONTEXT_KEYS(IC_CTX_ROW)
#undef IC_CTX_ROW
};

const char *ic_ctx_name(enum ic_ctx k)
{
	return ctx_key[k].name;
}

const char *ic_ctx_word(enum ic_ctx k)
{
	return ctx_key[k].word;
}

enum ic_ctx ic_ctx_of_build(enum ic_build_key b)
{
	int k = 0;

	while (k < IC_CTX_COUNT && ctx_key[k].build != (int)b)
		k++;
	return (enum ic_ctx)k;
}

/* Each field's member in an entry (NS and IPS are GB's own). */
static const char *const results_field_key[IC_F_COUNT] = {
#define RESULTS_FIELD_KEY(e, key) [IC_F_##e] = #key,
	IC_FIELDS(RESULTS_FIELD_KEY)
#undef RESULTS_FIELD_KEY
};

/* A whole number from s to the next '/' or end, digits only; 0 only if zero_ok (filler:0). */
static int results_count(const char *s, unsigned long *out, int zero_ok)
{
	char *end;

	errno = 0;
	*out = strtoul(s, &end, 10);
	return (!isdigit((unsigned char)*s) || errno || (*end && *end != '/') || (!*out && !zero_ok))
		       ? -1 : 0;
}

/* A name component of [A-Za-z0-9_.-], shorter than the point's fields. */
#define RESULTS_TOKEN "%63[A-Za-z0-9_.-]"

/* sites/<form>/<op>/<layout>/<order>/<sites>/<mode>[/filler:<F>][/threads:<T>][/...]:
 * GB's own further components (real_time, min_time:...) ignored; no filler is 0, as of old. */
static int results_parse_name(const char *name, struct ic_point *rn)
{
	int n = 0, m = 0;
	const char *p;

	memset(rn, 0, sizeof(*rn));
	if (sscanf(name, "sites/" RESULTS_TOKEN "/" RESULTS_TOKEN "/" RESULTS_TOKEN "/" RESULTS_TOKEN
		   "/%n", rn->form, rn->op, rn->layout, rn->order, &n) != 4 || !n ||
	    results_count(name + n, &rn->sites, 0))
		return -1;
	p = name + n + strcspn(name + n, "/");
	if (sscanf(p, "/" RESULTS_TOKEN "%n", rn->mode, &m) != 1 || (p[m] && p[m] != '/'))
		return -1;
	for (p += m; *p++; p += strcspn(p, "/"))
		if ((!strncmp(p, "filler:", 7) && p[7] && p[7] != '/' &&
		     results_count(p + 7, &rn->filler, 1)) ||
		    (!strncmp(p, "threads:", 8) && p[8] && p[8] != '/' &&
		     results_count(p + 8, &rn->threads, 0)))
			return -1;
	return 0;
}

/* The point rn (in file's build), created when new; res->index finds it (lookups, one a
 * repetition, outnumber inserts). */
static struct ic_point *results_point_get(struct ic_results *res, struct ic_point *rn,
					  const struct ic_file *file)
{
	struct ic_point *p;
	char id[600];
	json_t *at;

	/* Precision bounds the key for the compiler (tokens are shorter); %.0lu: nothing for filler 0. */
	snprintf(rn->key, sizeof(rn->key), "sites/%.63s/%.63s/%.63s/%.63s/%lu/%.63s%s%.0lu/threads:%lu",
		 rn->form, rn->op, rn->layout, rn->order, rn->sites, rn->mode,
		 rn->filler ? "/filler:" : "", rn->filler, rn->threads);
	rn->build = file->build;
	snprintf(id, sizeof(id), "%zu %s", rn->build, rn->key);   /* builds share names */
	if (!res->index)
		res->index = ic_xalloc(json_object());
	if ((at = json_object_get(res->index, id))) {
		p = res->points[json_integer_value(at)];
		/* A process counting nothing (run.sh simulates the ordinary link only) mixes/lends none. */
		if (strcmp(file->counter_source, "none") && !strcmp(p->file->counter_source, "none"))
			p->file = file;
		else if (strcmp(file->counter_source, "none") &&
			 strcmp(p->file->counter_source, file->counter_source))
			p->source_mixed = 1;
		return p;
	}
	res->points = ic_xrealloc(res->points, res->npoints + 1, sizeof(*res->points));
	if (json_object_set_new(res->index, id, json_integer((json_int_t)res->npoints)))
		ic_die(1, "out of memory");
	p = ic_xalloc(malloc(sizeof(*p)));
	*p = *rn;
	p->file = file;
	res->points[res->npoints++] = p;
	return p;
}

/* Grown by doubling (full when n is 0 or a power of two): a long watch pushes thousands. */
static void results_rep_push(struct ic_rep **reps, size_t *n, const struct ic_rep *rep)
{
	if (!(*n & (*n - 1)))
		*reps = ic_xrealloc(*reps, *n ? 2 * *n : 1, sizeof(**reps));
	(*reps)[(*n)++] = *rep;
}

/* The probe named name[0..len-1], added when new (what: its entry's label). */
static struct ic_probe_reps *results_probe(struct ic_results *res, const char *name, size_t len,
					   json_t *entry)
{
	struct ic_probe_reps *np;
	size_t i;

	for (i = 0; i < res->nprobes; i++)
		if (strlen(res->probes[i].name) == len && !strncmp(res->probes[i].name, name, len))
			return &res->probes[i];
	res->probes = np = ic_xrealloc(res->probes, i + 1, sizeof(*np));
	np[i] = (struct ic_probe_reps){ .what = json_string_value(json_object_get(entry, "label")) };
	memcpy(np[i].name, name, len);
	return &np[res->nprobes++];
}

/* benchmarks[idx]: a repetition of a sites/ point or a probe (probe/<name>/..., timing
 * the machine: real_time only); a failed one counts as an error, another entry only counts. */
static int results_entry(struct ic_results *res, struct ic_file *file, size_t idx,
			 json_t *entry, char *err, size_t errlen)
{
	const char *path = file->path, *name, *run_type, *unit;
	json_t *jindex = json_object_get(entry, "repetition_index");
	json_t *jthreads = json_object_get(entry, "threads");
	json_t *jstart = json_object_get(entry, IC_REP_START_COUNTER);
	struct ic_rep rep = { .unit = (unsigned)(res->nfiles - 1), .variant = file->variant,
			      .index = json_is_integer(jindex) ? (int)json_integer_value(jindex) : -1,
			      .start = json_is_number(jstart) ? json_number_value(jstart) : NAN };
	struct ic_probe_reps *pr;
	struct ic_point rn, *p = NULL;
	size_t probe_len = 0;
	double scale;

	if (!json_is_object(entry))
		return ic_fail(err, errlen, "%s: benchmarks[%zu] is not an object", path, idx);
	if (!(name = json_string_value(json_object_get(entry, "run_name"))) &&
	    !(name = json_string_value(json_object_get(entry, "name"))))
		return ic_fail(err, errlen, "%s: benchmarks[%zu] has no name", path, idx);
	run_type = json_string_value(json_object_get(entry, "run_type"));
	if (run_type && !strcmp(run_type, "aggregate")) {
		res->n_aggregates++;   /* our own statistics replace GB's */
		return 0;
	}
	if (!strncmp(name, "probe/", 6)) {
		probe_len = strcspn(name + 6, "/");
		if (!probe_len || probe_len >= sizeof(pr->name))
			return ic_fail(err, errlen, "%s: benchmarks[%zu] '%s' has no probe name", path,
				       idx, name);
	} else if (strncmp(name, "sites/", 6)) {
		res->n_other++;
		return 0;
	} else if (results_parse_name(name, &rn)) {
		return ic_fail(err, errlen,
			       "%s: benchmarks[%zu] '%s' is not sites/<form>/<op>/<layout>/<order>/<sites>/<mode>[/filler:<F>]/threads:<T>",
			       path, idx, name);
	} else {
		/* The member, else the name's, else 1; the two must agree. */
		json_int_t t = json_is_integer(jthreads) ? json_integer_value(jthreads)
			       : rn.threads ? (json_int_t)rn.threads : 1;

		if (t < 1 || (rn.threads && (unsigned long)t != rn.threads))
			return ic_fail(err, errlen, "%s: benchmarks[%zu] '%s' has threads %lld",
				       path, idx, name, (long long)t);
		rn.threads = (unsigned long)t;
		p = results_point_get(res, &rn, file);
	}
	if (json_is_true(json_object_get(entry, "error_occurred"))) {
		res->n_errors++;
		if (p)
			p->nerrors++;
		if (p && !p->error)
			p->error = json_string_value(json_object_get(entry, "error_message"));
		return 0;
	}
	unit = json_string_value(json_object_get(entry, "time_unit"));
	scale = ic_gb_unit_ns(unit ? unit : "ns");
	if (isnan(scale))
		return ic_fail(err, errlen, "%s: benchmarks[%zu] '%s' has time_unit '%s'",
			       path, idx, name, unit);
	for (int f = 0; f < IC_F_COUNT; f++) {
		json_t *x = p || f == IC_F_NS ? json_object_get(entry, results_field_key[f]) : NULL;

		/* NAN when absent or null: a counter that was not read (a probe reads none). */
		if (x && !json_is_null(x) && !json_is_number(x))
			return ic_fail(err, errlen, "%s: benchmarks[%zu] '%s': %s is not a number",
				       path, idx, name, results_field_key[f]);
		rep.v[f] = json_is_number(x) ? json_number_value(x) : NAN;
	}
	if (!isfinite(rep.v[IC_F_NS]) || rep.v[IC_F_NS] <= 0.0)
		return ic_fail(err, errlen, "%s: benchmarks[%zu] '%s' has no positive real_time",
			       path, idx, name);
	rep.v[IC_F_NS] *= scale;
	if (p) {
		results_rep_push(&p->reps, &p->nreps, &rep);
	} else {
		pr = results_probe(res, name + 6, probe_len, entry);
		results_rep_push(&pr->reps, &pr->nreps, &rep);
	}
	return 0;
}

/* A context time "2026-12-04T10:11:12.345Z" (UTC, fraction optional) in s since the
 * epoch: NAN absent; -1 when not such a time. */
static int results_context_time(const struct ic_file *file, enum ic_ctx key, double *out)
{
	const char *v = ic_file_context_string(file, key), *p;
	struct tm tm = { 0 };
	char *end = NULL;
	double frac;

	*out = NAN;
	if (!v)
		return json_object_get(file->context, ic_ctx_name(key)) ? -1 : 0;
	if (!(p = strptime(v, "%Y-%m-%dT%H:%M:%S", &tm)))
		return -1;
	frac = *p == '.' ? strtod(p, &end) : 0.0;
	if (strcmp(end ? end : p, "Z"))
		return -1;
	*out = (double)timegm(&tm) + frac;
	return 0;
}

int ic_results_name_repeat(const char *name)
{
	for (const char *p = name; p; p = strchr(p, '_') ? strchr(p, '_') + 1 : NULL) {
		int r = 0, n = 0;

		if (sscanf(p, "r%d_v%*d_p%*d.json%n", &r, &n) == 1 && n && !p[n])
			return r;
	}
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

		s += strspn(s, " \t");
		n = strlen(s);
		while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n'))
			n--;
		if (s[n] == '\0' || n >= cap)
			return s;   /* nothing to trim, or too long to copy: as it is */
		snprintf(buf, cap, "%.*s", (int)n, s);
		return buf;
	}
	if (json_is_boolean(v))
		return json_is_true(v) ? "true" : "false";
	if (json_is_integer(v))
		snprintf(buf, cap, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, cap, "%g", json_real_value(v));
	else
		return "";
	return buf;
}

/* The index of ctx's build in res->builds, added when new. */
static size_t results_build(struct ic_results *res, json_t *ctx)
{
	char buf[IC_B_COUNT][IC_RESULTS_CONTEXT_MAX];
	const char *v[IC_B_COUNT];
	size_t i;
	int k;

	for (k = 0; k < IC_B_COUNT; k++)
		v[k] = results_context_text(ctx, ic_ctx_name(ic_ctx_of_build(k)), buf[k], sizeof(buf[k]));
	for (i = 0; i < res->nbuilds; i++) {
		for (k = 0; k < IC_B_COUNT && !strcmp(res->builds[i].v[k], v[k]); k++)
			;
		if (k == IC_B_COUNT) {
			res->builds[i].nfiles++;
			return i;
		}
	}
	res->builds = ic_xrealloc(res->builds, i + 1, sizeof(*res->builds));
	res->builds[res->nbuilds++] = (struct ic_build){ .nfiles = 1 };
	for (k = 0; k < IC_B_COUNT; k++)
		res->builds[i].v[k] = ic_xalloc(strdup(v[k]));
	return i;
}

/* A file's parsed document (NULL: failed, err says why), owned from here; mtime its write or NAN. */
static int results_load_doc(struct ic_results *res, const char *path, json_t *doc, double mtime,
			    char *err, size_t errlen)
{
	json_t *benchmarks, *entry;
	json_int_t max_family = -1;
	struct ic_file *file;
	const char *v, *seed;
	char *end;
	size_t idx, k;
	long n;

	if (!doc)
		return -1;
	res->files = ic_xrealloc(res->files, res->nfiles + 1, sizeof(*res->files));
	file = ic_xalloc(calloc(1, sizeof(*file)));
	/* From here on ic_results_free frees the file and its document. */
	res->files[res->nfiles++] = file;
	file->doc = doc;
	benchmarks = json_object_get(doc, "benchmarks");
	if (!json_is_array(benchmarks))
		return ic_fail(err, errlen, "%s: no \"benchmarks\" array (not Google Benchmark JSON)",
			       path);
	if (json_array_size(benchmarks) == 0)
		return ic_fail(err, errlen, "%s: no benchmarks", path);
	file->path = ic_xalloc(strdup(path));
	file->context = json_object_get(doc, "context");
	if (!json_is_object(file->context))
		file->context = NULL;
	if (results_context_time(file, IC_CTX_PROCESS_START, &file->start) ||
	    results_context_time(file, IC_CTX_PROCESS_END, &file->end))
		return ic_fail(err, errlen, "%s: context process_start or process_end is not a UTC "
			       "time like 2026-12-04T10:11:12.345Z", path);
	/* Older runs: the file was written as the process ended. */
	if (!isfinite(file->end))
		file->end = mtime;
	file->repeat = ic_results_name_repeat(strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	file->repeat = file->repeat >= 1 ? file->repeat : 1;
	if (file->repeat > res->nrepeats)
		res->nrepeats = file->repeat;
	if (!(file->counter_source = ic_file_context_string(file, IC_CTX_COUNTER_SOURCE)))
		file->counter_source = "";
	v = ic_file_context_string(file, IC_CTX_LAYOUT_VARIANT);
	n = v ? strtol(v, &end, 10) : 0;
	if (v && (*end || end == v || n < 0 || n > 1000000))
		return ic_fail(err, errlen, "%s: context layout_variant '%.40s' is not a whole number",
			       path, v);
	/* Variant k of one seed is not variant k of another: the cluster is the pair. Every
	 * variant has its own seed; only the ordinary link (--lto, tests) has none. */
	seed = ic_file_context_string(file, IC_CTX_LAYOUT_SEED);
	snprintf(file->layout, sizeof(file->layout), "%s/%ld", seed ? seed : "", n);
	for (k = 0; k + 1 < res->nfiles && strcmp(res->files[k]->layout, file->layout); k++)
		;
	file->variant = k + 1 < res->nfiles ? res->files[k]->variant : (int)res->nlayouts++;
	file->build = results_build(res, file->context);
	/* Past the earlier files' families: distinct in the merged benchmark.json. */
	json_array_foreach(benchmarks, idx, entry) {
		json_t *fam = json_object_get(entry, "family_index");
		json_int_t fi = json_integer_value(fam);

		if (results_entry(res, file, idx, entry, err, errlen))
			return -1;
		if (!json_is_integer(fam))
			continue;
		max_family = fi > max_family ? fi : max_family;
		json_object_set_new(entry, "family_index", json_integer(fi + res->next_family));
	}
	res->next_family += max_family + 1;
	return 0;
}

int ic_results_load(struct ic_results *res, const char *path, char *err, size_t errlen)
{
	json_t *doc = ic_gb_json_load(path, err, errlen);
	struct stat st;

	return results_load_doc(res, path, doc, stat(path, &st) ? NAN
				: (double)st.st_mtim.tv_sec + 1e-9 * (double)st.st_mtim.tv_nsec,
				err, errlen);
}

int ic_results_load_text(struct ic_results *res, const char *name, const char *text, size_t len,
			 double mtime, char *err, size_t errlen)
{
	return results_load_doc(res, name, ic_gb_json_loadb(text, len, name, err, errlen), mtime,
				err, errlen);
}

const char *ic_file_context_string(const struct ic_file *file, enum ic_ctx key)
{
	return json_string_value(json_object_get(file->context, ic_ctx_name(key)));
}

const char *ic_results_context_named(const struct ic_results *res, const char *key, char *buf,
				     size_t cap)
{
	return results_context_text(res->nfiles ? res->files[0]->context : NULL, key, buf, cap);
}

const char *ic_results_context(const struct ic_results *res, enum ic_ctx key, char *buf, size_t cap)
{
	return ic_results_context_named(res, ic_ctx_name(key), buf, cap);
}

/* Parsed from the text: sites_bench writes sizes as strings ("32768"). */
double ic_results_context_num(const struct ic_results *res, enum ic_ctx key)
{
	char buf[IC_RESULTS_CONTEXT_MAX];
	const char *s = ic_results_context(res, key, buf, sizeof(buf));
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	return (errno || *end || end == s) ? NAN : v;
}

/* ---- the results' accessors, and freeing them --------------------------- */

const char *ic_point_source(const struct ic_point *p)
{
	return p->source_mixed ? "mixed" : p->file->counter_source;
}

struct ic_design ic_results_design(const struct ic_results *res)
{
	struct ic_design d = { 0 };

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		d.reps_min = !i || p->nreps < d.reps_min ? p->nreps : d.reps_min;
		d.reps_max = p->nreps > d.reps_max ? p->nreps : d.reps_max;
		d.units_min = !i || p->nunits < d.units_min ? p->nunits : d.units_min;
		d.units_max = p->nunits > d.units_max ? p->nunits : d.units_max;
		d.variants_max = p->nvariants > d.variants_max ? p->nvariants : d.variants_max;
	}
	return d;
}

const struct ic_unit *ic_point_unit(const struct ic_point *p, unsigned unit)
{
	for (size_t i = 0; i < p->nunits; i++)
		if (p->units[i].unit == unit)
			return &p->units[i];
	return NULL;
}

double ic_file_time(const struct ic_file *file)
{
	return isfinite(file->start) ? file->start : file->end;
}

void ic_results_init(struct ic_results *res)
{
	memset(res, 0, sizeof(*res));
}

void ic_results_free(struct ic_results *res)
{
	for (size_t i = 0; i < res->npoints; i++) {
		free(res->points[i]->reps);
		free(res->points[i]->units);
		free(res->points[i]);
	}
	for (size_t i = 0; i < res->nfiles; i++) {
		free(res->files[i]->path);
		json_decref(res->files[i]->doc);
		free(res->files[i]);
	}
	for (size_t i = 0; i < res->nbuilds; i++)
		for (int k = 0; k < IC_B_COUNT; k++)
			free(res->builds[i].v[k]);
	for (size_t i = 0; i < res->nprobes; i++)
		free(res->probes[i].reps);
	free(res->probes);
	json_decref(res->index);
	free(res->points);
	free(res->files);
	free(res->builds);
	memset(res, 0, sizeof(*res));
}
