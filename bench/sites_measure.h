/* One run of a point: the benchmark function Google Benchmark calls on each
 * thread of a run, and what a case carries into it. */
#ifndef IC_SITES_MEASURE_H
#define IC_SITES_MEASURE_H

#include <pthread.h>
#include <stdint.h>

#include "context_keys.def"
#include "counters.h"
#include "gbench_c.h"
#include "sim.h"
#include "site.h"
#include "site_run.h"
#include "topology.h"

/* What one thread of a run did, for thread 0 to report once all are done. */
struct ic_thread_rec {
	int cpu_setup, cpu_end;      /* where set-up ran, where the loop ended */
	enum ic_bind_kind kind;
	char why[160];               /* why this thread's counts are absent */
	double cal_s;                /* calibration: this thread's last loop, s per pass (0: none) */
};

/* Per thread, in the arrays ic_ctr_combine takes: counts, their validity,
 * call sites run, and a pointer to ic_thread_rec.why. */
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

/* The per-thread records and the barrier of a case whose pt, shared and
 * threads are set. 0, or -1 when out of memory. */
int ic_case_alloc(struct ic_case *bc);

/* Counts come from PAPI in every run (decided once, before any run). */
void ic_measure_use_papi(int on);

/* The benchmark function; arg is the struct ic_case. */
void ic_case_run(icb_state *st, void *arg);

#endif
