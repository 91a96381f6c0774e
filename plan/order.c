/* The processes' order and the variants' seeds (points.h). */
#define _GNU_SOURCE
#include "points.h"

#include <stdio.h>
#include <stdlib.h>

#include "kit.h"
#include "splitmix64.h"

struct ic_plan_proc *ic_plan_order_list(uint32_t seed, unsigned repeats, unsigned variants, unsigned processes,
				       unsigned builds, int spread, size_t *n)
{
	size_t total = (size_t)repeats * variants * processes * builds, k = 0;
	struct ic_plan_proc *v = ic_xrealloc(NULL, total, sizeof(*v)), *o = ic_xrealloc(NULL, total, sizeof(*o));
	uint64_t state = seed;

	for (unsigned b = 0; b < builds; b++)
		for (unsigned r = 1; r <= repeats; r++)
			for (unsigned va = 0; va < variants; va++)
				for (unsigned p = 0; p < processes; p++)
					v[k++] = (struct ic_plan_proc){ r, va, p, b };
	for (size_t i = total; i > 1; i--) {
		size_t j = (size_t)(((unsigned __int128)ic_splitmix64_next(&state) * i) >> 64);
		struct ic_plan_proc t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
	/* One pass over the shuffled order; with spread one pass per repeat,
	 * each taking that repeat's processes in their shuffled order. */
	k = 0;
	for (unsigned pass = 1; pass <= (spread ? repeats : 1); pass++)
		for (size_t i = 0; i < total; i++)
			if (!spread || v[i].repeat == pass)
				o[k++] = v[i];
	free(v);
	*n = total;
	return o;
}

char *ic_plan_key(const struct ic_plan_proc *p, unsigned builds, const char *prefix, char **group)
{
	char bp[32] = "", *key = NULL;

	if (builds > 1)
		snprintf(bp, sizeof(bp), "b%u_", p->build);
	if (asprintf(&key, "%s%sr%u_v%u_p%u", prefix, bp, p->repeat, p->variant, p->process) < 0 ||
	    asprintf(group, "%s%sr%u", prefix, bp, p->repeat) < 0)
		ic_xalloc(NULL);
	return key;
}

uint32_t ic_plan_variant_seed(uint32_t seed, unsigned r, unsigned v)
{
	return (uint32_t)ic_mix64((uint64_t)seed ^ ((uint64_t)r << 40) ^ ((uint64_t)v << 20) ^
				  UINT64_C(0x6c61796f7574));   /* "layout" */
}
