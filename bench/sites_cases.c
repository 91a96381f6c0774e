/* Which runs each point has (sites_cases.h says the rule), their names,
 * and their registration; --list and --plan print them instead. */
#define _GNU_SOURCE
#include "sites_cases.h"

#include <jansson.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "body.h"
#include "kit.h"
#include "point_name.h"
#include "probes.h"

/* The rule of sites_cases.h: 1 when pt has a run in mode shared at t
 * threads, of the modes o asks for. */
static int point_has_run(const struct ic_point *pt, const struct ic_opts *o, int shared, int t)
{
	int form = ic_name_find(ic_form_names, IC_FORM_COUNT, pt->form);
	/* Solo: at 1 thread on a private queue only. */
	int solo = (form >= 0 && ic_form_solo[form]) || (IC_FILLER_SOLO && pt->filler > 0);

	if (!shared)
		return o->modes_private && (!solo || t == 1);
	return o->modes_shared && !solo && !(pt->body && !pt->body->shared_ok) && !(t == 1 && o->modes_private);
}

/* ---- code size, from gen's accounting ---------------------------------- */

/* The point's footprint and bytes per site from codesize's CSV, columns
 * found by name (the filler column is newer: absent means 0). */
static void codesize_lookup(const char *path, const struct ic_point *pt, double *per_site, double *footprint)
{
	enum { FORM, OP, LAYOUT, ORDER, SEED, SITES, FOOT, PER_SITE, FILLER, NCOL };
	static const char *const want[NCOL] = { "form", "op", "layout", "order", "seed", "sites",
		"footprint_bytes", "code_bytes_per_site", "filler" };
	int col[NCOL], n = 0;
	FILE *f = fopen(path, "r");
	char line[4096], *field[64];

	*per_site = *footprint = -1;
	if (f && fgets(line, sizeof(line), f))
		n = (int)ic_csv_split(line, field, 64);
	for (int c = 0; c < NCOL; c++) {
		col[c] = -1;
		for (int i = 0; i < n; i++)
			if (!strcmp(field[i], want[c]))
				col[c] = i;
		if (col[c] < 0 && c != FILLER)
			n = 0;   /* no such table: no row is read */
	}
	while (n && fgets(line, sizeof(line), f)) {
		int k = (int)ic_csv_split(line, field, 64);
		int need = col[PER_SITE] > col[FILLER] ? col[PER_SITE] : col[FILLER];
		if (k <= need || k <= col[FOOT])
			continue;
		unsigned long filler = col[FILLER] >= 0 ? strtoul(field[col[FILLER]], NULL, 10) : 0;
		if (strcmp(field[col[FORM]], pt->form) || strcmp(field[col[OP]], pt->op) ||
		    strcmp(field[col[LAYOUT]], pt->layout) || strcmp(field[col[ORDER]], pt->order) ||
		    strtoul(field[col[SITES]], NULL, 10) != pt->sites || filler != pt->filler ||
		    (!strcmp(pt->order, "random") && strtoul(field[col[SEED]], NULL, 10) != pt->seed))
			continue;
		char *end;
		double v = strtod(field[col[FOOT]], &end);
		if (end != field[col[FOOT]])
			*footprint = v;
		/* empty when the group has one N */
		v = strtod(field[col[PER_SITE]], &end);
		if (end != field[col[PER_SITE]])
			*per_site = v;
	}
	if (f)
		fclose(f);
}

/* ---- --run-list: each name's copies on the list that no run took ----- */

/* The names of path, each with how many times it is listed (so that a copy
 * too many is a stray, as a name no run has); NULL after one line on stderr. */
static json_t *run_list_load(const char *path)
{
	size_t len;
	char *text = ic_read_path(path, &len), *save = NULL;
	json_t *rl = text ? ic_xalloc(json_object()) : NULL;

	if (!text)
		fprintf(stderr, "sites_bench: --run-list: cannot read %s\n", path);
	/* Empty lines are skipped; nocheck: a name need not be UTF-8 (so only
	 * out of memory fails). */
	for (char *line = text; rl && (line = strtok_r(line, "\r\n", &save)); line = NULL)
		if (json_object_set_new_nocheck(rl, line, json_integer(json_integer_value(json_object_get(rl, line)) + 1)))
			ic_xalloc(NULL);
	free(text);
	return rl;
}

/* 1 when name is on the list (and takes a copy of it). */
static int run_list_take(json_t *rl, const char *name)
{
	json_t *left = json_object_get(rl, name);

	return left && json_integer_set(left, json_integer_value(left) - 1) == 0;
}

/* The first name, in sorted order, with a copy that no run took, or NULL. */
static const char *run_list_stray(json_t *rl)
{
	const char *name, *first = NULL;
	json_t *left;

	json_object_foreach(rl, name, left)
		if (json_integer_value(left) > 0 && (!first || strcmp(name, first) < 0))
			first = name;
	return first;
}

/* ---- the cases -------------------------------------------------------- */

/* What registers: the filter (applied here only when the library cannot:
 * with fixed counts it sees names with /iterations:N) and --run-list. */
struct selection {
	regex_t re;
	int have_re;
	json_t *rl;                  /* --run-list's names */
};

/* One run of point p (its case bc filled but for the name): printed with
 * --list or --plan, else registered when selected, with an earlier
 * process's iteration count where there is one. Out of memory exits (kit):
 * icb_register fails only for the library's bad_alloc. */
static void case_add(struct ic_cases *cs, size_t p, struct ic_case *bc, const char *form,
		     const struct ic_opts *o, struct selection *sel)
{
	const struct ic_point *pt = bc->pt;
	const char *mode = bc->shared ? "shared" : "private";
	char filler[32] = "", full[300];

	if (pt->filler > 0)
		snprintf(filler, sizeof(filler), "/filler:%u", (unsigned)pt->filler);
	/* The form may be a planted copy's. */
	snprintf(bc->name, sizeof(bc->name), "sites/%s%s/%s%s", form, pt->name + strlen(pt->form), mode, filler);
	snprintf(full, sizeof(full), "%s/real_time/threads:%d", bc->name, bc->threads);
	if (o->print == IC_PRINT_LIST)
		printf("%s\n", full);
	/* --plan's table: the run's full name, then what makes it. */
	if (o->print == IC_PRINT_PLAN)
		printf("%s\t%s\t%s\t%s\t%s\t%u\t%u\t%s\t%d\n", full, form, pt->op, pt->layout, pt->order,
		       (unsigned)pt->sites, (unsigned)pt->filler, mode, bc->threads);
	if (o->print != IC_PRINT_NONE)
		return;
	int match = !sel->have_re || regexec(&sel->re, full, 0, NULL, 0) == 0;
	int listed = !o->run_list || run_list_take(sel->rl, full);
	if (match && listed)
		cs->want_sim[p] = 1;
	if (!listed || (o->iters && !match))
		return;
	ic_case_alloc(bc);
	icb_bench *b = ic_xalloc(icb_use_real_time(icb_threads(icb_register(bc->name, ic_case_run, bc), bc->threads)));
	/* An earlier process's count: no estimation here, and the same loop
	 * length in every process (and repetition). */
	json_int_t it = json_integer_value(json_object_get(o->iters, full));
	if (it > 0)
		icb_iterations(b, it);
	cs->n++;
}

/* Every run of point p, and its planted copies (extern's). */
static void point_add(struct ic_cases *cs, size_t p, const struct ic_point *pt, const struct ic_opts *o,
		      struct selection *sel)
{
	int n_planted = !strcmp(pt->form, "extern") ? o->n_plant : 0;
	double per_site, footprint;

	codesize_lookup(o->codesize_path, pt, &per_site, &footprint);
	for (int planted = 0; planted <= n_planted; planted++)
		for (int shared = 0; shared < 2; shared++)
			for (int k = 0; k < o->n_threads; k++) {
				struct ic_case *bc = &cs->v[cs->n];
				char form[32];

				if (!point_has_run(pt, o, shared, o->threads[k]))
					continue;
				if (planted)
					snprintf(form, sizeof(form), "extern_plant%g", o->plant[planted - 1] * 100);
				else
					snprintf(form, sizeof(form), "%s", pt->form);
				*bc = (struct ic_case){ .pt = pt, .shared = shared, .threads = o->threads[k],
					/* A planted 0 is the baseline's loop: the null case.
					 * The others calibrate in their first run. */
					.plant_fraction = planted ? o->plant[planted - 1] : 0,
					.sim = &cs->sim[p], .code_bytes_per_site = per_site,
					.footprint_bytes = footprint };
				case_add(cs, p, bc, form, o, sel);
			}
}

/* The probes (probes.h): listed by --list, registered when --run-list
 * names them; never in --plan, which is the sweep's. */
static void probes_add(const struct ic_opts *o, struct selection *sel)
{
	char full[128], base[96];

	for (const struct ic_probe *p = ic_probes; p->name; p++) {
		snprintf(base, sizeof(base), "probe/%s", p->name);
		snprintf(full, sizeof(full), "%s/real_time/threads:1", base);
		if (o->print == IC_PRINT_LIST)
			printf("%s\n", full);
		if (o->print != IC_PRINT_NONE || !o->run_list || !run_list_take(sel->rl, full))
			continue;
		ic_xalloc(icb_use_real_time(icb_threads(icb_register(base, ic_probe_run, (void *)p), 1)));
	}
}

struct ic_cases *ic_cases_make(const struct ic_point *const *points, const struct ic_opts *o, int *rc)
{
	struct ic_cases *cs = ic_xalloc(calloc(1, sizeof(*cs)));
	struct selection sel = { 0 };
	const char *stray = NULL;

	*rc = 1;
	sel.have_re = o->filter && regcomp(&sel.re, o->filter, REG_EXTENDED | REG_NOSUB) == 0;
	while (points[cs->n_points])
		cs->n_points++;
	size_t np = cs->n_points ? cs->n_points : 1;
	cs->v = ic_xalloc(calloc(np * (1 + (size_t)o->n_plant) * 2 * (size_t)o->n_threads, sizeof(*cs->v)));
	cs->want_sim = ic_xalloc(calloc(np, sizeof(int)));
	cs->sim = ic_xalloc(calloc(np, sizeof(*cs->sim)));
	if (o->run_list && o->print == IC_PRINT_NONE && !(sel.rl = run_list_load(o->run_list)))
		return NULL;
	if (o->print == IC_PRINT_PLAN)
		printf("name\tform\top\tlayout\torder\tsites\tfiller\tmode\tthreads\n");
	for (size_t p = 0; p < cs->n_points; p++)
		point_add(cs, p, points[p], o, &sel);
	probes_add(o, &sel);
	if (sel.have_re)
		regfree(&sel.re);
	if (o->run_list && o->print == IC_PRINT_NONE && (stray = run_list_stray(sel.rl))) {
		fprintf(stderr, "sites_bench: --run-list: %s names a run this binary does not have (with these "
			"--threads, --modes and --plant): %s\n", o->run_list, stray);
		*rc = 2;
		cs = NULL;
	}
	json_decref(sel.rl);
	return cs;
}
