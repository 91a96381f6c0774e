/* Where a run's counter columns come from and why, in one line for the
 * console (run.sh prints it as "counters: ..."): the source the bench
 * decided (papi, sim or none), what --counters asked, and PAPI's and the
 * simulation's reasons where they failed ("it said no more", "see the log"
 * where a reason is empty). sites_bench --sim-only prints it. */
#ifndef IC_COUNTER_SENTENCE_H
#define IC_COUNTER_SENTENCE_H

#include <stddef.h>

#include "sites_options.h"

/* papi_tried: PAPI was asked (auto or papi) and said papi_why. */
void ic_counter_sentence(enum ic_counters_mode asked, const char *source, int papi_tried,
			 const char *papi_why, const char *sim_why, char *out, size_t len);

#endif
