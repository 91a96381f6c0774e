/* Which runs a point has, and their registration with Google Benchmark: the one home of the rule
 * of what runs (run.sh builds its processes, plan and ETA from what --plan prints): every point in
 * every mode and thread count asked for, except
 *   - solo points run at 1 thread on a private queue only: the forms point_names.def
 *     marks solo (the mark, the nolock forms) and every point with filler (IC_FILLER_SOLO);
 *   - a body without IC_BODY_SHARED_OK runs private only;
 *   - shared at 1 thread is the private case again: it runs only when private is not asked for;
 *   - --plant adds, for each fraction, a planted copy of every extern run (form
 *     extern_plant<F%>), in the same modes and thread counts.
 * Names: sites/<form>/<op>/<layout>/<order>/<N>/<mode>[/filler:<B>], to which the library adds
 * /real_time/threads:<T>. */
#ifndef IC_SITES_CASES_H
#define IC_SITES_CASES_H

#include <jansson.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "context_keys.def"
#include "counters.h"
#include "gbench_c.h"
#include "sim.h"
#include "site.h"
#include "site_run.h"
#include "topology.h"

/* ---- one run of a point (sites_measure.c): the benchmark function and what a case carries */

/* What one thread of a run did, for thread 0 to report once all are done. */
struct ic_thread_rec {
	int cpu_setup, cpu_end;      /* where set-up ran, where the loop ended */
	enum ic_bind_kind kind;
	char why[160];               /* why this thread's counts are absent */
	double cal_s;                /* calibration: this thread's last loop, s per pass (0: none) */
};

/* Per thread, as ic_ctr_combine takes them: counts, validity, sites run, ic_thread_rec.why. */
struct ic_thread_counts {
	long long (*value)[IC_CTR_COUNT];
	int (*valid)[IC_CTR_COUNT];
	double *ops;
	const char **why;
};

/* One registered run: a point in one mode at one thread count. */
struct ic_case {
	const struct ic_point *pt;
	char name[256];              /* as registered: the library adds /real_time/threads:T */
	int shared;                  /* mode shared: one queue (or body state) for all threads */
	int threads;                 /* the run's thread count */
	struct ic_site_shared sh;    /* made per run by thread 0, on its core */
	int sh_ok;                   /* ... and it could be */
	pthread_barrier_t phase;     /* the run's threads, between set-up steps */
	struct ic_thread_rec *rec;   /* one per thread */
	struct ic_thread_counts ctr; /* one per thread */
	double plant_fraction;       /* calibration: the planted share of a pass, 0 = none */
	uint64_t plant_iters;        /* ... its delay iterations, once calibrated in the run */
	const struct ic_sim_result *sim;
	double code_bytes_per_site, footprint_bytes;   /* < 0: unknown */
	double rep_start_s;          /* this run's IC_REP_START_COUNTER (context_keys.def) */
};

/* A case's per-thread records and barrier, once pt, shared, threads are set; out of memory exits. */
void ic_case_alloc(struct ic_case *bc);

/* Counts come from PAPI in every run (decided once, before any run). */
void ic_measure_use_papi(int on);

/* The benchmark function; arg is the struct ic_case. */
void ic_case_run(icb_state *st, void *arg);

/* sites_bench's own flags (sites_bench.c lists and parses them): the most
 * counts a --threads list may give, the largest count, the most --plant fractions. */
#define IC_OPTS_THREADS_MAX 16
#define IC_OPTS_THREAD_COUNT_MAX 256
#define IC_OPTS_PLANT_MAX 8

/* What --list and --plan print instead of running. */
enum ic_print { IC_PRINT_NONE, IC_PRINT_LIST, IC_PRINT_PLAN };

struct ic_opts {
	enum ic_counters_mode counters;
	int threads[IC_OPTS_THREADS_MAX], n_threads;   /* 0: 1 and every core (main) */
	int modes_private, modes_shared;
	double plant[IC_OPTS_PLANT_MAX];
	int n_plant;
	long sim_passes;                /* 0: sim.h's default */
	const char *codesize_path;
	const char *sim_cache;          /* --sim-cache, or the file --sim-cache-dir names */
	const char *run_list;           /* --run-list FILE: the names to run */
	const char *sim_dir, *iters_from;
	const char *filter;             /* --benchmark_filter, as given */
	const char *bench_out;          /* --benchmark_out, when its format is JSON */
	const char *process, *layout_variant;
	json_t *iters;                  /* --iterations-from, loaded (iters_load) */
	enum ic_print print;
	int sim_only;
	char sim_cache_buf[4096];
};

struct ic_cases {
	struct ic_case *v;
	size_t n;
	size_t n_points;
	int *want_sim;               /* per point: some selected run is its private 1-thread one */
	struct ic_sim_result *sim;   /* per point, filled by the counter decision */
};

/* Registers every run of points that --benchmark_filter (when the library
 * cannot apply it: --iterations-from) and --run-list select; --list and --plan
 * print them instead (unselected too), registering nothing. NULL after a line
 * on stderr, *rc the exit code (2: --run-list names a run this binary lacks, else 1). */
struct ic_cases *ic_cases_make(const struct ic_point *const *points, const struct ic_opts *o, int *rc);

#endif
