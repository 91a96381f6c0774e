/* The C API of gbench/ (gbench_c.h): register benchmarks from C, run
 * them with JSON output, and check the report says what the API asked for.
 * Only values the library computes exactly are compared; times are never. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "check.h"
#include "gbench_c.h"
#include "opt_barrier.h"

/* 100 iterations (t/reps) are exactly 4 batches, so nothing overshoots. */
#define BATCH 25
#define REPS_ITERATIONS 100
#define REPS_ARG_VALUE 31
#define ITEMS_RANGE 42

static atomic_int skipped_loop_entered;

static void spin_batches(icb_state *st)
{
	while (icb_keep_running_batch(st, BATCH))
		for (int64_t i = 0; i < BATCH; i++)
			icb_sink_u64((uint64_t)i);
}

/* Threads 2: each thread adds index + 1 (default flags sum over threads: 3)
 * and its thread count (averaged over threads: 2). */
static void bm_threads(icb_state *st, void *arg)
{
	(void)arg;
	spin_batches(st);
	icb_counter_set(st, "index_sum", icb_thread_index(st) + 1, 0);
	icb_counter_set(st, "thread_count", icb_thread_count(st), ICB_COUNTER_AVG_THREADS);
}

static void bm_reps(icb_state *st, void *arg)
{
	while (icb_keep_running_batch(st, BATCH)) {
		icb_pause_timing(st);
		icb_clobber_memory();
		icb_resume_timing(st);
		for (int64_t i = 0; i < BATCH; i++)
			icb_sink_u64((uint64_t)i);
	}
	icb_counter_set(st, "arg_seen", *(const int *)arg, 0);
	icb_counter_set(st, "plain", 7.0, 0);
	icb_counter_set(st, "invariant", 5.0, ICB_COUNTER_ITERATION_INVARIANT);
	icb_counter_set(st, "per_iteration", 10.0 * (double)icb_iterations_done(st),
			ICB_COUNTER_AVG_ITERATIONS);
	icb_counter_set(st, "inverted", 4.0, ICB_COUNTER_INVERT);
	icb_counter_set(st, "rate", 1.0, ICB_COUNTER_RATE);
}

static void bm_skip(icb_state *st, void *arg)
{
	(void)arg;
	icb_skip_with_error(st, "no widget");
	while (icb_keep_running_batch(st, BATCH))
		atomic_store(&skipped_loop_entered, 1);
}

/* The contract in gbench_c.h: a thread that fails before its loop still
 * calls keep_running, so a threaded run ends (returning early would hang). */
static void bm_skip_one_thread(icb_state *st, void *arg)
{
	(void)arg;
	if (icb_thread_index(st) == 1)
		icb_skip_with_error(st, "thread 1 failed its set-up");
	spin_batches(st);
}

static void bm_items(icb_state *st, void *arg)
{
	(void)arg;
	spin_batches(st);
	icb_counter_set(st, "range0", (double)icb_range(st, 0), 0);
	icb_set_items_processed(st, icb_iterations_done(st) * icb_range(st, 0));
	icb_set_label(st, "hello \"quoted\" back\\slash");
}

static int near(double got, double want)
{
	return fabs(got - want) <= 1e-9 * fabs(want);
}

static double number(json_t *run, const char *key)
{
	json_t *v = json_object_get(run, key);

	CHECK(json_is_number(v), "%s: no number %s",
	      json_string_value(json_object_get(run, "name")), key);
	return json_number_value(v);
}

static const char *string(json_t *run, const char *key)
{
	json_t *v = json_object_get(run, key);

	CHECK(json_is_string(v), "%s: no string %s",
	      json_string_value(json_object_get(run, "name")), key);
	return json_string_value(v);
}

/* The runs whose name starts with family, of run_type, and (aggregates only)
 * aggregate_name; returns how many, *first the first of them. */
static int find_runs(json_t *benchmarks, const char *family, const char *run_type,
		     const char *aggregate, json_t **first)
{
	size_t i;
	json_t *run;
	int n = 0;

	*first = NULL;
	json_array_foreach(benchmarks, i, run) {
		if (strncmp(string(run, "name"), family, strlen(family)) != 0 ||
		    strcmp(string(run, "run_type"), run_type) != 0)
			continue;
		if (aggregate && strcmp(string(run, "aggregate_name"), aggregate) != 0)
			continue;
		if (!*first)
			*first = run;
		n++;
	}
	return n;
}

static void register_all(void)
{
	static int reps_arg = REPS_ARG_VALUE;
	icb_bench *b;

	b = icb_register("t/threads", bm_threads, NULL);
	CHECK(b && icb_threads(b, 2) == b, "icb_threads does not return its bench");

	b = icb_register("t/reps", bm_reps, &reps_arg);
	b = icb_report_aggregates_only(icb_repetitions(icb_iterations(b, REPS_ITERATIONS), 3), 1);
	CHECK(b, "registering t/reps failed");

	CHECK(icb_register("t/skip", bm_skip, NULL), "registering t/skip failed");
	CHECK(icb_threads(icb_register("t/thread_skip", bm_skip_one_thread, NULL), 2),
	      "registering t/thread_skip failed");

	b = icb_register("t/items", bm_items, NULL);
	b = icb_use_real_time(icb_time_unit(icb_min_time(icb_arg(b, ITEMS_RANGE), 0.01), ICB_US));
	CHECK(b, "registering t/items failed");

	/* Failures pass NULL along a chain. */
	fprintf(stderr, "(an icb_register error about a missing name is expected next)\n");
	CHECK(icb_register(NULL, bm_skip, NULL) == NULL, "a nameless bench registered");
	CHECK(icb_threads(icb_arg(NULL, 1), 2) == NULL, "a NULL bench did not pass through");

	icb_add_context("icb_test_key", "icb-test-value");
}

static void check_report(json_t *root)
{
	json_t *benchmarks = json_object_get(root, "benchmarks");
	json_t *context = json_object_get(root, "context");
	json_t *run;

	CHECK(json_is_array(benchmarks), "no benchmarks array");
	CHECK(json_is_object(context), "no context object");
	CHECK(strcmp(string(context, "icb_test_key"), "icb-test-value") == 0,
	      "custom context value is %s", string(context, "icb_test_key"));

	CHECK(find_runs(benchmarks, "t/threads", "iteration", NULL, &run) == 1,
	      "expected one t/threads run");
	CHECK(strstr(string(run, "name"), "threads:2"), "name %s", string(run, "name"));
	CHECK(number(run, "threads") == 2, "threads %g", number(run, "threads"));
	CHECK(near(number(run, "index_sum"), 3), "index_sum %g", number(run, "index_sum"));
	CHECK(near(number(run, "thread_count"), 2), "thread_count %g",
	      number(run, "thread_count"));

	CHECK(find_runs(benchmarks, "t/reps", "iteration", NULL, &run) == 0,
	      "t/reps reported repetitions, not aggregates only");
	CHECK(find_runs(benchmarks, "t/reps", "aggregate", "median", &run) == 1,
	      "no t/reps median");
	CHECK(find_runs(benchmarks, "t/reps", "aggregate", "stddev", &run) == 1,
	      "no t/reps stddev");
	CHECK(find_runs(benchmarks, "t/reps", "aggregate", "mean", &run) == 1, "no t/reps mean");
	CHECK(number(run, "repetitions") == 3, "repetitions %g", number(run, "repetitions"));
	CHECK(strstr(string(run, "name"), "iterations:100"), "name %s", string(run, "name"));
	CHECK(near(number(run, "arg_seen"), REPS_ARG_VALUE), "arg_seen %g",
	      number(run, "arg_seen"));
	CHECK(near(number(run, "plain"), 7), "plain %g", number(run, "plain"));
	CHECK(near(number(run, "invariant"), 5.0 * REPS_ITERATIONS), "invariant %g",
	      number(run, "invariant"));
	CHECK(near(number(run, "per_iteration"), 10), "per_iteration %g",
	      number(run, "per_iteration"));
	CHECK(near(number(run, "inverted"), 0.25), "inverted %g", number(run, "inverted"));
	CHECK(number(run, "rate") > 0, "rate %g", number(run, "rate"));

	/* Reaching here at all shows the threaded skip did not hang. */
	CHECK(find_runs(benchmarks, "t/thread_skip", "iteration", NULL, &run) == 1,
	      "expected one t/thread_skip run");
	CHECK(json_is_true(json_object_get(run, "error_occurred")), "t/thread_skip has no error");

	CHECK(find_runs(benchmarks, "t/skip", "iteration", NULL, &run) == 1,
	      "expected one t/skip run");
	CHECK(json_is_true(json_object_get(run, "error_occurred")), "t/skip has no error");
	CHECK(strcmp(string(run, "error_message"), "no widget") == 0, "error_message %s",
	      string(run, "error_message"));
	CHECK(!atomic_load(&skipped_loop_entered), "t/skip entered its loop");

	CHECK(find_runs(benchmarks, "t/items", "iteration", NULL, &run) == 1,
	      "expected one t/items run");
	CHECK(strstr(string(run, "name"), "t/items/42/") && strstr(string(run, "name"), "real_time"),
	      "name %s", string(run, "name"));
	CHECK(strcmp(string(run, "time_unit"), "us") == 0, "time_unit %s",
	      string(run, "time_unit"));
	CHECK(near(number(run, "range0"), ITEMS_RANGE), "range0 %g", number(run, "range0"));
	CHECK(number(run, "items_per_second") > 0, "items_per_second %g",
	      number(run, "items_per_second"));
	/* The JSON reporter escapes: the label comes back whole. */
	CHECK(strcmp(string(run, "label"), "hello \"quoted\" back\\slash") == 0, "label %s",
	      string(run, "label"));
}

int main(void)
{
	char path[] = "/tmp/test_bench_gbench_api.XXXXXX";
	char out_flag[64];
	char prog[] = "test_bench_gbench_api", fmt[] = "--benchmark_out_format=json",
	     min_time[] = "--benchmark_min_time=0.01", bogus[] = "--bogus";
	char *args[] = {prog, out_flag, fmt, min_time, bogus, NULL};
	int argc = 5;
	json_error_t err;
	json_t *root;
	int fd;

	fd = mkstemp(path);
	CHECK(fd >= 0, "cannot create a temporary file from %s", path);
	close(fd);
	snprintf(out_flag, sizeof(out_flag), "--benchmark_out=%s", path);

	icb_initialize(&argc, args);
	CHECK(argc == 2 && strcmp(args[1], "--bogus") == 0,
	      "icb_initialize left argc %d, argv[1] %s", argc, args[1]);
	fprintf(stderr, "(an unrecognized-flag report for --bogus is expected next)\n");
	CHECK(icb_report_unrecognized(argc, args), "--bogus not reported");
	CHECK(!icb_report_unrecognized(1, args), "argv[0] alone reported");

	register_all();
	CHECK(icb_run_specified() == 5, "expected 5 benchmarks to run");
	icb_shutdown();

	root = json_load_file(path, 0, &err);
	unlink(path);
	CHECK(root, "%s:%d: %s", path, err.line, err.text);
	check_report(root);
	json_decref(root);
	return 0;
}
