/* The order a sweep runs its processes in, and its layout variants' seeds:
 * both drawn from the run's layout seed, so that one seed gives one run. */
#ifndef IC_PLAN_ORDER_H
#define IC_PLAN_ORDER_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One process of the design. */
struct ic_plan_proc {
	unsigned repeat, variant, process, build;
};

/* Every process of repeats x variants x processes x builds, in the order a
 * sweep runs them: a Fisher-Yates shuffle drawn from splitmix64(seed); with
 * spread, the repeats one after the other, each in its shuffled order.
 * malloc'd, *n of them; NULL when memory runs out. */
struct ic_plan_proc *ic_plan_order_list(uint32_t seed, unsigned repeats, unsigned variants, unsigned processes,
					unsigned builds, int spread, size_t *n);

/* A process's key, PREFIX[b<build>_]r<repeat>_v<variant>_p<process> (the
 * build only with several builds), and into *group its group's, the key
 * without variant and process; both malloc'd (exits when memory runs out). */
char *ic_plan_key(const struct ic_plan_proc *p, unsigned builds, const char *prefix, char **group);

/* Layout variant v of repeat r: a 32-bit seed mixed from the run's seed
 * (splitmix64's finaliser), so every repeat has variants of its own, all
 * drawn alike (bench/link_variant SEED links each). */
uint32_t ic_plan_variant_seed(uint32_t seed, unsigned r, unsigned v);

#endif /* IC_PLAN_ORDER_H */
