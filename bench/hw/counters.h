/* Hardware counters through PAPI: which events to count, and per-thread sets.
 *
 * Many machines (cloud VMs, containers, perf_event_paranoid > 2) have no
 * usable counters. Then ic_counters_init() returns 0, the source is "none",
 * the note says why, and every count reads as invalid. A missing count is
 * never reported as 0.
 */
#ifndef IC_COUNTERS_H
#define IC_COUNTERS_H

#include <stddef.h>
#include <stdio.h>

enum ic_ctr {
	IC_CTR_L1I_MISS,
	IC_CTR_INSTR,
	IC_CTR_CYCLES,
	IC_CTR_BRANCH_MISS,
	IC_CTR_ITLB_MISS,
	IC_CTR_COUNT
};

/* Column names, indexed by enum ic_ctr: "l1i_miss_per_op", ... */
extern const char *const ic_ctr_names[IC_CTR_COUNT];

#define IC_VENDOR_OTHER 0
#define IC_VENDOR_INTEL 1
#define IC_VENDOR_AMD   2

struct ic_cpu_ident {
	int vendor;     /* IC_VENDOR_INTEL, IC_VENDOR_AMD, IC_VENDOR_OTHER */
	int family;     /* cpuid family as displayed: 6, 0x17, 0x19, 0x1a */
	int model;
};

struct ic_event_choice {
	const char *event[IC_CTR_COUNT];  /* PAPI event name; NULL: not available */
	int n_events;                     /* non-NULL entries in event[] */
	int multiplex;                    /* n_events > hardware counters */
	const char *why[IC_CTR_COUNT];    /* what the choice means, or why none */
};

/* Pure: choose one event per counter for this CPU from the names in
 * available[] (presets like "PAPI_TOT_INS" and native libpfm4 names like
 * "IC_TAG_HIT_MISS:IC_MISS", as PAPI_query_named_event accepts them).
 * Strings in *out are static or point into available[]. */
void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, struct ic_event_choice *out);

/* Pure: every event name ic_events_choose() may pick for this CPU, each once,
 * for the caller to query (static strings). Stores up to max, returns the
 * number stored. */
size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max);

/* Initialise PAPI once (thread-safe, later calls return the first answer).
 * 1: counting works; 0: it cannot (see ic_counters_note). Never aborts. */
int ic_counters_init(void);

/* "papi" or "none". Calls ic_counters_init() if needed. */
const char *ic_counters_source(void);

/* When "none": PAPI's own reason (perf_event component's disabled_reason,
 * perf_event_paranoid, permission errors). When "papi": the chosen events
 * and whether they are multiplexed. */
const char *ic_counters_note(void);

/* The chosen event for counter c, or NULL when it is not counted. */
const char *ic_counters_event(enum ic_ctr c);

/* One line on f, the first call only (thread-safe): no counters and why, or
 * which events are counted. */
void ic_counters_notice_once(FILE *f);

/* Per thread. Open on the thread that counts; start/stop outside the timed
 * loop. All functions accept NULL (a set that failed to open): start fails,
 * stop reports every count invalid, close does nothing. */
struct ic_ctr_set;

/* NULL when counting is unavailable or PAPI refuses this thread; the reason
 * is in ic_ctr_set_error() (this thread's last error). */
struct ic_ctr_set *ic_ctr_set_open(void);
int ic_ctr_set_start(struct ic_ctr_set *set);   /* 0 ok, -1 failed */
/* Stops counting. value[i] is the count where valid[i] == 1; where an event
 * is absent or failed, valid[i] == 0 and value[i] == -1. 0 ok, -1 failed
 * (everything invalid). */
int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT]);
void ic_ctr_set_close(struct ic_ctr_set *set);
const char *ic_ctr_set_error(void);

#endif
