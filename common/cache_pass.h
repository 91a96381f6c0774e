/* Where a form's code passes a cache: one rule for every reader of
 * footprints (./run.sh codesize's report, the summary's answer and charts).
 */
#ifndef IC_CACHE_PASS_H
#define IC_CACHE_PASS_H

#include <stddef.h>

/* The code of all N call sites of one form, in bytes (codesize's
 * footprint_bytes); NAN where N was not measured. */
struct ic_footprint {
	unsigned long sites;
	double bytes;
};

/* Pure. fp[0..n) sorted by sites, ascending: the index of the first whose
 * bytes pass size (bytes > size), -1 when none does. *at_about (may be
 * NULL) gets the N at which the code reaches size at that point's bytes
 * per site, size / (bytes / sites); NAN when none passes. */
long ic_cache_pass(const struct ic_footprint *fp, size_t n, double size, double *at_about);

#endif
