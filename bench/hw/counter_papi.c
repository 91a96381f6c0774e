/* PAPI's initialisation, once per process: can this machine count (the
 * CPU, libpfm4's tables, the kernel's PMU, PAPI's perf_event component),
 * which events (counter_choice.c), and does each event set build, start and
 * count known work (the trial)? The answer and its note in words.
 */
#define _GNU_SOURCE
#include "counters_internal.h"
#include "pmu_support.h"

#include <papi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* More than any CPU's candidate lists hold together (about 30). */
#define COUNTERS_MAX_CANDIDATES 64

/* Written by ic_counters_init() alone; counter_sets.c reads them through
 * counters_chosen() and counters_component() once it returned. */
static struct ic_event_choice counters_choice;
static int counters_cidx = -1;               /* PAPI's perf_event component */

static pthread_once_t counters_once = PTHREAD_ONCE_INIT;
static int counters_working;                 /* 1: counting works */
static int counters_n_hw, counters_n_fixed;  /* what counters_choice was given */
static char counters_note[COUNTERS_NOTE_LEN] = "counters not initialised";
static atomic_flag counters_notice_done = ATOMIC_FLAG_INIT;

static unsigned long counters_thread_id(void)
{
	return (unsigned long)pthread_self();
}

/* perf_event_paranoid explains most "permission denied" answers. */
static int counters_paranoid_read(void)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int v = -100;

	if (!f)
		return v;
	if (fscanf(f, "%d", &v) != 1)
		v = -100;
	fclose(f);
	return v;
}

/* The "none" note: what failed, PAPI's error text, and perf_event_paranoid. */
static void counters_note_none(int papi_rc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void counters_note_none(int papi_rc, const char *fmt, ...)
{
	va_list ap;
	size_t len;
	int par = counters_paranoid_read();

	va_start(ap, fmt);
	vsnprintf(counters_note, sizeof(counters_note), fmt, ap);
	va_end(ap);
	len = strlen(counters_note);
	if (papi_rc < 0 && len < sizeof(counters_note))
		len += snprintf(counters_note + len, sizeof(counters_note) - len, ": %s",
				evset_strerror(papi_rc));
	if (par != -100 && len < sizeof(counters_note))
		snprintf(counters_note + len, sizeof(counters_note) - len,
			 "; perf_event_paranoid=%d", par);
}

static void counters_note_papi(int refit)
{
	size_t len = 0;
	int w;

	for (int c = 0; c < IC_CTR_COUNT && len < sizeof(counters_note); c++) {
		const char *set = "";
		if (counters_choice.event[c] && counters_choice.n_sets == 2)
			set = counters_choice.sets[c] == 3u ? " (both sets)" : counters_choice.sets[c] == 2u ? " (set 2)" : "";
		w = snprintf(counters_note + len, sizeof(counters_note) - len, "%s%s=%s%s",
			     c ? ", " : "", ic_ctr_names[c],
			     counters_choice.event[c] ? counters_choice.event[c] : "absent", set);
		if (w < 0)
			return;
		len += (size_t)w;
	}
	if (len < sizeof(counters_note)) {
		w = snprintf(counters_note + len, sizeof(counters_note) - len,
			     "; %s (%d events: %d on fixed counters, %d on %d general-purpose "
			     "counters = %d counters less %d fixed)%s",
			     counters_choice.multiplex ? "multiplexed" : "not multiplexed",
			     counters_choice.n_events, counters_choice.n_fixed_events, counters_choice.n_gp_events,
			     counters_choice.n_gp_counters, counters_n_hw, counters_n_fixed,
			     refit ? ", because the set did not fit unmultiplexed" : "");
		if (w > 0)
			len += (size_t)w;
	}
	if (counters_choice.n_sets == 2 && len < sizeof(counters_note))
		snprintf(counters_note + len, sizeof(counters_note) - len,
			 "; two event sets counted on alternate runs (set 1: the core counters, "
			 "%d general-purpose; set 2: the attribution events that did not fit beside "
			 "them, %d general-purpose, with instructions again as its canary), so each "
			 "counter comes from about half of the repetitions",
			 counters_choice.set_gp[0], counters_choice.set_gp[1]);
}

/* Fixed counters: CPUID leaf 0xA, EDX[4:0] when the architectural perfmon
 * version (EAX[7:0]) is 2 or more. 0 on AMD (leaf 0xA reads as zeros) and
 * off x86. */
static int counters_cpuid_fixed(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	if (!__get_cpuid_count(0xa, 0, &a, &b, &c, &d))
		return 0;
	if ((a & 0xff) < 2)
		return 0;
	return (int)(d & 0x1f);
#else
	return 0;
#endif
}

/* Known work for the start-up trial: at least 2 instructions an iteration
 * (the add and the loop's branch), which the compiler cannot drop. */
#define COUNTERS_TRIAL_ITERS 200000UL

static void counters_trial_work(void)
{
	for (unsigned long i = 0; i < COUNTERS_TRIAL_ITERS; i++)
		__asm__ volatile("" ::: "memory");
}

/* Start, run known work, stop, and apply the canary: a set the kernel
 * accepts but never schedules reads 0. 0 ok, else -1 with the reason. */
static int counters_trial(int evset, const int slot[IC_CTR_COUNT], int multiplexed, char *err,
			  size_t err_len)
{
	long long raw[IC_CTR_COUNT + 1], value[IC_CTR_COUNT];
	int valid[IC_CTR_COUNT], rc;

	rc = PAPI_start(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_start on perf_event failed: %s", evset_strerror(rc));
		return -1;
	}
	counters_trial_work();
	rc = PAPI_stop(evset, raw);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_stop on perf_event failed: %s", evset_strerror(rc));
		return -1;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		int absent = slot[c] < 0 ? IC_CTR_ABSENT_NOT_COUNTED
					 : ic_ctr_count_absent(raw[slot[c]], multiplexed);
		valid[c] = !absent;
		value[c] = absent ? absent : raw[slot[c]];
	}
	/* Something must have counted: a multiplexed set whose every count is
	 * an unscheduled 0 is all absent, which the canary lets pass. */
	int any = 0;
	for (int c = 0; c < IC_CTR_COUNT; c++)
		any |= valid[c];
	if (!any) {
		snprintf(err, err_len, "canary failed: every count of the start-up trial read 0 under "
			 "multiplexing (the events were never scheduled)");
		return -1;
	}
	/* One operation per iteration, at least one instruction each. */
	return ic_ctr_canary(value, valid, (double)COUNTERS_TRIAL_ITERS, 1.0, err, err_len) ? -1 : 0;
}

/* Can PAPI count here at all: the library, its perf_event component, and
 * libpfm4's tables for this CPU? The number of hardware counters, or 0
 * with the note saying why not. */
static int counters_papi_open(const struct ic_cpu_ident *cpu, char pfm[32])
{
	const PAPI_component_info_t *ci;
	int rc, n_hw;
	char err[512];

#if PAPI_VERSION_MAJOR(PAPI_VERSION) < 7 || \
    (PAPI_VERSION_MAJOR(PAPI_VERSION) == 7 && PAPI_VERSION_MINOR(PAPI_VERSION) == 0)
	/* PAPI 7.0 finds two core PMUs on a hybrid CPU and fails (PAPI_ECOUNT). */
	if (ic_pmu_hybrid(NULL, err, sizeof(err))) {
		counters_note_none(0, "%s", err);
		return 0;
	}
#endif
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		if (rc > 0)
			counters_note_none(0, "PAPI_library_init: library version %#x differs from papi.h %#x",
					   (unsigned)rc, (unsigned)PAPI_VER_CURRENT);
		else
			counters_note_none(rc, "PAPI_library_init failed");
		return 0;
	}
	rc = PAPI_thread_init(counters_thread_id);
	if (rc != PAPI_OK) {
		counters_note_none(rc, "PAPI_thread_init failed");
		return 0;
	}
	counters_cidx = PAPI_get_component_index("perf_event");
	if (counters_cidx < 0) {
		counters_note_none(counters_cidx, "PAPI has no perf_event component");
		return 0;
	}
	ci = PAPI_get_component_info(counters_cidx);
	if (!ci) {
		counters_note_none(0, "PAPI_get_component_info(perf_event) returned nothing");
		return 0;
	}
	/* Before PAPI's own reason: libpfm4 may not know this CPU at all,
	 * which PAPI reports only as "no default PMU found". */
	ic_pfm_release(pfm);
	if (!ic_pfm_knows_cpu(cpu, pfm, err, sizeof(err))) {
		counters_note_none(0, "%s%s%s%s", err, ci->disabled ? "; PAPI: " : "",
				   ci->disabled ? ci->disabled_reason : "",
				   ic_core_pmu_present() ? "" : "; and the kernel offers no core PMU here "
				   "(no /sys/bus/event_source/devices/cpu: a VM without a virtual PMU?)");
		return 0;
	}
	if (ci->disabled) {
		counters_note_none(0, "perf_event component disabled: %s%s",
				   ci->disabled_reason[0] ? ci->disabled_reason : "no reason given",
				   ic_core_pmu_present() ? "" : " (the kernel offers no core PMU here: no "
				   "/sys/bus/event_source/devices/cpu, as in a VM without a virtual PMU)");
		return 0;
	}
	n_hw = PAPI_num_cmp_hwctrs(counters_cidx);
	if (n_hw <= 0) {
		counters_note_none(n_hw < 0 ? n_hw : 0, "PAPI reports 0 hardware counters");
		return 0;
	}
	return n_hw;
}

/* The choice among the candidates PAPI knows; -1 with the note set when
 * it knows none. */
static int counters_choose(const struct ic_cpu_ident *cpu, const char *pfm, int n_hw)
{
	const char *cand[COUNTERS_MAX_CANDIDATES], *avail[COUNTERS_MAX_CANDIDATES];
	size_t n_cand, n_avail = 0;
	int rc;

	n_cand = ic_events_candidates(cpu, cand, COUNTERS_MAX_CANDIDATES);
	for (size_t i = 0; i < n_cand; i++)
		if (PAPI_query_named_event(cand[i]) == PAPI_OK)
			avail[n_avail++] = cand[i];
	counters_n_hw = n_hw;
	counters_n_fixed = cpu->vendor == IC_VENDOR_INTEL ? counters_cpuid_fixed() : 0;
	ic_events_choose(cpu, avail, n_avail, counters_n_hw, counters_n_fixed, &counters_choice);
	if (counters_choice.n_events == 0) {
		counters_note_none(0, "PAPI knows none of the events this CPU needs (%s family %#x model %#x, "
				   "libpfm4 %s)", cpu->vendor == IC_VENDOR_INTEL ? "Intel"
				   : cpu->vendor == IC_VENDOR_AMD ? "AMD" : "other vendor", cpu->family,
				   cpu->model, pfm[0] ? pfm : "of unknown release");
		return -1;
	}
	if (counters_choice.multiplex) {
		rc = PAPI_multiplex_init();
		if (rc != PAPI_OK) {
			counters_note_none(rc, "PAPI_multiplex_init failed");
			return -1;
		}
	}
	return 0;
}

/* Derived presets take two counters, some events share one, and libpfm4
 * counts counters as with SMT off. If not all of set 1's events went in,
 * first leave out the attribution events, then multiplex set 1 rather than
 * lose a core column (*refit). -1 with err when a rebuild fails. */
static int counters_fit_core_set(int *evset, int slot[IC_CTR_COUNT], int *refit, char *err,
				 size_t err_len)
{
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (!counters_choice.event[c] || !(counters_choice.sets[c] & 1u) || slot[c] >= 0)
			continue;
		evset_drop(evset, NULL, 0);
		ic_drop_attribution(&counters_choice, "left out: the event set did not fit the "
				    "counters without multiplexing");
		if (evset_build(&counters_choice, counters_cidx, 0, evset, slot, err, err_len) < 0)
			return -1;
		break;
	}
	for (int c = 0; c < IC_CTR_COUNT && !counters_choice.multiplex; c++) {
		if (counters_choice.event[c] && (counters_choice.sets[c] & 1u) && slot[c] < 0 &&
		    PAPI_multiplex_init() == PAPI_OK) {
			evset_drop(evset, NULL, 0);
			counters_choice.multiplex = 1;
			*refit = 1;
			if (evset_build(&counters_choice, counters_cidx, 0, evset, slot, err, err_len) < 0)
				return -1;
		}
	}
	return 0;
}

/* Try each set once here: a paranoid kernel fails at start, not before,
 * and a set that starts may still read nothing. The second set's failures
 * leave its events out; the first's turn counting off (-1, the note set). */
static int counters_try_sets(int *refit)
{
	int rc, evset, slot[IC_CTR_COUNT];
	char err[512];

	for (int pass = 0; pass < counters_choice.n_sets; pass++) {
		if (evset_build(&counters_choice, counters_cidx, pass, &evset, slot, err, sizeof(err)) < 0) {
			if (pass == 1) {   /* the core set counts: go on without set 2 */
				ic_drop_attribution(&counters_choice, "left out: the second event set would not build");
				break;
			}
			counters_note_none(0, "%s", err);
			return -1;
		}
		if (pass == 0 && counters_fit_core_set(&evset, slot, refit, err, sizeof(err)) < 0) {
			counters_note_none(0, "%s", err);
			return -1;
		}
		rc = counters_trial(evset, slot, pass == 0 && counters_choice.multiplex, err, sizeof(err));
		evset_drop(&evset, NULL, 0);
		if (rc != 0 && pass == 0) {
			counters_note_none(0, "%s", err);
			return -1;
		}
		if (rc != 0) {
			ic_drop_attribution(&counters_choice, "left out: the second event set failed its trial");
			break;
		}
		for (int c = 0; c < IC_CTR_COUNT; c++)
			if (counters_choice.event[c] && (counters_choice.sets[c] & (1u << pass)) && slot[c] < 0 &&
			    !(c == IC_CTR_INSTR && pass == 1))
				choice_remove(&counters_choice, c, "chosen event could not be added to an event set");
		choice_recount(&counters_choice);
	}
	return 0;
}

static void counters_init_once(void)
{
	struct ic_cpu_ident cpu;
	int n_hw, refit = 0;
	char pfm[32];

	ic_cpu_ident_read(&cpu);
	n_hw = counters_papi_open(&cpu, pfm);
	if (n_hw <= 0 || counters_choose(&cpu, pfm, n_hw) < 0 || counters_try_sets(&refit) < 0)
		return;
	counters_working = 1;
	counters_note_papi(refit);
}

int ic_counters_init(void)
{
	pthread_once(&counters_once, counters_init_once);
	return counters_working;
}

const struct ic_event_choice *counters_chosen(void)
{
	return &counters_choice;
}

int counters_component(void)
{
	return counters_cidx;
}

int ic_counters_passes(void)
{
	return ic_counters_init() && counters_choice.n_sets > 1 ? counters_choice.n_sets : 1;
}

const char *ic_counters_source(void)
{
	return ic_counters_init() ? "papi" : "none";
}

const char *ic_counters_note(void)
{
	ic_counters_init();
	return counters_note;
}

const char *ic_counters_event(enum ic_ctr c)
{
	if (!ic_counters_init() || (unsigned)c >= IC_CTR_COUNT)
		return NULL;
	return counters_choice.event[c];
}

void ic_counters_notice_once(FILE *f)
{
	int ok = ic_counters_init();

	if (atomic_flag_test_and_set(&counters_notice_done))
		return;
	if (ok)
		fprintf(f, "inlinecost: hardware counters via PAPI: %s\n", counters_note);
	else
		/* Not "absent": the simulation may stand in; run.sh says which. */
		fprintf(f, "inlinecost: no hardware counters (PAPI: %s)\n", counters_note);
	fflush(f);
}
