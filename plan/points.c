/* The sweep's N, series and points (points.h). */
#include "points.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "kit.h"
#include "point_name.h"
#include "watch_forms.def"

/* The controls (every form but the compared pair, inline, extern and hint)
 * are what the attribution reads across N: on the default N they run at
 * the powers of 4 up to this (1, 4, ... 4096), which the attribution's
 * ranges and its chart need. A third less measuring, and the clones' sites,
 * the costliest to compile, stop here. N the user lists get every form. */
#define PLAN_CONTROL_TOP 4096ul

/* About what a locked queue operation inlines to: the N cap's site size. */
#define PLAN_SITE_BYTES 128ul

static const struct {
	const char *name;
	int solo;
} plan_forms[] = {
#define X(e, name, solo, what) { #name, solo },
	IC_FORMS(X)
#undef X
};

/* item is one of a comma list's entries. */
static int plan_in(const char *list, const char *item)
{
	size_t n = strlen(item);

	for (const char *p = list; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, item, n) && (p[n] == ',' || p[n] == '\0'))
			return 1;
	return 0;
}

static int plan_solo_form(const char *f)
{
	for (size_t i = 0; i < sizeof(plan_forms) / sizeof(plan_forms[0]); i++)
		if (!strcmp(plan_forms[i].name, f))
			return plan_forms[i].solo;
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

/* A whole number 1..IC_POINT_SITES_MAX of s (its whole), else 0. */
static unsigned long plan_site(const char *s, size_t len)
{
	unsigned long v = 0;

	if (len == 0 || len > 7)
		return 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		v = v * 10 + (unsigned long)(s[i] - '0');
	}
	return v <= IC_POINT_SITES_MAX ? v : 0;
}

int ic_plan_sites(const char *spec, unsigned long **out, size_t *n, char *err, size_t errlen)
{
	const char *dots = strstr(spec, "..");
	unsigned long *v = NULL, a, b;
	size_t k = 0;

	*out = NULL;
	*n = 0;
	if (dots) {
		a = plan_site(spec, (size_t)(dots - spec));
		b = plan_site(dots + 2, strlen(dots + 2));
		if (!a || !b || a > b)
			return ic_fail(err, errlen, "sites: '%s' is not a range A..B within 1..%u, low to high",
				       spec, IC_POINT_SITES_MAX);
		v = ic_xalloc(malloc(64 * sizeof(*v)));
		for (unsigned long x = a; x <= b; x *= 2)
			v[k++] = x;
	} else {
		size_t cap = 1;

		for (const char *p = spec; *p; p++)
			cap += *p == ',';
		v = ic_xalloc(malloc(cap * sizeof(*v)));
		for (const char *p = spec;; p++) {
			size_t len = strcspn(p, ",");

			if (!(v[k++] = plan_site(p, len))) {
				free(v);
				return ic_fail(err, errlen, "sites: '%.*s' is not a whole number 1..%u", (int)len,
					       p, IC_POINT_SITES_MAX);
			}
			p += len;
			if (!*p)
				break;
		}
	}
	qsort(v, k, sizeof(*v), plan_cmp_ul);
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n || v[*n - 1] != v[i])
			v[(*n)++] = v[i];
	*out = v;
	return 0;
}

/* A series of the sweep: layout:order:filler:max (max 0: no cap). */
struct plan_case {
	char layout[32], order[32];
	unsigned long filler, max;
};

static int plan_cases_parse(const char *cases, struct plan_case **out, size_t *n, char *err,
			    size_t errlen)
{
	struct plan_case *c = NULL;
	size_t k = 0;

	for (const char *p = cases; *p;) {
		size_t len = strcspn(p, ",");
		char one[128];
		int end = 0;

		c = ic_xrealloc(c, k + 1, sizeof(*c));
		snprintf(one, sizeof(one), "%.*s", (int)(len < 127 ? len : 127), p);
		if (len >= 127 || sscanf(one, "%31[a-z]:%31[a-z]:%lu:%lu%n", c[k].layout, c[k].order,
					 &c[k].filler, &c[k].max, &end) != 4 || one[end]) {
			free(c);
			return ic_fail(err, errlen, "cases: '%.*s' is not layout:order:filler:max", (int)len,
				       p);
		}
		k++;
		p += len + (p[len] == ',');
	}
	if (!k)
		return ic_fail(err, errlen, "cases: none (run plan resolve first)");
	*out = c;
	*n = k;
	return 0;
}

/* The forms built: the sweep's, and the mark (its baseline; not in
 * calibration, whose planted copies are extern's), without the solo forms
 * where the sweep does not run at 1 thread, private. A comma list in buf;
 * the solo forms left out in dropped (when not NULL). */
static void plan_build_forms(const struct ic_settings *s, const char *threads, char *buf, size_t cap,
			     char *dropped, size_t dcap)
{
	int solo = plan_has_solo(threads, plan_get(s, "modes", "private"));
	char all[512];
	size_t len = 0, dlen = 0;

	snprintf(all, sizeof(all), "%s%s", ic_settings_get(s, "forms"),
		 !strcmp(ic_settings_get(s, "calibrate"), "1") ? "" : ",mark");
	buf[0] = '\0';
	if (dropped)
		dropped[0] = '\0';
	for (char *save = NULL, *f = strtok_r(all, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		if (!solo && plan_solo_form(f)) {
			if (dropped && dlen < dcap)
				dlen += (size_t)snprintf(dropped + dlen, dcap - dlen, "%s%s", dlen ? " " : "", f);
		} else if (len < cap) {
			len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? "," : "", f);
		}
	}
}

int ic_plan_resolve(const struct ic_settings *s, const struct ic_plan_machine *m, FILE *out,
		    char *err, size_t errlen)
{
	const char *layouts = ic_settings_get(s, "layouts"), *orders = ic_settings_get(s, "orders");
	const char *fillers = ic_settings_get(s, "fillers"), *cases = ic_settings_get(s, "cases");
	const char *sites = plan_get(s, "sites", IC_PLAN_SITES_DEFAULT);
	int sites_given = !strcmp(ic_settings_get(s, "sites_given"), "1");
	char threads[32], seed[16], list[4096] = "", forms[512], dropped[256], why[256];
	unsigned long *n;
	size_t nn, len = 0;
	struct plan_case *c;
	size_t nc;

	if (ic_plan_sites(sites, &n, &nn, err, errlen))
		return 2;
	if (m->cores > 1)
		snprintf(threads, sizeof(threads), "1,%d", m->cores);
	else
		snprintf(threads, sizeof(threads), "1");
	snprintf(seed, sizeof(seed), "%s", ic_settings_get(s, "layout_seed"));
	if (!*seed) {
		uint32_t r;

		if (getrandom(&r, sizeof(r), 0) != (ssize_t)sizeof(r)) {
			free(n);
			ic_fail(err, errlen, "no random layout seed: %s", strerror(errno));
			return 1;
		}
		snprintf(seed, sizeof(seed), "%" PRIu32, r);
	}
	if (*cases) {
		snprintf(list, sizeof(list), "%s", cases);
	} else {
		/* With none of layouts, orders and fillers given, the two default
		 * series: the sequential chain, and the realistic case -- one
		 * function per site, walked in random order, each with filler
		 * that puts the code past the L1i at mid N, as call sites spread
		 * through a big program are. Otherwise every combination. */
		char combos[2048] = "";
		size_t clen = 0;

		if (!*layouts && !*orders && !*fillers) {
			snprintf(combos, sizeof(combos), "chain:seq:0,scatter:random:auto");
		} else {
			char lb[256], ob[256], fb[256];

			snprintf(lb, sizeof(lb), "%s", *layouts ? layouts : "chain");
			for (char *s1 = NULL, *l = strtok_r(lb, ",", &s1); l; l = strtok_r(NULL, ",", &s1)) {
				snprintf(ob, sizeof(ob), "%s", *orders ? orders : "seq");
				for (char *s2 = NULL, *o = strtok_r(ob, ",", &s2); o; o = strtok_r(NULL, ",", &s2)) {
					snprintf(fb, sizeof(fb), "%s", *fillers ? fillers : "0");
					for (char *s3 = NULL, *f = strtok_r(fb, ",", &s3); f;
					     f = strtok_r(NULL, ",", &s3))
						if (clen < sizeof(combos))
							clen += (size_t)snprintf(combos + clen, sizeof(combos) - clen,
										 "%s%s:%s:%s", clen ? "," : "", l, o, f);
				}
			}
		}
		for (char *s1 = NULL, *one = strtok_r(combos, ",", &s1); one; one = strtok_r(NULL, ",", &s1)) {
			char *f = strrchr(one, ':'), entry[128];
			unsigned long filler, max = 0;

			*f++ = '\0';
			if (!strcmp(f, "auto")) {
				/* This machine's L1i / 128, a multiple of 8: at N = 128,
				 * the middle of the default N on a log scale, the filler
				 * alone fills the L1i. */
				if (m->l1i <= 0) {
					free(n);
					ic_fail(err, errlen, "--filler auto: hwloc reports no L1i size on this machine; give --filler BYTES");
					return 1;
				}
				filler = (unsigned long)m->l1i / 128 / 8 * 8;
			} else {
				filler = strtoul(f, NULL, 10);
			}
			/* Where N is not the user's, a series stops at the first
			 * power of two at which N sites of its filler and 128 B pass
			 * the L2: beyond it every site comes from L3 or memory, and
			 * the points cost build time without telling more. */
			if (!sites_given && m->l2 > 0)
				for (max = 1; max * (filler + PLAN_SITE_BYTES) < (unsigned long)m->l2; max *= 2)
					;
			snprintf(entry, sizeof(entry), "%s:%lu:%lu", one, filler, max);
			if (!plan_in(list, entry) && len < sizeof(list))   /* each series once */
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", len ? "," : "", entry);
		}
	}
	if (*ic_settings_get(s, "threads"))
		snprintf(threads, sizeof(threads), "%s", ic_settings_get(s, "threads"));
	plan_build_forms(s, threads, forms, sizeof(forms), dropped, sizeof(dropped));
	snprintf(why, sizeof(why), "run at 1 thread, private: not in this sweep (--threads %s --modes %s)",
		 threads, plan_get(s, "modes", "private"));
	if (*dropped)
		fprintf(out, "note=forms %s (mark: the sites' own mark, the baseline) %s\n", dropped, why);
	if (plan_cases_parse(list, &c, &nc, err, errlen)) {
		free(n);
		return 2;
	}
	if (!plan_has_solo(threads, plan_get(s, "modes", "private")) && IC_FILLER_SOLO) {
		/* Filler series run solo (their baseline, the mark with the same
		 * filler, does): without 1 thread, private, they cannot run. */
		size_t k = 0;

		for (size_t i = 0; i < nc; i++)
			if (c[i].filler == 0)
				c[k++] = c[i];
		if (k < nc)
			fprintf(out, "note=the realistic series (with filler) and its baseline %s\n", why);
		nc = k;
	}
	fprintf(out, "sites=%s\nreps=%s\nmin_time=%s\nthreads=%s\nlayouts_random=%s\nprocesses=%s\n", sites,
		plan_get(s, "reps", "3"), plan_get(s, "min_time", "0.015"), threads,
		plan_get(s, "layouts_random", "8"), plan_get(s, "processes", "2"));
	fprintf(out, "layout_seed=%s\nlayouts=%s\norders=%s\nfillers=%s\ncases=", seed,
		*layouts ? layouts : "chain", *orders ? orders : "seq", *fillers ? fillers : "0");
	for (size_t i = 0; i < nc; i++)
		fprintf(out, "%s%s:%s:%lu:%lu", i ? "," : "", c[i].layout, c[i].order, c[i].filler, c[i].max);
	fprintf(out, "\nseries=series: ");
	for (size_t i = 0; i < nc; i++) {
		fprintf(out, "%s%s/%s", i ? ", " : "", c[i].layout, c[i].order);
		if (c[i].filler)
			fprintf(out, " with %lu B filler per site (1 thread, private)", c[i].filler);
		if (c[i].max && c[i].max < n[nn - 1])
			fprintf(out, " N up to %lu", c[i].max);
	}
	fprintf(out, "; forms: %s\n", forms);
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
	char forms[512], ops[512];
	unsigned long *n;
	size_t nn, nc;
	struct plan_case *c;

	if (!*ic_settings_get(s, "sites") || !*ic_settings_get(s, "forms") || !*ic_settings_get(s, "ops"))
	{
		ic_fail(err, errlen, "the settings need sites, forms and ops");
		return 2;
	}
	if (ic_plan_sites(ic_settings_get(s, "sites"), &n, &nn, err, errlen))
		return 2;
	if (plan_cases_parse(ic_settings_get(s, "cases"), &c, &nc, err, errlen)) {
		free(n);
		return 2;
	}
	plan_build_forms(s, plan_get(s, "threads", "1"), forms, sizeof(forms), NULL, 0);
	snprintf(ops, sizeof(ops), "%s", ic_settings_get(s, "ops"));
	for (char *s1 = NULL, *o = strtok_r(ops, ",", &s1); o; o = strtok_r(NULL, ",", &s1))
		for (size_t k = 0; k < nc; k++) {
			char fb[512];
			const char *seed = !strcmp(c[k].order, "random") ? plan_get(s, "seed", "1") : "0";

			snprintf(fb, sizeof(fb), "%s", forms);
			for (char *s2 = NULL, *f = strtok_r(fb, ",", &s2); f; f = strtok_r(NULL, ",", &s2)) {
				int control = thin && strcmp(f, "inline") && strcmp(f, "extern") &&
					      strcmp(f, "hint") && strcmp(f, compare) && strcmp(f, baseline);

				for (size_t i = 0; i < nn; i++) {
					if ((c[k].max && n[i] > c[k].max) || (control && !plan_control_n(n[i])))
						continue;
					fprintf(out, "%s:%s:%s:%s:%s:%lu", f, o, c[k].layout, c[k].order, seed, n[i]);
					if (c[k].filler)
						fprintf(out, ":%lu", c[k].filler);
					fputc('\n', out);
				}
			}
		}
	free(c);
	free(n);
	return 0;
}

void ic_plan_sentinel(FILE *out)
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
}
