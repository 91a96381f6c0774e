/* One run of a point on each of its threads (ic_case_run), the timed loop in batches of
 * one pass; thread 0 reports the run's counters and placement once all are done. */
#define _GNU_SOURCE
#include "sites_cases.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kit.h"
#include "opt_barrier.h"
#include "point_name.h"

static int use_papi;             /* decided once, before any benchmark runs */

void ic_measure_use_papi(int on)
{
	use_papi = on;
}

void ic_case_alloc(struct ic_case *bc)
{
	size_t nt = (size_t)bc->threads;

	bc->rec = ic_xalloc(calloc(nt, sizeof(*bc->rec)));
	bc->ctr.value = ic_xalloc(calloc(nt, sizeof(*bc->ctr.value)));
	bc->ctr.valid = ic_xalloc(calloc(nt, sizeof(*bc->ctr.valid)));
	bc->ctr.ops = ic_xalloc(calloc(nt, sizeof(*bc->ctr.ops)));
	bc->ctr.why = ic_xalloc(calloc(nt, sizeof(*bc->ctr.why)));
	/* glibc's barrier fails for a count of 0 only. */
	pthread_barrier_init(&bc->phase, NULL, (unsigned)bc->threads);
	for (size_t i = 0; i < nt; i++)
		bc->ctr.why[i] = bc->rec[i].why;
}

/* Seconds: CLOCK_REALTIME for the run's start, CLOCK_MONOTONIC for calibration. */
static double seconds_on(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Dependent adds that the compiler cannot fold: the planted cost. */
static void plant_delay(uint64_t iters)
{
	uint64_t x = 0;
	for (uint64_t i = 0; i < iters; i++)
		x = icb_launder_u64(x + i);
	icb_sink_u64(x);
}

/* Tests: IC_FAULT_SETUP_THREAD=k fails thread k's set-up, which must not hang the others. */
static int setup_fault(int ti)
{
#ifdef IC_FAULT_INJECTION
	const char *k = getenv("IC_FAULT_SETUP_THREAD");
	return k && atoi(k) == ti;
#else
	(void)ti;
	return 0;
#endif
}

/* Thread 0, once all have stopped: the run's counters from all threads' counts
 * (absent when any thread's is), and the placement. */
static void report_run(icb_state *st, struct ic_case *bc, int n)
{
	char *label = NULL, why[256] = "";
	size_t size;
	FILE *f = ic_xalloc(open_memstream(&label, &size));
	int moved = 0, unbound = 0;

	if (use_papi) {
		double per_op[IC_CTR_COUNT];
		int ok[IC_CTR_COUNT];
		/* The canary's floor: the mark's own instructions per site (its add and
		 * its filler's); fewer, and the counts are not of this work. */
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
		fprintf(f, "%s%d", i ? "," : "cpus:", bc->rec[i].cpu_end);
		moved |= bc->rec[i].cpu_end != bc->rec[i].cpu_setup;
		unbound |= bc->rec[i].kind == IC_BIND_NONE;
	}
	for (int i = 0; i < n; i++)
		fprintf(f, "%s%s", i ? "," : " bind:", ic_bind_kind_name(bc->rec[i].kind));
	fprintf(f, "%s%s", unbound ? " unpinned" : " pinned", moved ? " moved" : "");
	if (why[0])
		fprintf(f, "; counters: %s", why);
	if (fclose(f) == 0)
		icb_set_label(st, label);
	free(label);
}

static void plant_calibrate(struct ic_case *bc, struct ic_site_thread *t, int ti);

/* One run of a point on one thread: bind, allocate and touch on the bound
 * core, warm up, then the library releases all threads together. Every thread
 * reaches every barrier, the library's (first and last keep_running calls) too,
 * even when its set-up failed: one returning early would hang the others. */
void ic_case_run(icb_state *st, void *arg)
{
	struct ic_case *bc = arg;
	const struct ic_point *pt = bc->pt;
	int ti = icb_thread_index(st), n = icb_thread_count(st);
	struct ic_thread_rec *rec = &bc->rec[ti];
	const char *err = NULL;
	char why[256];

	if (ti == 0)
		bc->rep_start_s = seconds_on(CLOCK_REALTIME);
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
	/* The planted cost, calibrated once per case in the run it joins: all threads, its mode's queue. */
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
		icb_counter_set(st, IC_REP_START_COUNTER, bc->rep_start_s, 0);
		report_run(st, bc, n);
		if (bc->shared)
			ic_site_shared_free(&bc->sh);
		bc->sh_ok = 0;
	}
	/* Threads the main thread (thread 0) creates next inherit its mask. */
	ic_topo_unbind_thread();
}

/* One loop on every thread of the run at once (t NULL: a thread whose set-up
 * failed only keeps step): passes, each followed by plant_delay(iters) when
 * iters > 0 (the planted copy's); unit > 0 times plant_delay(unit) alone
 * instead, per iteration. The threads' mean seconds per pass, on every thread. */
static double plant_loop_all(struct ic_case *bc, struct ic_site_thread *t, int ti, uint64_t iters,
			     uint64_t unit)
{
	const struct ic_point *pt = bc->pt;   /* a local: no reload after each opaque pass */
	uint64_t passes = 1 + 500000 / pt->sites;
	double s = 0, sum = 0, t0;
	int k = 0;

	pthread_barrier_wait(&bc->phase);
	if (t && unit) {
		t0 = seconds_on(CLOCK_MONOTONIC);
		plant_delay(unit);
		s = (seconds_on(CLOCK_MONOTONIC) - t0) / (double)unit;
	} else if (t) {
		t0 = seconds_on(CLOCK_MONOTONIC);
		for (uint64_t p = 0; p < passes; p++) {
			pt->pass(&t->ctx);
			if (iters)
				plant_delay(iters);
		}
		s = (seconds_on(CLOCK_MONOTONIC) - t0) / (double)passes;
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

/* Delay iterations that make the planted loop plant_fraction slower than the plain one, in
 * the run it joins: its thread count and mode, every thread looping (a contended pass on a
 * shared queue takes longer, and so must the planted share). The delay's cost alone is a
 * first guess: after a pass it overlaps the pass's tail out of order and adds less (a
 * nominal 3% came out at 2.4%); so the guess is corrected twice by what it adds in the loop
 * it joins, best of 6 interleaved loops of each kind (the minimum: undisturbed). Every
 * thread computes the same figure from the same means; thread 0 keeps it. */
static void plant_calibrate(struct ic_case *bc, struct ic_site_thread *t, int ti)
{
	double pass_s = 1e30, unit_s = 1e30, fraction = bc->plant_fraction;

	for (int trial = 0; trial < 3; trial++) {
		pass_s = fmin(pass_s, plant_loop_all(bc, t, ti, 0, 0));
		unit_s = fmin(unit_s, plant_loop_all(bc, t, ti, 0, 100000));
	}
	double iters = unit_s > 0 && pass_s < 1e30 ? fraction * pass_s / unit_s : 1;
	for (int round = 0; round < 2 && iters >= 1; round++) {
		double plain = 1e30, planted = 1e30;
		for (int trial = 0; trial < 6; trial++) {
			plain = fmin(plain, plant_loop_all(bc, t, ti, 0, 0));
			planted = fmin(planted, plant_loop_all(bc, t, ti, (uint64_t)(iters + 0.5), 0));
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
