/* The site benchmarks: every built point x SMP mode x thread count, through
 * Google Benchmark's C API. One iteration is one call site run: time per
 * iteration is time per call site, items per second call sites per second.
 *
 * Which runs there are is decided here and nowhere else (sites_cases.h says
 * the rule); run.sh asks --plan and runs what it prints. Our own flags,
 * before any --benchmark_* flag is read:
 *   --counters=auto|papi|sim|none  where l1i/instr/cycles per op come from
 *   --threads=LIST     thread counts (default: 1 and every core)
 *   --modes=LIST       private,shared (default both)
 *   --codesize=FILE    gen's accounting (default: the build's)
 *   --sim-cache=FILE   keep simulated counts in FILE (keyed by this binary's
 *                      content, the L1i geometry and the point)
 *   --sim-cache-dir=DIR  the same in DIR/<binary id>.csv: an unchanged binary
 *                      finds its counts across runs, a rebuilt one misses
 *   --sim-passes=P     passes simulated per point (default IC_SIM_PASSES, sim.h)
 *   --iterations-from=FILE.json  each benchmark with the iterations an
 *                      earlier process of this binary ran (its Google
 *                      Benchmark JSON), not estimated; others estimate
 *   --plant=LIST       calibration: also run each extern point with an extra
 *                      F of its own time per pass (timed in the run it joins),
 *                      as form extern_plant<F%>, for each F in LIST (0: a
 *                      second, unplanted copy, the null case)
 *   --process=K        which process of the run this is, for the record
 *   --layout-variant=K which layout variant of the run this binary is, for
 *                      the record (default 0); the binary knows its seed
 *   --run-list=FILE    run exactly the runs FILE names, one full name a line
 *                      (as --list prints them); a name this binary does not
 *                      have (with these --threads, --modes, --plant) is refused
 *   --sim-only         decide the counter source (simulating the selected
 *                      points into --sim-cache if it is sim), print it (papi,
 *                      sim or none), a line on where the counter columns come
 *                      from and why (counters.h), and the simulated counts'
 *                      file when sim, then exit: run.sh does this once with
 *                      the ordinary link, so every process reads the same counts
 *   --list             print the full names of every run and exit
 *   --plan             the same as a table: a header line, then per run its
 *                      full name, form, op, layout, order, sites, filler,
 *                      mode and threads, tab-separated
 * The JSON context holds every key of common/context_keys.def (written
 * through its table, then the machine's state, machine_* keys); the
 * process's end is written into the --benchmark_out file after the run. Each run's label says where every thread ran and how
 * it was placed, and why any counter is absent (sites_measure.c).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
#include "sites_options.h"
#include "topology.h"

/* The built points' table (gen/points.cmake); tests link a smaller one. */
#ifndef IC_POINTS_TABLE
#define IC_POINTS_TABLE sites_points
#endif
extern const struct ic_point *const IC_POINTS_TABLE[];

/* Which layout this binary is: defined per executable by bench/CMakeLists.txt
 * (the ordinary link: "") or written by bench/link_variant (a layout variant:
 * the seed its linker script was drawn from). The variant's number in a run
 * is the caller's (--layout-variant). */
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

/* Room for the keys that are numbers. */
static char number[KEY_COUNT][32];

static const char *num(enum ctx_key k, long v, int known)
{
	snprintf(number[k], sizeof(number[k]), "%ld", v);
	return known ? number[k] : "";
}

/* Every key that is known before the run, for the library to write;
 * points[0] names the body. */
static void context_write(const char *source, const char *note, const struct ic_topo_info *topo,
			  const struct ic_opts *o, const struct ic_point *const *points, size_t n_points)
{
	const char *v[KEY_COUNT] = { NULL };
	char cpus[512], placement[1024], planted[128] = "";
	int max_t = 0;

	/* Pinning is tried per thread in every run (the label says how each
	 * went); the context says whether every thread asked for can be bound. */
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
	/* How the sites were built: registers, sites per caller. The IC_*_NAME
	 * strings: bench/CMakeLists.txt passes every one. */
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

/* Rewrite the --benchmark_out JSON at path: process_end into its context
 * and, with strip, the library's /iterations:N out of the names. 0, or -1
 * with a one-line reason in why. */
static int context_finish(const char *path, int strip, char *why, size_t why_len)
{
	/* NaN and Infinity are written back as null, as every reader takes them. */
	json_t *root = ic_gb_json_load(path, why, why_len), *ctx;
	struct ic_atomic_file af;
	int rc = -1;

	if (!root)
		return -1;
	if (strip)
		ic_gb_iters_strip_names(root);
	ctx = json_object_get(root, "context");
	if (!json_is_object(ctx) ||
	    json_object_set_new(ctx, key_name[KEY_PROCESS_END], json_string(process_end)) != 0)
		snprintf(why, why_len, "%s: no context to add the end time to", path);
	else if (ic_atomic_open(&af, path, 0) != 0)
		snprintf(why, why_len, "%s", af.err);
	else if (json_dumpf(root, af.f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
		snprintf(why, why_len, "cannot write %s", path);
		ic_atomic_abort(&af);
	} else if (ic_atomic_commit(&af) != 0)
		snprintf(why, why_len, "%s", af.err);
	else
		rc = 0;
	json_decref(root);
	return rc;
}

/* Where counts come from, decided once and said once: PAPI where it can
 * count (auto, papi), else valgrind's simulation of the selected points
 * (auto, sim), else none. Returns the source; note says why, and
 * sentence says it for the console (counters.h). */
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
	if ((rc = ic_opts_parse(&argc, argv, &o)) != 0)
		return rc;
	if (o.sim_passes)
		ic_sim_set_passes(o.sim_passes);
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
