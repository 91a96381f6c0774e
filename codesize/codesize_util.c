/* What every part of codesize uses: growing an array and the calls per
 * site. Its own file so that the
 * parts depend on it alone and codesize.c (the main) on the parts, never
 * the other way round.
 */
#include "codesize_util.h"

void *cs_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	return ic_xrealloc(p, *cap, size);
}

unsigned cs_ops_per_site(const struct cs_point *pt)
{
	return pt->id.body ? 1u : IC_POINT_OPS_PER_SITE;
}
