#include "cache_pass.h"

#include <math.h>

long ic_cache_pass(const struct ic_footprint *fp, size_t n, double size, double *at_about)
{
	size_t i = 0;

	/* NAN > size is false: an N not measured never passes. */
	while (i < n && !(fp[i].bytes > size))
		i++;
	if (at_about)
		*at_about = i < n ? size / (fp[i].bytes / (double)fp[i].sites) : NAN;
	return i < n ? (long)i : -1;
}
