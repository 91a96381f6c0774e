#include "cache_pass.h"

#include <math.h>

long ic_cache_pass(const struct ic_footprint *fp, size_t n, double size, double *at_about)
{
	for (size_t i = 0; i < n; i++) {
		/* NAN > size is false: an N not measured never passes. */
		if (fp[i].bytes > size) {
			if (at_about)
				*at_about = size / (fp[i].bytes / (double)fp[i].sites);
			return (long)i;
		}
	}
	if (at_about)
		*at_about = NAN;
	return -1;
}
