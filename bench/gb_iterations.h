/* Iteration counts from an earlier process's Google Benchmark JSON, so a
 * later process of the same binary registers each benchmark with them and
 * skips the library's estimation (sites_bench --iterations-from). */
#ifndef IC_GB_ITERATIONS_H
#define IC_GB_ITERATIONS_H

#include <jansson.h>
#include <stddef.h>

/* Read FILE's "benchmarks": each run of run_type "iteration", by its
 * run_name, with its iterations (repetitions of one benchmark share the
 * count: the library keeps the first repetition's). With min_time_s > 0
 * each count is scaled so that a repetition lasts min_time_s, from the
 * median wall time of that run's repetitions in FILE (real_time times the
 * iterations of all threads): the library's own estimate aims at 1.4 times
 * min_time, so the later processes of a sweep run repetitions of the
 * length asked for, all the same count. The counts come as an object: a
 * benchmark's full run name (sites/.../real_time/threads:1) -> its count
 * (json_integer_value of json_object_get: 0 when the file has none). NULL
 * with a one-line reason in why when the file cannot be read or is not
 * such a JSON. */
json_t *ic_gb_iters_load(const char *path, double min_time_s, char *why, size_t why_len);

/* Google Benchmark 1.7.1 names a benchmark registered with Iterations(n)
 * <name>/iterations:<n>/...: take that part out of every name and run_name
 * of a loaded JSON (root), so the names are those of an estimating
 * process. 1 when a name changed, 0 otherwise. */
int ic_gb_iters_strip_names(json_t *root);

#endif
