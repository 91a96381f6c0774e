/* The sweep's N, series and points, the processes' order and the variants' seeds (points.h). */
#define _GNU_SOURCE   /* asprintf */
#include "points.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "kit.h"
#include "point_name.h"
#include "splitmix64.h"
#include "watch_forms.def"

/* The controls (every form but the compared pair, inline, extern and hint) are what the attribution reads across N:
 * on the default N they run at the powers of 4 up to this, which its ranges and chart need. A third less measuring,
 * and the costliest sites to compile stop here. */
#define PLAN_CONTROL_TOP 4096ul

/* Why a note= line leaves something out. */
#define PLAN_NOT_HERE "run at 1 thread, private: not in this sweep"

/* About what a locked queue operation inlines to: the N cap's site size. */
#define PLAN_SITE_BYTES 128ul

/* item is one of a comma list's entries. */
static int plan_in(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, item, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

/* The sweep runs at 1 thread on a private queue, where the solo points run. */
static int plan_has_solo(const char *threads, const char *modes)
{
	return plan_in(threads, "1") && plan_in(modes, "private");
}

/* A setting, or its default when empty. */
static const char *plan_get(const struct ic_settings *s, const char *key, const char *def)
{
	const char *v = ic_settings_get(s, key);

	return *v ? v : def;
}

static int plan_cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return (x > y) - (x < y);
}

/* A whole number 1..IC_POINT_SITES_MAX of s's first len bytes (digits only; a delimiter ends them), else 0. */
static unsigned long plan_site(const char *s, size_t len)
{
	unsigned long v = len && len <= 7 && strspn(s, "0123456789") >= len ? strtoul(s, NULL, 10) : 0;

	return v <= IC_POINT_SITES_MAX ? v : 0;
}

int ic_plan_sites(const char *spec, unsigned long **out, size_t *n, char *err, size_t errlen)
{
	const char *dots = strstr(spec, "..");
	/* a list's entries take two bytes each but the last; a range's powers of two fit 64 */
	unsigned long *v = ic_xrealloc(NULL, strlen(spec) / 2 + 64, sizeof(*v)), a, b;
	size_t k = 0;

	*n = 0;
	if (dots) {
		a = plan_site(spec, (size_t)(dots - spec));
		b = plan_site(dots + 2, strlen(dots + 2));
		for (unsigned long x = a; a && x <= b; x *= 2)
			v[k++] = x;
		if (!k) {   /* also a > b */
			free(v);
			return ic_fail(err, errlen, "sites: '%s' is not a range A..B within 1..%u, low to high",
				       spec, IC_POINT_SITES_MAX);
		}
	}
	for (const char *p = spec; !dots; p++) {
		size_t len = strcspn(p, ",");

		if (!(v[k++] = plan_site(p, len))) {
			free(v);
			return ic_fail(err, errlen, "sites: '%.*s' is not a whole number 1..%u", (int)len, p,
				       IC_POINT_SITES_MAX);
		}
		if (!*(p += len))
			break;
	}
	qsort(v, k, sizeof(*v), plan_cmp_ul);
	for (size_t i = 0; i < k; i++)
		if (!*n || v[*n - 1] != v[i])
			v[(*n)++] = v[i];
	*out = v;
	return 0;
}

/* A comma list's *n entries (empty ones skipped, as shell word splitting does) in one allocation, the words after the
 * pointers (at most one per two bytes, and one more). */
static char **plan_split(const char *list, size_t *n)
{
	size_t len = strlen(list), cap = len / 2 + 2;
	char **w = ic_xrealloc(NULL, 1, cap * sizeof(*w) + len + 1), *save = NULL;

	*n = 0;
	for (char *t = strtok_r(memcpy(w + cap, list, len + 1), ",", &save); t; t = strtok_r(NULL, ",", &save))
		w[(*n)++] = t;
	return w;
}

/* A series of the sweep: layout:order:filler:max (max 0: no cap). */
struct plan_case {
	char layout[32], order[32];
	unsigned long filler, max;
};

/* Each case of "layout:order:filler:max,...", once (a name too long for the struct is not one: none is cut). */
static int plan_cases_parse(const char *cases, struct plan_case **out, size_t *n, char *err,
			    size_t errlen)
{
	size_t nw;
	char **w = plan_split(cases, &nw);
	struct plan_case *c = ic_xrealloc(NULL, nw, sizeof(*c));
	int rc = nw ? 0 : ic_fail(err, errlen, "cases: none (run plan resolve first)"), end = 0, dup;

	*n = 0;
	for (size_t i = 0; i < nw && !rc; i++) {
		memset(&c[*n], 0, sizeof(*c));   /* zeroed, so that a repeat compares equal by value */
		if (sscanf(w[i], "%31[a-z]:%31[a-z]:%lu:%lu%n", c[*n].layout, c[*n].order, &c[*n].filler,
			   &c[*n].max, &end) != 4 || w[i][end])
			rc = ic_fail(err, errlen, "cases: '%s' is not layout:order:filler:max", w[i]);
		for (size_t e = dup = 0; e < *n && !rc; e++)
			dup |= !memcmp(&c[e], &c[*n], sizeof(*c));   /* 0 and 00 are one filler */
		*n += !rc && !dup;
	}
	free(w);
	if (rc)
		free(c);
	*out = rc ? NULL : c;
	return rc;
}

/* The forms built: the sweep's and the mark (its baseline; not in calibration, whose planted copies are extern's),
 * less the solo forms where the sweep is not at 1 thread, private: note names those in a note= line (NULL: nowhere). */
static char **plan_build_forms(const struct ic_settings *s, const char *threads, size_t *n, FILE *note)
{
	const char *modes = plan_get(s, "modes", "private");
	int solo = plan_has_solo(threads, modes);
	size_t nall, dropped = 0;
	char **all = plan_split(ic_settings_get(s, "forms"), &nall);

	if (strcmp(ic_settings_get(s, "calibrate"), "1"))
		all[nall++] = "mark";   /* (plan_split leaves room for one more) */
	*n = 0;
	for (size_t i = 0; i < nall; i++) {
		int f = ic_name_find(ic_form_names, IC_FORM_COUNT, all[i]);

		if (solo || f < 0 || !ic_form_solo[f])
			all[(*n)++] = all[i];   /* kept in place */
		else if (note)
			fprintf(note, "%s %s", dropped++ ? "" : "note=forms", all[i]);
	}
	if (dropped)
		fprintf(note, " (mark: the sites' own mark, the baseline) " PLAN_NOT_HERE " (--threads %s --modes %s)\n",
			threads, modes);
	return all;
}

/* The unresolved settings' series (points.h) as cases= holds them (each once), into *out (malloc'd); 1, 2 with err. */
static int plan_resolve_cases(const struct ic_settings *s, const struct ic_plan_machine *m, char **out,
			      char *err, size_t errlen)
{
	const char *layouts = ic_settings_get(s, "layouts"), *orders = ic_settings_get(s, "orders");
	const char *fillers = ic_settings_get(s, "fillers");
	int sites_given = !strcmp(ic_settings_get(s, "sites_given"), "1");
	int defaults = !*layouts && !*orders && !*fillers, rc = 0;
	size_t nl, no, nf, len;
	char **l, **o, **f;
	FILE *text = ic_xalloc(open_memstream(out, &len));

	/* With no layouts, orders or fillers given, the two default series (the i-th layout with the i-th order and
	 * filler): the sequential chain, and the realistic case -- one function per site, walked in random order,
	 * with filler that puts the code past the L1i at mid N, as call sites spread through a big program are.
	 * Otherwise every combination. */
	l = plan_split(defaults ? "chain,scatter" : *layouts ? layouts : "chain", &nl);
	o = plan_split(defaults ? "seq,random" : *orders ? orders : "seq", &no);
	f = plan_split(defaults ? "0,auto" : *fillers ? fillers : "0", &nf);
	for (size_t i = 0; i < nl && !rc; i++)
		for (size_t j = 0; j < no && !rc; j++)
			for (size_t q = 0; q < nf && !rc; q++) {
				unsigned long filler = 0, max = 0;
				char *end;

				if (defaults && (j != i || q != i))
					continue;
				if (ic_name_find(ic_layout_names, IC_LAYOUT_COUNT, l[i]) < 0 ||
				    ic_name_find(ic_order_names, IC_ORDER_COUNT, o[j]) < 0) {
					ic_fail(err, errlen, "cases: layout '%s' or order '%s' is not one of gen's", l[i], o[j]);
					rc = 2;
				} else if (!strcmp(f[q], "auto") && m->l1i <= 0) {
					ic_fail(err, errlen, "--filler auto: hwloc reports no L1i size on this machine; give --filler BYTES");
					rc = 1;
				} else if (!strcmp(f[q], "auto")) {
					/* L1i / 128, a multiple of 8: at N = 128 (mid default N on a log scale) the
					 * filler alone fills the L1i. */
					filler = (unsigned long)m->l1i / 128 / 8 * 8;
				} else if ((filler = strtoul(f[q], &end, 10)) > IC_POINT_FILLER_MAX || *end || f[q][0] < '0' ||
					   f[q][0] > '9') {
					ic_fail(err, errlen, "fillers: '%s' is not a number of bytes 0..%u or auto", f[q],
						IC_POINT_FILLER_MAX);
					rc = 2;
				}
				/* Where N is not the user's, a series stops at the first power of two where N sites
				 * of filler + 128 B pass the L2: beyond, every site comes from L3 or memory, and the
				 * points cost build time without telling more. */
				if (!rc && !sites_given && m->l2 > 0)
					for (max = 1; max * (filler + PLAN_SITE_BYTES) < (unsigned long)m->l2; max *= 2)
						;
				if (!rc)
					fprintf(text, "%s:%s:%lu:%lu,", l[i], o[j], filler, max);
			}
	fclose(text);
	free(l);
	free(o);
	free(f);
	return rc;
}

int ic_plan_resolve(const struct ic_settings *s, const struct ic_plan_machine *m, FILE *out,
		    char *err, size_t errlen)
{
	const char *sites = plan_get(s, "sites", IC_PLAN_SITES_DEFAULT);
	const char *modes = plan_get(s, "modes", "private");
	const char *threads = ic_settings_get(s, "threads");
	char deft[32], seed[16], **forms, *cases;
	unsigned long *n;
	size_t nn, nc, nforms;
	struct plan_case *c;
	int rc;

	snprintf(seed, sizeof(seed), "%.15s", ic_settings_get(s, "layout_seed"));
	if (!*seed) {
		uint32_t r;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
			ic_fail(err, errlen, "no random layout seed: %s", strerror(errno));
			return 1;
		}
		snprintf(seed, sizeof(seed), "%" PRIu32, r);
	}
	if (ic_plan_sites(sites, &n, &nn, err, errlen))
		return 2;
	if (!*threads) {
		snprintf(deft, sizeof(deft), m->cores > 1 ? "1,%d" : "1", m->cores);
		threads = deft;
	}
	cases = *ic_settings_get(s, "cases") ? ic_xalloc(strdup(ic_settings_get(s, "cases"))) : NULL;
	if (!(rc = cases ? 0 : plan_resolve_cases(s, m, &cases, err, errlen)))
		rc = plan_cases_parse(cases, &c, &nc, err, errlen) ? 2 : 0;
	free(cases);
	if (rc) {
		free(n);
		return rc;
	}
	/* Nothing is printed before this point: a refusal prints nothing. */
	forms = plan_build_forms(s, threads, &nforms, out);
	/* Filler series run solo (as their baseline, the mark with that filler): not without 1 thread, private. */
	if (IC_FILLER_SOLO && !plan_has_solo(threads, modes)) {
		size_t k = 0;

		for (size_t i = 0; i < nc; i++)
			if (c[i].filler == 0)
				c[k++] = c[i];
		if (k < nc)
			fprintf(out, "note=the realistic series (with filler) and its baseline " PLAN_NOT_HERE
				" (--threads %s --modes %s)\n", threads, modes);
		nc = k;
	}
	fprintf(out, "sites=%s\nreps=%s\nmin_time=%s\nthreads=%s\nlayouts_random=%s\nprocesses=%s\n", sites,
		plan_get(s, "reps", "3"), plan_get(s, "min_time", "0.015"), threads,
		plan_get(s, "layouts_random", "8"), plan_get(s, "processes", "2"));
	fprintf(out, "layout_seed=%s\nlayouts=%s\norders=%s\nfillers=%s\ncases=", seed,
		plan_get(s, "layouts", "chain"), plan_get(s, "orders", "seq"), plan_get(s, "fillers", "0"));
	for (size_t i = 0; i < nc; i++)
		fprintf(out, "%s%s:%s:%lu:%lu", i ? "," : "", c[i].layout, c[i].order, c[i].filler, c[i].max);
	/* Each series with its N and where it runs, for the terminal. */
	fprintf(out, "\nseries=series: ");
	for (size_t i = 0; i < nc; i++) {
		unsigned long lo = 0, hi = 0;   /* the N it runs (points: n <= its cap; n ascending) */

		for (size_t k = 0; k < nn; k++)
			if (!c[i].max || n[k] <= c[i].max)
				lo = lo ? lo : n[k], hi = n[k];
		fprintf(out, "%s%s/%s", i ? "; " : "", c[i].layout, c[i].order);
		if (c[i].filler)
			fprintf(out, " with %lu B filler per site, N = %lu to %lu, 1 thread, private", c[i].filler, lo, hi);
		else
			fprintf(out, ", N = %lu to %lu, threads %s, %s", lo, hi, threads, modes);
	}
	fputs(". Forms: ", out);
	for (size_t i = 0; i < nforms; i++)
		fprintf(out, "%s%s", i ? "," : "", forms[i]);
	fputc('\n', out);
	free(forms);
	free(c);
	free(n);
	return 0;
}

/* n is a power of 4 (one bit set, at an even place) up to the controls' top. */
static int plan_control_n(unsigned long n)
{
	return (n & (n - 1)) == 0 && (n & 0x5555555555555555ul) && n <= PLAN_CONTROL_TOP;
}

int ic_plan_points(const struct ic_settings *s, FILE *out, char *err, size_t errlen)
{
	const char *compare = plan_get(s, "compare", "inline"), *baseline = plan_get(s, "baseline", "extern");
	int thin = strcmp(ic_settings_get(s, "sites_given"), "1") != 0;
	char **forms, **ops;
	unsigned long *n;
	size_t nn, nc, nforms, nops;
	struct plan_case *c;

	if (!*ic_settings_get(s, "sites") || !*ic_settings_get(s, "forms") || !*ic_settings_get(s, "ops")) {
		ic_fail(err, errlen, "the settings need sites, forms and ops");
		return 2;
	}
	if (ic_plan_sites(ic_settings_get(s, "sites"), &n, &nn, err, errlen))
		return 2;
	if (plan_cases_parse(ic_settings_get(s, "cases"), &c, &nc, err, errlen)) {
		free(n);
		return 2;
	}
	forms = plan_build_forms(s, plan_get(s, "threads", "1"), &nforms, NULL);
	ops = plan_split(ic_settings_get(s, "ops"), &nops);
	for (size_t o = 0; o < nops; o++)
		for (size_t k = 0; k < nc; k++) {
			const char *seed = !strcmp(c[k].order, "random") ? plan_get(s, "seed", "1") : "0";

			for (size_t f = 0; f < nforms; f++) {
				const char *fm = forms[f];
				int control = thin && strcmp(fm, "inline") && strcmp(fm, "extern") &&
					      strcmp(fm, "hint") && strcmp(fm, compare) && strcmp(fm, baseline);

				for (size_t i = 0; i < nn; i++) {
					if ((c[k].max && n[i] > c[k].max) || (control && !plan_control_n(n[i])))
						continue;
					fprintf(out, "%s:%s:%s:%s:%s:%lu", fm, ops[o], c[k].layout, c[k].order, seed, n[i]);
					if (c[k].filler)
						fprintf(out, ":%lu", c[k].filler);
					fputc('\n', out);
				}
			}
		}
	free(forms);
	free(ops);
	free(c);
	free(n);
	return 0;
}

size_t ic_plan_sentinel(FILE *out)
{
	static const char *const forms[] = {
#define X(name) #name,
		IC_WATCH_FORM_LIST(X)
#undef X
	};
	static const unsigned sites[] = { 16, 1024 };

	for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]); f++)
		for (size_t i = 0; i < sizeof(sites) / sizeof(sites[0]); i++)
			fprintf(out, "%s:tail_dequeue:chain:seq:0:%u\n", forms[f], sites[i]);
	return sizeof(forms) / sizeof(forms[0]) * sizeof(sites) / sizeof(sites[0]);
}

struct ic_plan_proc *ic_plan_order_list(uint32_t seed, unsigned repeats, unsigned variants, unsigned processes,
				       unsigned builds, int spread, size_t *n)
{
	size_t total = (size_t)repeats * variants * processes * builds, k = 0;
	struct ic_plan_proc *v = ic_xrealloc(NULL, total, sizeof(*v)), *o = ic_xrealloc(NULL, total, sizeof(*o));
	uint64_t state = seed;

	for (unsigned b = 0; b < builds; b++)
		for (unsigned r = 1; r <= repeats; r++)
			for (unsigned va = 0; va < variants; va++)
				for (unsigned p = 0; p < processes; p++)
					v[k++] = (struct ic_plan_proc){ r, va, p, b };
	for (size_t i = total; i > 1; i--) {
		size_t j = (size_t)(((unsigned __int128)ic_splitmix64_next(&state) * i) >> 64);
		struct ic_plan_proc t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
	/* One pass over the shuffled order; with spread one per repeat, taking its processes in shuffled order. */
	k = 0;
	for (unsigned pass = 1; pass <= (spread ? repeats : 1); pass++)
		for (size_t i = 0; i < total; i++)
			if (!spread || v[i].repeat == pass)
				o[k++] = v[i];
	free(v);
	*n = total;
	return o;
}

char *ic_plan_key(const struct ic_plan_proc *p, unsigned builds, const char *prefix, char **group)
{
	char bp[32] = "", *key = NULL;

	if (builds > 1)
		snprintf(bp, sizeof(bp), "b%u_", p->build);
	if (asprintf(&key, "%s%sr%u_v%u_p%u", prefix, bp, p->repeat, p->variant, p->process) < 0 ||
	    asprintf(group, "%s%sr%u", prefix, bp, p->repeat) < 0)
		ic_xalloc(NULL);
	return key;
}

uint32_t ic_plan_variant_seed(uint32_t seed, unsigned r, unsigned v)
{
	return (uint32_t)ic_mix64((uint64_t)seed ^ ((uint64_t)r << 40) ^ ((uint64_t)v << 20) ^
				  UINT64_C(0x6c61796f7574));   /* "layout" */
}
