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


#endif /* IC_ANSWER_H */
