/* The PAPI session (counters.h): can this machine count, with which events, does each event
 * set count known work (the trial)? Then per-thread event sets. */
#define _GNU_SOURCE
#include "counters.h"
#include "kit.h"

#include <limits.h>
#include <link.h>
#include <papi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* More than any CPU's candidate lists hold together (about 30). */
#define COUNTERS_MAX_CANDIDATES 64
/* Every event's name and why fit in the note. */
#define COUNTERS_NOTE_LEN 1536

/* Written by the initialisation alone, read-only once it has returned. */
static struct ic_event_choice counters_choice;
static int counters_cidx = -1;               /* PAPI's perf_event component */
static int counters_working;                 /* 1: counting works */
static int counters_n_hw, counters_n_fixed;  /* what counters_choice was given */
static char counters_note[COUNTERS_NOTE_LEN] = "counters not initialised";
static pthread_once_t counters_once = PTHREAD_ONCE_INIT;
static atomic_flag counters_notice_done = ATOMIC_FLAG_INIT;

/* Runs so far; a thread's set is this modulo the number of sets. */
static atomic_uint counters_pass;
/* This thread's last error: PAPI's reason, or the note. */
static _Thread_local char set_err[COUNTERS_NOTE_LEN + 64];

struct ic_ctr_set {
	int evset;               /* PAPI_NULL once torn down */
	int slot[IC_CTR_COUNT];  /* position in PAPI's values; -1: not in this set */
	int pass;                /* which of the choice's sets this is */
	int multiplexed;
	int running;
};

static const char *papi_error(int rc)
{
	static _Thread_local char buf[32];
	const char *t = PAPI_strerror(rc);

	if (t && *t)
		return t;
	snprintf(buf, sizeof(buf), "PAPI error %d", rc);
	return buf;
}

/* This thread's error, and more of the note; both return -1 (`return set_fail(...)`). */
#define set_fail(...) ic_fail(set_err, sizeof(set_err), __VA_ARGS__)
#define note_add(...) \
	ic_fail(counters_note + strlen(counters_note), sizeof(counters_note) - strlen(counters_note), __VA_ARGS__)

/* Whether counter c's event is in the choice's set pass. */
static int in_pass(int c, int pass)
{
	return counters_choice.event[c] && (counters_choice.sets[c] & (1u << pass));
}

int ic_pmu_hybrid(const char *root, char *why, size_t why_len)
{
	char path[4096];

	if (why && why_len)
		why[0] = '\0';
	/* A plain CPU's core PMU is "cpu"; a hybrid one has two. */
	for (int k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/sys/bus/event_source/devices/cpu_%s/type", root ? root : "",
			 k ? "atom" : "core");
		if (access(path, F_OK))
			return 0;
	}
	snprintf(why, why_len, "hybrid CPU: two core PMUs (cpu_core for P-cores, cpu_atom for "
		 "E-cores), on which PAPI 7.0 fails with PAPI_ECOUNT; threads are placed on one "
		 "core kind");
	return 1;
}

/* libpfm4's release from the loaded copy's file name ("libpfm.so.4.13.0": "4.13";
 * "" when none): PAPI's support_version is the interface's, "4.0" in every release. */
static int pfm_release_of(struct dl_phdr_info *info, size_t size, void *arg)
{
	char real[PATH_MAX], *out = arg;
	int major, minor;

	(void)size;
	if (!info->dlpi_name || !strstr(info->dlpi_name, "libpfm.so"))
		return 0;
	if (!realpath(info->dlpi_name, real))
		snprintf(real, sizeof(real), "%s", info->dlpi_name);
	if (sscanf(basename(real), "libpfm.so.%d.%d", &major, &minor) == 2)
		snprintf(out, 32, "%d.%d", major, minor);
	return out[0] != '\0';
}

/* Intel's fixed counters: CPUID leaf 0xA, EDX[4:0], from perfmon version 2. */
static int cpuid_fixed_counters(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;

	if (__get_cpuid_count(0xa, 0, &a, &b, &c, &d) && (a & 0xff) >= 2)
		return (int)(d & 0x1f);
#endif
	return 0;
}

/* The "none" note: what failed, PAPI's error text, and perf_event_paranoid (most
 * "permission denied" answers' cause). Returns -1, for the caller to return. */
#define note_none(papi_rc, ...) (ic_fail(counters_note, sizeof(counters_note), __VA_ARGS__), note_why(papi_rc))

static int note_why(int papi_rc)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
	int par;

	if (papi_rc < 0)
		note_add(": %s", papi_error(papi_rc));
	if (f && fscanf(f, "%d", &par) == 1)
		note_add("; perf_event_paranoid=%d", par);
	if (f)
		fclose(f);
	return -1;
}

static void note_papi(int refit)
{
	const struct ic_event_choice *ch = &counters_choice;

	counters_note[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++)
		note_add("%s%s=%s%s", c ? ", " : "", ic_ctr_names[c], ch->event[c] ? ch->event[c] : "absent",
			 !ch->event[c] || ch->n_sets != 2 ? ""
			 : ch->sets[c] == 3u ? " (both sets)" : ch->sets[c] == 2u ? " (set 2)" : "");
	note_add("; %s (%d events: %d on fixed counters, %d on %d general-purpose counters = %d "
		 "counters less %d fixed)%s", ch->multiplex ? "multiplexed" : "not multiplexed",
		 ch->n_events, ch->n_fixed_events, ch->n_gp_events, ch->n_gp_counters, counters_n_hw,
		 counters_n_fixed, refit ? ", because the set did not fit unmultiplexed" : "");
	if (ch->n_sets == 2)
		note_add("; two event sets counted on alternate runs (set 1: the core counters, "
			 "%d general-purpose; set 2: the attribution events that did not fit beside "
			 "them, %d general-purpose, with instructions again as its canary), so each "
			 "counter comes from about half of the repetitions", ch->set_gp[0], ch->set_gp[1]);
}

/* PAPI, perf_event and libpfm4's tables here: the number of counters, or -1, the note why. */
static int papi_open(const struct ic_cpu_ident *cpu, char pfm[32])
{
	const PAPI_component_info_t *ci;
	int rc, n_hw;
	char why[512];
	/* A VM without a virtual PMU shows none. */
	const char *no_pmu = !access("/sys/bus/event_source/devices/cpu", F_OK) ||
		!access("/sys/bus/event_source/devices/cpu_core", F_OK) ? "" : "; and the kernel offers "
		"no core PMU here (no /sys/bus/event_source/devices/cpu: a VM without a virtual PMU?)";

#if PAPI_VERSION_MAJOR(PAPI_VERSION) < 7 || \
    (PAPI_VERSION_MAJOR(PAPI_VERSION) == 7 && PAPI_VERSION_MINOR(PAPI_VERSION) == 0)
	if (ic_pmu_hybrid(NULL, why, sizeof(why)))
		return note_none(0, "%s", why);
#endif
	/* A positive answer is the library's version, not papi.h's. */
	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT && rc > 0)
		return note_none(0, "PAPI_library_init: library version %#x differs from papi.h %#x",
				 (unsigned)rc, (unsigned)PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT)
		return note_none(rc, "PAPI_library_init failed");
	rc = PAPI_thread_init(pthread_self);
	if (rc != PAPI_OK)
		return note_none(rc, "PAPI_thread_init failed");
	counters_cidx = PAPI_get_component_index("perf_event");
	if (counters_cidx < 0)
		return note_none(counters_cidx, "PAPI has no perf_event component");
	ci = PAPI_get_component_info(counters_cidx);
	if (!ci)
		return note_none(0, "PAPI_get_component_info(perf_event) returned nothing");
	/* Before PAPI's reason, for a CPU libpfm4 does not know only "no default PMU found". */
	pfm[0] = '\0';
	dl_iterate_phdr(pfm_release_of, pfm);
	if (!ic_pfm_knows_cpu(cpu, pfm, why, sizeof(why)))
		return note_none(0, "%s%s%s%s", why, ci->disabled ? "; PAPI: " : "",
				 ci->disabled ? ci->disabled_reason : "", no_pmu);
	if (ci->disabled)
		return note_none(0, "perf_event component disabled: %s%s",
				 ci->disabled_reason[0] ? ci->disabled_reason : "no reason given", no_pmu);
	n_hw = PAPI_num_cmp_hwctrs(counters_cidx);
	if (n_hw <= 0)
		return note_none(n_hw < 0 ? n_hw : 0, "PAPI reports 0 hardware counters");
	return n_hw;
}

/* The choice among the candidates PAPI knows; -1 with the note set when none. */
static int papi_choose(const struct ic_cpu_ident *cpu, const char *pfm, int n_hw)
{
	const char *cand[COUNTERS_MAX_CANDIDATES], *avail[COUNTERS_MAX_CANDIDATES];
	size_t n_cand, n_avail = 0;
	int rc;

	n_cand = ic_events_candidates(cpu, cand, COUNTERS_MAX_CANDIDATES);
	for (size_t i = 0; i < n_cand; i++)
		if (PAPI_query_named_event(cand[i]) == PAPI_OK)
			avail[n_avail++] = cand[i];
	counters_n_hw = n_hw;
	counters_n_fixed = cpu->vendor == IC_VENDOR_INTEL ? cpuid_fixed_counters() : 0;
	ic_events_choose(cpu, avail, n_avail, counters_n_hw, counters_n_fixed, &counters_choice);
	if (counters_choice.n_events == 0)
		return note_none(0, "PAPI knows none of the events this CPU needs (%s family %#x model %#x, "
				 "libpfm4 %s)", cpu->vendor == IC_VENDOR_INTEL ? "Intel"
				 : cpu->vendor == IC_VENDOR_AMD ? "AMD" : "other vendor", cpu->family,
				 cpu->model, pfm[0] ? pfm : "of unknown release");
	/* Multiplexing must be initialised before any set is made multiplexed. */
	if (counters_choice.multiplex && (rc = PAPI_multiplex_init()) != PAPI_OK)
		return note_none(rc, "PAPI_multiplex_init failed");
	return 0;
}

/* Tear a set down, even one a failed PAPI_stop left running: PAPI_OK, or PAPI's error. */
static int set_drop(struct ic_ctr_set *s)
{
	long long scratch[IC_CTR_COUNT + 1];
	int state = 0, rc;

	if (s->evset == PAPI_NULL)
		return PAPI_OK;
	if (PAPI_state(s->evset, &state) == PAPI_OK && (state & PAPI_RUNNING))
		PAPI_stop(s->evset, scratch);        /* once more; its answer is in rc below */
	rc = PAPI_cleanup_eventset(s->evset);
	if (rc == PAPI_OK && (rc = PAPI_destroy_eventset(&s->evset)) == PAPI_OK)
		s->evset = PAPI_NULL;
	return rc;
}

/* A fresh event set of the choice's set pass (slot[c] -1: not in it or not added):
 * the number added, or -1 with the reason in set_err. */
static int set_build(struct ic_ctr_set *s, int pass)
{
	const struct ic_event_choice *ch = &counters_choice;
	int rc, n = 0;

	s->pass = pass;
	s->multiplexed = ch->multiplex && pass == 0;
	s->running = 0;
	s->evset = PAPI_NULL;
	rc = PAPI_create_eventset(&s->evset);
	if (rc != PAPI_OK)
		return set_fail("PAPI_create_eventset: %s", papi_error(rc));
	if (s->multiplexed) {
		/* A set is bound to its component before it can be made multiplexed. */
		rc = PAPI_assign_eventset_component(s->evset, counters_cidx);
		if (rc == PAPI_OK)
			rc = PAPI_set_multiplex(s->evset);
		if (rc != PAPI_OK) {
			PAPI_destroy_eventset(&s->evset);
			return set_fail("PAPI_set_multiplex: %s", papi_error(rc));
		}
	}
	set_err[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		s->slot[c] = -1;
		if (!in_pass(c, pass))
			continue;
		rc = PAPI_add_named_event(s->evset, ch->event[c]);
		if (rc == PAPI_OK)
			s->slot[c] = n++;
		else if (!set_err[0])
			set_fail("PAPI_add_named_event(%s): %s", ch->event[c], papi_error(rc));
	}
	if (n == 0) {
		if (!set_err[0])
			set_fail("no event could be added");
		set_drop(s);
		return -1;
	}
	return n;
}

/* Whether one of the events of s's pass did not go in. */
static int set_lacks_event(const struct ic_ctr_set *s)
{
	for (int c = 0; c < IC_CTR_COUNT; c++)
		if (in_pass(c, s->pass) && s->slot[c] < 0)
			return 1;
	return 0;
}

int ic_ctr_set_start(struct ic_ctr_set *set)
{
	int rc;

	if (!set || set->running || set->evset == PAPI_NULL)
		return -1;
	rc = PAPI_start(set->evset);
	if (rc != PAPI_OK)
		return set_fail("PAPI_start: %s", papi_error(rc));
	set->running = 1;
	return 0;
}

int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT])
{
	const struct ic_event_choice *ch = &counters_choice;
	long long raw[IC_CTR_COUNT + 1];
	char why[128];
	int rc;

	for (int c = 0; c < IC_CTR_COUNT; c++) {
		value[c] = IC_CTR_ABSENT_NO_SET;
		valid[c] = 0;
	}
	if (!set || !set->running)
		return -1;
	set->running = 0;
	rc = PAPI_stop(set->evset, raw);
	if (rc != PAPI_OK) {
		int drop = set_drop(set), gone = drop == PAPI_OK;

		snprintf(why, sizeof(why), "%s", gone ? "" : papi_error(drop));
		return set_fail("PAPI_stop: %s; the event set %s%s", papi_error(rc),
				gone ? "was cleaned up and destroyed" : "could not be cleaned up: ", gone ? "" : why);
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (set->slot[c] < 0) {
			value[c] = !ch->event[c] ? IC_CTR_ABSENT_NOT_COUNTED
				 : !in_pass(c, set->pass) ? IC_CTR_ABSENT_OTHER_PASS
				 : IC_CTR_ABSENT_NOT_ADDED;
			continue;
		}
		int absent = ic_ctr_count_absent(raw[set->slot[c]], set->multiplexed);
		value[c] = absent ? absent : raw[set->slot[c]];
		valid[c] = !absent;
	}
	return 0;
}

/* Known work: at least 2 instructions an iteration (add, branch) the compiler keeps. */
#define COUNTERS_TRIAL_ITERS 200000UL

/* A paranoid kernel fails at start, not before, and a set it accepts but never schedules reads
 * 0: start, run known work, stop, apply the canary. 0 ok, else -1 with the reason in set_err. */
static int set_trial(struct ic_ctr_set *s)
{
	long long value[IC_CTR_COUNT];
	int valid[IC_CTR_COUNT], any = 0;

	if (ic_ctr_set_start(s) < 0)
		return -1;
	for (unsigned long i = 0; i < COUNTERS_TRIAL_ITERS; i++)
		__asm__ volatile("" ::: "memory");
	if (ic_ctr_set_stop(s, value, valid) < 0)
		return -1;
	/* A multiplexed set of unscheduled 0s is all absent, which the canary lets pass. */
	for (int c = 0; c < IC_CTR_COUNT; c++)
		any |= valid[c];
	if (!any)
		return set_fail("canary failed: every count of the start-up trial read 0 under "
				"multiplexing (the events were never scheduled)");
	/* One operation per iteration, at least one instruction each. */
	return ic_ctr_canary(value, valid, (double)COUNTERS_TRIAL_ITERS, 1.0, set_err,
			     sizeof(set_err)) ? -1 : 0;
}

/* Derived presets take two counters, some events share one, libpfm4 counts as with
 * SMT off: if not all of set 0's events went in, leave out the attribution events,
 * then multiplex set 0 rather than lose a core column (*refit). -1: a rebuild failed. */
static int fit_core_set(struct ic_ctr_set *s, int *refit)
{
	if (set_lacks_event(s)) {
		set_drop(s);
		ic_drop_attribution(&counters_choice, "left out: the event set did not fit the "
				    "counters without multiplexing");
		if (set_build(s, 0) < 0)
			return -1;
	}
	if (set_lacks_event(s) && !counters_choice.multiplex && PAPI_multiplex_init() == PAPI_OK) {
		set_drop(s);
		counters_choice.multiplex = 1;
		*refit = 1;
		if (set_build(s, 0) < 0)
			return -1;
	}
	return 0;
}

/* Each set once: set 1's failures leave its events out, set 0's turn counting off (-1, note set). */
static int try_sets(int *refit)
{
	struct ic_ctr_set s;
	int built, rc;

	for (int pass = 0; pass < counters_choice.n_sets; pass++) {
		built = set_build(&s, pass) >= 0;
		rc = !built ? -1 : pass == 0 ? fit_core_set(&s, refit) : 0;
		if (rc == 0)
			rc = set_trial(&s);
		set_drop(&s);
		if (rc < 0 && pass == 0)
			return note_none(0, "%s", set_err);
		if (rc < 0) {   /* the core set counts: go on without set 2 */
			ic_drop_attribution(&counters_choice, built ? "left out: the second event set failed "
					    "its trial" : "left out: the second event set would not build");
			break;
		}
		for (int c = 0; c < IC_CTR_COUNT; c++)
			if (in_pass(c, pass) && s.slot[c] < 0 && !(c == IC_CTR_INSTR && pass == 1))
				ic_event_remove(&counters_choice, c, "chosen event could not be added to an event set");
	}
	return 0;
}

static void counters_init_once(void)
{
	struct ic_cpu_ident cpu;
	int n_hw, refit = 0;
	char pfm[32];

	ic_cpu_ident_read(&cpu);
	n_hw = papi_open(&cpu, pfm);
	if (n_hw <= 0 || papi_choose(&cpu, pfm, n_hw) < 0 || try_sets(&refit) < 0)
		return;
	counters_working = 1;
	note_papi(refit);
}

int ic_counters_init(void)
{
	pthread_once(&counters_once, counters_init_once);
	return counters_working;
}

int ic_counters_passes(void)
{
	return ic_counters_init() && counters_choice.n_sets > 1 ? counters_choice.n_sets : 1;
}

void ic_counters_next_pass(void)
{
	atomic_fetch_add(&counters_pass, 1u);
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
	return ic_counters_init() && (unsigned)c < IC_CTR_COUNT ? counters_choice.event[c] : NULL;
}

void ic_counters_notice_once(FILE *f)
{
	int ok = ic_counters_init();

	if (atomic_flag_test_and_set(&counters_notice_done))
		return;
	/* Not "absent" when none: the simulation may stand in; run.sh says which. */
	fprintf(f, ok ? "inlinecost: hardware counters via PAPI: %s\n"
		   : "inlinecost: no hardware counters (PAPI: %s)\n", counters_note);
	fflush(f);
}

const char *ic_ctr_set_error(void)
{
	return set_err;
}

struct ic_ctr_set *ic_ctr_set_open(void)
{
	struct ic_ctr_set *set = NULL;
	int rc;

	set_err[0] = '\0';
	if (!ic_counters_init())
		set_fail("no hardware counters: %s", counters_note);
	else if ((rc = PAPI_register_thread()) != PAPI_OK)
		set_fail("PAPI_register_thread: %s", papi_error(rc));
	else if (set_build(set = ic_xalloc(calloc(1, sizeof(*set))),
			   (int)(atomic_load(&counters_pass) % (unsigned)ic_counters_passes())) >= 0)
		return set;
	else
		PAPI_unregister_thread();
	free(set);
	return NULL;
}

void ic_ctr_set_close(struct ic_ctr_set *set)
{
	if (!set)
		return;
	set_drop(set);
	PAPI_unregister_thread();
	free(set);
}
