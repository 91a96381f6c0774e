/* PAPI counters: event choice (pure, table-driven) and per-thread event sets.
 *
 * Where the event names come from:
 *  - presets and what they mean per CPU: PAPI 7.0's papi_events.csv
 *    (/usr/share/papi/7.0/papi_events.csv). It has no PAPI_L1_ICM for Zen 3
 *    and no section at all for Zen 4 or Zen 5, so on those CPUs every counter
 *    needs a native name. On Intel Haswell and later PAPI_L1_ICM is
 *    L2_RQSTS:ALL_CODE_RD (L2 code reads), on Zen 2 it is
 *    REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ: both count requests to L2,
 *    instruction prefetches included, not L1i misses.
 *  - AMD native names: libpfm4 as bundled with PAPI (src/libpfm4/lib/events/):
 *    amd64_events_fam17h_zen1.h (32_BYTE_INSTRUCTION_CACHE_MISSES, PMCx081),
 *    amd64_events_fam17h_zen2.h (no L1i-miss event; REQUESTS_TO_L2_GROUP1
 *    umask CACHEABLE_IC_READ), amd64_events_fam19h_zen3.h,
 *    amd64_events_fam19h_zen4.h and amd64_events_fam1ah_zen5.h
 *    (IC_TAG_HIT_MISS umask IC_MISS, PMCx18E; L1_ITLB_MISS_L2_ITLB_MISS umasks
 *    COALESCED4K IF1G IF2M IF4K, none of them default, so all are named).
 *  - Intel native names: ICACHE_64B:IFTAG_MISS (Skylake and later, libpfm4
 *    intel_skl_events.h); ICACHE:MISSES and L1I:MISSES are what PAPI's csv
 *    maps PAPI_L1_ICM to on Sandy/Ivy Bridge and Nehalem/Westmere; iTLB names
 *    as the csv uses them per model. ITLB_MISSES:WALK_COMPLETED (Ice Lake on)
 *    follows Intel's event list and was not checked against libpfm4.
 *  - Every name is only a candidate: the runtime asks PAPI which exist
 *    (PAPI_query_named_event) and chooses among those.
 *  - Generic perf events: libpfm4 perf_events.h (PERF_COUNT_HW_*), the last
 *    resort on any CPU whose PMU libpfm4 knows only through the kernel.
 */
#define _GNU_SOURCE
#include "counters.h"

#include <papi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *const ic_ctr_names[IC_CTR_COUNT] = {
	[IC_CTR_L1I_MISS]    = "l1i_miss_per_op",
	[IC_CTR_INSTR]       = "instr_per_op",
	[IC_CTR_CYCLES]      = "cycles_per_op",
	[IC_CTR_BRANCH_MISS] = "branch_miss_per_op",
	[IC_CTR_ITLB_MISS]   = "itlb_miss_per_op",
};

/* ---- event choice (pure) ------------------------------------------------ */

struct ic_event_cand {
	const char *name;
	const char *why;
};

/* Candidate lists end with {NULL, NULL}; the first available one wins. */
#define IC_CAND_END { NULL, NULL }

#define IC_PERF_L1I   { "perf::PERF_COUNT_HW_CACHE_L1I:READ:MISS", \
			"kernel generic L1i read misses (perf_event)" }
#define IC_PERF_INSTR { "perf::PERF_COUNT_HW_INSTRUCTIONS", \
			"kernel generic retired instructions (perf_event)" }
#define IC_PERF_CYC   { "perf::PERF_COUNT_HW_CPU_CYCLES", \
			"kernel generic core cycles (perf_event)" }
#define IC_PERF_BRMSP { "perf::PERF_COUNT_HW_BRANCH_MISSES", \
			"kernel generic branch mispredictions (perf_event)" }
#define IC_PERF_ITLB  { "perf::PERF_COUNT_HW_CACHE_ITLB:READ:MISS", \
			"kernel generic iTLB misses (perf_event)" }

#define IC_PRESET_L1I_L2 { "PAPI_L1_ICM", \
	"PAPI_L1_ICM preset: PAPI derives it from L2 code reads on this CPU, " \
	"instruction prefetches included, so it over-counts L1i misses" }
#define IC_PRESET_L1I { "PAPI_L1_ICM", "PAPI_L1_ICM preset (L1i misses)" }
#define IC_PRESET_INSTR { "PAPI_TOT_INS", "PAPI_TOT_INS preset (retired instructions)" }
#define IC_PRESET_CYC { "PAPI_TOT_CYC", "PAPI_TOT_CYC preset (core cycles)" }
#define IC_PRESET_BRMSP { "PAPI_BR_MSP", "PAPI_BR_MSP preset (mispredicted branches)" }
#define IC_PRESET_ITLB { "PAPI_TLB_IM", "PAPI_TLB_IM preset (iTLB misses)" }

/* Intel: native L1i misses first; the preset is L2 code reads from Haswell on. */
static const struct ic_event_cand ic_intel_l1i[] = {
	{ "ICACHE_64B:IFTAG_MISS", "L1i tag misses per 64-byte line (Skylake and later)" },
	{ "ICACHE:MISSES", "L1i misses (Sandy Bridge to Broadwell)" },
	{ "L1I:MISSES", "L1i misses (Nehalem, Westmere)" },
	IC_PRESET_L1I_L2, IC_PERF_L1I, IC_CAND_END
};
static const struct ic_event_cand ic_intel_instr[] = {
	IC_PRESET_INSTR,
	{ "INST_RETIRED:ANY_P", "retired instructions (INST_RETIRED:ANY_P)" },
	{ "INSTRUCTION_RETIRED", "retired instructions (architectural event)" },
	IC_PERF_INSTR, IC_CAND_END
};
static const struct ic_event_cand ic_intel_cyc[] = {
	IC_PRESET_CYC,
	{ "UNHALTED_CORE_CYCLES", "unhalted core cycles (architectural event)" },
	IC_PERF_CYC, IC_CAND_END
};
static const struct ic_event_cand ic_intel_brmsp[] = {
	{ "PAPI_BR_MSP", "PAPI_BR_MSP preset (on Haswell and later conditional branches only)" },
	{ "BR_MISP_RETIRED:ALL_BRANCHES", "mispredicted retired branches, all types" },
	{ "MISPREDICTED_BRANCH_RETIRED", "mispredicted retired branches (architectural event)" },
	IC_PERF_BRMSP, IC_CAND_END
};
static const struct ic_event_cand ic_intel_itlb[] = {
	IC_PRESET_ITLB,
	{ "ITLB_MISSES:WALK_COMPLETED", "iTLB misses that completed a page walk (Ice Lake and later)" },
	{ "ITLB_MISSES:MISS_CAUSES_A_WALK", "iTLB misses that cause a page walk (Haswell to Skylake)" },
	{ "ITLB_MISSES:CAUSES_A_WALK", "iTLB misses that cause a page walk (Sandy Bridge, Ivy Bridge)" },
	{ "ITLB_MISSES:ANY", "iTLB misses (Nehalem, Westmere)" },
	IC_PERF_ITLB, IC_CAND_END
};

/* AMD, common to the Zen families. */
static const struct ic_event_cand ic_amd_instr[] = {
	IC_PRESET_INSTR,
	{ "RETIRED_INSTRUCTIONS", "retired instructions (PMCx0C0)" },
	IC_PERF_INSTR, IC_CAND_END
};
static const struct ic_event_cand ic_amd_cyc[] = {
	IC_PRESET_CYC,
	{ "CYCLES_NOT_IN_HALT", "core cycles not halted (PMCx076)" },
	IC_PERF_CYC, IC_CAND_END
};
static const struct ic_event_cand ic_amd_brmsp[] = {
	IC_PRESET_BRMSP,
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", "mispredicted retired branches (PMCx0C3)" },
	IC_PERF_BRMSP, IC_CAND_END
};

/* Zen 1 (family 17h, models below 30h). */
static const struct ic_event_cand ic_zen1_l1i[] = {
	{ "32_BYTE_INSTRUCTION_CACHE_MISSES", "L1i misses per 32-byte fetch window (PMCx081, Zen 1)" },
	IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END
};
/* Zen 2 has no L1i-miss event in libpfm4: L1i fill requests to L2 are the
 * nearest, and count instruction prefetches too. */
static const struct ic_event_cand ic_zen2_l1i[] = {
	{ "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (Zen 2 has no L1i-miss event; includes instruction prefetches)" },
	IC_PRESET_L1I_L2, IC_PERF_L1I, IC_CAND_END
};
static const struct ic_event_cand ic_zen12_itlb[] = {
	IC_PRESET_ITLB,
	{ "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)" },
	IC_PERF_ITLB, IC_CAND_END
};
/* Zen 3, 4 (family 19h) and Zen 5 (family 1Ah) share these names. */
static const struct ic_event_cand ic_zen345_l1i[] = {
	{ "IC_TAG_HIT_MISS:IC_MISS", "L1i tag misses (PMCx18E IC_TAG_HIT_MISS:IC_MISS)" },
	{ "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (includes instruction prefetches)" },
	IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END
};
static const struct ic_event_cand ic_zen345_itlb[] = {
	IC_PRESET_ITLB,
	{ "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
	  "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)" },
	IC_PERF_ITLB, IC_CAND_END
};

/* Any other CPU: presets where PAPI has them, then the kernel's generic events. */
static const struct ic_event_cand ic_other_l1i[] = { IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END };
static const struct ic_event_cand ic_other_instr[] = { IC_PRESET_INSTR, IC_PERF_INSTR, IC_CAND_END };
static const struct ic_event_cand ic_other_cyc[] = { IC_PRESET_CYC, IC_PERF_CYC, IC_CAND_END };
static const struct ic_event_cand ic_other_brmsp[] = { IC_PRESET_BRMSP, IC_PERF_BRMSP, IC_CAND_END };
static const struct ic_event_cand ic_other_itlb[] = { IC_PRESET_ITLB, IC_PERF_ITLB, IC_CAND_END };

struct ic_cpu_events {
	const struct ic_event_cand *cand[IC_CTR_COUNT];
};

static const struct ic_cpu_events ic_events_intel = {{
	ic_intel_l1i, ic_intel_instr, ic_intel_cyc, ic_intel_brmsp, ic_intel_itlb }};
static const struct ic_cpu_events ic_events_zen1 = {{
	ic_zen1_l1i, ic_amd_instr, ic_amd_cyc, ic_amd_brmsp, ic_zen12_itlb }};
static const struct ic_cpu_events ic_events_zen2 = {{
	ic_zen2_l1i, ic_amd_instr, ic_amd_cyc, ic_amd_brmsp, ic_zen12_itlb }};
static const struct ic_cpu_events ic_events_zen345 = {{
	ic_zen345_l1i, ic_amd_instr, ic_amd_cyc, ic_amd_brmsp, ic_zen345_itlb }};
static const struct ic_cpu_events ic_events_other = {{
	ic_other_l1i, ic_other_instr, ic_other_cyc, ic_other_brmsp, ic_other_itlb }};

static const struct ic_cpu_events *ic_cpu_events_for(const struct ic_cpu_ident *cpu)
{
	if (cpu && cpu->vendor == IC_VENDOR_INTEL)
		return &ic_events_intel;
	if (cpu && cpu->vendor == IC_VENDOR_AMD) {
		/* Zen 2 starts at model 30h (Rome, Matisse, Renoir). */
		if (cpu->family == 0x17)
			return cpu->model < 0x30 ? &ic_events_zen1 : &ic_events_zen2;
		if (cpu->family == 0x19 || cpu->family == 0x1a)
			return &ic_events_zen345;
	}
	return &ic_events_other;
}

static const char *ic_avail_find(const char *name, const char *const *available,
				 size_t n_available)
{
	for (size_t i = 0; i < n_available; i++)
		if (available[i] && strcasecmp(available[i], name) == 0)
			return available[i];
	return NULL;
}

void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, struct ic_event_choice *out)
{
	const struct ic_cpu_events *ev = ic_cpu_events_for(cpu);

	memset(out, 0, sizeof(*out));
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		out->why[c] = "no event for this counter is available on this CPU";
		for (const struct ic_event_cand *k = ev->cand[c]; k->name; k++) {
			const char *hit = ic_avail_find(k->name, available, n_available);
			if (hit) {
				out->event[c] = hit;
				out->why[c] = k->why;
				out->n_events++;
				break;
			}
		}
	}
	out->multiplex = out->n_events > n_hw_counters;
}

size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max)
{
	const struct ic_cpu_events *ev = ic_cpu_events_for(cpu);
	size_t n = 0;

	for (int c = 0; c < IC_CTR_COUNT; c++)
		for (const struct ic_event_cand *k = ev->cand[c]; k->name; k++)
			if (n < max && !ic_avail_find(k->name, names, n))
				names[n++] = k->name;
	return n;
}

/* ---- runtime ------------------------------------------------------------ */

/* More than any CPU's candidate lists hold together (about 20). */
#define IC_MAX_CANDIDATES 48

static pthread_once_t ic_init_once = PTHREAD_ONCE_INIT;
static int ic_working;                       /* 1: counting works */
static int ic_cidx = -1;                     /* perf_event component */
static struct ic_event_choice ic_choice;
static char ic_note[1024] = "counters not initialised";
static atomic_flag ic_notice_done = ATOMIC_FLAG_INIT;
static _Thread_local char ic_set_err[sizeof(ic_note) + 64];

static unsigned long ic_thread_id(void)
{
	return (unsigned long)pthread_self();
}

/* perf_event_paranoid explains most "permission denied" answers. */
static int ic_paranoid_read(void)
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
static void ic_note_none(int papi_rc, const char *fmt, ...)
{
	va_list ap;
	size_t len;
	int par = ic_paranoid_read();

	va_start(ap, fmt);
	vsnprintf(ic_note, sizeof(ic_note), fmt, ap);
	va_end(ap);
	len = strlen(ic_note);
	if (papi_rc < 0 && len < sizeof(ic_note))
		len += snprintf(ic_note + len, sizeof(ic_note) - len, ": %s",
				PAPI_strerror(papi_rc));
	if (par != -100 && len < sizeof(ic_note))
		snprintf(ic_note + len, sizeof(ic_note) - len,
			 "; perf_event_paranoid=%d", par);
}

static void ic_note_papi(int n_hw)
{
	size_t len = 0;

	for (int c = 0; c < IC_CTR_COUNT && len < sizeof(ic_note); c++) {
		int w = snprintf(ic_note + len, sizeof(ic_note) - len, "%s%s=%s",
				 c ? ", " : "", ic_ctr_names[c],
				 ic_choice.event[c] ? ic_choice.event[c] : "absent");
		if (w < 0)
			return;
		len += (size_t)w;
	}
	if (len < sizeof(ic_note))
		snprintf(ic_note + len, sizeof(ic_note) - len,
			 ic_choice.multiplex ? "; multiplexed (%d events, %d counters)"
					     : "; not multiplexed (%d events, %d counters)",
			 ic_choice.n_events, n_hw);
}

/* Add the chosen events to a fresh event set; slot[c] is the position of
 * counter c in PAPI's value array, -1 where the event could not be added. */
static int ic_evset_build(int *evset, int slot[IC_CTR_COUNT], char *err, size_t err_len)
{
	int rc, n = 0;

	*evset = PAPI_NULL;
	rc = PAPI_create_eventset(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_create_eventset: %s", PAPI_strerror(rc));
		return -1;
	}
	if (ic_choice.multiplex) {
		/* Multiplexing needs the component bound before conversion. */
		rc = PAPI_assign_eventset_component(*evset, ic_cidx);
		if (rc == PAPI_OK)
			rc = PAPI_set_multiplex(*evset);
		if (rc != PAPI_OK) {
			snprintf(err, err_len, "PAPI_set_multiplex: %s", PAPI_strerror(rc));
			PAPI_destroy_eventset(evset);
			return -1;
		}
	}
	err[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		slot[c] = -1;
		if (!ic_choice.event[c])
			continue;
		rc = PAPI_add_named_event(*evset, ic_choice.event[c]);
		if (rc == PAPI_OK)
			slot[c] = n++;
		else if (!err[0])
			snprintf(err, err_len, "PAPI_add_named_event(%s): %s",
				 ic_choice.event[c], PAPI_strerror(rc));
	}
	if (n == 0) {
		if (!err[0])
			snprintf(err, err_len, "no event could be added");
		PAPI_cleanup_eventset(*evset);
		PAPI_destroy_eventset(evset);
		return -1;
	}
	return n;
}

static void ic_evset_drop(int *evset)
{
	PAPI_cleanup_eventset(*evset);
	PAPI_destroy_eventset(evset);
}

static void ic_counters_init_once(void)
{
	const PAPI_component_info_t *ci;
	const PAPI_hw_info_t *hw;
	struct ic_cpu_ident cpu = { IC_VENDOR_OTHER, 0, 0 };
	const char *cand[IC_MAX_CANDIDATES], *avail[IC_MAX_CANDIDATES];
	size_t n_cand, n_avail = 0;
	int rc, n_hw, evset, slot[IC_CTR_COUNT];
	long long vals[IC_CTR_COUNT];
	char err[256];

	rc = PAPI_library_init(PAPI_VER_CURRENT);
	if (rc != PAPI_VER_CURRENT) {
		if (rc > 0)
			ic_note_none(0, "PAPI_library_init: library version %#x differs from papi.h %#x",
				     (unsigned)rc, (unsigned)PAPI_VER_CURRENT);
		else
			ic_note_none(rc, "PAPI_library_init failed");
		return;
	}
	rc = PAPI_thread_init(ic_thread_id);
	if (rc != PAPI_OK) {
		ic_note_none(rc, "PAPI_thread_init failed");
		return;
	}
	ic_cidx = PAPI_get_component_index("perf_event");
	if (ic_cidx < 0) {
		ic_note_none(ic_cidx, "PAPI has no perf_event component");
		return;
	}
	ci = PAPI_get_component_info(ic_cidx);
	if (!ci) {
		ic_note_none(0, "PAPI_get_component_info(perf_event) returned nothing");
		return;
	}
	if (ci->disabled) {
		ic_note_none(0, "perf_event component disabled: %s",
			     ci->disabled_reason[0] ? ci->disabled_reason : "no reason given");
		return;
	}
	n_hw = PAPI_num_cmp_hwctrs(ic_cidx);
	if (n_hw <= 0) {
		ic_note_none(n_hw < 0 ? n_hw : 0, "PAPI reports 0 hardware counters");
		return;
	}

	hw = PAPI_get_hardware_info();
	if (hw) {
		cpu.vendor = hw->vendor == PAPI_VENDOR_INTEL ? IC_VENDOR_INTEL
			   : hw->vendor == PAPI_VENDOR_AMD ? IC_VENDOR_AMD
			   : IC_VENDOR_OTHER;
		cpu.family = hw->cpuid_family;
		cpu.model = hw->cpuid_model;
	}
	n_cand = ic_events_candidates(&cpu, cand, IC_MAX_CANDIDATES);
	for (size_t i = 0; i < n_cand; i++)
		if (PAPI_query_named_event(cand[i]) == PAPI_OK)
			avail[n_avail++] = cand[i];
	ic_events_choose(&cpu, avail, n_avail, n_hw, &ic_choice);
	if (ic_choice.n_events == 0) {
		ic_note_none(0, "PAPI knows none of the events this CPU needs (%s)",
			     hw ? hw->model_string : "unknown CPU");
		return;
	}
	if (ic_choice.multiplex) {
		rc = PAPI_multiplex_init();
		if (rc != PAPI_OK) {
			ic_note_none(rc, "PAPI_multiplex_init failed");
			return;
		}
	}

	/* Try the set once here: a paranoid kernel fails at start, not before. */
	if (ic_evset_build(&evset, slot, err, sizeof(err)) < 0) {
		ic_note_none(0, "%s", err);
		return;
	}
	/* Derived presets take two counters and some events share one: if not
	 * all fit, multiplex rather than lose a column. */
	for (int c = 0; c < IC_CTR_COUNT && !ic_choice.multiplex; c++) {
		if (ic_choice.event[c] && slot[c] < 0 && PAPI_multiplex_init() == PAPI_OK) {
			ic_evset_drop(&evset);
			ic_choice.multiplex = 1;
			if (ic_evset_build(&evset, slot, err, sizeof(err)) < 0) {
				ic_note_none(0, "%s", err);
				return;
			}
		}
	}
	rc = PAPI_start(evset);
	if (rc == PAPI_OK)
		rc = PAPI_stop(evset, vals);
	ic_evset_drop(&evset);
	if (rc != PAPI_OK) {
		ic_note_none(rc, "PAPI_start on perf_event failed");
		return;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (ic_choice.event[c] && slot[c] < 0) {
			ic_choice.event[c] = NULL;
			ic_choice.why[c] = "chosen event could not be added to an event set";
			ic_choice.n_events--;
		}
	}
	ic_working = 1;
	ic_note_papi(n_hw);
}

int ic_counters_init(void)
{
	pthread_once(&ic_init_once, ic_counters_init_once);
	return ic_working;
}

const char *ic_counters_source(void)
{
	return ic_counters_init() ? "papi" : "none";
}

const char *ic_counters_note(void)
{
	ic_counters_init();
	return ic_note;
}

const char *ic_counters_event(enum ic_ctr c)
{
	if (!ic_counters_init() || (unsigned)c >= IC_CTR_COUNT)
		return NULL;
	return ic_choice.event[c];
}

void ic_counters_notice_once(FILE *f)
{
	int ok = ic_counters_init();

	if (atomic_flag_test_and_set(&ic_notice_done))
		return;
	if (ok)
		fprintf(f, "inlinecost: hardware counters via PAPI: %s\n", ic_note);
	else
		fprintf(f, "inlinecost: no hardware counters (PAPI: %s); counter columns will be absent\n",
			ic_note);
	fflush(f);
}

/* ---- per-thread sets ---------------------------------------------------- */

struct ic_ctr_set {
	int evset;
	int slot[IC_CTR_COUNT];
	int n;
	int running;
};

const char *ic_ctr_set_error(void)
{
	return ic_set_err;
}

struct ic_ctr_set *ic_ctr_set_open(void)
{
	struct ic_ctr_set *set;
	int rc;

	ic_set_err[0] = '\0';
	if (!ic_counters_init()) {
		snprintf(ic_set_err, sizeof(ic_set_err), "no hardware counters: %s", ic_note);
		return NULL;
	}
	set = calloc(1, sizeof(*set));
	if (!set) {
		snprintf(ic_set_err, sizeof(ic_set_err), "out of memory");
		return NULL;
	}
	rc = PAPI_register_thread();
	if (rc != PAPI_OK) {
		snprintf(ic_set_err, sizeof(ic_set_err), "PAPI_register_thread: %s",
			 PAPI_strerror(rc));
		free(set);
		return NULL;
	}
	set->n = ic_evset_build(&set->evset, set->slot, ic_set_err, sizeof(ic_set_err));
	if (set->n < 0) {
		PAPI_unregister_thread();
		free(set);
		return NULL;
	}
	return set;
}

int ic_ctr_set_start(struct ic_ctr_set *set)
{
	int rc;

	if (!set || set->running)
		return -1;
	rc = PAPI_start(set->evset);
	if (rc != PAPI_OK) {
		snprintf(ic_set_err, sizeof(ic_set_err), "PAPI_start: %s", PAPI_strerror(rc));
		return -1;
	}
	set->running = 1;
	return 0;
}

int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT])
{
	long long raw[IC_CTR_COUNT];
	int rc;

	for (int c = 0; c < IC_CTR_COUNT; c++) {
		value[c] = -1;
		valid[c] = 0;
	}
	if (!set || !set->running)
		return -1;
	set->running = 0;
	rc = PAPI_stop(set->evset, raw);
	if (rc != PAPI_OK) {
		snprintf(ic_set_err, sizeof(ic_set_err), "PAPI_stop: %s", PAPI_strerror(rc));
		return -1;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (set->slot[c] >= 0) {
			value[c] = raw[set->slot[c]];
			valid[c] = 1;
		}
	}
	return 0;
}

void ic_ctr_set_close(struct ic_ctr_set *set)
{
	long long raw[IC_CTR_COUNT];

	if (!set)
		return;
	if (set->running)
		PAPI_stop(set->evset, raw);
	ic_evset_drop(&set->evset);
	PAPI_unregister_thread();
	free(set);
}
