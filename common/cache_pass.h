/* Where a form's code passes a cache: one rule for every reader of footprints. */
#ifndef IC_CACHE_PASS_H
#define IC_CACHE_PASS_H

#include <stddef.h>

/* The code of all N call sites of one form, in bytes (codesize's
 * footprint_bytes); NAN where N was not measured. */
struct ic_footprint {
	unsigned long sites;
	double bytes;
};

/* Pure. fp[0..n) by sites, ascending: the first whose bytes > size, -1 when none. *at_about (may be
 * NULL): the N where the code reaches size at that point's bytes per site; NAN when none passes. */
long ic_cache_pass(const struct ic_footprint *fp, size_t n, double size, double *at_about);

#endif
