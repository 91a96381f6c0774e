/* What summary.md says of a run's repeats (engine/repeats.h): a verdict
 * only where every repeat holds it, and the spread at each level of the
 * design in the Method section.
 */
#ifndef IC_REPEATS_TEXT_H
#define IC_REPEATS_TEXT_H

#include <stdio.h>

#include "analysis.h"

/* Where the series' repeats disagree: "the 3 repeats disagree, so no
 * verdict is stated: repeat 1 ..., repeat 2 ..." and 1; else nothing and 0. */
int ic_repeats_disagree(FILE *f, const struct ic_analysis *an, const struct ic_series *se);
/* Where they agree: "; each of the 3 repeats alone says the same". */
void ic_repeats_agree_note(FILE *f, const struct ic_series *se);
/* The Method section's table of the spread per level, one row per series. */
void ic_repeats_method(FILE *f, const struct ic_analysis *an);

#endif /* IC_REPEATS_TEXT_H */
