/* The sweep's driver (cmd/sweep): run.sh checks every option, installs what is missing and hands over once, the
 * checked settings on stdin. A short-lived run: its strings (sw_fmt's, the small files it reads) live until it exits. */
#ifndef IC_SWEEP_DRIVER_H
#define IC_SWEEP_DRIVER_H

#include <stddef.h>
#include <stdlib.h>
#include <sys/types.h>

#include "kit.h"
#include "run_conf.h"

/* One build of the sweep, in its own tree (run.sh's plan_builds names it). */
struct sw_tree {
	const char *dir, *cc, *cflags, *codegen;
	const char **args;   /* its CMake arguments */
	size_t n_args;
	char **runs;         /* what its bench runs (sites_bench --plan): name and N, two a run */
	size_t n_runs;
};

struct sweep {
	struct ic_settings s;   /* run.conf's settings, then the run's own (conf.c) */
	const char *top, *cmdline;
	char *dir;              /* the results directory */
	int resume;
	long jobs;
	struct sw_tree *tree;
	size_t n_tree;
	const char *series;     /* the series in words, for the terminal */
	const char *counter_source;
};

/* conf.c: the settings, run.conf and the run's identity; builds.c (from sw_configure on): the
 * trees and the bench's command line. */
void sw_conf_read(struct sweep *sw);   /* stdin, as run.sh hands them over */
void sw_conf_read_settings(struct sweep *sw);   /* stdin's, no tree needed */
#define sw_get(sw, key) ic_settings_get(&(sw)->s, (key))
#define sw_long(sw, key) strtol(sw_get(sw, key), NULL, 10)
#define sw_double(sw, key) strtod(sw_get(sw, key), NULL)
#define sw_set(sw, key, value) ic_settings_set(&(sw)->s, (key), (value))
void sw_conf_save(const struct sweep *sw);   /* DIR/run.conf, atomically */
void sw_resolve(struct sweep *sw);           /* the defaults that need the machine */
char *sw_points(const struct sweep *sw);     /* gen's specs, ';'-joined */
void sw_variant_seeds(struct sweep *sw);     /* run.conf's variant_seeds */
void sw_read_build_lock(struct sweep *sw);
/* run.conf's build_source, build_cc, build_cflags set for a new run; a resume of other code, cc or lock: exit 1. */
void sw_identity(struct sweep *sw);
/* DIR/STEM EXT, build b's DIR/STEM-b<b> EXT for b > 0 (malloc'd). */
char *sw_file(const struct sweep *sw, const char *stem, size_t b, const char *ext);
/* dir configured (from sw's top) as a release build of points (';'-joined) at per_caller, or as is (NULL), then args. */
void sw_configure(const struct sweep *sw, const char *points, const char *dir, const char *const *args, size_t n);
void sw_build(const char *dir, const char *const *targets, size_t n, const char *label, long jobs);
void sw_build_all(struct sweep *sw);
/* Bench plan (sites_bench --plan): a line per run, columns named by the first. Each line's fields of the n (<= 8)
 * columns in col into *rows (n a line, text cut in place; malloc'd/NULL); lines, or -1 if a column/field is missing. */
long sw_plan_rows(char *text, const char *const *col, size_t n, char ***rows);
/* sites_bench's argv (bin: it or a variant; malloc'd): the settings' threads, modes and plant after bin, then args'
 * and more's (NULL-ended lists; more may be NULL). */
char **sw_bench_argv(const struct sweep *sw, char *bin, char *const *args, char *const *more);
/* One process of bin into DIR/raw/KEY.json, output in DIR/log/KEY.txt: the runs in file runs at reps and min_time,
 * interleaved at random, under env, then more (malloc'd, freed). 0, or -1 after its log's tail. */
int sw_bench_process(const struct sweep *sw, char *bin, const char *key, const char *runs, const char *env,
		     char *const *more);
struct ic_topo_info;
/* hwloc's, or the cores alone (the sizes -1: ic_topo_describe sets them so before it fails) */
void sw_topology(struct ic_topo_info *t, int *known);

/* console.c: all lines under one prefix; phase lines carry the time so far and, once known (sw_eta >= 0), time left. */
extern double sw_started;
extern long sw_eta;
double sw_now(void);
__attribute__((format(printf, 2, 3))) void sw_line(int phase, const char *fmt, ...);
#define sw_say(...) sw_line(0, __VA_ARGS__)
#define sw_phase(...) sw_line(1, __VA_ARGS__)
#define sw_fail(...) ic_die(1, __VA_ARGS__)   /* ic_prog is the prefix */
void sw_tail(int n, const char *log);
__attribute__((format(printf, 1, 2))) char *sw_fmt(const char *fmt, ...);   /* malloc'd */
#define sw_read(path) ic_read_path((path), &(size_t){ 0 })   /* a file's text, or NULL */
void sw_cat(const char *path);   /* a file's text onto stdout, as it is */
char *sw_tr(char *s, char from, char to);   /* each from in s turned to, in place; a trailing one goes */
const char *sw_fmt_s(long s, char *buf, size_t cap);

/* A program's run, output into files (NULL: ours; err SW_SAME: where out goes), NAME=VALUE added to its environment;
 * its exit status (128 + signal number if one ended it). A signal to us stops the child, then the sweep (sw_stop). */
#define SW_SAME ((const char *)1)
pid_t sw_spawn(char *const argv[], const char *out, const char *err, const char *env);
int sw_wait_s(pid_t pid, double s);   /* s < 0: until it ends; -1: it still runs after s seconds */
int sw_run(char *const argv[], const char *out, const char *err, const char *env);
void sw_sleep(double s);
extern volatile int sw_signal;
void sw_catch(void (*stop)(void));   /* SIGINT and SIGTERM from here on: stop at the next wait */

/* File lock till exit or fd close (children inherit it; wait: or refuse); machine lock, nested, with holder's line. */
int sw_lock(const char *file, const char *what, int wait, const char *cmdline);
void sw_measure_begin(const char *what, const char *cmdline, const char *top);
void sw_measure_end(void);
extern int sw_measure_depth;

/* sequence.c: the sweep, and what a watch shares of it: its trees made and locked (waiting); sw->dir made, locked and
 * empty (out's, or results/PREFIX<time>, not -p: two runs in one second must not share one); thereafter an interrupt
 * clears its .tmp files, says said and exits 130; the machine's state (read only) into path. */
void sw_sweep(struct sweep *sw);
void sw_lock_trees(const struct sweep *sw);
void sw_results_dir(struct sweep *sw, const char *prefix);
void sw_catch_run(struct sweep *sw, const char *said);
void sw_machine_state(const struct sweep *sw, const char *path);

#endif /* IC_SWEEP_DRIVER_H */
