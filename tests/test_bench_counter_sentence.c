/* The console's counter line (hw/counters.h): one line naming
 * where the counter columns come from and why, for every source and every
 * --counters, with PAPI's and the simulation's own reasons; never "absent"
 * beside a simulation, and a stand-in where a reason is empty. */
#include <string.h>

#include "check.h"
#include "counters.h"

static const char *say(enum ic_counters_mode asked, const char *source, int papi_tried, const char *papi_why,
		       const char *sim_why)
{
	static char buf[1024];

	ic_counter_sentence(asked, source, papi_tried, papi_why, sim_why, buf, sizeof(buf));
	return buf;
}

int main(void)
{
	const char *pw = "libpfm4 4.13 has no event tables for this CPU", *s;

	s = say(IC_CTR_AUTO, "papi", 1, "4 events on cpu core", "");
	CHECK(!strcmp(s, "hardware, via PAPI (4 events on cpu core)"), "%s", s);
	s = say(IC_CTR_AUTO, "sim", 1, pw, "");
	CHECK(!strncmp(s, "simulated: ", 11) && strstr(s, "PAPI cannot count here (libpfm4 4.13 has no event"),
	      "auto, simulated: %s", s);
	CHECK(!strstr(s, "absent"), "a simulation called absent: %s", s);
	s = say(IC_CTR_SIM, "sim", 0, "", "");
	CHECK(!strcmp(s, "simulated (--counters sim): L1i misses and instructions from valgrind's cache "
			 "simulation, marked simulated"), "%s", s);
	s = say(IC_CTR_NONE, "none", 0, "", "");
	CHECK(!strcmp(s, "none (--counters none): no counter columns"), "%s", s);
	s = say(IC_CTR_PAPI, "none", 1, pw, "");
	CHECK(!strcmp(s, "none (--counters papi): no counter columns, as PAPI cannot count here (libpfm4 4.13 "
			 "has no event tables for this CPU)"), "%s", s);
	s = say(IC_CTR_AUTO, "none", 1, pw, "hwloc reports no L1i geometry to simulate");
	CHECK(!strncmp(s, "none: no counter columns, as PAPI cannot count here (libpfm4", 60) &&
	      strstr(s, "and the simulation failed (hwloc reports no L1i geometry to simulate)"), "%s", s);
	s = say(IC_CTR_SIM, "none", 0, "", "valgrind not found (apt-get install valgrind)");
	CHECK(!strcmp(s, "none: no counter columns, as the simulation failed (valgrind not found (apt-get "
			 "install valgrind))"), "--counters sim failing names no PAPI reason: %s", s);
	s = say(IC_CTR_AUTO, "none", 1, "", "");
	CHECK(strstr(s, "(it said no more)") && strstr(s, "(see the log)"), "empty reasons: %s", s);
	puts("ok: one counter line per source and --counters, with the reasons");
	return 0;
}
