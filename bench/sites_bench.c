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
 * The JSON context holds every key of common/context_keys.def
 * (sites_context.c); the process's end is written into the --benchmark_out
 * file after the run. Each run's label says where every thread ran and how
 * it was placed, and why any counter is absent (sites_measure.c).
 */
#include <stdio.h>
#include <string.h>

#include "counters.h"
#include "gbench_c.h"
#include "kit.h"
#include "sim.h"
#include "sites_cases.h"
#include "sites_context.h"
#include "sites_options.h"
#include "topology.h"

/* The built points' table (gen/points.cmake); tests link a smaller one. */
#ifndef IC_POINTS_TABLE
#define IC_POINTS_TABLE sites_points
#endif
extern const struct ic_point *const IC_POINTS_TABLE[];

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
	ic_context_begin();
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
	ic_context_write(&(struct ic_context_in){ .counter_source = source, .counter_note = note,
		.topo = &topo, .opts = &o, .points = points, .n_points = cs->n_points });
	size_t ran = icb_run_specified();
	ic_context_end();
	icb_shutdown();
	if (o.bench_out && ran > 0) {
		char why[512];
		if (ic_context_finish(o.bench_out, o.iters != NULL, why, sizeof(why)) != 0) {
			fprintf(stderr, "sites_bench: %s\n", why);
			ran = 0;
		}
	}
	json_decref(o.iters);
	ic_topo_close();
	return ran > 0 ? 0 : 1;
}
