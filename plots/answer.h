/* The first screen of summary.md: one line per series saying which form
 * is faster where, by how much, where the crossover lies and where the
 * code outgrows the L1i; then the machine, the build and the design in a
 * line each. The evidence below it backs each line.
 */
#ifndef IC_ANSWER_H
#define IC_ANSWER_H

#include <stdio.h>

#include "results.h"

/* "## The answer" and its lines. */
void ic_answer_write(FILE *f, const struct ic_results *res);

/* "Design: 6 layout variants; 2 processes per point; 30 repetitions per
 * point in all, ..." without a leading "- " or a newline. */
void ic_answer_design(FILE *f, const struct ic_results *res);

/* The first measured N at which `form`'s footprint in the series exceeds
 * `size` bytes, 0 when none does; *at_about (may be NULL) the N where the
 * footprint per site there reaches `size`. */
unsigned long ic_answer_cache_pass(const struct ic_group *gr, const char *form, double size,
				   double *at_about);

#endif /* IC_ANSWER_H */
