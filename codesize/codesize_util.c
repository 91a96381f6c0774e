/* What every part of codesize uses: the program's name, failing with one
 * line, growing an array, and the calls per site. Its own file so that the
 * parts depend on it alone and codesize.c (the main) on the parts, never
 * the other way round.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "codesize.h"

void *cs_grow(void *p, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return p;
	*cap = *cap ? *cap * 2 : 16;
	if (*cap < need)
		*cap = need;
	p = realloc(p, *cap * size);
	if (!p)
		cs_fail(1, "out of memory");
	return p;
}

unsigned cs_ops_per_site(const struct cs_point *pt)
{
	return pt->id.body ? 1u : IC_POINT_OPS_PER_SITE;
}
