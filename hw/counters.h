/* Hardware counters through PAPI: counter_events.c chooses the events for this
 * CPU and judges counts (pure but for CPUID); counter_papi.c is the PAPI session.
 * Many machines (cloud VMs, containers, perf_event_paranoid > 2) have no usable
 * counters: then ic_counters_init() returns 0, the source is "none", the note says
 * why, and every count reads as invalid; a missing count is never reported as 0. */
#ifndef IC_COUNTERS_H
#define IC_COUNTERS_H

#include <stddef.h>
#include <stdio.h>

/* X(NAME, column): IC_CTR_NAME, and its column name in ic_ctr_names. */
#define IC_CTRS(X) \
	X(L1I_MISS, "l1i_miss_per_op") \
	X(INSTR, "instr_per_op") \
	X(CYCLES, "cycles_per_op") \
	X(BRANCH_MISS, "branch_miss_per_op")         /* every mispredicted branch, not only conditional */ \
	X(ITLB_MISS, "itlb_miss_per_op")             /* iTLB misses that needed a page walk */ \
	X(OPCACHE_HIT, "opcache_hit_per_op")         /* AMD Zen 3 on: op-cache lookups */ \
	X(OPCACHE_MISS, "opcache_miss_per_op") \
	X(DSB_UOPS, "dsb_uops_per_op")               /* Intel: uops from the DSB (AMD: op cache) */ \
	X(MITE_UOPS, "mite_uops_per_op")             /* Intel: from legacy decoders (AMD: decoders) */ \
	X(MACHINE_CLEAR, "machine_clear_per_op")     /* Intel: pipeline flushes of any kind */ \
	X(FETCH_STALL, "fetch_stall_cycles_per_op")  /* Intel: fetch stalled on an L1i miss */ \
	X(FE_STALL, "frontend_bound_slots_per_op")   /* slots the front end left empty: what misses cost */

#define IC_CTR_ENUM(name, column) IC_CTR_##name,
enum ic_ctr { IC_CTRS(IC_CTR_ENUM) IC_CTR_COUNT };
#undef IC_CTR_ENUM

/* Counters from here on attribute a difference: counted beside the core ones where
 * they fit, else in a second set on alternate runs, never multiplexed (ic_events_choose). */
#define IC_CTR_ATTRIBUTION_FIRST IC_CTR_OPCACHE_HIT

extern const char *const ic_ctr_names[IC_CTR_COUNT];

enum { IC_VENDOR_OTHER, IC_VENDOR_INTEL, IC_VENDOR_AMD };

struct ic_cpu_ident {
	int vendor;     /* IC_VENDOR_* */
	int family;     /* cpuid family as displayed: 6, 0x17, 0x19, 0x1a */
	int model;
};

/* From CPUID; IC_VENDOR_OTHER, 0, 0 off x86. */
void ic_cpu_ident_read(struct ic_cpu_ident *cpu);

/* Whether libpfm4 of this release ("4.13") has this CPU's event tables, without
 * which PAPI's perf_event cannot start: 0 with a line in why naming the release
 * needed; else (or when unknown) 1. */
int ic_pfm_knows_cpu(const struct ic_cpu_ident *cpu, const char *pfm_version,
		     char *why, size_t why_len);

struct ic_event_choice {
	const char *event[IC_CTR_COUNT];  /* PAPI event name; NULL: not available */
	int n_events;
	int fixed[IC_CTR_COUNT];          /* 1: event[c] goes on a fixed counter */
	int n_fixed_events, n_gp_events;
	int n_gp_counters;                /* n_hw_counters - n_fixed_counters, >= 0 */
	int multiplex;                    /* set 0's general-purpose events > n_gp_counters */
	const char *why[IC_CTR_COUNT];    /* what the choice means, or why none */
	/* Bit k: event[c] is in set k. Set 1: the attribution events that did not
	 * fit beside the core counters, and the instruction event as its canary. */
	unsigned sets[IC_CTR_COUNT];
	int n_sets;                       /* 1 or 2; 0 when nothing is chosen */
	int set_fixed[2], set_gp[2];
};

/* Pure: choose one event per counter for this CPU from the names PAPI knows in available[],
 * placed in event sets (*out points into available[] or static strings). n_hw_counters:
 * perf_event's PAPI_num_cmp_hwctrs(), the core PMU's general-purpose plus fixed counters
 * (Skylake 8 + 3, Ice Lake 16 + 4, Zen 6 + 0; one fewer with the NMI watchdog on),
 * n_fixed_counters of them fixed (Intel's CPUID leaf 0xA), for Intel's instruction and cycle
 * events. Set 0 is multiplexed only when the core events alone do not fit. A derived preset
 * takes two counters and libpfm4 counts as with SMT off: the start-up trial finds that. */
void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out);

/* Pure: take counter c, or every attribution counter, out of the choice with why. */
void ic_event_remove(struct ic_event_choice *ch, int c, const char *why);
void ic_drop_attribution(struct ic_event_choice *ch, const char *why);

/* Pure: up to max names ic_events_choose() may pick for this CPU, each once. */
size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max);

/* Initialise PAPI once (thread-safe), never aborting: 1 counting works, 0 not (ic_counters_note). */
int ic_counters_init(void);

/* Event sets counted in turn (1 or 2). ic_ctr_set_open() opens the current pass's;
 * the caller moves on once every thread of a run has stopped, so they share one. */
int ic_counters_passes(void);
void ic_counters_next_pass(void);

/* These three call ic_counters_init() if needed. "papi" or "none". */
const char *ic_counters_source(void);

/* "none": the reason; "papi": the chosen events and the counter accounting. */
const char *ic_counters_note(void);

/* The chosen event for counter c, or NULL when it is not counted. */
const char *ic_counters_event(enum ic_ctr c);

/* The note in one line on f, the first call only (thread-safe). */
void ic_counters_notice_once(FILE *f);

/* 1, with why, when root/sys (NULL: /sys) shows hybrid Intel's two core PMUs (PAPI 7.0 fails). */
int ic_pmu_hybrid(const char *root, char *why, size_t why_len);

/* Per thread: open on the thread that counts, start/stop outside the timed loop.
 * All accept NULL: start fails, stop reports every count invalid. Open gives NULL
 * with the reason in ic_ctr_set_error() (this thread's last error). */
struct ic_ctr_set;
struct ic_ctr_set *ic_ctr_set_open(void);
int ic_ctr_set_start(struct ic_ctr_set *set);   /* 0 ok, -1 failed */
/* value[c] is the count where valid[c], else an IC_CTR_ABSENT_* code (NO_SET for all when
 * stopping fails). A failed PAPI_stop leaves the set running to PAPI, holding its descriptors
 * and blocking the thread's next set, so it is destroyed there and then. 0 ok, -1 failed. */
int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT]);
void ic_ctr_set_close(struct ic_ctr_set *set);
const char *ic_ctr_set_error(void);

/* Why a count is absent: where valid[c] == 0, value[c] holds one of these.
 * X(NAME, code, text): IC_CTR_ABSENT_NAME = code, and ic_ctr_absent_why's text. */
#define IC_CTR_ABSENTS(X) \
	X(NO_SET, -1, "no running event set on this thread (open, start or stop failed)") \
	X(NOT_COUNTED, -2, "this CPU counts no event for it") \
	X(NOT_ADDED, -3, "its event would not go into this thread's event set") \
	X(MPX_ZERO, -4, "0 under multiplexing: the event may never have been scheduled") \
	X(BAD_COUNT, -5, "PAPI returned a negative count") \
	X(OTHER_PASS, -6, "counted by the other event set, on alternate runs")

#define IC_CTR_ABSENT_ENUM(name, code, text) IC_CTR_ABSENT_##name = (code),
enum ic_ctr_absent { IC_CTR_ABSENTS(IC_CTR_ABSENT_ENUM) };
#undef IC_CTR_ABSENT_ENUM

/* The text for an IC_CTR_ABSENT_* code ("count invalid" for others). */
const char *ic_ctr_absent_why(long long code);

/* Pure: 0 when a count from PAPI_stop is a count, else its IC_CTR_ABSENT_* code. PAPI's
 * perf_event scales a multiplexed count by time_enabled / time_running but returns a raw 0 as
 * valid when time_running is 0 (never ran; _pe_read_multiplexed) and passes neither time on: so
 * a multiplexed 0 is absent even though some are real zeros; without multiplexing a 0 is a 0. */
int ic_ctr_count_absent(long long count, int multiplexed);

/* Pure: the canary a set's counts pass before any is trusted (ops: the operations
 * run meanwhile). -1 with a line in why when every valid count is 0 (a group the
 * kernel accepted but never scheduled) or fewer than min_instr_per_op instructions
 * per operation were counted; else 0 (trusted, or nothing counted). */
int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len);

/* Pure: one figure per counter for a run from every thread's counts (averaging per-thread
 * figures would divide by threads that counted nothing). Thread t gave value[t], valid[t],
 * ops[t] and its reason thread_why[t] (either may be NULL). ok[c] = 1, per_op[c] = sum of
 * counts / sum of ops when every thread's count c is valid and ops were run; else 0 and
 * NAN; a thread failing the canary voids every count. why (may be NULL) names the first
 * absent counter this pass counts, the first thread lacking it and why ("l1i_miss_per_op
 * absent: thread 2 of 4: no running event set ..."). Returns the number of ok counters. */
int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len);

/* What --counters asked. */
enum ic_counters_mode { IC_CTR_AUTO, IC_CTR_PAPI, IC_CTR_SIM, IC_CTR_NONE };

/* The console's line on where a run's counter columns come from (source: papi,
 * sim or none) and why: what --counters asked, PAPI's and the simulation's
 * reasons where they failed (papi_tried: PAPI was asked and said papi_why). */
void ic_counter_sentence(enum ic_counters_mode asked, const char *source, int papi_tried,
			 const char *papi_why, const char *sim_why, char *out, size_t len);

#endif
