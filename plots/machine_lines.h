/* summary.md's lines on the machine's state at the start of the run (the
 * machine_* keys common/machine_state.h puts in the context): what moves
 * results, with the command that fixes each, and what could not be read.
 */
#ifndef IC_MACHINE_LINES_H
#define IC_MACHINE_LINES_H

#include <stdio.h>

#include "results.h"

/* The lines from the first process's context. */
void ic_machine_lines_write(FILE *f, const struct ic_results *res);

#endif
