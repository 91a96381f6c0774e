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

/* A counter a vendor has no event for is simply absent there, with a why. */
enum ic_ctr {
	IC_CTR_L1I_MISS,
	IC_CTR_INSTR,
	IC_CTR_CYCLES,
	IC_CTR_BRANCH_MISS,     /* every mispredicted retired branch, not only conditional */
	IC_CTR_ITLB_MISS,       /* iTLB misses that needed a page walk */
	IC_CTR_OPCACHE_HIT,     /* AMD Zen 3 on: op-cache lookups that hit */
	IC_CTR_OPCACHE_MISS,    /* AMD Zen 3 on: op-cache lookups that missed */
	IC_CTR_DSB_UOPS,        /* Intel: uops delivered from the DSB (decoded icache) */
	IC_CTR_MITE_UOPS,       /* Intel: uops delivered from the legacy decoders (MITE) */
	IC_CTR_MACHINE_CLEAR,   /* Intel: machine clears (pipeline flushes) of any kind */
	IC_CTR_FETCH_STALL,     /* Intel: cycles instruction fetch stalled on an L1i miss */
	IC_CTR_FE_STALL,        /* slots the front end left empty (Intel IDQ_UOPS_NOT_DELIVERED,
				   AMD Zen 4 on DISPATCH_STALLS_1:FE_NO_OPS): what misses cost */
	IC_CTR_COUNT
};

/* Counters from here on serve the attribution of a difference; they are
 * counted beside the core ones where they fit, else in a second event set
 * counted on alternate runs (a second pass), never multiplexed
 * (ic_events_choose). On AMD dsb_uops_per_op and mite_uops_per_op are the
 * ops dispatched from the op cache and from the decoders. */
#define IC_CTR_ATTRIBUTION_FIRST IC_CTR_OPCACHE_HIT

/* Column names, indexed by enum ic_ctr: "l1i_miss_per_op", "instr_per_op",
 * "cycles_per_op", "branch_miss_per_op", "itlb_miss_per_op",
 * "opcache_hit_per_op", "opcache_miss_per_op", "dsb_uops_per_op",
 * "mite_uops_per_op", "machine_clear_per_op", "fetch_stall_cycles_per_op",
 * "frontend_bound_slots_per_op". */
extern const char *const ic_ctr_names[IC_CTR_COUNT];

#include "pmu_support.h"   /* struct ic_cpu_ident */

struct ic_event_choice {
	const char *event[IC_CTR_COUNT];  /* PAPI event name; NULL: not available */
	int n_events;                     /* non-NULL entries in event[] */
	int fixed[IC_CTR_COUNT];          /* 1: event[c] goes on a fixed counter */
	int n_fixed_events;               /* entries with fixed[c] == 1 */
	int n_gp_events;                  /* n_events - n_fixed_events */
	int n_gp_counters;                /* n_hw_counters - n_fixed_counters, >= 0 */
	int multiplex;                    /* set 0's general-purpose events > n_gp_counters */
	const char *why[IC_CTR_COUNT];    /* what the choice means, or why none */
	/* Event sets: bit k of sets[c] is 1 when event[c] is in set k. Set 0
	 * holds the core counters; set 1, when there is one (n_sets == 2),
	 * the attribution events that did not fit beside them, and the
	 * instruction event again as its canary. Per set, the events on fixed
	 * and on general-purpose counters. */
	unsigned sets[IC_CTR_COUNT];
	int n_sets;                       /* 1 or 2; 0 when nothing is chosen */
	int set_fixed[2], set_gp[2];
};

/* Pure: choose one event per counter for this CPU from the names in
 * available[] (presets like "PAPI_TOT_INS" and native libpfm4 names like
 * "IC_TAG_HIT_MISS:IC_MISS", as PAPI_query_named_event accepts them), and
 * decide whether the chosen events need multiplexing. Strings in *out are
 * static or point into available[].
 *
 * Counter accounting. n_hw_counters is PAPI_num_cmp_hwctrs() of perf_event,
 * papi_avail's "Number Hardware Counters": libpfm4's general-purpose plus
 * fixed counters of the core PMU (Skylake 8 + 3 = 11, Ice Lake 16 + 4 = 20,
 * Sapphire Rapids 20, Zen 2 and Zen 4 6 + 0 = 6), one fewer when the NMI
 * watchdog is on. n_fixed_counters is how many of those are fixed counters
 * (Intel: 3 to Skylake, 4 from Ice Lake on; AMD: 0). A fixed counter counts
 * one event only: 0 instructions, 1 core cycles, 2 reference cycles, 3 slots.
 * On Intel the instruction and cycle events chosen first (INSTRUCTION_RETIRED,
 * UNHALTED_CORE_CYCLES) encode as 0x00c0 and 0x003c, which the kernel
 * schedules on fixed counters 0 and 1: those take no general-purpose counter
 * when n_fixed_counters covers them (fixed[c] = 1). Every other event needs
 * one of the n_hw_counters - n_fixed_counters general-purpose counters. When
 * they do not all fit, the attribution counters (IC_CTR_ATTRIBUTION_FIRST on)
 * are left out, with why; multiplex is set when the rest still do not fit. If the watchdog's cycles event
 * holds fixed counter 1, ours moves to a general-purpose counter: PAPI's one
 * fewer accounts for that. Not accounted: libpfm4 counts general-purpose
 * counters as with SMT off (Skylake has 4, not 8, per thread with SMT on),
 * and a preset PAPI derives from two natives counts as one event; the
 * runtime's trial event set finds such a set does not fit (PAPI refuses the
 * event), leaves out the attribution counters, and multiplexes only if the
 * rest still do not fit. */
void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out);

/* Pure: the canary a set's counts pass before any is trusted. value and
 * valid as ic_ctr_set_stop() left them, ops the operations run meanwhile.
 * Fails (-1, why says it in one line) when every valid count is 0 (a group
 * the kernel accepted but never scheduled reads 0), or when instructions
 * were counted and are fewer than min_instr_per_op per operation (every
 * call site runs at least one instruction; the mark's count where the
 * caller knows it). 0 when the counts may be trusted, or when nothing was
 * counted (absent, not zero, already). */
int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len);

/* Pure: drop every attribution counter (IC_CTR_ATTRIBUTION_FIRST on) from
 * the choice, with why as the reason, keeping the counts in step. */
void ic_drop_attribution(struct ic_event_choice *ch, const char *why);

/* Pure: every event name ic_events_choose() may pick for this CPU, each once,
 * for the caller to query (static strings). Stores up to max, returns the
 * number stored. */
size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max);

/* Initialise PAPI once (thread-safe, later calls return the first answer).
 * 1: counting works; 0: it cannot (see ic_counters_note). Never aborts.
 * The fixed counters are CPUID leaf 0xA's (EDX[4:0], Intel), 0 elsewhere. */
int ic_counters_init(void);

/* Event sets counted in turn (1 or 2; 1 when counting does not work).
 * ic_ctr_set_open() opens the set of the current pass; the caller moves to
 * the next pass once every thread of a run has stopped (thread 0 after the
 * run), so runs alternate between the sets and a run's threads share one. */
int ic_counters_passes(void);
void ic_counters_next_pass(void);

/* "papi" or "none". Calls ic_counters_init() if needed. */
const char *ic_counters_source(void);

/* When "none": PAPI's own reason (perf_event component's disabled_reason,
 * perf_event_paranoid, permission errors). When "papi": the chosen events
 * and whether they are multiplexed, with the counter accounting. */
const char *ic_counters_note(void);

/* The chosen event for counter c, or NULL when it is not counted. */
const char *ic_counters_event(enum ic_ctr c);

/* One line on f, the first call only (thread-safe): no counters and why, or
 * which events are counted. */
void ic_counters_notice_once(FILE *f);

/* Why a count is absent. Where valid[c] == 0, ic_ctr_set_stop() leaves one
 * of these (all negative) in value[c]; ic_ctr_absent_why() says it in words. */
enum ic_ctr_absent {
	IC_CTR_ABSENT_NO_SET = -1,       /* no running event set on this thread:
					    open, start or stop failed */
	IC_CTR_ABSENT_NOT_COUNTED = -2,  /* this CPU counts no event for it */
	IC_CTR_ABSENT_NOT_ADDED = -3,    /* its event would not go into this
					    thread's event set */
	IC_CTR_ABSENT_MPX_ZERO = -4,     /* 0 under multiplexing: the event may
					    never have been scheduled */
	IC_CTR_ABSENT_BAD_COUNT = -5,    /* PAPI returned a negative count */
	IC_CTR_ABSENT_OTHER_PASS = -6,   /* counted by the other event set, on
					    alternate runs */
	IC_CTR_ABSENT_CANARY = -7,       /* the set failed its canary
					    (ic_ctr_canary): nothing it read is trusted */
};

/* Static text for an IC_CTR_ABSENT_* code ("count invalid" for others). */
const char *ic_ctr_absent_why(long long code);

/* Pure: 0 when a count PAPI_stop returned is a count, else the
 * IC_CTR_ABSENT_* code. PAPI's perf_event component scales a multiplexed
 * count by time_enabled / time_running, but when time_running is 0 (the
 * kernel never scheduled the event) it returns the raw count, 0, as a valid
 * value (_pe_read_multiplexed in src/components/perf_event/perf_event.c; the
 * PAPI API passes neither time on). So a multiplexed 0 is absent,
 * IC_CTR_ABSENT_MPX_ZERO, even though some of those are real zeros; without
 * multiplexing a 0 is a real 0. A negative count is IC_CTR_ABSENT_BAD_COUNT. */
int ic_ctr_count_absent(long long count, int multiplexed);

/* Per thread. Open on the thread that counts; start/stop outside the timed
 * loop. All functions accept NULL (a set that failed to open): start fails,
 * stop reports every count invalid, close does nothing. */
struct ic_ctr_set;

/* NULL when counting is unavailable or PAPI refuses this thread; the reason
 * is in ic_ctr_set_error() (this thread's last error). */
struct ic_ctr_set *ic_ctr_set_open(void);
int ic_ctr_set_start(struct ic_ctr_set *set);   /* 0 ok, -1 failed */
/* Stops counting. value[i] is the count where valid[i] == 1; where an event
 * is absent or failed, valid[i] == 0 and value[i] is the IC_CTR_ABSENT_*
 * code: IC_CTR_ABSENT_NO_SET (-1) for every count when set is NULL, not
 * started, or PAPI_stop fails. When PAPI_stop fails the event set is cleaned
 * up and destroyed there and then (PAPI still counts it as running, so it
 * would hold its descriptors and block the thread's next set), and
 * ic_ctr_set_error() says whether that worked. Counters of the other pass
 * are IC_CTR_ABSENT_OTHER_PASS. 0 ok, -1 failed (everything invalid). */
int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT]);
void ic_ctr_set_close(struct ic_ctr_set *set);
const char *ic_ctr_set_error(void);

/* Pure: one figure per counter for a run from every thread's counts, for the
 * caller to set once (each thread setting its own per-op value and averaging
 * over threads would divide by threads that counted nothing).
 *
 * Thread t gave value[t], valid[t] (as ic_ctr_set_stop() left them; a thread
 * whose set failed to open passes valid all 0), ops[t] operations, and
 * thread_why[t], its own reason for absent counts, such as why its set did
 * not open (thread_why, or any entry, may be NULL or ""). For each counter c:
 * ok[c] = 1 and per_op[c] = sum of value[t][c] / sum of ops[t] when every
 * thread's count c is valid and the ops sum to more than 0; otherwise
 * ok[c] = 0 and per_op[c] = NAN. why (why_len bytes; may be NULL) gets ""
 * when every counter this CPU counts is ok, else the first absent counter,
 * the first thread lacking it and why, e.g. "l1i_miss_per_op absent: thread
 * 2 of 4: no running event set on this thread (event set did not open:
 * ...)"; counters this CPU does not count (IC_CTR_ABSENT_NOT_COUNTED) are
 * not named, ic_counters_note() lists them, nor are those of the other
 * pass (IC_CTR_ABSENT_OTHER_PASS). A thread whose counts fail the canary
 * (ic_ctr_canary with min_instr_per_op: the instructions per operation, per
 * call site, that the work takes at least, e.g. its mark's) has none
 * of its counts taken, and why says so first. Returns the number of ok
 * counters (0 when n_threads <= 0). */
int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len);

#endif
