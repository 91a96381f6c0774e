/* Which runs each point has (sites_cases.h says the rule), their names, and
 * their registration, the probes' too; --list and --plan print them instead. */
#define _GNU_SOURCE
#include "sites_cases.h"

#include <jansson.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "body.h"
#include "kit.h"
#include "point_name.h"

/* sites_cases.h's rule: 1 when pt has a run in mode shared at t threads, of o's modes. */
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

/* From codesize's CSV, columns by name: footprint, bytes per site (no filler column, older: 0). */
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

/* path's names with their counts (a copy too many strays, as a name no run has); NULL: said on stderr. */
static json_t *run_list_load(const char *path)
{
	size_t len;
	char *text = ic_read_path(path, &len), *save = NULL;
	json_t *rl = text ? ic_xalloc(json_object()) : NULL;

	if (!text)
		fprintf(stderr, "sites_bench: --run-list: cannot read %s\n", path);
	/* Empty lines are skipped; nocheck: a name need not be UTF-8 (only out of memory fails). */
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

/* ---- probes: the machine in its own terms ------------------------------ */

/* Short runs that measure the machine itself rather than a call site, each beside the
 * watch's sentinel in the same processes, so that the watch can say which change with the
 * machine's state: registered beside the sites when --run-list names them and listed by
 * --list, never in --plan (the sweep does not run them, the watch does). Names:
 * probe/<name>/real_time/threads:1; one iteration is one of `what`, its time Google
 * Benchmark's real_time. Each loop is asm: what runs is exactly the instructions named,
 * whatever the compiler. x86-64 only; elsewhere there are no probes. */

#define IC_PROBE_BATCH 64      /* iterations between the library's checks */

struct ic_probe {
	const char *name;
	const char *what;        /* one iteration */
	void (*run)(uint64_t n); /* n iterations */
};

#if defined(__x86_64__)

/* Two words on one 64-byte line, a third on the next line. */
static struct {
	_Alignas(64) uint32_t same[2];
	_Alignas(64) uint32_t other;
} probe_lines;

/* 64 dependent adds of a register: one per cycle on every x86-64 core, so its
 * time is the clock's. (Not of an immediate: newer Intel cores fold chains of
 * small immediate adds at rename and run 64 in a few cycles.) */
static void probe_clock(uint64_t n)
{
	uint64_t x = 0, k = 1;

	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile(".rept 64\n\tadd %1, %0\n\t.endr" : "+r"(x) : "r"(k) : "cc");
}

/* A store, then a locked add to the other word of the same line: the lock
 * waits for the store to drain from the store buffer and owns the line. */
static void probe_locked_same(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("movl $1, %0\n\tlock addl $1, %1"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.same[1]) : : "cc", "memory");
}

/* The same with the store to another line. */
static void probe_locked_other(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("movl $1, %0\n\tlock addl $1, %1"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.other) : : "cc", "memory");
}

/* locked_same_line's pair 32 times, straight-line: as many locked instructions
 * as the inlined sites at N = 16 run, each at its own address, no call between.
 * Beside locked_same_line (one address) it tells a cost per locked address
 * from the drain; beside clone (such copies, called) a cost of the calls. */
static void probe_locked_copies(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile(".rept 32\n\tmovl $1, %0\n\tlock addl $1, %1\n\t.endr"
				 : "=m"(probe_lines.same[0]), "+m"(probe_lines.same[1]) : : "cc", "memory");
}

/* 16 calls to a function that only returns: the call/return pair, its return-stack
 * prediction and the branch to the target. The calls push below the stack pointer: past the
 * 128-byte red zone, which the compiler may use in a function it thinks makes no call. */
__asm__(".pushsection .text\n"
	".p2align 4\n"
	"ic_probe_ret:\n"
	"\tret\n"
	".popsection\n");

static void probe_call_return(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("sub $128, %%rsp\n\t.rept 16\n\tcall ic_probe_ret\n\t.endr\n\tadd $128, %%rsp"
				 : : : "memory");
}

/* 128 KiB of straight-line code, four times a 32 KiB L1i and twice the largest
 * an x86-64 core has, called once a pass: 9-byte NOPs, which need no execution
 * unit, so the fetch from past the L1i, not the adds of a chain, sets the pace. */
__asm__(".pushsection .text\n"
	".p2align 6\n"
	"ic_probe_footprint:\n"
	"\t.rept 14563\n"
	"\t.byte 0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00\n"
	"\t.endr\n"
	"\tret\n"
	".popsection\n");

static void probe_code_past_l1i(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("sub $128, %%rsp\n\tcall ic_probe_footprint\n\tadd $128, %%rsp"
				 : : : "memory");
}

static const struct ic_probe ic_probes_all[] = {
	{ "clock", "64 dependent adds", probe_clock },
	{ "locked_same_line", "a store, then a locked add on its line", probe_locked_same },
	{ "locked_other_line", "a store, then a locked add on another line", probe_locked_other },
	{ "locked_copies", "32 straight-line copies of a store and a locked add on its line",
	  probe_locked_copies },
	{ "call_return", "16 calls to a bare return", probe_call_return },
	{ "code_past_l1i", "128 KiB of straight-line NOPs", probe_code_past_l1i },
	{ NULL, NULL, NULL },
};

#else

static const struct ic_probe ic_probes_all[] = { { NULL, NULL, NULL } };

#endif

static const struct ic_probe *const ic_probes = ic_probes_all;

static double probe_wall_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A probe's run: on the sentinel's core, warmed once, timed in batches, its start recorded. */
static void ic_probe_run(icb_state *st, void *arg)
{
	const struct ic_probe *p = arg;
	double start = probe_wall_s();
	char why[256];

	if (ic_topo_bind_thread(0, NULL, NULL, why, sizeof(why)) != 0)
		ic_topo_warn_once(why);
	p->run(IC_PROBE_BATCH);
	while (icb_keep_running_batch(st, IC_PROBE_BATCH))
		p->run(IC_PROBE_BATCH);
	icb_set_items_processed(st, icb_iterations_done(st));
	icb_counter_set(st, IC_REP_START_COUNTER, start, 0);
	icb_set_label(st, p->what);
	ic_topo_unbind_thread();
}

/* ---- the cases -------------------------------------------------------- */

/* What registers: the filter (here when the library's would see /iterations:N) and --run-list. */
struct selection {
	regex_t re;
	int have_re;
	json_t *rl;                  /* --run-list's names */
};

/* One run of point p (its case bc filled but for the name): printed with --list or --plan,
 * else registered when selected, with an earlier process's iteration count where there is
 * one. Out of memory exits (kit): icb_register fails only for the library's bad_alloc. */
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
	/* An earlier process's count: no estimation, one loop length in every process and repetition. */
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
					/* A planted 0 is the baseline's loop, the null case;
					 * the others calibrate in their first run. */
					.plant_fraction = planted ? o->plant[planted - 1] : 0,
					.sim = &cs->sim[p], .code_bytes_per_site = per_site,
					.footprint_bytes = footprint };
				case_add(cs, p, bc, form, o, sel);
			}
}

/* The probes: listed by --list, registered when --run-list names them, not in --plan (the sweep's). */
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
