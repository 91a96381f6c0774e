/* sites_bench's own flags (sites_bench.c lists them). They are taken out of
 * argv before Google Benchmark reads the rest. */
#ifndef IC_SITES_OPTIONS_H
#define IC_SITES_OPTIONS_H

#include "counters.h"
#include "gb_iterations.h"

/* Most thread counts one --threads list may give, and the largest count. */
#define IC_OPTS_THREADS_MAX 16
#define IC_OPTS_THREAD_COUNT_MAX 256
/* Most --plant fractions. */
#define IC_OPTS_PLANT_MAX 8

/* What --list and --plan print instead of running. */
enum ic_print { IC_PRINT_NONE, IC_PRINT_LIST, IC_PRINT_PLAN };

struct ic_opts {
	enum ic_counters_mode counters;
	int threads[IC_OPTS_THREADS_MAX], n_threads;   /* 0: 1 and every core (main) */
	int modes_private, modes_shared;
	double plant[IC_OPTS_PLANT_MAX];
	int n_plant;
	unsigned sim_passes;            /* 0: sim.h's default */
	const char *codesize_path;
	const char *sim_cache;          /* --sim-cache, or the file --sim-cache-dir names */
	const char *run_list;           /* --run-list FILE: the names to run */
	const char *filter;             /* --benchmark_filter, as given */
	const char *bench_out;          /* --benchmark_out, when its format is JSON */
	const char *process, *layout_variant;
	json_t *iters;                  /* --iterations-from, loaded (gb_iterations.h) */
	enum ic_print print;
	int sim_only;
	char sim_cache_buf[4096];
};

/* Take our flags out of argv (argc shrinks; --benchmark_* flags stay, but
 * the filter goes when --iterations-from applies it instead). Loads
 * --iterations-from and makes --sim-cache-dir. 0 ok; 2 bad input, or 1 a
 * failure, each after one line on stderr. */
int ic_opts_parse(int *argc, char **argv, struct ic_opts *o);

#endif
