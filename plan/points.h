/* The sweep's plan (points.c): N, series and points from its settings (run.conf's keys) and the machine, ./run.sh
 * --help's rules in one place (scripts/ only carry the values); and the processes' order and layout variants' seeds,
 * drawn from the run's layout seed: one seed, one run. */
#ifndef IC_PLAN_POINTS_H
#define IC_PLAN_POINTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_conf.h"

/* The default N: powers of two, 1 to 16384. */
#define IC_PLAN_SITES_DEFAULT "1..16384"

/* What the plan needs of the machine: -1 where hwloc does not say. */
struct ic_plan_machine {
	int cores;
	long l1i, l2;
};

/* The N of spec, "A..B" (powers of two from A to B) or a comma list, sorted and each once into *out (malloc'd; *n of
 * them). -1 with err on a spec that is neither, or an N outside 1..IC_POINT_SITES_MAX. */
int ic_plan_sites(const char *spec, unsigned long **out, size_t *n, char *err, size_t errlen);

/* The settings left to the plan as key=value lines on out: note= lines (what the sweep leaves out, and why), the
 * defaults (threads from the cores, a random layout_seed), layouts, orders and fillers as run.conf records them, the
 * series (cases: layout:order:filler:max each, filler auto and the N cap from the machine), last series= (series and
 * forms in words). A setting given is kept, so a resumed run resolves to what it was. On failure nothing printed: 1
 * (the machine lacks an L1i size for filler auto), 2 (bad settings), with err. */
int ic_plan_resolve(const struct ic_settings *s, const struct ic_plan_machine *m, FILE *out,
		    char *err, size_t errlen);

/* Every point of the resolved settings as gen's specs, one a line (form:op:layout:order:seed:N[:filler]), the
 * controls thinned where the N list is the default's. 0, or 2 with err. */
int ic_plan_points(const struct ic_settings *s, FILE *out, char *err, size_t errlen);

/* The watch's sentinel as gen's specs, one a line, and how many: each of its forms (engine/watch_forms.def) at N = 16
 * and 1024, the default op in the chain, in order, so its lock and calls run from the L1i and past it. */
size_t ic_plan_sentinel(FILE *out);

struct ic_plan_proc {
	unsigned repeat, variant, process, build;
};

/* Every process of repeats x variants x processes x builds in the sweep's order: a Fisher-Yates shuffle from
 * splitmix64(seed); with spread, repeats in turn, each shuffled. *n of them, malloc'd (exits on no memory). */
struct ic_plan_proc *ic_plan_order_list(uint32_t seed, unsigned repeats, unsigned variants, unsigned processes,
					unsigned builds, int spread, size_t *n);

/* A process's key, PREFIX[b<build>_]r<repeat>_v<variant>_p<process> (build only with several builds), and into *group
 * its group's, the key without variant and process; both malloc'd (exits when memory runs out). */
char *ic_plan_key(const struct ic_plan_proc *p, unsigned builds, const char *prefix, char **group);

/* Layout variant v of repeat r: a 32-bit seed mixed from the run's (splitmix64's finaliser), so each repeat has
 * variants of its own, all drawn alike (bench/link_variant SEED links each). */
uint32_t ic_plan_variant_seed(uint32_t seed, unsigned r, unsigned v);

#endif /* IC_PLAN_POINTS_H */
