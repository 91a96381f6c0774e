/* A C API over Google Benchmark 1.7.1 (Debian libbenchmark-dev), in plain C11 (and valid
 * C++) so that bench/ stays in C; gbench_c.cc is the only C++ behind it. No C++ type or
 * exception crosses it: every function is noexcept to C++ callers, and a C++ failure inside
 * becomes the return value stated below or, where there is none, one line on stderr and
 * abort(). A benchmark is a C function called once per run (and per thread of a threaded
 * run) with the run's state; its timed loop stays in C and crosses into the library once
 * per batch of n items (queue_microbench.c: the smallest program). Strings (names, labels,
 * errors, counter names, context) may hold quotes, backslashes, \b \f \n \r and \t, which
 * 1.7.1's JSON reporter escapes (StrEscape); other control characters pass raw and make the
 * JSON invalid, so keep them out. The console reporter prints strings as they are. */
#ifndef ICB_GBENCH_C_H
#define ICB_GBENCH_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ICB_NOEXCEPT noexcept
extern "C" {
#else
#define ICB_NOEXCEPT
#endif

typedef struct icb_state icb_state;	/* a benchmark::State, one per thread */
typedef struct icb_bench icb_bench;	/* a registered benchmark::internal::Benchmark */

typedef void (*icb_fn)(icb_state *st, void *arg);

enum icb_time_unit { ICB_NS, ICB_US, ICB_MS, ICB_S };

/* Counter flags, Counter::Flags' bits (0: as set, summed over threads); macros: INVERT is bit 31. */
#define ICB_COUNTER_RATE                (1u << 0)  /* divided by the run's seconds */
#define ICB_COUNTER_AVG_THREADS         (1u << 1)  /* divided by the thread count */
#define ICB_COUNTER_ITERATION_INVARIANT (1u << 2)  /* multiplied by the iterations */
#define ICB_COUNTER_AVG_ITERATIONS      (1u << 3)  /* divided by the iterations: per iteration */
#define ICB_COUNTER_INVERT              (1u << 31) /* 1/x, applied last */

/* Take --benchmark_* flags out of argv (argc shrinks); exits on --help or a bad value. */
void icb_initialize(int *argc, char **argv) ICB_NOEXCEPT;
/* Nonzero when argv holds arguments besides argv[0]; reports them on stderr. */
int icb_report_unrecognized(int argc, char **argv) ICB_NOEXCEPT;

/* Register fn(st, arg) under name (copied); NULL on failure, said on stderr. The
 * builders below return b and pass NULL through: a chain needs one check at its end. */
icb_bench *icb_register(const char *name, icb_fn fn, void *arg) ICB_NOEXCEPT;
/* One more instance with icb_range(st, 0) == x; call again for more. */
icb_bench *icb_arg(icb_bench *b, int64_t x) ICB_NOEXCEPT;
icb_bench *icb_threads(icb_bench *b, int threads) ICB_NOEXCEPT;
icb_bench *icb_repetitions(icb_bench *b, int n) ICB_NOEXCEPT;
/* min_time and iterations exclude each other (the library aborts). */
icb_bench *icb_min_time(icb_bench *b, double seconds) ICB_NOEXCEPT;
icb_bench *icb_iterations(icb_bench *b, int64_t n) ICB_NOEXCEPT;
icb_bench *icb_time_unit(icb_bench *b, enum icb_time_unit unit) ICB_NOEXCEPT;
icb_bench *icb_use_real_time(icb_bench *b) ICB_NOEXCEPT;
/* Nonzero: report only mean/median/stddev/cv of the repetitions. */
icb_bench *icb_report_aggregates_only(icb_bench *b, int only) ICB_NOEXCEPT;

/* Run what --benchmark_filter selects: the number run, 0 on failure (said on stderr). */
size_t icb_run_specified(void) ICB_NOEXCEPT;
void icb_shutdown(void) ICB_NOEXCEPT;
/* A key/value pair for the "context" object of the report. */
void icb_add_context(const char *key, const char *value) ICB_NOEXCEPT;

/* In a benchmark: loop while nonzero, n (> 0) items a call (overshooting by up to n). */
int icb_keep_running_batch(icb_state *st, int64_t n) ICB_NOEXCEPT;
int64_t icb_range(icb_state *st, int i) ICB_NOEXCEPT;
int icb_thread_index(icb_state *st) ICB_NOEXCEPT;	/* 0 .. count-1 */
int icb_thread_count(icb_state *st) ICB_NOEXCEPT;
/* Iterations this thread has run; after the loop, all of them. */
int64_t icb_iterations_done(icb_state *st) ICB_NOEXCEPT;
/* Reported as items_per_second. */
void icb_set_items_processed(icb_state *st, int64_t n) ICB_NOEXCEPT;
/* Set (not add to) counter name; flags: ICB_COUNTER_* or 0. */
void icb_counter_set(icb_state *st, const char *name, double value, unsigned flags) ICB_NOEXCEPT;
/* Mark the run failed with msg. Before the loop: icb_keep_running_batch then returns 0 at once,
 * but call it all the same, no early return: in a threaded run its first and last calls are the
 * library's start and stop barriers, and a thread that never reaches them leaves the others
 * waiting for ever. Inside the loop: finish the current batch and leave; the loop then ends. */
void icb_skip_with_error(icb_state *st, const char *msg) ICB_NOEXCEPT;
/* Only inside the loop; each pair costs a few clock reads. */
void icb_pause_timing(icb_state *st) ICB_NOEXCEPT;
void icb_resume_timing(icb_state *st) ICB_NOEXCEPT;
void icb_set_label(icb_state *st, const char *label) ICB_NOEXCEPT;

#ifdef __cplusplus
}
#endif

#endif /* ICB_GBENCH_C_H */
