/* Hardware counters through PAPI, in two files:
 *   counter_events.c  this CPU, the events per counter for it and the choice among
 *                     those PAPI knows; counts before they are trusted: the canary,
 *                     absent counts, a run's figures from every thread's counts
 *                     (pure but for CPUID)
 *   counter_papi.c    the PAPI session: can this machine count, the start-up trial,
 *                     per-thread event sets
 *
 * Many machines (cloud VMs, containers, perf_event_paranoid > 2) have no usable
 * counters. Then ic_counters_init() returns 0, the source is "none", the note says
 * why, and every count reads as invalid. A missing count is never reported as 0.
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
	IC_CTR_DSB_UOPS,        /* Intel: uops from the DSB (AMD: ops from the op cache) */
	IC_CTR_MITE_UOPS,       /* Intel: uops from the legacy decoders (AMD: from the decoders) */
	IC_CTR_MACHINE_CLEAR,   /* Intel: machine clears (pipeline flushes) of any kind */
	IC_CTR_FETCH_STALL,     /* Intel: cycles instruction fetch stalled on an L1i miss */
	IC_CTR_FE_STALL,        /* slots the front end left empty (Intel IDQ_UOPS_NOT_DELIVERED,
				   AMD Zen 4 on DISPATCH_STALLS_1:FE_NO_OPS): what misses cost */
	IC_CTR_COUNT
};

/* Counters from here on serve the attribution of a difference: counted beside the
 * core ones where they fit, else in a second event set on alternate runs, never
 * multiplexed (ic_events_choose). */
#define IC_CTR_ATTRIBUTION_FIRST IC_CTR_OPCACHE_HIT

/* Column names by enum ic_ctr: "l1i_miss_per_op", "instr_per_op", ... */
extern const char *const ic_ctr_names[IC_CTR_COUNT];

/* ---- counter_events.c: this CPU and its events ---------------------------- */

#define IC_VENDOR_OTHER 0
#define IC_VENDOR_INTEL 1
#define IC_VENDOR_AMD   2

struct ic_cpu_ident {
	int vendor;     /* IC_VENDOR_INTEL, IC_VENDOR_AMD, IC_VENDOR_OTHER */
	int family;     /* cpuid family as displayed: 6, 0x17, 0x19, 0x1a */
	int model;
};

/* From CPUID (display family and model); IC_VENDOR_OTHER, 0, 0 off x86. */
void ic_cpu_ident_read(struct ic_cpu_ident *cpu);

/* Whether libpfm4 of this release ("4.13") has the event tables of this CPU,
 * without which PAPI's perf_event component cannot start. 1: it has, or the CPU is
 * not one whose tables are known to come late, or the release is unknown; 0: it
 * has not, with one line in why naming the CPU and the release needed. */
int ic_pfm_knows_cpu(const struct ic_cpu_ident *cpu, const char *pfm_version,
		     char *why, size_t why_len);

struct ic_event_choice {
	const char *event[IC_CTR_COUNT];  /* PAPI event name; NULL: not available */
	int n_events;                     /* non-NULL entries in event[] */
	int fixed[IC_CTR_COUNT];          /* 1: event[c] goes on a fixed counter */
	int n_fixed_events;               /* entries with fixed[c] == 1 */
	int n_gp_events;                  /* n_events - n_fixed_events */
	int n_gp_counters;                /* n_hw_counters - n_fixed_counters, >= 0 */
	int multiplex;                    /* set 0's general-purpose events > n_gp_counters */
	const char *why[IC_CTR_COUNT];    /* what the choice means, or why none */
	/* Bit k of sets[c]: event[c] is in set k. Set 0 holds the core counters; set
	 * 1, when n_sets == 2, the attribution events that did not fit beside them
	 * and the instruction event again as its canary. Per set, the events on
	 * fixed and on general-purpose counters. */
	unsigned sets[IC_CTR_COUNT];
	int n_sets;                       /* 1 or 2; 0 when nothing is chosen */
	int set_fixed[2], set_gp[2];
};

/* Pure: choose one event per counter for this CPU from the names in available[]
 * (presets like "PAPI_TOT_INS", libpfm4 names like "IC_TAG_HIT_MISS:IC_MISS", as
 * PAPI_query_named_event accepts them), and place them in event sets. Strings in
 * *out are static or point into available[].
 *
 * n_hw_counters is PAPI_num_cmp_hwctrs() of perf_event: general-purpose plus fixed
 * counters of the core PMU (Skylake 8 + 3, Ice Lake 16 + 4, Zen 6 + 0), one fewer
 * with the NMI watchdog on; n_fixed_counters of them are fixed (CPUID leaf 0xA on
 * Intel, 0 on AMD), where Intel's instruction and cycle events go (fixed[c] = 1).
 * Attribution events that do not fit go to set 1, or are left out with why; set 0
 * is multiplexed only when the core events alone do not fit. A derived preset takes
 * two counters and libpfm4 counts them as with SMT off: the start-up trial finds
 * such a set does not fit. */
void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out);

/* Pure: take counter c out of the choice with why, keeping the counts in step. */
void ic_event_remove(struct ic_event_choice *ch, int c, const char *why);

/* Pure: drop every attribution counter (IC_CTR_ATTRIBUTION_FIRST on), with why. */
void ic_drop_attribution(struct ic_event_choice *ch, const char *why);

/* Pure: every event name ic_events_choose() may pick for this CPU, each once (static
 * strings), for the caller to query. Stores up to max, returns the number stored. */
size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max);

/* ---- counter_papi.c: the PAPI session ------------------------------------- */

/* Initialise PAPI once (thread-safe, later calls return the first answer).
 * 1: counting works; 0: it cannot (see ic_counters_note). Never aborts. */
int ic_counters_init(void);

/* Event sets counted in turn (1 or 2; 1 when counting does not work).
 * ic_ctr_set_open() opens the set of the current pass; the caller moves to the next
 * pass once every thread of a run has stopped, so a run's threads share one set. */
int ic_counters_passes(void);
void ic_counters_next_pass(void);

/* "papi" or "none". Calls ic_counters_init() if needed. */
const char *ic_counters_source(void);

/* When "none": the reason (libpfm4's tables, the perf_event component's
 * disabled_reason, perf_event_paranoid, ...). When "papi": the chosen events,
 * whether they are multiplexed, and the counter accounting. */
const char *ic_counters_note(void);

/* The chosen event for counter c, or NULL when it is not counted. */
const char *ic_counters_event(enum ic_ctr c);

/* One line on f, the first call only (thread-safe): no counters and why, or
 * which events are counted. */
void ic_counters_notice_once(FILE *f);

/* Whether the kernel shows two core PMUs (hybrid Intel: cpu_core and cpu_atom
 * under root/sys/bus/event_source/devices; root NULL or "" for the real one),
 * on which PAPI 7.0 fails. 1 with one line in why, 0 otherwise. */
int ic_pmu_hybrid(const char *root, char *why, size_t why_len);

/* Per thread. Open on the thread that counts; start/stop outside the timed loop.
 * All accept NULL (a set that failed to open): start fails, stop reports every
 * count invalid, close does nothing. */
struct ic_ctr_set;

/* NULL when counting is unavailable or PAPI refuses this thread; the reason is in
 * ic_ctr_set_error() (this thread's last error). */
struct ic_ctr_set *ic_ctr_set_open(void);
int ic_ctr_set_start(struct ic_ctr_set *set);   /* 0 ok, -1 failed */
/* Stops counting. value[c] is the count where valid[c] == 1, else an
 * IC_CTR_ABSENT_* code: IC_CTR_ABSENT_NO_SET for every count when set is NULL, not
 * started, or PAPI_stop fails. A failed PAPI_stop leaves the set running in PAPI's
 * view, holding its descriptors and blocking the thread's next set, so it is
 * cleaned up and destroyed there and then; ic_ctr_set_error() says whether that
 * worked. 0 ok, -1 failed. */
int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT]);
void ic_ctr_set_close(struct ic_ctr_set *set);
const char *ic_ctr_set_error(void);

/* ---- counter_events.c: counts before they are trusted --------------------- */

/* Why a count is absent: where valid[c] == 0, value[c] holds one of these. */
enum ic_ctr_absent {
	IC_CTR_ABSENT_NO_SET = -1,       /* no running event set: open, start or stop failed */
	IC_CTR_ABSENT_NOT_COUNTED = -2,  /* this CPU counts no event for it */
	IC_CTR_ABSENT_NOT_ADDED = -3,    /* its event would not go into this thread's set */
	IC_CTR_ABSENT_MPX_ZERO = -4,     /* 0 under multiplexing: maybe never scheduled */
	IC_CTR_ABSENT_BAD_COUNT = -5,    /* PAPI returned a negative count */
	IC_CTR_ABSENT_OTHER_PASS = -6,   /* counted by the other event set, on alternate runs */
	IC_CTR_ABSENT_CANARY = -7,       /* the set failed its canary: nothing it read is trusted */
};

/* Static text for an IC_CTR_ABSENT_* code ("count invalid" for others). */
const char *ic_ctr_absent_why(long long code);

/* Pure: 0 when a count PAPI_stop returned is a count, else the IC_CTR_ABSENT_*
 * code. PAPI's perf_event component scales a multiplexed count by time_enabled /
 * time_running but returns a raw 0 as valid when time_running is 0 (the event never
 * ran; _pe_read_multiplexed), and passes neither time on. So a multiplexed 0 is
 * absent even though some are real zeros; without multiplexing a 0 is a 0. */
int ic_ctr_count_absent(long long count, int multiplexed);

/* Pure: the canary a set's counts pass before any is trusted (value, valid as
 * ic_ctr_set_stop() left them, ops the operations run meanwhile). -1 with one line
 * in why when every valid count is 0 (a group the kernel accepted but never
 * scheduled) or when fewer than min_instr_per_op instructions per operation were
 * counted; 0 when the counts may be trusted or nothing was counted. */
int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len);

/* Pure: one figure per counter for a run from every thread's counts, set once by
 * the caller (averaging per-thread figures would divide by threads that counted
 * nothing). Thread t gave value[t], valid[t] (a thread whose set did not open
 * passes valid all 0), ops[t], and thread_why[t], its own reason for absent counts
 * (thread_why or any entry may be NULL or ""). ok[c] = 1 and per_op[c] = sum of
 * counts / sum of ops when every thread's count c is valid and the ops sum to more
 * than 0; else ok[c] = 0 and per_op[c] = NAN. A thread failing the canary (with
 * min_instr_per_op) voids every count of the run. why (may be NULL) gets "" when
 * every counter this CPU counts is ok, else the first absent counter, the first
 * thread lacking it and why, e.g. "l1i_miss_per_op absent: thread 2 of 4: no
 * running event set on this thread (event set did not open: ...)"; counters not
 * counted here or counted by the other pass are not named. Returns the number of
 * ok counters. */
int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len);

/* What --counters asked. */
enum ic_counters_mode { IC_CTR_AUTO, IC_CTR_PAPI, IC_CTR_SIM, IC_CTR_NONE };

/* Where a run's counter columns come from and why, in one line for the
 * console: the source the bench decided (papi, sim or none), what --counters
 * asked, and PAPI's and the simulation's reasons where they failed ("it said
 * no more", "see the log" where a reason is empty). papi_tried: PAPI was
 * asked (auto or papi) and said papi_why. sites_bench --sim-only prints it. */
void ic_counter_sentence(enum ic_counters_mode asked, const char *source, int papi_tried,
			 const char *papi_why, const char *sim_why, char *out, size_t len);

#endif
