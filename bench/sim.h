/* Simulated L1 instruction-cache counts, for machines where no hardware
 * counter can be read. The bench re-runs itself under valgrind's callgrind
 * with --cache-sim=yes and this machine's L1i geometry (from hwloc); in that
 * child, client requests limit collection to the loop of passes, one dump per
 * point. Results may be kept in a cache file, keyed by the binary's content,
 * the geometry and the point, so each point of a binary is simulated once. */
#ifndef IC_SIM_H
#define IC_SIM_H

#include <stddef.h>
#include <stdint.h>
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

/* Passes simulated per point, after one warm-up pass that is not counted.
 * Under LRU the cache holds the same lines at the start of every pass after
 * the warm one (the pass is the same sequence of fetches each time), so
 * every counted pass counts the same: a few give the exact per-site figure
 * (tests/test_bench_sites.c checks few against many). */
#define IC_SIM_PASSES 3u
uint64_t ic_sim_passes(uint32_t n);
/* Another count of passes (0: IC_SIM_PASSES), for the check of the above. */
void ic_sim_set_passes(unsigned passes);

/* A 16-hex-digit id of this program's own file (/proc/self/exe): the
 * simulation cache's key, so a rebuilt or relinked binary simulates again
 * and an unchanged one never does. 0, or -1 if the file cannot be read. */
int ic_sim_binary_id(char *out, size_t len);

#endif
