/* The site benchmarks: every built point x SMP mode x thread count, through
 * Google Benchmark's C API. One benchmark iteration is one call site run, so
 * time per iteration is time per call site and items per second is call
 * sites per second.
 *
 * Names: sites/<form>/<op>/<layout>/<order>/<N>/<mode>/real_time/threads:<T>
 * (Google Benchmark adds the last two parts), so --benchmark_filter selects
 * points. For your own body (queue/body.h) op is the body's name; it runs
 * shared only when it says IC_BODY_SHARED_OK, private (a state per thread)
 * always. Our own flags, before any --benchmark_* flag is read:
 *   --counters=auto|papi|sim|none  where l1i/instr/cycles per op come from
 *   --threads=LIST     thread counts (default: 1 and every core)
 *   --modes=LIST       private,shared (default both)
 *   --codesize=FILE    gen's accounting (default: the build's)
 *   --sim-cache=FILE   keep simulated counts in FILE (keyed by this binary's
 *                      content, the L1i geometry and the point)
 *   --sim-cache-dir=DIR  the same in DIR/<binary id>.csv: an unchanged binary
 *                      finds its counts across runs, a rebuilt one misses
 *   --sim-passes=P     passes simulated per point (default IC_SIM_PASSES, sim.h)
 *   --iterations-from=FILE.json  register each benchmark with the iterations
 *                      an earlier process of this binary ran (its Google
 *                      Benchmark JSON), skipping the library's estimation;
 *                      benchmarks not in FILE estimate as usual
 *   --plant=LIST       calibration: also run each extern point with an extra
 *                      F of its own time per pass (timed in the run it joins:
 *                      its thread count and mode), as form extern_plant<F%>,
 *                      for each fraction F in LIST (0 runs a second, unplanted
 *                      copy: the null case)
 *   --process=K        which process of the run this is, for the record
 *   --layout-variant=K which layout variant of the run this binary is, for
 *                      the record (default 0); the binary knows its seed
 *   --sim-only         decide the counter source, simulate the points the
 *                      filter selects into --sim-cache if it is sim, print
 *                      the source (papi, sim or none) and exit: run.sh does
 *                      this once with the ordinary link, so every process
 *                      reads the same simulated counts
 *   --list             print the benchmark names and exit
 * The JSON context records the layout variant this binary was linked in
 * (layout_id.h), the process index and the length of the environment pad
 * IC_ENV_PAD that run.sh sets to move the stack, how the sites were
 * compiled (codegen, per_caller, compiler, cflags, lto), what they call
 * (body: the body's name, or queue) and where the threads go (placement).
 *
 * Each run's label says where every thread ran and how it was placed:
 * "cpus:0,1,0,1 bind:core,core,shared,shared pinned" (topology.h: threads
 * beyond the cores go to SMT siblings, then share PUs), "moved" when a
 * thread's loop ended on another CPU than its set-up ran on, and why any
 * counter is absent. Counters are set once per run by thread 0 from every
 * thread's counts, and only when every thread counted (counters.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <regex.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "body.h"
#include "counters.h"
#include "gb_iterations.h"
#include "gbench_c.h"
#include "layout_id.h"
#include "machine_state.h"
#include "opt_barrier.h"
#include "point_name.h"
#include "sim.h"
#include "site_run.h"
#include "topology.h"

/* The built points' table (gen/points.cmake); tests link a smaller one. */
#ifndef IC_POINTS_TABLE
#define IC_POINTS_TABLE sites_points
#endif
#ifndef IC_CODEGEN_NAME
#define IC_CODEGEN_NAME ""
#endif
/* The build, for the record (bench/CMakeLists.txt passes them). */
#ifndef IC_COMPILER_NAME
#define IC_COMPILER_NAME ""
#endif
#ifndef IC_CFLAGS_NAME
#define IC_CFLAGS_NAME ""
#endif
#ifndef IC_LTO_NAME
#define IC_LTO_NAME "off"
#endif
extern const struct ic_point *const IC_POINTS_TABLE[];

#define MAX_THREADS 256

enum counters_mode { CTR_AUTO, CTR_PAPI, CTR_SIM, CTR_NONE };

/* What one thread of a run did, for thread 0 to report once all are done. */
struct thread_rec {
	int cpu_setup, cpu_end;      /* where set-up ran, where the loop ended */
	enum ic_bind_kind kind;
	char why[160];               /* why this thread's counts are absent */
	double cal_s;                /* calibration: this thread's last loop, s per pass (0: none) */
};

/* Per thread, in the arrays ic_ctr_combine takes: counts, their validity,
 * call sites run, and a pointer to thread_rec.why. */
struct thread_counts {
	long long (*value)[IC_CTR_COUNT];
	int (*valid)[IC_CTR_COUNT];
	double *ops;
	const char **why;
};

struct bench_case {
	const struct ic_point *pt;
	char name[256];
	int shared;                  /* mode shared: one queue (or body state) for all threads */
	int threads;                 /* the run's thread count */
	struct ic_site_shared sh;    /* made per run by thread 0, on its core */
	int sh_ok;                   /* ... and it could be */
	pthread_barrier_t phase;     /* the run's threads, between set-up steps */
	struct thread_rec *rec;      /* one per thread */
	struct thread_counts ctr;    /* one per thread */
	double plant_fraction;       /* calibration: the planted share of a pass, 0 = none */
	uint64_t plant_iters;        /* ... its delay iterations, once calibrated in the run */
	const struct ic_sim_result *sim;
	double code_bytes_per_site, footprint_bytes;   /* < 0: unknown */
};

static enum counters_mode counters_mode = CTR_AUTO;
static int use_papi;             /* decided once, before any benchmark runs */

/* Dependent adds that the compiler cannot fold: the planted cost. */
static void plant_delay(uint64_t iters)
{
	uint64_t x = 0;
	for (uint64_t i = 0; i < iters; i++)
		x = icb_launder_u64(x + i);
	icb_sink_u64(x);
}

#ifdef IC_FAULT_INJECTION
/* Test builds only: IC_FAULT_SETUP_THREAD=k fails thread k's set-up, so the
 * tests can show that a failing thread does not hang the others. */
static int setup_fault(int ti)
{
	const char *k = getenv("IC_FAULT_SETUP_THREAD");
	return k && atoi(k) == ti;
}
#else
static int setup_fault(int ti)
{
	(void)ti;
	return 0;
}
#endif

/* Thread 0, after every thread has stopped: counters once for the run, from
 * all threads' counts (absent when any thread's is), and the placement. */
static void report_run(icb_state *st, struct bench_case *bc, int n)
{
	/* Room for every thread's CPU and placement, and the counters' reason. */
	size_t cap = 64 + (size_t)n * 32 + 320;
	char *label = malloc(cap), why[256] = "";
	int len, moved = 0, unbound = 0;

	if (!label)
		return;
	len = snprintf(label, cap, "cpus:");

	if (use_papi) {
		double per_op[IC_CTR_COUNT];
		int ok[IC_CTR_COUNT];
		/* The canary's floor: the mark's own instructions per site (its
		 * add and its filler's); fewer, and the counts are not of this work. */
		ic_ctr_combine(n, (const long long(*)[IC_CTR_COUNT])bc->ctr.value,
			       (const int(*)[IC_CTR_COUNT])bc->ctr.valid, bc->ctr.ops, bc->ctr.why,
			       1.0 + ic_filler_adds(bc->pt->filler), per_op, ok, why, sizeof(why));
		for (int c = 0; c < IC_CTR_COUNT; c++)
			if (ok[c])
				icb_counter_set(st, ic_ctr_names[c], per_op[c], 0);
		ic_counters_next_pass();   /* the next run counts the other event set, if any */
	} else if (bc->sim && bc->sim->valid && !bc->shared && n == 1 && !bc->plant_fraction) {
		/* Simulated as one thread on a private queue, unplanted: only that case. */
		icb_counter_set(st, "l1i_miss_per_op", bc->sim->l1i_miss_per_op, 0);
		icb_counter_set(st, "instr_per_op", bc->sim->instr_per_op, 0);
	}
	if (bc->code_bytes_per_site >= 0)
		icb_counter_set(st, "code_bytes_per_site", bc->code_bytes_per_site, 0);
	if (bc->footprint_bytes >= 0)
		icb_counter_set(st, "footprint_bytes", bc->footprint_bytes, 0);

	/* cpus:<cpu per thread> bind:<how each was placed> pinned|unpinned */
	for (int i = 0; i < n; i++) {
		len += snprintf(label + len, cap - (size_t)len, "%s%d", i ? "," : "", bc->rec[i].cpu_end);
		moved |= bc->rec[i].cpu_end != bc->rec[i].cpu_setup;
		unbound |= bc->rec[i].kind == IC_BIND_NONE;
	}
	len += snprintf(label + len, cap - (size_t)len, " bind:");
	for (int i = 0; i < n; i++)
		len += snprintf(label + len, cap - (size_t)len, "%s%s", i ? "," : "",
				ic_bind_kind_name(bc->rec[i].kind));
	len += snprintf(label + len, cap - (size_t)len, "%s%s", unbound ? " unpinned" : " pinned",
			moved ? " moved" : "");
	if (why[0])
		snprintf(label + len, cap - (size_t)len, "; counters: %s", why);
	icb_set_label(st, label);
	free(label);
}

static void plant_calibrate(struct bench_case *bc, struct ic_site_thread *t, int ti);

/* One run of a point on one thread. Every thread reaches every barrier, and
 * the library's start and stop barriers (the first and last keep_running
 * calls) even when its set-up failed: a thread that returned early would
 * leave the others waiting for ever. Order: bind, allocate and touch on the
 * bound core, warm up, then the library releases all threads together. */
static void bench_sites(icb_state *st, void *arg)
{
	struct bench_case *bc = arg;
	const struct ic_point *pt = bc->pt;
	int ti = icb_thread_index(st), n = icb_thread_count(st);
	struct thread_rec *rec = &bc->rec[ti];
	const char *err = NULL;
	char why[256];

	memset(rec, 0, sizeof(*rec));
	if (ic_topo_bind_thread(ti, NULL, &rec->kind, why, sizeof(why)) != 0)
		ic_topo_warn_once(why);
	rec->cpu_setup = ic_topo_current_cpu();
	if (bc->shared && ti == 0)
		bc->sh_ok = ic_site_shared_new(pt, &bc->sh) == 0;
	pthread_barrier_wait(&bc->phase);          /* the shared queue or state exists */
	struct ic_site_thread *t = NULL;           /* thread 0 frees the shared part at the end */
	if (setup_fault(ti))
		err = "set-up failed (fault injected by IC_FAULT_SETUP_THREAD)";
	else if (bc->shared && !bc->sh_ok)
		err = "out of memory for the shared queue or state";
	else if (!(t = ic_site_thread_new(pt, bc->shared ? &bc->sh : NULL)))
		err = "out of memory";
	pthread_barrier_wait(&bc->phase);          /* every thread's nodes are in */
	if (t)
		pt->pass(&t->ctx);     /* warm-up, untimed: code, data and predictors */
	/* The planted cost, calibrated once per case in the run it joins:
	 * every thread, on the queue of its mode, all looping together. */
	if (bc->plant_fraction > 0 && !bc->plant_iters)
		plant_calibrate(bc, t, ti);
	struct ic_ctr_set *ctr = use_papi ? ic_ctr_set_open() : NULL;
	if (use_papi && !ctr)
		snprintf(rec->why, sizeof(rec->why), "event set did not open: %s", ic_ctr_set_error());
	if (err)
		icb_skip_with_error(st, err);      /* the loop below is not entered */
	uint64_t acc0 = t ? t->ctx.acc : 0, passes = 0;

	if (ctr && ic_ctr_set_start(ctr) != 0)
		snprintf(rec->why, sizeof(rec->why), "counting did not start: %s", ic_ctr_set_error());
	if (bc->plant_iters) {
		while (icb_keep_running_batch(st, pt->sites)) {
			pt->pass(&t->ctx);
			plant_delay(bc->plant_iters);
			passes++;
		}
	} else {
		while (icb_keep_running_batch(st, pt->sites)) {
			pt->pass(&t->ctx);
			passes++;
		}
	}
	ic_ctr_set_stop(ctr, bc->ctr.value[ti], bc->ctr.valid[ti]);
	ic_ctr_set_close(ctr);
	rec->cpu_end = ic_topo_current_cpu();
	double ops = (double)passes * pt->sites;
	bc->ctr.ops[ti] = ops;

	/* Every site ran on every pass, or the figures mean nothing. */
	if (t && t->ctx.acc - acc0 != passes * pt->acc_per_pass)
		icb_skip_with_error(st, "site accounting mismatch: not every call site ran");
	icb_set_items_processed(st, (int64_t)ops);
	/* Past the library's stop barrier no thread touches the queue. */
	ic_site_thread_free(t);

	pthread_barrier_wait(&bc->phase);          /* every thread has recorded */
	if (ti == 0) {
		report_run(st, bc, n);
		if (bc->shared)
			ic_site_shared_free(&bc->sh);
		bc->sh_ok = 0;
	}
	/* Threads the main thread (thread 0) creates next inherit its mask. */
	ic_topo_unbind_thread();
}

/* ---- code size, from gen's accounting ---------------------------------- */

/* Split a CSV line in place; returns the field count (at most max). */
static int csv_split(char *line, char **field, int max)
{
	int n = 0;

	line[strcspn(line, "\r\n")] = '\0';
	for (char *p = line; n < max;) {
		field[n++] = p;
		p = strchr(p, ',');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

/* The point's footprint and bytes per site from codesize's CSV, columns
 * found by name (the filler column is newer: absent means 0). */
static void codesize_lookup(const char *path, const struct ic_point *pt, double *per_site, double *footprint)
{
	enum { FORM, OP, LAYOUT, ORDER, SEED, SITES, FOOT, PER_SITE, FILLER, NCOL };
	static const char *const want[NCOL] = { "form", "op", "layout", "order", "seed", "sites",
		"footprint_bytes", "code_bytes_per_site", "filler" };
	int col[NCOL];
	FILE *f = fopen(path, "r");
	char line[4096], *field[64];

	*per_site = *footprint = -1;
	if (!f)
		return;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return;
	}
	int n = csv_split(line, field, 64);
	for (int c = 0; c < NCOL; c++) {
		col[c] = -1;
		for (int i = 0; i < n; i++)
			if (!strcmp(field[i], want[c]))
				col[c] = i;
		if (col[c] < 0 && c != FILLER) {
			fclose(f);
			return;
		}
	}
	while (fgets(line, sizeof(line), f)) {
		n = csv_split(line, field, 64);
		int need = col[PER_SITE] > col[FILLER] ? col[PER_SITE] : col[FILLER];
		if (n <= need || n <= col[FOOT])
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
	fclose(f);
}

/* ---- the rest of main's work -------------------------------------------- */

static int parse_list(const char *s, int *out, int max)
{
	int n = 0;
	char *copy = strdup(s), *save, *tok;
	for (tok = strtok_r(copy, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long v = strtol(tok, &end, 10);
		if (*end || v < 1 || v > MAX_THREADS) {
			free(copy);
			return -1;
		}
		out[n++] = (int)v;
	}
	free(copy);
	return n;
}

/* Time per pass of pt on this thread, for the planted cost (calibration). */
static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Seconds per pass of a loop of passes, each followed by plant_delay(iters)
 * when iters > 0: the loop the planted copy runs. */
static double plant_loop_seconds(const struct ic_point *pt, struct ic_site_thread *t, uint64_t iters)
{
	uint64_t passes = 1 + 500000 / pt->sites;
	double t0 = seconds_now();
	for (uint64_t p = 0; p < passes; p++) {
		pt->pass(&t->ctx);
		if (iters)
			plant_delay(iters);
	}
	return (seconds_now() - t0) / (double)passes;
}

/* One loop on every thread of the run at once (t NULL: a thread whose set-up
 * failed only keeps step); returns the threads' mean seconds per pass, the
 * same on every thread. iters > 0 plants the delay; unit > 0 times
 * plant_delay(unit) alone instead, per iteration. */
static double plant_loop_all(struct bench_case *bc, struct ic_site_thread *t, int ti, uint64_t iters,
			     uint64_t unit)
{
	double s = 0, sum = 0;
	int k = 0;

	pthread_barrier_wait(&bc->phase);
	if (t && unit) {
		double t0 = seconds_now();
		plant_delay(unit);
		s = (seconds_now() - t0) / (double)unit;
	} else if (t) {
		s = plant_loop_seconds(bc->pt, t, iters);
	}
	bc->rec[ti].cal_s = s;
	pthread_barrier_wait(&bc->phase);
	for (int i = 0; i < bc->threads; i++)
		if (bc->rec[i].cal_s > 0) {
			sum += bc->rec[i].cal_s;
			k++;
		}
	pthread_barrier_wait(&bc->phase);          /* every thread has read */
	return k ? sum / k : 0;
}

/* Delay iterations that make the planted loop plant_fraction slower than
 * the plain one, in the run it joins: its thread count and mode, every
 * thread looping (a pass on a shared queue under contention takes longer
 * than one alone, and so must the planted share). The delay's cost alone is
 * only a first guess: run after a pass, it overlaps the pass's tail out of
 * order and adds less than it costs alone (a nominal 3% came out at 2.4%).
 * So the guess is corrected twice by what it really adds, timed in the loop
 * it joins: best of 6 interleaved loops of each kind, the minimum being the
 * undisturbed time. Every thread computes the same figure from the same
 * means; thread 0 keeps it. */
static void plant_calibrate(struct bench_case *bc, struct ic_site_thread *t, int ti)
{
	double pass_s = 1e30, unit_s = 1e30, fraction = bc->plant_fraction;

	for (int trial = 0; trial < 3; trial++) {
		double s = plant_loop_all(bc, t, ti, 0, 0);
		if (s < pass_s)
			pass_s = s;
		s = plant_loop_all(bc, t, ti, 0, 100000);
		if (s < unit_s)
			unit_s = s;
	}
	double iters = unit_s > 0 && pass_s < 1e30 ? fraction * pass_s / unit_s : 1;
	for (int round = 0; round < 2 && iters >= 1; round++) {
		double plain = 1e30, planted = 1e30;
		for (int trial = 0; trial < 6; trial++) {
			double s = plant_loop_all(bc, t, ti, 0, 0);
			if (s < plain)
				plain = s;
			s = plant_loop_all(bc, t, ti, (uint64_t)(iters + 0.5), 0);
			if (s < planted)
				planted = s;
		}
		double added = plain > 0 ? planted / plain - 1 : 0;
		/* A correction of more than 2x either way is noise, not overlap. */
		if (added > fraction / 2 && added < fraction * 2)
			iters *= fraction / added;
	}
	pthread_barrier_wait(&bc->phase);
	if (ti == 0)
		bc->plant_iters = iters >= 1 ? (uint64_t)(iters + 0.5) : 1;
	pthread_barrier_wait(&bc->phase);          /* every thread sees it */
}

/* Pinning as this machine allows it: bind one short-lived thread per thread
 * index, as the benchmark threads will, and record what really happened. */
struct bind_probe {
	int index, ok, cpu;
	enum ic_bind_kind kind;
};

static void *bind_probe_main(void *arg)
{
	struct bind_probe *p = arg;
	char why[256];
	p->ok = ic_topo_bind_thread(p->index, &p->cpu, &p->kind, why, sizeof(why)) == 0;
	if (p->ok)
		p->cpu = ic_topo_current_cpu();
	return NULL;
}

/* 1 when every thread index below n could be bound; cpus gets the list and
 * placement how each was placed (core, smt, shared). */
static int bind_probe_all(int n, char *cpus, size_t len, char *placement, size_t plen)
{
	int all = 1;
	size_t used = 0, pused = 0;
	cpus[0] = placement[0] = 0;
	for (int i = 0; i < n; i++) {
		struct bind_probe p = { .index = i, .cpu = -1, .kind = IC_BIND_NONE };
		pthread_t tid;
		if (pthread_create(&tid, NULL, bind_probe_main, &p) != 0 || pthread_join(tid, NULL) != 0)
			p.ok = 0;
		all &= p.ok;
		if (p.ok && used < len)
			used += (size_t)snprintf(cpus + used, len - used, "%s%d", used ? "," : "", p.cpu);
		if (pused < plen)
			pused += (size_t)snprintf(placement + pused, plen - pused, "%s%s", i ? "," : "",
						  ic_bind_kind_name(p.kind));
	}
	return all;
}

static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

int main(int argc, char **argv)
{
	const struct ic_point *const *points = IC_POINTS_TABLE;
	const char *codesize_path = IC_CODESIZE_CSV, *sim_cache = NULL, *filter = NULL, *v;
	int threads[16], n_threads = 0, modes_private = 1, modes_shared = 1, list = 0, sim_only = 0;
	double plant[8];
	int n_plant = 0, kept = 1;
	const char *process = "0", *sim_cache_dir = NULL, *iters_from = NULL, *layout_variant = "0";
	const char *bench_out = NULL;
	char sim_cache_buf[4096];
	struct ic_gb_iters *iters = NULL;

	if (argc > 1 && !strcmp(argv[1], "--ic-sim-child"))
		return ic_sim_child(points, argc - 2, argv + 2);

	/* Our flags out of argv; --benchmark_* flags stay for the library. */
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if ((v = opt_value(a, "--counters"))) {
			if (!strcmp(v, "auto")) counters_mode = CTR_AUTO;
			else if (!strcmp(v, "papi")) counters_mode = CTR_PAPI;
			else if (!strcmp(v, "sim")) counters_mode = CTR_SIM;
			else if (!strcmp(v, "none")) counters_mode = CTR_NONE;
			else {
				fprintf(stderr, "sites_bench: --counters must be auto, papi, sim or none, not '%s'\n", v);
				return 2;
			}
		} else if ((v = opt_value(a, "--threads"))) {
			n_threads = parse_list(v, threads, 16);
			if (n_threads <= 0) {
				fprintf(stderr, "sites_bench: --threads must be a list of counts 1..%d, not '%s'\n", MAX_THREADS, v);
				return 2;
			}
		} else if ((v = opt_value(a, "--modes"))) {
			modes_private = strstr(v, "private") != NULL;
			modes_shared = strstr(v, "shared") != NULL;
			if (!modes_private && !modes_shared) {
				fprintf(stderr, "sites_bench: --modes must list private and/or shared, not '%s'\n", v);
				return 2;
			}
		} else if ((v = opt_value(a, "--codesize"))) {
			codesize_path = v;
		} else if ((v = opt_value(a, "--sim-cache"))) {
			sim_cache = v;
		} else if ((v = opt_value(a, "--sim-cache-dir"))) {
			if (!*v) {
				fprintf(stderr, "sites_bench: --sim-cache-dir: empty directory name\n");
				return 2;
			}
			sim_cache_dir = v;
		} else if ((v = opt_value(a, "--sim-passes"))) {
			char *end;
			unsigned long p = strtoul(v, &end, 10);
			if (*v < '0' || *v > '9' || *end || p < 1 || p > 100000) {
				fprintf(stderr, "sites_bench: --sim-passes must be 1..100000, not '%s'\n", v);
				return 2;
			}
			ic_sim_set_passes((unsigned)p);
		} else if ((v = opt_value(a, "--layout-variant"))) {
			if (!*v || strspn(v, "0123456789") != strlen(v) || strlen(v) > 9) {
				fprintf(stderr, "sites_bench: --layout-variant must be a whole number, not '%s'\n", v);
				return 2;
			}
			layout_variant = v;
		} else if ((v = opt_value(a, "--iterations-from"))) {
			iters_from = v;
		} else if ((v = opt_value(a, "--plant"))) {
			char *end;
			const char *s = v;
			for (n_plant = 0; n_plant < 8; s = end + 1) {
				plant[n_plant] = strtod(s, &end);
				if (end == s || (*end && *end != ',') || !(plant[n_plant] >= 0 && plant[n_plant] < 1)) {
					fprintf(stderr, "sites_bench: --plant must list fractions in [0, 1), not '%s'\n", v);
					return 2;
				}
				n_plant++;
				if (!*end)
					break;
			}
			if (n_plant == 8 && *end) {
				fprintf(stderr, "sites_bench: --plant takes at most 8 fractions\n");
				return 2;
			}
		} else if ((v = opt_value(a, "--process"))) {
			char *end;
			long k = strtol(v, &end, 10);
			if (*end || end == v || k < 0 || k > 1000000) {
				fprintf(stderr, "sites_bench: --process must be a whole number, not '%s'\n", v);
				return 2;
			}
			process = v;
		} else if (!strcmp(a, "--list")) {
			list = 1;
		} else if (!strcmp(a, "--sim-only")) {
			sim_only = 1;
		} else {
			if ((v = opt_value(a, "--benchmark_filter")))
				filter = v;
			if ((v = opt_value(a, "--benchmark_out")))
				bench_out = v;
			argv[kept++] = argv[i];
		}
	}
	argc = kept;
	argv[argc] = NULL;
	if (sim_cache && sim_cache_dir) {
		fprintf(stderr, "sites_bench: --sim-cache and --sim-cache-dir: give one of them\n");
		return 2;
	}
	if (sim_cache_dir) {
		char id[32];
		struct stat st;
		if (mkdir(sim_cache_dir, 0777) != 0 && errno != EEXIST) {
			fprintf(stderr, "sites_bench: --sim-cache-dir: %s: %s\n", sim_cache_dir, strerror(errno));
			return 2;
		}
		if (stat(sim_cache_dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(sim_cache_dir, W_OK) != 0) {
			fprintf(stderr, "sites_bench: --sim-cache-dir: %s: not a writable directory\n", sim_cache_dir);
			return 2;
		}
		if (ic_sim_binary_id(id, sizeof(id)) != 0) {
			fprintf(stderr, "sites_bench: cannot read this program (/proc/self/exe)\n");
			return 1;
		}
		snprintf(sim_cache_buf, sizeof(sim_cache_buf), "%s/%s.csv", sim_cache_dir, id);
		sim_cache = sim_cache_buf;
	}
	if (iters_from) {
		char why[512];
		if (!(iters = ic_gb_iters_load(iters_from, why, sizeof(why)))) {
			fprintf(stderr, "sites_bench: --iterations-from: %s\n", why);
			return 2;
		}
	}
	if (iters_from) {
		int k = 1;
		for (int i = 1; i < argc; i++)
			if (!opt_value(argv[i], "--benchmark_filter"))
				argv[k++] = argv[i];
		argc = k;
		argv[argc] = NULL;
	}
	icb_initialize(&argc, argv);
	if (icb_report_unrecognized(argc, argv))
		return 2;

	struct ic_topo_info topo;
	if (ic_topo_open() != 0 || ic_topo_describe(&topo) != 0) {
		fprintf(stderr, "sites_bench: hwloc could not read this machine's topology\n");
		return 1;
	}
	if (n_threads == 0) {
		threads[n_threads++] = 1;
		if (topo.cores > 1)
			threads[n_threads++] = topo.cores;
	}

	/* Register every case (each keeps its barrier and records for the process). */
	size_t n_points = 0;
	while (points[n_points])
		n_points++;
	size_t max_cases = n_points * (1 + (size_t)n_plant) * (size_t)n_threads * 2;
	struct bench_case *cases = calloc(max_cases ? max_cases : 1, sizeof(*cases));
	struct ic_sim_result *sim = calloc(n_points ? n_points : 1, sizeof(*sim));
	int *want_sim = calloc(n_points ? n_points : 1, sizeof(*want_sim));
	regex_t re;
	int have_re = filter && regcomp(&re, filter, REG_EXTENDED | REG_NOSUB) == 0;
	size_t n_cases = 0;
	if (!cases || !sim || !want_sim) {
		fprintf(stderr, "sites_bench: out of memory\n");
		return 1;
	}
	for (size_t p = 0; p < n_points; p++) {
		const struct ic_point *pt = points[p];
		double per_site, footprint;
		codesize_lookup(codesize_path, pt, &per_site, &footprint);
		int n_planted = !strcmp(pt->form, "extern") ? n_plant : 0;
		/* One thread on a private queue only: the mark alone (it touches
		 * no queue), the nolock forms (correct only unshared), and filler
		 * points, whose baseline is the mark's (plots/ subtracts it). */
		int one_private = !strcmp(pt->form, "mark") || strstr(pt->form, "_nolock") ||
				pt->filler > 0;
		/* A body not safe for threads on one state runs private only. */
		int no_shared = one_private || (pt->body && !pt->body->shared_ok);
		for (int planted = 0; planted <= n_planted; planted++)
		for (int m = 0; m < 2; m++) {
			if ((m == 0 && !modes_private) || (m == 1 && (!modes_shared || no_shared)))
				continue;
			for (int k = 0; k < n_threads; k++) {
				if (one_private && threads[k] != 1)
					continue;
				struct bench_case *bc = &cases[n_cases++];
				const char *rest = pt->name + strlen(pt->form);
				char form[32];
				if (planted)
					snprintf(form, sizeof(form), "extern_plant%g", plant[planted - 1] * 100);
				else
					snprintf(form, sizeof(form), "%s", pt->form);
				bc->pt = pt;
				bc->shared = m == 1;
				bc->threads = threads[k];
				size_t nt = (size_t)threads[k];
				bc->rec = calloc(nt, sizeof(*bc->rec));
				bc->ctr.value = calloc(nt, sizeof(*bc->ctr.value));
				bc->ctr.valid = calloc(nt, sizeof(*bc->ctr.valid));
				bc->ctr.ops = calloc(nt, sizeof(*bc->ctr.ops));
				bc->ctr.why = calloc(nt, sizeof(*bc->ctr.why));
				if (!bc->rec || !bc->ctr.value || !bc->ctr.valid || !bc->ctr.ops || !bc->ctr.why ||
				    pthread_barrier_init(&bc->phase, NULL, (unsigned)threads[k]) != 0) {
					fprintf(stderr, "sites_bench: out of memory\n");
					return 1;
				}
				for (size_t i = 0; i < nt; i++)
					bc->ctr.why[i] = bc->rec[i].why;
				bc->sim = &sim[p];
				bc->code_bytes_per_site = per_site;
				bc->footprint_bytes = footprint;
				char filler[32] = "";
				if (pt->filler > 0)
					snprintf(filler, sizeof(filler), "/filler:%u", (unsigned)pt->filler);
				snprintf(bc->name, sizeof(bc->name), "sites/%s%s/%s%s", form, rest,
					 m ? "shared" : "private", filler);
				/* A planted 0 is the same loop as the baseline's: the null
				 * case. The others calibrate in their first run. */
				if (planted)
					bc->plant_fraction = plant[planted - 1];
				char full[300];
				snprintf(full, sizeof(full), "%s/real_time/threads:%d", bc->name, threads[k]);
				if (list)
					printf("%s\n", full);
				int match = !have_re || regexec(&re, full, 0, NULL, 0) == 0;
				if (match)
					want_sim[p] = 1;
				/* With fixed counts the library adds /iterations:N to the
				 * names its filter sees: the filter is applied here, to
				 * the names without it, and not passed on. */
				if (iters && !match) {
					pthread_barrier_destroy(&bc->phase);
					free(bc->rec);
					free(bc->ctr.value);
					free(bc->ctr.valid);
					free(bc->ctr.ops);
					free(bc->ctr.why);
					memset(bc, 0, sizeof(*bc));
					n_cases--;
					continue;
				}
				icb_bench *b = icb_use_real_time(icb_threads(icb_register(bc->name, bench_sites, bc),
									      threads[k]));
				/* An earlier process's count: no estimation here, and the
				 * same loop length in every process (and repetition). */
				int64_t it = ic_gb_iters_find(iters, full);
				if (it > 0)
					icb_iterations(b, it);
			}
		}
	}
	if (list)
		return 0;
	if (have_re)
		regfree(&re);

	/* Where counts come from, decided once and said once. */
	char note[1024] = "", buf[64];
	const char *source = "none";
	if (counters_mode == CTR_AUTO || counters_mode == CTR_PAPI) {
		use_papi = ic_counters_init();
		ic_counters_notice_once(stderr);
		source = use_papi ? "papi" : "none";
		snprintf(note, sizeof(note), "%s", ic_counters_note());
	}
	if (counters_mode == CTR_SIM || (counters_mode == CTR_AUTO && !use_papi)) {
		struct ic_sim_geometry geo = { topo.l1i_size, topo.l1i_assoc, topo.l1i_line };
		char why[512] = "";
		if (geo.size <= 0 || geo.assoc <= 0 || geo.line <= 0) {
			snprintf(why, sizeof(why), "hwloc reports no L1i geometry to simulate");
		} else if (ic_sim_run(points, n_points, want_sim, &geo, sim_cache, sim, why, sizeof(why)) == 0) {
			source = "sim";
			snprintf(note + strlen(note), sizeof(note) - strlen(note),
				 "%svalgrind callgrind cache simulation, L1i %ld B %ld-way %ld B lines (hwloc), "
				 "one thread, private queue; l1i_miss_per_op and instr_per_op are simulated",
				 note[0] ? "; " : "", geo.size, geo.assoc, geo.line);
		}
		if (why[0]) {
			fprintf(stderr, "sites_bench: no simulated counts: %s\n", why);
			snprintf(note + strlen(note), sizeof(note) - strlen(note), "%sno simulation: %s",
				 note[0] ? "; " : "", why);
		}
	}
	if (counters_mode == CTR_NONE)
		snprintf(note, sizeof(note), "counters not requested (--counters none)");
	if (sim_only) {
		printf("%s\n", source);
		ic_topo_close();
		return 0;
	}

	/* Pinning is tried per thread in every run (the label says how each
	 * went); the context says whether every thread asked for can be bound. */
	int max_t = 0;
	for (int k = 0; k < n_threads; k++)
		if (threads[k] > max_t)
			max_t = threads[k];
	icb_add_context("counter_source", source);
	icb_add_context("counter_note", note);
	icb_add_context("cpu_model", topo.cpu_model);
	snprintf(buf, sizeof(buf), "%d", topo.cores);
	icb_add_context("cores", buf);
	icb_add_context("smt", topo.smt ? "true" : "false");
	icb_add_context("core_kinds", topo.kinds);   /* hybrid CPUs: the kind threads run on */
	char cpus[512], placement[1024];
	icb_add_context("pinned", bind_probe_all(max_t, cpus, sizeof(cpus), placement, sizeof(placement))
			? "true" : "false");
	icb_add_context("cores_used", cpus);
	icb_add_context("placement", placement);
	icb_add_context("oversubscribed", max_t > topo.pus ? "true" : "false");
	const struct { const char *key; long v; } sizes[] = {
		{ "l1i_size", topo.l1i_size }, { "l1i_assoc", topo.l1i_assoc }, { "l1i_line", topo.l1i_line },
		{ "l2_size", topo.l2_size }, { "l3_size", topo.l3_size },
	};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		snprintf(buf, sizeof(buf), "%ld", sizes[i].v);
		icb_add_context(sizes[i].key, sizes[i].v > 0 ? buf : "");
	}
	icb_add_context("lock", IC_LOCK_NAME);
	/* How the sites were built: registers, sites per caller. */
	icb_add_context("codegen", IC_CODEGEN_NAME);
	snprintf(buf, sizeof(buf), "%u", n_points ? (unsigned)points[0]->per_caller : 0u);
	icb_add_context("per_caller", n_points ? buf : "");
	/* What the sites call: one body per build, or the queue . */
	icb_add_context("body", n_points && points[0]->body ? points[0]->body->name : "queue");
	icb_add_context("compiler", IC_COMPILER_NAME);
	icb_add_context("cflags", IC_CFLAGS_NAME);
	icb_add_context("lto", IC_LTO_NAME);
	char planted[128] = "";
	for (int i = 0; i < n_plant; i++)
		snprintf(planted + strlen(planted), sizeof(planted) - strlen(planted), "%s%g", i ? "," : "", plant[i]);
	icb_add_context("planted", planted);
	/* What moved this process's code and stack. */
	icb_add_context("layout_variant", layout_variant);
	icb_add_context("layout_seed", ic_layout_seed);
	icb_add_context("iterations", iters ? "reused" : "estimated");
	icb_add_context("process", process);
	const char *pad = getenv("IC_ENV_PAD");
	snprintf(buf, sizeof(buf), "%zu", pad ? strlen(pad) : 0);
	icb_add_context("env_pad", buf);
	/* The machine's state at the start (common/machine_state.h); IC_MACHINE_ROOT: a fake tree. */
	struct ic_mstate mstate;
	ic_mstate_read(getenv("IC_MACHINE_ROOT"), IC_MSTATE_SAMPLE_MS, &mstate);
	for (size_t i = 0; i < mstate.n; i++)
		icb_add_context(mstate.item[i].key, mstate.item[i].value);

	size_t ran = icb_run_specified();
	icb_shutdown();
	/* The names as an estimating process gives them (the library adds the
	 * fixed count to each name). */
	if (iters && bench_out) {
		char why[512];
		if (ic_gb_iters_strip_names(bench_out, why, sizeof(why)) != 0) {
			fprintf(stderr, "sites_bench: %s\n", why);
			ran = 0;
		}
	}
	ic_gb_iters_free(iters);
	ic_topo_close();
	return ran > 0 ? 0 : 1;
}
