/* The console's counter line (counter_sentence.h). */
#include <stdio.h>
#include <string.h>

#include "counter_sentence.h"

void ic_counter_sentence(enum ic_counters_mode asked, const char *source, int papi_tried,
			 const char *papi_why, const char *sim_why, char *out, size_t len)
{
	const char *pw = papi_why && *papi_why ? papi_why : "it said no more";
	const char *sw = sim_why && *sim_why ? sim_why : "see the log";

	if (!strcmp(source, "papi"))
		snprintf(out, len, "hardware, via PAPI (%s)", papi_why);
	else if (!strcmp(source, "sim") && asked == IC_CTR_SIM)
		snprintf(out, len, "simulated (--counters sim): L1i misses and instructions from valgrind's "
			 "cache simulation, marked simulated");
	else if (!strcmp(source, "sim"))
		snprintf(out, len, "simulated: L1i misses and instructions from valgrind's cache simulation, "
			 "marked simulated, as PAPI cannot count here (%s)", pw);
	else if (asked == IC_CTR_NONE)
		snprintf(out, len, "none (--counters none): no counter columns");
	else if (asked == IC_CTR_PAPI)
		snprintf(out, len, "none (--counters papi): no counter columns, as PAPI cannot count here (%s)", pw);
	else if (!papi_tried)
		snprintf(out, len, "none: no counter columns, as the simulation failed (%s)", sw);
	else
		snprintf(out, len, "none: no counter columns, as PAPI cannot count here (%s) and the simulation "
			 "failed (%s)", pw, sw);
}

