/* Simulated L1i counts, for machines where no hardware counter can be read: the bench
 * re-runs itself under valgrind's callgrind with --cache-sim=yes and this machine's L1i
 * geometry (hwloc); in that child, client requests limit collection to the loop of passes,
 * one dump per point. A cache file, keyed by the binary's content, the geometry and the
 * point, may keep the results, so each point of a binary is simulated once. */
#ifndef IC_SIM_H
#define IC_SIM_H

#include <stddef.h>
#include "site.h"

struct ic_sim_geometry {
	long size, assoc, line;    /* bytes, ways, bytes */
};

struct ic_sim_result {
	int valid;
	double instr_per_op;       /* Ir per call site, harness loop included */
	double l1i_miss_per_op;    /* I1mr per call site */
};

/* Simulate each point whose want[i] is set, filling res[i]; those in cache_path (if not
 * NULL) with the same geometry are not run again, new ones are added to it (rewritten
 * atomically). 0, or -1 with why when valgrind could not run at all. */
int ic_sim_run(const struct ic_point *const *points, size_t n, const int *want,
	       const struct ic_sim_geometry *geo, const char *cache_path,
	       struct ic_sim_result *res, char *why, size_t why_len);

/* The child, under valgrind: the named points, collecting their passes only; an exit code. */
int ic_sim_child(const struct ic_point *const *points, int argc, char **argv);

/* Passes counted per point. The child runs four stretches, each ended by a dump: two warm-ups
 * of 2 passes, then 2 and 2 + IC_SIM_PASSES; the last less the one before counts IC_SIM_PASSES
 * passes, the fixed cost cancelled. Once warm, LRU holds the same lines at every pass's start
 * (each pass fetches the same sequence), so a few passes give the per-site figure many do (the
 * same instructions; the misses but for at most one per measurement, a boundary effect of
 * callgrind's dump; tests/test_bench_sim.sh). Ten keep that one below 0.01 per site at N = 16,
 * in 14 passes a point where 200,000 sites were run before. */
#define IC_SIM_PASSES 10u
/* Most valgrinds run at once, one per CPU up to this. */
#define IC_SIM_SHARDS_MAX 16
/* Another count of passes (0: IC_SIM_PASSES), for the check of the above. */
void ic_sim_set_passes(unsigned passes);

/* A 16-hex-digit id of this program's file (/proc/self/exe), the simulation
 * cache's key: a rebuilt or relinked binary simulates again, an unchanged one
 * never does. 0, or -1 if the file cannot be read. */
int ic_sim_binary_id(char *out, size_t len);

#endif
