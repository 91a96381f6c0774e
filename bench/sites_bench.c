/* The site benchmarks: every built point x SMP mode x thread count, through Google Benchmark's C
 * API. One iteration is one call site run: time per iteration is time per call site, items per
 * second call sites per second. Which runs there are is sites_cases.c's rule (sites_cases.h);
 * run.sh runs what --plan prints. Our flags, read before any --benchmark_* flag:
 *   --counters=auto|papi|sim|none  where l1i/instr/cycles per op come from
 *   --threads=LIST  thread counts (default: 1 and every core)
 *   --modes=LIST  private,shared (default both)
 *   --codesize=FILE  gen's accounting (default: the build's)
 *   --sim-cache=FILE  keep simulated counts in FILE (keyed by this binary's content, the L1i
 *     geometry and the point)
 *   --sim-cache-dir=DIR  the same in DIR/<binary id>.csv: an unchanged binary finds its counts
 *     across runs, a rebuilt one misses
 *   --sim-passes=P  passes simulated per point (default IC_SIM_PASSES, sim.h)
 *   --iterations-from=FILE.json  each benchmark with the iterations an earlier process of this
 *     binary ran (its Google Benchmark JSON), not estimated; others estimate
 *   --plant=LIST  calibration: also run each extern point with an extra F of its own time per
 *     pass (timed in the run it joins), as form extern_plant<F%>, for each F in LIST (0: a
 *     second, unplanted copy, the null case)
 *   --process=K  which process of the run this is, for the record
 *   --layout-variant=K  which layout variant of the run this binary is, for the record (default
 *     0); the binary knows its seed
 *   --run-list=FILE  run exactly the runs FILE names, one full name a line (as --list prints
 *     them); a name this binary does not have (with these --threads, --modes, --plant) is refused
 *   --sim-only  decide the counter source (simulating the selected points into --sim-cache if it
 *     is sim), print it (papi, sim or none), a line on where the counter columns come from and
 *     why (counters.h), and the simulated counts' file when sim, then exit: run.sh does this
 *     once with the ordinary link, so every process reads the same counts
 *   --list  print the full names of every run and exit
 *   --plan  the same as a table: a header line, then per run its full name, form, op, layout,
 *     order, sites, filler, mode and threads, tab-separated
 * The JSON context holds every key of common/context_keys.def (written through its table), then
 * the machine's state (machine_* keys); the process's end goes into the --benchmark_out file
 * after the run. Each run's label says where every thread ran, how it was placed, and why any
 * counter is absent (sites_measure.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "body.h"
#include "context_keys.def"
#include "counters.h"
#include "gb_json.h"
#include "gbench_c.h"
#include "kit.h"
#include "machine_state_read.h"
#include "sim.h"
#include "sites_cases.h"
#include "topology.h"

/* The built points' table (gen/points.cmake); tests link a smaller one. */
#ifndef IC_POINTS_TABLE
#define IC_POINTS_TABLE sites_points
#endif
extern const struct ic_point *const IC_POINTS_TABLE[];

/* ---- iteration counts from an earlier process (--iterations-from) ----- */

/* A repetition's run_name (name in older files); NULL for an aggregate,
 * whose "iterations" count repetitions, not loop turns. */
static const char *gb_rep_name(json_t *run)
{
	const char *type = json_string_value(json_object_get(run, "run_type"));
	const char *rn = json_string_value(json_object_get(run, "run_name"));

	if (type && strcmp(type, "iteration"))
		return NULL;
	return rn ? rn : json_string_value(json_object_get(run, "name"));
}

static int gb_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median wall time (s) of run name's repetitions in list; 0: none says. */
static double gb_median_wall_s(json_t *list, const char *name)
{
	double d[64];
	size_t n = 0, i;
	json_t *run;

	json_array_foreach(list, i, run) {
		const char *rn = gb_rep_name(run);
		json_t *t = json_object_get(run, "real_time"), *it = json_object_get(run, "iterations");
		double unit = ic_gb_unit_ns(json_string_value(json_object_get(run, "time_unit"))) * 1e-9;

		if (n < sizeof(d) / sizeof(*d) && rn && !strcmp(rn, name) && json_is_number(t) &&
		    json_is_integer(it) && unit > 0.0)
			d[n++] = json_number_value(t) * unit * (double)json_integer_value(it);
	}
	if (!n)
		return 0.0;
	qsort(d, n, sizeof(*d), gb_cmp_double);
	return n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
}

/* FILE's "benchmarks" as an object: each repetition's full run name
 * (sites/.../real_time/threads:1) -> its iterations per thread (a benchmark's repetitions share
 * the count: the library keeps the first one's). With min_time_s > 0 each is scaled so that a
 * repetition lasts min_time_s, by the median wall time of that run's repetitions: the library's
 * own estimate aims at 1.4 x min_time, so a sweep's later processes run repetitions of the
 * length asked for, all the same count. NULL with a one-line reason in why. */
static json_t *iters_load(const char *path, double min_time_s, char *why, size_t why_len)
{
	json_t *root = ic_gb_json_load(path, why, why_len), *list, *run, *it = NULL;
	size_t i;

	if (!root)
		return NULL;
	list = json_object_get(root, "benchmarks");
	if (!json_is_array(list))
		snprintf(why, why_len, "%s: no \"benchmarks\" list: not Google Benchmark's JSON", path);
	else
		it = ic_xalloc(json_object());
	json_array_foreach(it ? list : NULL, i, run) {
		const char *name = gb_rep_name(run);
		json_t *n = json_object_get(run, "iterations"), *threads = json_object_get(run, "threads");
		json_int_t per = json_integer_value(n);
		double wall;

		if (!name || !json_is_integer(n) || per < 1 || json_object_get(it, name))
			continue;
		if (min_time_s > 0.0 && (wall = gb_median_wall_s(list, name)) > 0.0)
			per = (json_int_t)ceil((double)per * min_time_s / wall);
		/* The JSON's count is all threads'; Iterations(n) is each thread's. */
		if (json_is_integer(threads) && json_integer_value(threads) > 1)
			per /= json_integer_value(threads);
		json_object_set_new(it, name, json_integer(per > 0 ? per : 1));
	}
	json_decref(root);
	return it;
}

/* Google Benchmark 1.7.1 names a benchmark with Iterations(n) <name>/iterations:<n>/...:
 * that part out of root's every name and run_name, as an estimating process names them. */
static void iters_strip_names(json_t *root)
{
	json_t *run;
	size_t i;

	json_array_foreach(json_object_get(root, "benchmarks"), i, run)
		for (int k = 0; k < 2; k++) {
			const char *key = k ? "run_name" : "name", *v = json_string_value(json_object_get(run, key));
			const char *p = v ? strstr(v, "/iterations:") : NULL;
			int digits = p ? (int)strspn(p + 12, "0123456789") : 0;

			if (digits)
				json_object_set_new(run, key, json_sprintf("%.*s%s", (int)(p - v), v, p + 12 + digits));
		}
}

/* ---- our flags, checked and taken out of argv ------------------------- */

static const char *opt_value(const char *arg, const char *name)
{
	size_t n = strlen(name);
	return strncmp(arg, name, n) == 0 && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* v, digits only and no longer than hi's, as a number in lo..hi; -1 when
 * it is not (the value is recorded as given, so its length is bounded). */
static long whole(const char *v, long lo, long hi)
{
	size_t len = strlen(v);
	unsigned long k = len && strspn(v, "0123456789") == len && (int)len <= snprintf(NULL, 0, "%ld", hi)
				  ? strtoul(v, NULL, 10) : ULONG_MAX;

	return k >= (unsigned long)lo && k <= (unsigned long)hi ? (long)k : -1;
}

/* Flags kept as given; refused with bad: empty, or (hi > 0) not a whole number lo..hi. */
static const struct opt_string {
	const char *name;
	size_t at;                   /* offsetof the field in struct ic_opts */
	long lo, hi;
	const char *bad;
} opt_strings[] = {
	{ "--codesize", offsetof(struct ic_opts, codesize_path), 0, 0, NULL },
	{ "--sim-cache", offsetof(struct ic_opts, sim_cache), 0, 0, NULL },
	{ "--iterations-from", offsetof(struct ic_opts, iters_from), 0, 0, NULL },
	{ "--sim-cache-dir", offsetof(struct ic_opts, sim_dir), 0, 0, "--sim-cache-dir: empty directory name" },
	{ "--run-list", offsetof(struct ic_opts, run_list), 0, 0, "--run-list: empty file name" },
	{ "--layout-variant", offsetof(struct ic_opts, layout_variant), 0, 999999999,
	  "--layout-variant must be a whole number, not '%s'" },
	{ "--process", offsetof(struct ic_opts, process), 0, 1000000, "--process must be a whole number, not '%s'" },
};

/* One of our flags into o: 0 ok, 2 bad, -1 not ours. */
static int parse_one(const char *a, struct ic_opts *o)
{
	static const char *const counters[] = { "auto", "papi", "sim", "none" };
	const char *v, *s;
	char *end = NULL;
	int bad;

	for (size_t k = 0; k < sizeof(opt_strings) / sizeof(*opt_strings); k++) {
		const struct opt_string *r = &opt_strings[k];

		if (!(v = opt_value(a, r->name)))
			continue;
		*(const char **)((char *)o + r->at) = v;
		return !r->bad || (r->hi ? whole(v, r->lo, r->hi) >= 0 : *v != '\0') ? 0 : ic_bad(r->bad, v);
	}
	if ((v = opt_value(a, "--counters"))) {
		for (int m = 0; m < 4; m++)
			if (!strcmp(v, counters[m])) {
				o->counters = (enum ic_counters_mode)m;
				return 0;
			}
		return ic_bad("--counters must be auto, papi, sim or none, not '%s'", v);
	}
	if ((v = opt_value(a, "--threads"))) {
		/* Empty items are skipped, as strtok does; past the most, ignored. */
		for (s = v, o->n_threads = bad = 0; !bad && o->n_threads < IC_OPTS_THREADS_MAX &&
		     *(s += strspn(s, ",")); s = end) {
			long t = strtol(s, &end, 10);
			bad = (*end && *end != ',') || t < 1 || t > IC_OPTS_THREAD_COUNT_MAX;
			o->threads[o->n_threads++] = (int)t;
		}
		return o->n_threads > 0 && !bad ? 0 : ic_bad("--threads must be a list of counts 1..256, not '%s'", v);
	}
	if ((v = opt_value(a, "--modes"))) {
		o->modes_private = strstr(v, "private") != NULL;
		o->modes_shared = strstr(v, "shared") != NULL;
		return o->modes_private || o->modes_shared ? 0
			: ic_bad("--modes must list private and/or shared, not '%s'", v);
	}
	if ((v = opt_value(a, "--sim-passes")))
		return (o->sim_passes = whole(v, 1, 100000)) > 0 ? 0
			: ic_bad("--sim-passes must be 1..100000, not '%s'", v);
	if ((v = opt_value(a, "--plant"))) {
		for (s = v, o->n_plant = 0; o->n_plant < IC_OPTS_PLANT_MAX; s = end + 1) {
			double f = strtod(s, &end);
			if (end == s || (*end && *end != ',') || !(f >= 0 && f < 1))
				return ic_bad("--plant must list fractions in [0, 1), not '%s'", v);
			o->plant[o->n_plant++] = f;
			if (!*end)
				return 0;
		}
		return ic_bad("--plant takes at most %d fractions", IC_OPTS_PLANT_MAX);
	}
	if (!strcmp(a, "--list"))
		o->print = IC_PRINT_LIST;
	else if (!strcmp(a, "--plan"))
		o->print = IC_PRINT_PLAN;
	else if (!strcmp(a, "--sim-only"))
		o->sim_only = 1;
	else
		return -1;
	return 0;
}

/* --sim-cache-dir=DIR: DIR/<this binary's id>.csv, DIR made when missing. */
static int sim_cache_in(const char *dir, struct ic_opts *o)
{
	char id[32];
	struct stat st;

	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return ic_bad("--sim-cache-dir: %s: %s", dir, strerror(errno));
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK) != 0)
		return ic_bad("--sim-cache-dir: %s: not a writable directory", dir);
	if (ic_sim_binary_id(id, sizeof(id)) != 0) {
		fprintf(stderr, "sites_bench: cannot read this program (/proc/self/exe)\n");
		return 1;
	}
	snprintf(o->sim_cache_buf, sizeof(o->sim_cache_buf), "%s/%s.csv", dir, id);
	o->sim_cache = o->sim_cache_buf;
	return 0;
}

/* Take our flags out of argv (argc shrinks; --benchmark_* stay, but not the
 * filter when --iterations-from applies it); load --iterations-from, make
 * --sim-cache-dir. 0 ok; 2 bad input, 1 a failure, each after a line on stderr. */
static int opts_parse(int *argc, char **argv, struct ic_opts *o)
{
	const char *out_format = "json", *v;
	double min_time = 0.0;
	int kept = 1, rc;
	char why[512];

	memset(o, 0, sizeof(*o));
	o->counters = IC_CTR_AUTO;
	o->modes_private = o->modes_shared = 1;
	o->codesize_path = IC_CODESIZE_CSV;
	o->process = o->layout_variant = "0";
	for (int i = 1; i < *argc; i++) {
		rc = parse_one(argv[i], o);
		if (rc > 0)
			return rc;
		if (rc == 0) {
			argv[i] = NULL;   /* ours: not the library's */
			continue;
		}
		if ((v = opt_value(argv[i], "--benchmark_filter")))
			o->filter = v;
		if ((v = opt_value(argv[i], "--benchmark_out")))
			o->bench_out = v;
		if ((v = opt_value(argv[i], "--benchmark_out_format")))
			out_format = v;
		if ((v = opt_value(argv[i], "--benchmark_min_time"))) {
			/* Seconds ("0.015", "0.015s"); a count ("100x"): no rescaling. */
			char *end;

			min_time = strtod(v, &end);
			if (end == v || (*end && strcmp(end, "s")))
				min_time = 0.0;
		}
	}
	/* The end time is written into a JSON file only. */
	if (strcmp(out_format, "json") != 0)
		o->bench_out = NULL;
	if (o->sim_cache && o->sim_dir)
		return ic_bad("--sim-cache and --sim-cache-dir: give one of them");
	if (o->sim_dir && (rc = sim_cache_in(o->sim_dir, o)) != 0)
		return rc;
	if (o->iters_from && !(o->iters = iters_load(o->iters_from, min_time, why, sizeof(why))))
		return ic_bad("--iterations-from: %s", why);
	/* With fixed counts the library's filter sees /iterations:N: the cases apply it instead. */
	for (int i = 1; i < *argc; i++)
		if (argv[i] && !(o->iters && opt_value(argv[i], "--benchmark_filter")))
			argv[kept++] = argv[i];
	*argc = kept;
	argv[kept] = NULL;
	return 0;
}

/* ---- the JSON context -------------------------------------------------- */

/* Which layout this binary is: "" (the ordinary link, bench/CMakeLists.txt) or
 * the seed bench/link_variant drew a variant's linker script from. The
 * variant's number in a run is the caller's (--layout-variant). */
extern const char ic_layout_seed[];

/* The table's keys, in its order; the writer's own names for them. */
#define CTX_KEY(e, name, build, word) KEY_##e,
#define CTX_NAME(e, name, build, word) #name,
enum ctx_key { IC_CONTEXT_KEYS(CTX_KEY) KEY_COUNT };
static const char *const key_name[KEY_COUNT] = { IC_CONTEXT_KEYS(CTX_NAME) };

/* "2026-12-04T10:11:12.345Z" */
#define IC_TIME_LEN 32
static char process_start[IC_TIME_LEN], process_end[IC_TIME_LEN];

static void utc_now(char *out)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(out, IC_TIME_LEN, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(out + n, IC_TIME_LEN - n, ".%03ldZ", ts.tv_nsec / 1000000);
}

/* Pinning as allowed here: bind a short-lived thread per index, as the benchmark will; record it. */
struct bind_probe {
	int index, cpu;
	enum ic_bind_kind kind;    /* IC_BIND_NONE: not bound */
};

static void *bind_probe_main(void *arg)
{
	struct bind_probe *p = arg;
	char why[256];

	if (ic_topo_bind_thread(p->index, NULL, &p->kind, why, sizeof(why)) == 0)
		p->cpu = ic_topo_current_cpu();
	return NULL;
}

/* 1 when every thread index below n could be bound; cpus: the list; placement: each one's kind. */
static int bind_probe_all(int n, char *cpus, size_t len, char *placement, size_t plen)
{
	int all = 1;
	size_t used = 0, pused = 0;

	cpus[0] = placement[0] = 0;
	for (int i = 0; i < n; i++) {
		struct bind_probe p = { .index = i, .cpu = -1, .kind = IC_BIND_NONE };
		pthread_t tid;

		if (pthread_create(&tid, NULL, bind_probe_main, &p) != 0 || pthread_join(tid, NULL) != 0)
			p.kind = IC_BIND_NONE;
		all &= p.kind != IC_BIND_NONE;
		if (p.kind != IC_BIND_NONE && used < len)
			used += (size_t)snprintf(cpus + used, len - used, "%s%d", used ? "," : "", p.cpu);
		if (pused < plen)
			pused += (size_t)snprintf(placement + pused, plen - pused, "%s%s", i ? "," : "",
						  ic_bind_kind_name(p.kind));
	}
	return all;
}

/* Room for the keys that are numbers. */
static char number[KEY_COUNT][32];

static const char *num(enum ctx_key k, long v, int known)
{
	snprintf(number[k], sizeof(number[k]), "%ld", v);
	return known ? number[k] : "";
}

/* Every key known before the run, for the library to write; points[0] names the body. */
static void context_write(const char *source, const char *note, const struct ic_topo_info *topo,
			  const struct ic_opts *o, const struct ic_point *const *points, size_t n_points)
{
	const char *v[KEY_COUNT] = { NULL };
	char cpus[512], placement[1024], planted[128] = "";
	int max_t = 0;

	/* Each run's label says how its pinning went; the context, whether every thread can be. */
	for (int k = 0; k < o->n_threads; k++)
		if (o->threads[k] > max_t)
			max_t = o->threads[k];
	for (int i = 0; i < o->n_plant; i++)
		snprintf(planted + strlen(planted), sizeof(planted) - strlen(planted), "%s%g", i ? "," : "",
			 o->plant[i]);
	const char *pad = getenv("IC_ENV_PAD");

	v[KEY_COUNTER_SOURCE] = source;
	v[KEY_COUNTER_NOTE] = note;
	v[KEY_CPU_MODEL] = topo->cpu_model;
	v[KEY_CORES] = num(KEY_CORES, topo->cores, 1);
	v[KEY_SMT] = topo->smt ? "true" : "false";
	v[KEY_CORE_KINDS] = topo->kinds;     /* hybrid CPUs: the kind threads run on */
	v[KEY_PINNED] = bind_probe_all(max_t, cpus, sizeof(cpus), placement, sizeof(placement))
		? "true" : "false";
	v[KEY_CORES_USED] = cpus;
	v[KEY_PLACEMENT] = placement;
	v[KEY_OVERSUBSCRIBED] = max_t > topo->pus ? "true" : "false";
	v[KEY_L1I_SIZE] = num(KEY_L1I_SIZE, topo->l1i_size, topo->l1i_size > 0);
	v[KEY_L1I_ASSOC] = num(KEY_L1I_ASSOC, topo->l1i_assoc, topo->l1i_assoc > 0);
	v[KEY_L1I_LINE] = num(KEY_L1I_LINE, topo->l1i_line, topo->l1i_line > 0);
	v[KEY_L2_SIZE] = num(KEY_L2_SIZE, topo->l2_size, topo->l2_size > 0);
	v[KEY_L3_SIZE] = num(KEY_L3_SIZE, topo->l3_size, topo->l3_size > 0);
	v[KEY_LOCK] = IC_LOCK_NAME;
	/* How the sites were built: registers, sites per caller (IC_*_NAME: bench/CMakeLists.txt). */
	v[KEY_CODEGEN] = IC_CODEGEN_NAME;
	v[KEY_PER_CALLER] = num(KEY_PER_CALLER, n_points ? (long)points[0]->per_caller : 0,
				   n_points > 0);
	/* What the sites call: one body per build, or the queue. */
	v[KEY_BODY] = n_points && points[0]->body ? points[0]->body->name : "queue";
	v[KEY_COMPILER] = IC_COMPILER_NAME;
	v[KEY_CFLAGS] = IC_CFLAGS_NAME;
	v[KEY_LTO] = IC_LTO_NAME;
	v[KEY_PLANTED] = planted;
	/* What moved this process's code and stack. */
	v[KEY_LAYOUT_VARIANT] = o->layout_variant;
	v[KEY_LAYOUT_SEED] = ic_layout_seed;
	v[KEY_ITERATIONS] = o->iters ? "reused" : "estimated";
	v[KEY_PROCESS] = o->process;
	v[KEY_ENV_PAD] = num(KEY_ENV_PAD, pad ? (long)strlen(pad) : 0, 1);
	v[KEY_PROCESS_START] = process_start;
	/* process_end: context_finish, once the run is over. */
	for (int k = 0; k < KEY_COUNT; k++)
		if (v[k])
			icb_add_context(key_name[k], v[k]);

	/* The machine's state at the start (common/machine_state_read.h); IC_MACHINE_ROOT: a fake tree. */
	struct ic_mstate mstate;
	ic_mstate_read(getenv("IC_MACHINE_ROOT"), IC_MSTATE_SAMPLE_MS, &mstate);
	for (size_t i = 0; i < mstate.n; i++)
		icb_add_context(mstate.item[i].key, mstate.item[i].value);
}

/* Rewrite the --benchmark_out JSON at path: process_end into its context and,
 * with strip, the library's /iterations:N out of the names; NaN and Infinity
 * become null, as every reader takes them. 0, or -1 with a line in why. */
static int context_finish(const char *path, int strip, char *why, size_t why_len)
{
	json_t *root = ic_gb_json_load(path, why, why_len), *ctx;
	struct ic_atomic_file af;
	int rc = 0;

	if (!root)
		return -1;
	if (strip)
		iters_strip_names(root);
	ctx = json_object_get(root, "context");
	if (!json_is_object(ctx) ||
	    json_object_set_new(ctx, key_name[KEY_PROCESS_END], json_string(process_end)) != 0)
		rc = ic_fail(why, why_len, "%s: no context to add the end time to", path);
	else if (ic_atomic_open(&af, path, 0) != 0)
		rc = ic_fail(why, why_len, "%s", af.err);
	else if (json_dumpf(root, af.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		rc = ic_fail(why, why_len, "cannot write %s", path);
		ic_atomic_abort(&af);
	} else if (ic_atomic_commit(&af) != 0)
		rc = ic_fail(why, why_len, "%s", af.err);
	json_decref(root);
	return rc;
}

/* Where counts come from, decided and said once: PAPI where it can count (auto, papi), else
 * valgrind's simulation of the selected points (auto, sim), else none. Returns the source;
 * note says why, sentence says it for the console (counters.h). */
static const char *counter_source(const struct ic_opts *o, const struct ic_topo_info *topo,
				  const struct ic_point *const *points, struct ic_cases *cs,
				  char *note, size_t len, char *sentence, size_t slen)
{
	const char *source = "none";
	char papi_why[512] = "", why[512] = "";   /* why: the simulation's failure */
	int papi = 0, papi_tried = 0;

	note[0] = '\0';
	if (o->counters == IC_CTR_AUTO || o->counters == IC_CTR_PAPI) {
		papi = ic_counters_init();
		papi_tried = 1;
		ic_counters_notice_once(stderr);
		source = papi ? "papi" : "none";
		snprintf(note, len, "%s", ic_counters_note());
		snprintf(papi_why, sizeof(papi_why), "%s", ic_counters_note());
	}
	ic_measure_use_papi(papi);
	if (o->counters == IC_CTR_SIM || (o->counters == IC_CTR_AUTO && !papi)) {
		struct ic_sim_geometry geo = { topo->l1i_size, topo->l1i_assoc, topo->l1i_line };
		size_t at = strlen(note);
		if (geo.size <= 0 || geo.assoc <= 0 || geo.line <= 0) {
			snprintf(why, sizeof(why), "hwloc reports no L1i geometry to simulate");
		} else if (ic_sim_run(points, cs->n_points, cs->want_sim, &geo, o->sim_cache, cs->sim, why,
				      sizeof(why)) == 0) {
			source = "sim";
			at += (size_t)snprintf(note + at, len - at,
				"%svalgrind callgrind cache simulation, L1i %ld B %ld-way %ld B lines (hwloc), "
				"one thread, private queue; l1i_miss_per_op and instr_per_op are simulated",
				at ? "; " : "", geo.size, geo.assoc, geo.line);
		}
		if (why[0] && at < len) {
			fprintf(stderr, "sites_bench: no simulated counts: %s\n", why);
			snprintf(note + at, len - at, "%sno simulation: %s", at ? "; " : "", why);
		}
	}
	if (o->counters == IC_CTR_NONE)
		snprintf(note, len, "counters not requested (--counters none)");
	ic_counter_sentence(o->counters, source, papi_tried, papi_why, why, sentence, slen);
	return source;
}

int main(int argc, char **argv)
{
	const struct ic_point *const *points = IC_POINTS_TABLE;
	struct ic_opts o;
	struct ic_topo_info topo;
	struct ic_cases *cs;
	char note[1024];
	int rc;

	ic_prog = "sites_bench";
	utc_now(process_start);
	if (argc > 1 && !strcmp(argv[1], "--ic-sim-child"))
		return ic_sim_child(points, argc - 2, argv + 2);
	if ((rc = opts_parse(&argc, argv, &o)) != 0)
		return rc;
	ic_sim_set_passes((unsigned)o.sim_passes);
	icb_initialize(&argc, argv);
	if (icb_report_unrecognized(argc, argv))
		return 2;
	if (ic_topo_open() != 0 || ic_topo_describe(&topo) != 0) {
		fprintf(stderr, "sites_bench: hwloc could not read this machine's topology\n");
		return 1;
	}
	if (o.n_threads == 0) {
		o.threads[o.n_threads++] = 1;
		if (topo.cores > 1)
			o.threads[o.n_threads++] = topo.cores;
	}
	if (!(cs = ic_cases_make(points, &o, &rc)))
		return rc;
	if (o.print != IC_PRINT_NONE)
		return fflush(stdout) == 0 ? 0 : 1;

	char sentence[1536];
	const char *source = counter_source(&o, &topo, points, cs, note, sizeof(note), sentence,
					    sizeof(sentence));
	if (o.sim_only) {
		printf("%s\n%s\n", source, sentence);
		if (!strcmp(source, "sim") && o.sim_cache)
			printf("%s\n", o.sim_cache);
		ic_topo_close();
		return 0;
	}
	context_write(source, note, &topo, &o, points, cs->n_points);
	size_t ran = icb_run_specified();
	utc_now(process_end);
	icb_shutdown();
	if (o.bench_out && ran > 0) {
		char why[512];
		if (context_finish(o.bench_out, o.iters != NULL, why, sizeof(why)) != 0) {
			fprintf(stderr, "sites_bench: %s\n", why);
			ran = 0;
		}
	}
	json_decref(o.iters);
	ic_topo_close();
	return ran > 0 ? 0 : 1;
}
