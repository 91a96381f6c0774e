/* This CPU's events and the counts before they are trusted (counters.h). Pure but for
 * CPUID: ic_cpu_ident_read() is here, apart from its caller in counter_papi.c, so that
 * test_bench_hw_fakepapi can wrap it at link time. The event names:
 *  - libpfm4 4.13's tables as PAPI 7.0 lists them for Skylake, Ice Lake, Sapphire Rapids,
 *    Zen 2 and Zen 4, recorded in tests/data/papi/ (test_bench_hw_listings checks the
 *    choice on each); names those lack (older Intel, Zen 1, Zen 5) from libpfm4's event
 *    headers (lib/events/amd64_events_fam*h_zen*.h, ...).
 *  - Presets, from PAPI 7.0's papi_events.csv: no PAPI_L1_ICM for Zen 3, no section for
 *    Ice Lake client, Sapphire Rapids, Zen 4 or Zen 5, PAPI_L1_ICM is L2 code reads on
 *    Intel from Haswell and on Zen 2, PAPI_BR_MSP conditional branches only on Intel from
 *    Haswell: so natives come first everywhere, presets are fallbacks.
 *  - Intel fixed counters: libpfm4 encodes INSTRUCTION_RETIRED and INST_RETIRED:ANY_P as
 *    0x00c0 and UNHALTED_CORE_CYCLES as 0x003c (pfm_get_event_encoding on skl, icl, spr),
 *    which the kernel's FIXED_EVENT_CONSTRAINT (arch/x86/events/intel/core.c) puts on
 *    fixed counters 0 and 1, as perf's generic instructions and cycles.
 *  - perf's generic events (PERF_COUNT_HW_*): the last resort on any CPU.
 * Every name is only a candidate: the runtime asks PAPI which exist. */
#include "counters.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#define EVENTS_COLUMN(name, column) column,
const char *const ic_ctr_names[IC_CTR_COUNT] = { IC_CTRS(EVENTS_COLUMN) };
#undef EVENTS_COLUMN

/* The kinds of CPU with their own candidates, as bits, so that one row serves several. */
#define EVENTS_INTEL  1u
#define EVENTS_ZEN1   2u    /* family 17h below model 30h */
#define EVENTS_ZEN2   4u    /* family 17h from model 30h (Rome, Matisse, Renoir) */
#define EVENTS_ZEN345 8u    /* families 19h and 1Ah, which share these names */
#define EVENTS_OTHER  16u   /* presets where PAPI has them, then the kernel's generic events */
#define EVENTS_ZEN    (EVENTS_ZEN1 | EVENTS_ZEN2 | EVENTS_ZEN345)
#define EVENTS_ALL    (EVENTS_INTEL | EVENTS_ZEN | EVENTS_OTHER)
#define EVENTS_PAIR   32u   /* not a kind: the row serves the next counter too */

/* A counter's candidates for a kind of CPU: its rows with that kind's bit, in order
 * (rows in enum ic_ctr order); the first available wins; a row without a name ends
 * them with why none (else the default why). The Intel-only instruction and cycle
 * events go on fixed counters (events_choose). */
static const struct events_cand {
	int ctr;
	unsigned kinds;
	const char *name;
	const char *why;
} events_cands[] = {
	/* Intel: native tag misses first (the preset is L2 code reads from Haswell
	 * on); without ICACHE_64B (libpfm4's spr table) the nearest is the precise
	 * frontend event, which counts retired instructions. Zen 2 has no L1i-miss
	 * event in libpfm4: the nearest, L1i fill requests to L2, counts prefetches. */
	{ IC_CTR_L1I_MISS, EVENTS_INTEL, "ICACHE_64B:IFTAG_MISS",
	  "L1i tag lookups that missed, per 64-byte line (ICACHE_64B:IFTAG_MISS, Skylake to Ice Lake)" },
	{ IC_CTR_L1I_MISS, EVENTS_INTEL, "FRONTEND_RETIRED:L1I_MISS",
	  "retired instructions that missed L1i (FRONTEND_RETIRED:L1I_MISS; no ICACHE_64B here, as on "
	  "Sapphire Rapids and Alder Lake): counts instructions, not the tag misses ICACHE_64B counts, "
	  "a different unit; wrong-path fetches are not counted" },
	{ IC_CTR_L1I_MISS, EVENTS_INTEL, "ICACHE:MISSES", "L1i misses (Sandy Bridge to Broadwell)" },
	{ IC_CTR_L1I_MISS, EVENTS_INTEL, "L1I:MISSES", "L1i misses (Nehalem, Westmere)" },
	{ IC_CTR_L1I_MISS, EVENTS_ZEN1, "32_BYTE_INSTRUCTION_CACHE_MISSES",
	  "L1i misses per 32-byte fetch window (PMCx081, Zen 1)" },
	{ IC_CTR_L1I_MISS, EVENTS_ZEN2, "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (Zen 2 has no L1i-miss event; includes instruction prefetches)" },
	{ IC_CTR_L1I_MISS, EVENTS_ZEN345, "IC_TAG_HIT_MISS:IC_MISS",
	  "L1i tag misses (PMCx18E IC_TAG_HIT_MISS:IC_MISS)" },
	{ IC_CTR_L1I_MISS, EVENTS_ZEN345, "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (includes instruction prefetches)" },
	{ IC_CTR_L1I_MISS, EVENTS_INTEL | EVENTS_ZEN2, "PAPI_L1_ICM",
	  "PAPI_L1_ICM preset: PAPI derives it from L2 code reads on this CPU, "
	  "instruction prefetches included, so it over-counts L1i misses" },
	{ IC_CTR_L1I_MISS, EVENTS_ZEN1 | EVENTS_ZEN345 | EVENTS_OTHER, "PAPI_L1_ICM",
	  "PAPI_L1_ICM preset (L1i misses)" },
	{ IC_CTR_L1I_MISS, EVENTS_ALL, "perf::PERF_COUNT_HW_CACHE_L1I:READ:MISS",
	  "kernel generic L1i read misses (perf_event)" },
	/* Intel's natives encode as 0x00c0 (event c0, umask 0): the kernel's fixed
	 * counter 0; the preset's encoding depends on PAPI's csv: general-purpose. */
	{ IC_CTR_INSTR, EVENTS_INTEL, "INSTRUCTION_RETIRED",
	  "retired instructions (architectural event, fixed counter 0)" },
	{ IC_CTR_INSTR, EVENTS_INTEL, "INST_RETIRED:ANY_P",
	  "retired instructions (INST_RETIRED:ANY_P, fixed counter 0)" },
	{ IC_CTR_INSTR, EVENTS_ZEN, "RETIRED_INSTRUCTIONS", "retired instructions (PMCx0C0)" },
	{ IC_CTR_INSTR, EVENTS_ALL, "PAPI_TOT_INS", "PAPI_TOT_INS preset (retired instructions)" },
	{ IC_CTR_INSTR, EVENTS_INTEL, "perf::PERF_COUNT_HW_INSTRUCTIONS",
	  "kernel generic retired instructions (perf_event, fixed counter 0)" },
	{ IC_CTR_INSTR, EVENTS_ZEN | EVENTS_OTHER, "perf::PERF_COUNT_HW_INSTRUCTIONS",
	  "kernel generic retired instructions (perf_event)" },
	/* Intel's encodes as 0x003c (event 3c, umask 0): the kernel's fixed counter 1. */
	{ IC_CTR_CYCLES, EVENTS_INTEL, "UNHALTED_CORE_CYCLES",
	  "unhalted core cycles (architectural event, fixed counter 1)" },
	{ IC_CTR_CYCLES, EVENTS_ZEN, "CYCLES_NOT_IN_HALT", "core cycles not halted (PMCx076)" },
	{ IC_CTR_CYCLES, EVENTS_ALL, "PAPI_TOT_CYC", "PAPI_TOT_CYC preset (core cycles)" },
	{ IC_CTR_CYCLES, EVENTS_INTEL, "perf::PERF_COUNT_HW_CPU_CYCLES",
	  "kernel generic core cycles (perf_event, fixed counter 1)" },
	{ IC_CTR_CYCLES, EVENTS_ZEN | EVENTS_OTHER, "perf::PERF_COUNT_HW_CPU_CYCLES",
	  "kernel generic core cycles (perf_event)" },
	/* All branch types; Intel's preset (only BR_MISP_RETIRED:CONDITIONAL from Haswell) last. */
	{ IC_CTR_BRANCH_MISS, EVENTS_INTEL, "BR_MISP_RETIRED:ALL_BRANCHES",
	  "mispredicted retired branches, all types (BR_MISP_RETIRED:ALL_BRANCHES)" },
	{ IC_CTR_BRANCH_MISS, EVENTS_INTEL, "MISPREDICTED_BRANCH_RETIRED",
	  "mispredicted retired branches, all types (architectural event)" },
	{ IC_CTR_BRANCH_MISS, EVENTS_INTEL, "perf::PERF_COUNT_HW_BRANCH_MISSES",
	  "kernel generic branch mispredictions, all types (perf_event)" },
	{ IC_CTR_BRANCH_MISS, EVENTS_INTEL, "PAPI_BR_MSP",
	  "PAPI_BR_MSP preset: on Haswell and later conditional branches only" },
	{ IC_CTR_BRANCH_MISS, EVENTS_ZEN, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	  "mispredicted retired branches, all types (PMCx0C3)" },
	{ IC_CTR_BRANCH_MISS, EVENTS_ZEN | EVENTS_OTHER, "PAPI_BR_MSP",
	  "PAPI_BR_MSP preset (mispredicted branches)" },
	{ IC_CTR_BRANCH_MISS, EVENTS_ZEN | EVENTS_OTHER, "perf::PERF_COUNT_HW_BRANCH_MISSES",
	  "kernel generic branch mispredictions (perf_event)" },
	/* Completed page walks, on Intel and AMD alike. PAPI_TLB_IM on Zen 2 and 3 is
	 * DERIVED_ADD of PMCx084 (L1 iTLB miss, L2 hit) and PMCx085 (L1 and L2 miss):
	 * two counters, L1 misses not page walks. The one native is PMCx085, whose
	 * umasks (none default) must all be named. */
	{ IC_CTR_ITLB_MISS, EVENTS_INTEL, "ITLB_MISSES:WALK_COMPLETED",
	  "iTLB misses that completed a page walk, all page sizes (ITLB_MISSES:WALK_COMPLETED, Haswell on)" },
	{ IC_CTR_ITLB_MISS, EVENTS_INTEL, "ITLB_MISSES:MISS_CAUSES_A_WALK",
	  "iTLB misses that cause a page walk (Haswell to Skylake)" },
	{ IC_CTR_ITLB_MISS, EVENTS_INTEL, "ITLB_MISSES:CAUSES_A_WALK",
	  "iTLB misses that cause a page walk (Sandy Bridge, Ivy Bridge)" },
	{ IC_CTR_ITLB_MISS, EVENTS_INTEL, "ITLB_MISSES:ANY", "iTLB misses (Nehalem, Westmere)" },
	{ IC_CTR_ITLB_MISS, EVENTS_ZEN1 | EVENTS_ZEN2, "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K",
	  "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)" },
	{ IC_CTR_ITLB_MISS, EVENTS_ZEN345, "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
	  "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)" },
	{ IC_CTR_ITLB_MISS, EVENTS_ZEN, "PAPI_TLB_IM",
	  "PAPI_TLB_IM preset: derived from two events (PMCx084 + PMCx085), L1 iTLB misses "
	  "including L2 iTLB hits" },
	{ IC_CTR_ITLB_MISS, EVENTS_INTEL | EVENTS_OTHER, "PAPI_TLB_IM", "PAPI_TLB_IM preset (iTLB misses)" },
	{ IC_CTR_ITLB_MISS, EVENTS_ALL, "perf::PERF_COUNT_HW_CACHE_ITLB:READ:MISS",
	  "kernel generic iTLB misses (perf_event)" },
	{ IC_CTR_OPCACHE_HIT, EVENTS_INTEL | EVENTS_PAIR, NULL,
	  "AMD op-cache event; Intel's decoded icache is dsb_uops_per_op and mite_uops_per_op" },
	{ IC_CTR_OPCACHE_HIT, EVENTS_ZEN1 | EVENTS_ZEN2 | EVENTS_PAIR, NULL,
	  "libpfm4 has no op-cache hit/miss event for Zen 1 and Zen 2" },
	{ IC_CTR_OPCACHE_HIT, EVENTS_OTHER | EVENTS_PAIR, NULL, "AMD Zen 3 and later only" },
	{ IC_CTR_OPCACHE_HIT, EVENTS_ZEN345, "OP_CACHE_HIT_MISS:OC_HIT",
	  "op-cache lookups that hit (PMCx28F OP_CACHE_HIT_MISS:OC_HIT)" },
	{ IC_CTR_OPCACHE_MISS, EVENTS_ZEN345, "OP_CACHE_HIT_MISS:OC_MISS",
	  "op-cache lookups that missed (PMCx28F OP_CACHE_HIT_MISS:OC_MISS)" },
	/* AMD's decoder/op-cache split: ops dispatched by source (PMCx0AA), named
	 * OPS_SOURCE_... from Zen 3 on and UOPS_DISPATCHED_... on family 17h. */
	{ IC_CTR_DSB_UOPS, EVENTS_INTEL, "IDQ:DSB_UOPS",
	  "uops delivered to the IDQ from the DSB, the decoded icache (IDQ:DSB_UOPS)" },
	{ IC_CTR_DSB_UOPS, EVENTS_ZEN, "OPS_SOURCE_DISPATCHED_FROM_DECODER:OPCACHE",
	  "ops dispatched from the op cache (PMCx0AA OPCACHE; AMD's counterpart of Intel's DSB)" },
	{ IC_CTR_DSB_UOPS, EVENTS_ZEN, "UOPS_DISPATCHED_FROM_DECODER:OPCACHE_DISPATCHED",
	  "ops dispatched from the op cache (PMCx0AA, family 17h)" },
	{ IC_CTR_DSB_UOPS, EVENTS_OTHER | EVENTS_PAIR, NULL, "Intel and AMD only" },
	{ IC_CTR_MITE_UOPS, EVENTS_INTEL, "IDQ:MITE_UOPS",
	  "uops delivered to the IDQ from the legacy decoders (IDQ:MITE_UOPS)" },
	{ IC_CTR_MITE_UOPS, EVENTS_ZEN, "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER",
	  "ops dispatched from the x86 decoders (PMCx0AA DECODER; AMD's counterpart of Intel's MITE)" },
	{ IC_CTR_MITE_UOPS, EVENTS_ZEN, "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED",
	  "ops dispatched from the x86 decoders (PMCx0AA, family 17h)" },
	{ IC_CTR_MACHINE_CLEAR, EVENTS_INTEL, "MACHINE_CLEARS:COUNT",
	  "machine clears of any kind, counted once each (MACHINE_CLEARS:COUNT)" },
	{ IC_CTR_MACHINE_CLEAR, EVENTS_ZEN, NULL,
	  "Intel MACHINE_CLEARS event; no AMD event is chosen for pipeline flushes" },
	{ IC_CTR_MACHINE_CLEAR, EVENTS_OTHER | EVENTS_PAIR, NULL, "Intel only" },
	/* What misses cost: fetch stalled on the L1i (SPR's name, then Skylake to Ice
	 * Lake's); issue slots the front end left empty (AMD: perf's Zen 4 frontend_bound,
	 * de_no_dispatch_per_slot.no_ops_from_frontend). */
	{ IC_CTR_FETCH_STALL, EVENTS_INTEL, "ICACHE_DATA:STALLS",
	  "cycles instruction fetch stalled on an L1i miss (ICACHE_DATA:STALLS, Sapphire Rapids on)" },
	{ IC_CTR_FETCH_STALL, EVENTS_INTEL, "ICACHE_16B:IFDATA_STALL",
	  "cycles instruction fetch stalled on an L1i miss (ICACHE_16B:IFDATA_STALL, Skylake to Ice Lake)" },
	{ IC_CTR_FETCH_STALL, EVENTS_ZEN, NULL, "libpfm4 names no L1i fetch-stall event for AMD; "
	  "frontend_bound_slots_per_op is the front-end cost there" },
	{ IC_CTR_FE_STALL, EVENTS_INTEL, "IDQ_UOPS_NOT_DELIVERED:CORE",
	  "issue slots the front end left empty while the back end could take a uop "
	  "(IDQ_UOPS_NOT_DELIVERED:CORE, top-down front-end bound)" },
	{ IC_CTR_FE_STALL, EVENTS_ZEN, "DISPATCH_STALLS_1:FE_NO_OPS",
	  "dispatch slots left empty because the front end supplied no ops (PMCx1A0 FE_NO_OPS, "
	  "Zen 4 on; perf's frontend_bound)" },
	{ IC_CTR_FE_STALL, EVENTS_OTHER, NULL, "Intel and AMD only" },
};

static unsigned events_kind(const struct ic_cpu_ident *cpu)
{
	int amd = cpu->vendor == IC_VENDOR_AMD;

	return cpu->vendor == IC_VENDOR_INTEL ? EVENTS_INTEL
	       : amd && cpu->family == 0x17 ? (cpu->model < 0x30 ? EVENTS_ZEN1 : EVENTS_ZEN2)
	       : amd && (cpu->family == 0x19 || cpu->family == 0x1a) ? EVENTS_ZEN345 : EVENTS_OTHER;
}

void ic_cpu_ident_read(struct ic_cpu_ident *cpu)
{
	cpu->vendor = IC_VENDOR_OTHER;
	cpu->family = cpu->model = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d, r[4] = { 0 };

	/* The vendor string is in ebx, edx, ecx. */
	if (!__get_cpuid(0, &a, &r[0], &r[2], &r[1]))
		return;
	const char *v = (const char *)r;
	cpu->vendor = !strcmp(v, "GenuineIntel") ? IC_VENDOR_INTEL
		    : !strcmp(v, "AuthenticAMD") ? IC_VENDOR_AMD : IC_VENDOR_OTHER;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	/* Display family and model (the SDM's and APM's rule). */
	int fam = (a >> 8) & 0xf, model = (a >> 4) & 0xf;
	if (fam == 0xf)
		fam += (a >> 20) & 0xff;
	if (fam == 0x6 || fam >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	cpu->family = fam;
	cpu->model = model;
#endif
}

/* CPUs whose libpfm4 tables came in some release (PAPI 7.0's perf_event does not
 * start without the core PMU's): Zen 5 in 4.14; none known has later families. */
static const struct events_pfm_need {
	int family, model_lo, model_hi;
	int major, minor;          /* first libpfm4 with the table; 0: none known */
	const char *name;
} events_pfm_needs[] = {
	/* Family 1Ah: Zen 5 at models 00h-4Fh and 60h-7Fh, later models Zen 6. */
	{ 0x1a, 0x00, 0x4f, 4, 14, "Zen 5" },
	{ 0x1a, 0x60, 0x7f, 4, 14, "Zen 5" },
	{ 0x1a, 0x00, 0xff, 0, 0, "after Zen 5" },
	{ 0x1b, 0x00, 0xff, 0, 0, "after Zen 5" },
	/* Family 19h: Zen 4 at 10h-1Fh, 60h-7Fh, A0h-AFh (4.13), else Zen 3 (4.12). */
	{ 0x19, 0x10, 0x1f, 4, 13, "Zen 4" },
	{ 0x19, 0x60, 0x7f, 4, 13, "Zen 4" },
	{ 0x19, 0xa0, 0xaf, 4, 13, "Zen 4" },
	{ 0x19, 0x00, 0xff, 4, 12, "Zen 3" },
	/* Family 17h: Zen 2 from model 30h (4.11), Zen 1 below (4.9). */
	{ 0x17, 0x30, 0xff, 4, 11, "Zen 2" },
	{ 0x17, 0x00, 0x2f, 4, 9, "Zen 1" },
};

int ic_pfm_knows_cpu(const struct ic_cpu_ident *cpu, const char *pfm_version,
		     char *why, size_t why_len)
{
	int major = 0, minor = 0;
	char need[64];

	if (why && why_len)
		why[0] = '\0';
	/* No release to judge by: let PAPI say. */
	if (cpu->vendor != IC_VENDOR_AMD || !pfm_version ||
	    sscanf(pfm_version, "%d.%d", &major, &minor) != 2)
		return 1;
	for (size_t i = 0; i < sizeof(events_pfm_needs) / sizeof(events_pfm_needs[0]); i++) {
		const struct events_pfm_need *n = &events_pfm_needs[i];

		if (cpu->family != n->family || cpu->model < n->model_lo || cpu->model > n->model_hi)
			continue;
		if (n->major && (major > n->major || (major == n->major && minor >= n->minor)))
			return 1;
		if (n->major)
			snprintf(need, sizeof(need), "libpfm4 %d.%d or later and a PAPI built with it",
				 n->major, n->minor);
		else
			snprintf(need, sizeof(need), "a libpfm4 that knows family %#x", cpu->family);
		snprintf(why, why_len, "libpfm4 %d.%d has no event tables for this CPU (AMD family %#x "
			 "model %#x, %s): counting needs %s", major, minor, cpu->family, cpu->model,
			 n->name, need);
		return 0;
	}
	return 1;
}

static const char *events_find(const char *name, const char *const *names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (names[i] && strcasecmp(names[i], name) == 0)
			return names[i];
	return NULL;
}

/* Counts from event[], fixed[], sets[]; set 1 keeps instructions only beside an attribution event. */
static void events_recount(struct ic_event_choice *ch)
{
	int any1 = 0;

	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		any1 |= ch->event[c] && (ch->sets[c] & 2u);
	if (!any1)
		ch->sets[IC_CTR_INSTR] &= ~2u;
	ch->n_events = ch->n_fixed_events = 0;
	ch->set_gp[0] = ch->set_gp[1] = ch->set_fixed[0] = ch->set_fixed[1] = 0;
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		ch->n_events += ch->event[c] != NULL;
		ch->n_fixed_events += ch->fixed[c];
		for (int k = 0; k < 2; k++)
			if (ch->event[c] && (ch->sets[c] & (1u << k)))
				(ch->fixed[c] ? ch->set_fixed : ch->set_gp)[k]++;
	}
	ch->n_gp_events = ch->n_events - ch->n_fixed_events;
	ch->n_sets = ch->n_events ? (any1 ? 2 : 1) : 0;
}

void ic_event_remove(struct ic_event_choice *ch, int c, const char *why)
{
	if (!ch->event[c])
		return;
	ch->event[c] = NULL;
	ch->why[c] = why;
	ch->sets[c] = 0;
	ch->fixed[c] = 0;
	events_recount(ch);
}

void ic_drop_attribution(struct ic_event_choice *ch, const char *why)
{
	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		ic_event_remove(ch, c, why);
}

/* Attribution groups (first, last counter) in order of room; a pair goes whole or not at all. */
static const int events_groups[][2] = {
	{ IC_CTR_OPCACHE_HIT, IC_CTR_OPCACHE_MISS },
	{ IC_CTR_DSB_UOPS, IC_CTR_MITE_UOPS },
	{ IC_CTR_FETCH_STALL, IC_CTR_FETCH_STALL },
	{ IC_CTR_FE_STALL, IC_CTR_FE_STALL },
	{ IC_CTR_MACHINE_CLEAR, IC_CTR_MACHINE_CLEAR },
};

/* The core counters go in set 0, each attribution group beside them where it fits, else in
 * set 1 with the instruction event again (its canary), else nowhere, with why. No set is
 * multiplexed for an attribution event: that would make every count a scaled estimate and
 * every true 0 absent (ic_ctr_count_absent), an L1i step's small-N side included. */
static void events_place(struct ic_event_choice *out)
{
	int gp = out->n_gp_counters, gp0 = 0, gp1 = 0, in1 = 0;
	int instr = out->event[IC_CTR_INSTR] != NULL;
	int instr_gp = instr && !out->fixed[IC_CTR_INSTR];

	for (int c = 0; c < IC_CTR_ATTRIBUTION_FIRST; c++) {
		out->sets[c] = out->event[c] != NULL;
		gp0 += out->event[c] && !out->fixed[c];
	}
	if (gp0 > gp)
		ic_drop_attribution(out, "left out: the core counters alone need every "
				    "general-purpose counter, multiplexed");
	for (size_t g = 0; g < sizeof(events_groups) / sizeof(events_groups[0]) && gp0 <= gp; g++) {
		const int *grp = events_groups[g];
		int cost = 0;
		unsigned bit;

		/* Attribution events never go on fixed counters. */
		for (int c = grp[0]; c <= grp[1]; c++)
			cost += out->event[c] != NULL;
		if (!cost)
			continue;
		if (gp0 + cost <= gp) {
			bit = 1u;
			gp0 += cost;
		} else if (gp1 + (in1 ? 0 : instr_gp) + cost <= gp) {
			bit = 2u;
			if (!in1 && instr) {
				out->sets[IC_CTR_INSTR] |= 2u;
				gp1 += instr_gp;
			}
			in1 = 1;
			gp1 += cost;
		} else {
			for (int c = grp[0]; c <= grp[1]; c++)
				ic_event_remove(out, c, "left out: no room in either event set without "
						"multiplexing");
			continue;
		}
		for (int c = grp[0]; c <= grp[1]; c++)
			if (out->event[c])
				out->sets[c] = bit;
	}
	events_recount(out);
	out->multiplex = out->set_gp[0] > gp;
}

void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out)
{
	unsigned kind = events_kind(cpu);

	if (n_fixed_counters < 0)
		n_fixed_counters = 0;
	if (n_fixed_counters > n_hw_counters)
		n_fixed_counters = n_hw_counters > 0 ? n_hw_counters : 0;
	memset(out, 0, sizeof(*out));
	/* A counter is decided once it has a why. */
	for (size_t i = 0; i < sizeof(events_cands) / sizeof(events_cands[0]); i++) {
		const struct events_cand *k = &events_cands[i];

		for (int c = k->ctr; c <= k->ctr + !!(k->kinds & EVENTS_PAIR); c++) {
			if (!(k->kinds & kind) || out->why[c] ||
			    (k->name && !(out->event[c] = events_find(k->name, available, n_available))))
				continue;
			out->why[c] = k->why;
			/* Instructions on fixed counter 0, cycles on 1, where this CPU has it. */
			out->fixed[c] = k->name && k->kinds == EVENTS_INTEL && (c == IC_CTR_INSTR || c == IC_CTR_CYCLES) &&
					n_fixed_counters > c - IC_CTR_INSTR;
		}
	}
	for (int c = 0; c < IC_CTR_COUNT; c++)
		if (!out->why[c])
			out->why[c] = "no event for this counter is available on this CPU";
	out->n_gp_counters = n_hw_counters > n_fixed_counters ? n_hw_counters - n_fixed_counters : 0;
	events_place(out);
}

size_t ic_events_candidates(const struct ic_cpu_ident *cpu, const char **names, size_t max)
{
	unsigned kind = events_kind(cpu);
	size_t n = 0;

	for (size_t i = 0; i < sizeof(events_cands) / sizeof(events_cands[0]); i++)
		if ((events_cands[i].kinds & kind) && events_cands[i].name && n < max &&
		    !events_find(events_cands[i].name, names, n))
			names[n++] = events_cands[i].name;
	return n;
}

int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len)
{
	int n_valid = 0, n_zero = 0;

	if (why && why_len)
		why[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		n_valid += valid[c] != 0;
		n_zero += valid[c] && value[c] == 0;
	}
	if (n_valid == 0)
		return 0;
	if (n_zero == n_valid) {
		snprintf(why, why_len, "canary failed: all %d counts read 0 (the kernel accepted the "
			 "event group but never scheduled it)", n_valid);
		return -1;
	}
	if (valid[IC_CTR_INSTR] && ops > 0 && min_instr_per_op > 0 &&
	    (double)value[IC_CTR_INSTR] < min_instr_per_op * ops) {
		snprintf(why, why_len, "canary failed: %.3g instructions per operation, fewer than the "
			 "%.3g the work takes (the counts are not trusted)",
			 (double)value[IC_CTR_INSTR] / ops, min_instr_per_op);
		return -1;
	}
	return 0;
}

const char *ic_ctr_absent_why(long long code)
{
#define EVENTS_ABSENT_WHY(name, code, text) [-(code)] = text,
	static const char *const why[] = { IC_CTR_ABSENTS(EVENTS_ABSENT_WHY) };
#undef EVENTS_ABSENT_WHY

	return code < 0 && code > -(long long)(sizeof(why) / sizeof(why[0])) ? why[-code] : "count invalid";
}

int ic_ctr_count_absent(long long count, int multiplexed)
{
	return count < 0 ? IC_CTR_ABSENT_BAD_COUNT : count == 0 && multiplexed ? IC_CTR_ABSENT_MPX_ZERO : 0;
}

int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len)
{
	double ops_sum = 0;
	int n_ok = 0, canary_bad = -1;
	char canary_why[200] = "";

	if (why && why_len)
		why[0] = '\0';
	for (int t = 0; t < n_threads; t++) {
		ops_sum += ops[t];
		/* The first thread failing the canary takes every count of the run with it. */
		if (canary_bad < 0 &&
		    ic_ctr_canary(value[t], valid[t], ops[t], min_instr_per_op, canary_why,
				  sizeof(canary_why)) != 0)
			canary_bad = t;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		double sum = 0;
		int lacking = -1, not_counted = 0;

		for (int t = 0; t < n_threads; t++) {
			if (valid[t][c] && canary_bad < 0) {
				sum += (double)value[t][c];
				continue;
			}
			if (lacking < 0)
				lacking = t;
			/* A thread with no set cannot tell; one that has says so. */
			if (value[t][c] == IC_CTR_ABSENT_NOT_COUNTED ||
			    value[t][c] == IC_CTR_ABSENT_OTHER_PASS)
				not_counted = 1;
		}
		ok[c] = n_threads > 0 && lacking < 0 && ops_sum > 0;
		per_op[c] = ok[c] ? sum / ops_sum : NAN;
		n_ok += ok[c];
		/* Only the first absent counter is named. */
		if (ok[c] || !why || !why_len || why[0] || (not_counted && canary_bad < 0))
			continue;
		if (canary_bad >= 0) {
			snprintf(why, why_len, "counts absent: thread %d of %d: %s", canary_bad, n_threads,
				 canary_why);
		} else if (n_threads <= 0) {
			snprintf(why, why_len, "%s absent: no threads", ic_ctr_names[c]);
		} else if (lacking < 0) {
			snprintf(why, why_len, "%s absent: the %d thread%s ran no operations while counting",
				 ic_ctr_names[c], n_threads, n_threads == 1 ? "" : "s");
		} else {
			const char *tw = thread_why ? thread_why[lacking] : NULL;

			snprintf(why, why_len, "%s absent: thread %d of %d: %s%s%s%s",
				 ic_ctr_names[c], lacking, n_threads,
				 ic_ctr_absent_why(value[lacking][c]),
				 tw && tw[0] ? " (" : "", tw && tw[0] ? tw : "",
				 tw && tw[0] ? ")" : "");
		}
	}
	return n_ok;
}

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
