/* Simulated L1 instruction-cache counts, for machines where no hardware
 * counter can be read. The bench re-runs itself under valgrind's callgrind
 * with --cache-sim=yes and this machine's L1i geometry (from hwloc); in that
 * child, client requests limit collection to the loop of passes, one dump per
 * point. Results may be kept in a cache file, keyed by the binary's content,
 * the geometry and the point, so each point of a binary is simulated once. */
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

/* Simulate each point whose want[i] is set, filling res[i]. Points found in
 * cache_path (if not NULL) with the same geometry are not run again; new ones
 * are added to it (rewritten atomically). Returns 0, or -1 with a reason in
 * why when valgrind could not run at all. */
int ic_sim_run(const struct ic_point *const *points, size_t n, const int *want,
	       const struct ic_sim_geometry *geo, const char *cache_path,
	       struct ic_sim_result *res, char *why, size_t why_len);

/* The child's side, under valgrind: run the named points with collection
 * limited to their passes. Returns a process exit code. */
int ic_sim_child(const struct ic_point *const *points, int argc, char **argv);

/* Passes counted per point. The child runs four stretches, each ended by a
 * dump: two warm-up stretches of 2 passes (not counted), one of 2 passes
 * and one of 2 + IC_SIM_PASSES; the last less the one before is the count
 * of IC_SIM_PASSES passes, the stretches' fixed cost cancelled. Under LRU
 * the cache holds the same lines at the start of every pass once warm (the
 * pass is the same sequence of fetches each time), so each counted pass
 * counts the same: a few give the per-site figure that many do (the same
 * instructions; the misses but for at most one per measurement, a boundary
 * effect of callgrind's dump; tests/test_bench_sim.sh). Ten keep that one
 * below 0.01 per site at N = 16, in 14 passes a point where 200,000 sites
 * were run before. */
#define IC_SIM_PASSES 10u
/* Most valgrinds run at once, one per CPU up to this. */
#define IC_SIM_SHARDS_MAX 16
/* Another count of passes (0: IC_SIM_PASSES), for the check of the above. */
void ic_sim_set_passes(unsigned passes);

/* A 16-hex-digit id of this program's own file (/proc/self/exe): the
 * simulation cache's key, so a rebuilt or relinked binary simulates again
 * and an unchanged one never does. 0, or -1 if the file cannot be read. */
int ic_sim_binary_id(char *out, size_t len);

#endif
