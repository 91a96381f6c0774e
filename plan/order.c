/* The processes' order and the variants' seeds (order.h). */
#include "order.h"

#include <stdlib.h>

#include "splitmix64.h"

int ic_plan_order(uint32_t seed, unsigned repeats, unsigned variants, unsigned processes,
		  unsigned builds, const char *prefix, int spread, FILE *out)
{
	size_t total = (size_t)repeats * variants * processes * builds, k = 0;
	struct ic_plan_proc *v = malloc((total ? total : 1) * sizeof(*v));
	uint64_t state = seed;

	if (!v)
		return -1;
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
	 * each printing that repeat's processes in their shuffled order. */
	for (unsigned pass = 1; pass <= (spread ? repeats : 1); pass++)
		for (size_t i = 0; i < total; i++) {
			char bp[32] = "";

			if (spread && v[i].repeat != pass)
				continue;
			if (builds > 1)
				snprintf(bp, sizeof(bp), "b%u_", v[i].build);
			fprintf(out, "%s%sr%u_v%u_p%u %s%sr%u %u %u %u %u\n", prefix, bp, v[i].repeat,
				v[i].variant, v[i].process, prefix, bp, v[i].repeat, v[i].repeat, v[i].variant,
				v[i].process, v[i].build);
		}
	free(v);
	return 0;
}

uint32_t ic_plan_variant_seed(uint32_t seed, unsigned r, unsigned v)
{
	return (uint32_t)ic_mix64((uint64_t)seed ^ ((uint64_t)r << 40) ^ ((uint64_t)v << 20) ^
				  UINT64_C(0x6c61796f7574));   /* "layout" */
}
