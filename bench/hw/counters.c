/* PAPI counters: event choice (pure, table-driven) and per-thread event sets.
 *
 * Where the event names come from:
 *  - libpfm4 4.13's tables as PAPI 7.0 lists them, recorded for Skylake,
 *    Ice Lake, Sapphire Rapids, Zen 2 and Zen 4 in tests/data/papi/ (made by
 *    tests/data/papi/record.sh with LIBPFM_FORCE_PMU; test_hw_listings
 *    checks the choice on each). Names below that those tables lack (older
 *    Intel, Zen 1, Zen 5) come from libpfm4's event headers and are only
 *    candidates.
 *  - presets and what they mean per CPU: PAPI 7.0's papi_events.csv
 *    (/usr/share/papi/7.0/papi_events.csv). It has no PAPI_L1_ICM for Zen 3,
 *    no section for Ice Lake client, Sapphire Rapids, Zen 4 or Zen 5, so
 *    natives come first everywhere and presets are fallbacks. On Intel
 *    Haswell and later PAPI_L1_ICM is L2_RQSTS:ALL_CODE_RD (L2 code reads) and
 *    PAPI_BR_MSP is BR_MISP_RETIRED:CONDITIONAL (conditional branches only);
 *    on Zen 2 PAPI_L1_ICM is REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ (L2
 *    requests, instruction prefetches included) and on Zen 2 and Zen 3
 *    PAPI_TLB_IM is DERIVED_ADD of two events.
 *  - AMD native names: libpfm4 (lib/events/amd64_events_fam17h_zen1.h,
 *    _zen2.h, amd64_events_fam19h_zen3.h, _zen4.h, amd64_events_fam1ah_zen5.h):
 *    32_BYTE_INSTRUCTION_CACHE_MISSES (PMCx081, Zen 1); no L1i-miss event on
 *    Zen 2; IC_TAG_HIT_MISS:IC_MISS (PMCx18E) and OP_CACHE_HIT_MISS (PMCx28F)
 *    from Zen 3; L1_ITLB_MISS_L2_ITLB_MISS (PMCx085) umasks IF1G IF2M IF4K,
 *    plus COALESCED4K from Zen 3, none of them default, so all are named.
 *  - Intel fixed counters: libpfm4 encodes INSTRUCTION_RETIRED and
 *    INST_RETIRED:ANY_P as event 0xc0 umask 0 and UNHALTED_CORE_CYCLES as
 *    0x3c umask 0 (checked with pfm_get_event_encoding on skl, icl, spr), and
 *    the kernel's Intel constraint tables (arch/x86/events/intel/core.c,
 *    FIXED_EVENT_CONSTRAINT(0x00c0, 0) and (0x003c, 1)) put those on fixed
 *    counters 0 and 1; perf's generic instructions and cycles map to the same
 *    encodings (intel_perfmon_event_map).
 *  - Every name is only a candidate: the runtime asks PAPI which exist
 *    (PAPI_query_named_event) and chooses among those.
 *  - Generic perf events: libpfm4 perf_events.h (PERF_COUNT_HW_*), the last
 *    resort on any CPU whose PMU libpfm4 knows only through the kernel.
 */
#define _GNU_SOURCE
#include "counters.h"
#include "pmu_support.h"

#include <math.h>
#include <papi.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

const char *const ic_ctr_names[IC_CTR_COUNT] = {
	[IC_CTR_L1I_MISS]      = "l1i_miss_per_op",
	[IC_CTR_INSTR]         = "instr_per_op",
	[IC_CTR_CYCLES]        = "cycles_per_op",
	[IC_CTR_BRANCH_MISS]   = "branch_miss_per_op",
	[IC_CTR_ITLB_MISS]     = "itlb_miss_per_op",
	[IC_CTR_OPCACHE_HIT]   = "opcache_hit_per_op",
	[IC_CTR_OPCACHE_MISS]  = "opcache_miss_per_op",
	[IC_CTR_DSB_UOPS]      = "dsb_uops_per_op",
	[IC_CTR_MITE_UOPS]     = "mite_uops_per_op",
	[IC_CTR_MACHINE_CLEAR] = "machine_clear_per_op",
	[IC_CTR_FETCH_STALL]   = "fetch_stall_cycles_per_op",
	[IC_CTR_FE_STALL]      = "frontend_bound_slots_per_op",
};

/* ---- event choice (pure) ------------------------------------------------ */

/* Fixed counters an event goes on (Intel): 1 + the counter's index. */
#define IC_GP          0   /* needs a general-purpose counter */
#define IC_FIXED_INSTR 1   /* fixed counter 0: retired instructions */
#define IC_FIXED_CYC   2   /* fixed counter 1: unhalted core cycles */

struct ic_event_cand {
	const char *name;   /* NULL ends the list */
	const char *why;    /* at the end: why none, NULL for the default */
	int fixed;          /* IC_GP, IC_FIXED_INSTR or IC_FIXED_CYC */
};

/* Candidate lists end with IC_CAND_END or IC_CAND_NONE(why); the first
 * available one wins. */
#define IC_CAND_END { NULL, NULL, IC_GP }
#define IC_CAND_NONE(why) { NULL, why, IC_GP }

#define IC_PERF_L1I   { "perf::PERF_COUNT_HW_CACHE_L1I:READ:MISS", \
			"kernel generic L1i read misses (perf_event)", IC_GP }
#define IC_PERF_INSTR { "perf::PERF_COUNT_HW_INSTRUCTIONS", \
			"kernel generic retired instructions (perf_event)", IC_GP }
#define IC_PERF_CYC   { "perf::PERF_COUNT_HW_CPU_CYCLES", \
			"kernel generic core cycles (perf_event)", IC_GP }
#define IC_PERF_BRMSP { "perf::PERF_COUNT_HW_BRANCH_MISSES", \
			"kernel generic branch mispredictions (perf_event)", IC_GP }
#define IC_PERF_ITLB  { "perf::PERF_COUNT_HW_CACHE_ITLB:READ:MISS", \
			"kernel generic iTLB misses (perf_event)", IC_GP }

#define IC_PRESET_L1I_L2 { "PAPI_L1_ICM", \
	"PAPI_L1_ICM preset: PAPI derives it from L2 code reads on this CPU, " \
	"instruction prefetches included, so it over-counts L1i misses", IC_GP }
#define IC_PRESET_L1I { "PAPI_L1_ICM", "PAPI_L1_ICM preset (L1i misses)", IC_GP }
#define IC_PRESET_INSTR { "PAPI_TOT_INS", "PAPI_TOT_INS preset (retired instructions)", IC_GP }
#define IC_PRESET_CYC { "PAPI_TOT_CYC", "PAPI_TOT_CYC preset (core cycles)", IC_GP }
#define IC_PRESET_BRMSP { "PAPI_BR_MSP", "PAPI_BR_MSP preset (mispredicted branches)", IC_GP }
#define IC_PRESET_ITLB { "PAPI_TLB_IM", "PAPI_TLB_IM preset (iTLB misses)", IC_GP }

/* Intel. L1i: native tag misses first; the preset is L2 code reads from
 * Haswell on. Where ICACHE_64B is gone (libpfm4's spr table), the nearest is
 * the precise frontend event, which counts retired instructions. */
static const struct ic_event_cand ic_intel_l1i[] = {
	{ "ICACHE_64B:IFTAG_MISS",
	  "L1i tag lookups that missed, per 64-byte line (ICACHE_64B:IFTAG_MISS, Skylake to Ice Lake)", IC_GP },
	{ "FRONTEND_RETIRED:L1I_MISS",
	  "retired instructions that missed L1i (FRONTEND_RETIRED:L1I_MISS; no ICACHE_64B here, as on "
	  "Sapphire Rapids and Alder Lake): counts instructions, not the tag misses ICACHE_64B counts, "
	  "a different unit; wrong-path fetches are not counted", IC_GP },
	{ "ICACHE:MISSES", "L1i misses (Sandy Bridge to Broadwell)", IC_GP },
	{ "L1I:MISSES", "L1i misses (Nehalem, Westmere)", IC_GP },
	IC_PRESET_L1I_L2, IC_PERF_L1I, IC_CAND_END
};
/* Encoded 0x00c0 (event c0, umask 0): the kernel's fixed counter 0. The
 * preset's encoding depends on PAPI's csv, so it is taken as general-purpose. */
static const struct ic_event_cand ic_intel_instr[] = {
	{ "INSTRUCTION_RETIRED", "retired instructions (architectural event, fixed counter 0)", IC_FIXED_INSTR },
	{ "INST_RETIRED:ANY_P", "retired instructions (INST_RETIRED:ANY_P, fixed counter 0)", IC_FIXED_INSTR },
	IC_PRESET_INSTR,
	{ "perf::PERF_COUNT_HW_INSTRUCTIONS",
	  "kernel generic retired instructions (perf_event, fixed counter 0)", IC_FIXED_INSTR },
	IC_CAND_END
};
/* Encoded 0x003c (event 3c, umask 0): the kernel's fixed counter 1. */
static const struct ic_event_cand ic_intel_cyc[] = {
	{ "UNHALTED_CORE_CYCLES", "unhalted core cycles (architectural event, fixed counter 1)", IC_FIXED_CYC },
	IC_PRESET_CYC,
	{ "perf::PERF_COUNT_HW_CPU_CYCLES",
	  "kernel generic core cycles (perf_event, fixed counter 1)", IC_FIXED_CYC },
	IC_CAND_END
};
/* All branch types. The preset is conditional branches only on Haswell and
 * later (BR_MISP_RETIRED:CONDITIONAL in PAPI's csv): last. */
static const struct ic_event_cand ic_intel_brmsp[] = {
	{ "BR_MISP_RETIRED:ALL_BRANCHES",
	  "mispredicted retired branches, all types (BR_MISP_RETIRED:ALL_BRANCHES)", IC_GP },
	{ "MISPREDICTED_BRANCH_RETIRED",
	  "mispredicted retired branches, all types (architectural event)", IC_GP },
	{ "perf::PERF_COUNT_HW_BRANCH_MISSES",
	  "kernel generic branch mispredictions, all types (perf_event)", IC_GP },
	{ "PAPI_BR_MSP",
	  "PAPI_BR_MSP preset: on Haswell and later conditional branches only", IC_GP },
	IC_CAND_END
};
/* Page walks that completed, the same meaning as on AMD below. */
static const struct ic_event_cand ic_intel_itlb[] = {
	{ "ITLB_MISSES:WALK_COMPLETED",
	  "iTLB misses that completed a page walk, all page sizes (ITLB_MISSES:WALK_COMPLETED, Haswell on)", IC_GP },
	{ "ITLB_MISSES:MISS_CAUSES_A_WALK", "iTLB misses that cause a page walk (Haswell to Skylake)", IC_GP },
	{ "ITLB_MISSES:CAUSES_A_WALK", "iTLB misses that cause a page walk (Sandy Bridge, Ivy Bridge)", IC_GP },
	{ "ITLB_MISSES:ANY", "iTLB misses (Nehalem, Westmere)", IC_GP },
	IC_PRESET_ITLB, IC_PERF_ITLB, IC_CAND_END
};
static const struct ic_event_cand ic_intel_opcache[] = {
	IC_CAND_NONE("AMD op-cache event; Intel's decoded icache is dsb_uops_per_op and mite_uops_per_op")
};
static const struct ic_event_cand ic_intel_dsb[] = {
	{ "IDQ:DSB_UOPS", "uops delivered to the IDQ from the DSB, the decoded icache (IDQ:DSB_UOPS)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_intel_mite[] = {
	{ "IDQ:MITE_UOPS", "uops delivered to the IDQ from the legacy decoders (IDQ:MITE_UOPS)", IC_GP },
	IC_CAND_END
};
/* What misses cost: fetch stalled on the L1i (SPR's name first, then
 * Skylake to Ice Lake's), and issue slots the front end left empty. */
static const struct ic_event_cand ic_intel_fetch_stall[] = {
	{ "ICACHE_DATA:STALLS",
	  "cycles instruction fetch stalled on an L1i miss (ICACHE_DATA:STALLS, Sapphire Rapids on)", IC_GP },
	{ "ICACHE_16B:IFDATA_STALL",
	  "cycles instruction fetch stalled on an L1i miss (ICACHE_16B:IFDATA_STALL, Skylake to Ice Lake)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_intel_fe_stall[] = {
	{ "IDQ_UOPS_NOT_DELIVERED:CORE",
	  "issue slots the front end left empty while the back end could take a uop "
	  "(IDQ_UOPS_NOT_DELIVERED:CORE, top-down front-end bound)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_intel_mclear[] = {
	{ "MACHINE_CLEARS:COUNT", "machine clears of any kind, counted once each (MACHINE_CLEARS:COUNT)", IC_GP },
	IC_CAND_END
};

/* AMD, common to the Zen families: natives first, the presets are the same
 * events where PAPI's csv has them (and Zen 4 has none). */
static const struct ic_event_cand ic_amd_instr[] = {
	{ "RETIRED_INSTRUCTIONS", "retired instructions (PMCx0C0)", IC_GP },
	IC_PRESET_INSTR, IC_PERF_INSTR, IC_CAND_END
};
static const struct ic_event_cand ic_amd_cyc[] = {
	{ "CYCLES_NOT_IN_HALT", "core cycles not halted (PMCx076)", IC_GP },
	IC_PRESET_CYC, IC_PERF_CYC, IC_CAND_END
};
static const struct ic_event_cand ic_amd_brmsp[] = {
	{ "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	  "mispredicted retired branches, all types (PMCx0C3)", IC_GP },
	IC_PRESET_BRMSP, IC_PERF_BRMSP, IC_CAND_END
};
/* AMD's decoder/op-cache split: ops dispatched by source (PMCx0AA), named
 * OPS_SOURCE_... from Zen 3 on and UOPS_DISPATCHED_... on family 17h. */
static const struct ic_event_cand ic_amd_dsb[] = {
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:OPCACHE",
	  "ops dispatched from the op cache (PMCx0AA OPCACHE; AMD's counterpart of Intel's DSB)", IC_GP },
	{ "UOPS_DISPATCHED_FROM_DECODER:OPCACHE_DISPATCHED",
	  "ops dispatched from the op cache (PMCx0AA, family 17h)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_amd_mite[] = {
	{ "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER",
	  "ops dispatched from the x86 decoders (PMCx0AA DECODER; AMD's counterpart of Intel's MITE)", IC_GP },
	{ "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED",
	  "ops dispatched from the x86 decoders (PMCx0AA, family 17h)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_amd_fetch_stall[] = {
	IC_CAND_NONE("libpfm4 names no L1i fetch-stall event for AMD; frontend_bound_slots_per_op "
		     "is the front-end cost there")
};
/* perf's Zen 4 frontend_bound metric: de_no_dispatch_per_slot.no_ops_from_frontend. */
static const struct ic_event_cand ic_amd_fe_stall[] = {
	{ "DISPATCH_STALLS_1:FE_NO_OPS",
	  "dispatch slots left empty because the front end supplied no ops (PMCx1A0 FE_NO_OPS, "
	  "Zen 4 on; perf's frontend_bound)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_amd_mclear[] = {
	IC_CAND_NONE("Intel MACHINE_CLEARS event; no AMD event is chosen for pipeline flushes")
};
static const struct ic_event_cand ic_zen12_opcache[] = {
	IC_CAND_NONE("libpfm4 has no op-cache hit/miss event for Zen 1 and Zen 2")
};

/* Zen 1 (family 17h, models below 30h). */
static const struct ic_event_cand ic_zen1_l1i[] = {
	{ "32_BYTE_INSTRUCTION_CACHE_MISSES", "L1i misses per 32-byte fetch window (PMCx081, Zen 1)", IC_GP },
	IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END
};
/* Zen 2 has no L1i-miss event in libpfm4: L1i fill requests to L2 are the
 * nearest, and count instruction prefetches too. */
static const struct ic_event_cand ic_zen2_l1i[] = {
	{ "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (Zen 2 has no L1i-miss event; includes instruction prefetches)", IC_GP },
	IC_PRESET_L1I_L2, IC_PERF_L1I, IC_CAND_END
};
/* PAPI_TLB_IM on Zen 2 and Zen 3 is DERIVED_ADD of PMCx084 (L1 iTLB miss, L2
 * hit) and PMCx085 (L1 and L2 miss): two counters, and L1 misses rather than
 * page walks. The one native is PMCx085, whose umasks (none of them default)
 * must all be named. */
#define IC_PRESET_ITLB_ZEN { "PAPI_TLB_IM", \
	"PAPI_TLB_IM preset: derived from two events (PMCx084 + PMCx085), L1 iTLB misses " \
	"including L2 iTLB hits", IC_GP }
static const struct ic_event_cand ic_zen12_itlb[] = {
	{ "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K",
	  "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)", IC_GP },
	IC_PRESET_ITLB_ZEN, IC_PERF_ITLB, IC_CAND_END
};
/* Zen 3, 4 (family 19h) and Zen 5 (family 1Ah) share these names. */
static const struct ic_event_cand ic_zen345_l1i[] = {
	{ "IC_TAG_HIT_MISS:IC_MISS", "L1i tag misses (PMCx18E IC_TAG_HIT_MISS:IC_MISS)", IC_GP },
	{ "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	  "L1i fill requests to L2 (includes instruction prefetches)", IC_GP },
	IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END
};
static const struct ic_event_cand ic_zen345_itlb[] = {
	{ "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
	  "iTLB misses in both L1 and L2 iTLB, i.e. page walks (PMCx085)", IC_GP },
	IC_PRESET_ITLB_ZEN, IC_PERF_ITLB, IC_CAND_END
};
static const struct ic_event_cand ic_zen345_ochit[] = {
	{ "OP_CACHE_HIT_MISS:OC_HIT", "op-cache lookups that hit (PMCx28F OP_CACHE_HIT_MISS:OC_HIT)", IC_GP },
	IC_CAND_END
};
static const struct ic_event_cand ic_zen345_ocmiss[] = {
	{ "OP_CACHE_HIT_MISS:OC_MISS", "op-cache lookups that missed (PMCx28F OP_CACHE_HIT_MISS:OC_MISS)", IC_GP },
	IC_CAND_END
};

/* Any other CPU: presets where PAPI has them, then the kernel's generic events. */
static const struct ic_event_cand ic_other_l1i[] = { IC_PRESET_L1I, IC_PERF_L1I, IC_CAND_END };
static const struct ic_event_cand ic_other_instr[] = { IC_PRESET_INSTR, IC_PERF_INSTR, IC_CAND_END };
static const struct ic_event_cand ic_other_cyc[] = { IC_PRESET_CYC, IC_PERF_CYC, IC_CAND_END };
static const struct ic_event_cand ic_other_brmsp[] = { IC_PRESET_BRMSP, IC_PERF_BRMSP, IC_CAND_END };
static const struct ic_event_cand ic_other_itlb[] = { IC_PRESET_ITLB, IC_PERF_ITLB, IC_CAND_END };
static const struct ic_event_cand ic_other_amd_only[] = {
	IC_CAND_NONE("AMD Zen 3 and later only")
};
static const struct ic_event_cand ic_other_intel_only[] = {
	IC_CAND_NONE("Intel only")
};
static const struct ic_event_cand ic_other_none[] = {
	IC_CAND_NONE("Intel and AMD only")
};

struct ic_cpu_events {
	const struct ic_event_cand *cand[IC_CTR_COUNT];
};

static const struct ic_cpu_events ic_events_intel = {{
	[IC_CTR_L1I_MISS] = ic_intel_l1i, [IC_CTR_INSTR] = ic_intel_instr,
	[IC_CTR_CYCLES] = ic_intel_cyc, [IC_CTR_BRANCH_MISS] = ic_intel_brmsp,
	[IC_CTR_ITLB_MISS] = ic_intel_itlb,
	[IC_CTR_OPCACHE_HIT] = ic_intel_opcache, [IC_CTR_OPCACHE_MISS] = ic_intel_opcache,
	[IC_CTR_DSB_UOPS] = ic_intel_dsb, [IC_CTR_MITE_UOPS] = ic_intel_mite,
	[IC_CTR_MACHINE_CLEAR] = ic_intel_mclear,
	[IC_CTR_FETCH_STALL] = ic_intel_fetch_stall, [IC_CTR_FE_STALL] = ic_intel_fe_stall }};
static const struct ic_cpu_events ic_events_zen1 = {{
	[IC_CTR_L1I_MISS] = ic_zen1_l1i, [IC_CTR_INSTR] = ic_amd_instr,
	[IC_CTR_CYCLES] = ic_amd_cyc, [IC_CTR_BRANCH_MISS] = ic_amd_brmsp,
	[IC_CTR_ITLB_MISS] = ic_zen12_itlb,
	[IC_CTR_OPCACHE_HIT] = ic_zen12_opcache, [IC_CTR_OPCACHE_MISS] = ic_zen12_opcache,
	[IC_CTR_DSB_UOPS] = ic_amd_dsb, [IC_CTR_MITE_UOPS] = ic_amd_mite,
	[IC_CTR_MACHINE_CLEAR] = ic_amd_mclear,
	[IC_CTR_FETCH_STALL] = ic_amd_fetch_stall, [IC_CTR_FE_STALL] = ic_amd_fe_stall }};
static const struct ic_cpu_events ic_events_zen2 = {{
	[IC_CTR_L1I_MISS] = ic_zen2_l1i, [IC_CTR_INSTR] = ic_amd_instr,
	[IC_CTR_CYCLES] = ic_amd_cyc, [IC_CTR_BRANCH_MISS] = ic_amd_brmsp,
	[IC_CTR_ITLB_MISS] = ic_zen12_itlb,
	[IC_CTR_OPCACHE_HIT] = ic_zen12_opcache, [IC_CTR_OPCACHE_MISS] = ic_zen12_opcache,
	[IC_CTR_DSB_UOPS] = ic_amd_dsb, [IC_CTR_MITE_UOPS] = ic_amd_mite,
	[IC_CTR_MACHINE_CLEAR] = ic_amd_mclear,
	[IC_CTR_FETCH_STALL] = ic_amd_fetch_stall, [IC_CTR_FE_STALL] = ic_amd_fe_stall }};
static const struct ic_cpu_events ic_events_zen345 = {{
	[IC_CTR_L1I_MISS] = ic_zen345_l1i, [IC_CTR_INSTR] = ic_amd_instr,
	[IC_CTR_CYCLES] = ic_amd_cyc, [IC_CTR_BRANCH_MISS] = ic_amd_brmsp,
	[IC_CTR_ITLB_MISS] = ic_zen345_itlb,
	[IC_CTR_OPCACHE_HIT] = ic_zen345_ochit, [IC_CTR_OPCACHE_MISS] = ic_zen345_ocmiss,
	[IC_CTR_DSB_UOPS] = ic_amd_dsb, [IC_CTR_MITE_UOPS] = ic_amd_mite,
	[IC_CTR_MACHINE_CLEAR] = ic_amd_mclear,
	[IC_CTR_FETCH_STALL] = ic_amd_fetch_stall, [IC_CTR_FE_STALL] = ic_amd_fe_stall }};
static const struct ic_cpu_events ic_events_other = {{
	[IC_CTR_L1I_MISS] = ic_other_l1i, [IC_CTR_INSTR] = ic_other_instr,
	[IC_CTR_CYCLES] = ic_other_cyc, [IC_CTR_BRANCH_MISS] = ic_other_brmsp,
	[IC_CTR_ITLB_MISS] = ic_other_itlb,
	[IC_CTR_OPCACHE_HIT] = ic_other_amd_only, [IC_CTR_OPCACHE_MISS] = ic_other_amd_only,
	[IC_CTR_DSB_UOPS] = ic_other_none, [IC_CTR_MITE_UOPS] = ic_other_none,
	[IC_CTR_MACHINE_CLEAR] = ic_other_intel_only,
	[IC_CTR_FETCH_STALL] = ic_other_intel_only, [IC_CTR_FE_STALL] = ic_other_none }};

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

static void ic_events_place(struct ic_event_choice *out);
static void ic_sets_recount(struct ic_event_choice *ch);
static void ic_choice_remove(struct ic_event_choice *ch, int c, const char *why);

void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out)
{
	const struct ic_cpu_events *ev = ic_cpu_events_for(cpu);
	unsigned fixed_used = 0;

	if (n_fixed_counters < 0)
		n_fixed_counters = 0;
	if (n_fixed_counters > n_hw_counters)
		n_fixed_counters = n_hw_counters > 0 ? n_hw_counters : 0;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		const struct ic_event_cand *k = ev->cand[c];

		for (; k->name; k++) {
			const char *hit = ic_avail_find(k->name, available, n_available);
			if (!hit)
				continue;
			out->event[c] = hit;
			out->why[c] = k->why;
			out->n_events++;
			/* On a fixed counter only if this CPU has it and no
			 * other chosen event took it. */
			if (k->fixed != IC_GP && k->fixed <= n_fixed_counters &&
			    !(fixed_used & (1u << k->fixed))) {
				fixed_used |= 1u << k->fixed;
				out->fixed[c] = 1;
				out->n_fixed_events++;
			}
			break;
		}
		if (!k->name)
			out->why[c] = k->why ? k->why
				    : "no event for this counter is available on this CPU";
	}
	out->n_gp_events = out->n_events - out->n_fixed_events;
	out->n_gp_counters = n_hw_counters - n_fixed_counters;
	if (out->n_gp_counters < 0)
		out->n_gp_counters = 0;
	ic_events_place(out);
}

/* Attribution groups in the order they get room: a pair (hit and miss,
 * op cache and decoder) is placed whole or not at all. */
static const int ic_groups[][2] = {
	{ IC_CTR_OPCACHE_HIT, IC_CTR_OPCACHE_MISS },
	{ IC_CTR_DSB_UOPS, IC_CTR_MITE_UOPS },
	{ IC_CTR_FETCH_STALL, -1 },
	{ IC_CTR_FE_STALL, -1 },
	{ IC_CTR_MACHINE_CLEAR, -1 },
};

/* Put the core counters in set 0 and each attribution group where it
 * fits: beside them in set 0, else in set 1 with the instruction event
 * again (its canary), else nowhere, with why. Multiplexing would make every
 * count a scaled estimate and every true 0 absent (ic_ctr_count_absent),
 * the small-N side of an L1i step included, so no set is multiplexed for
 * an attribution event; set 0 is multiplexed only when the core counters
 * alone do not fit. */
static void ic_events_place(struct ic_event_choice *out)
{
	int gp = out->n_gp_counters, gp0 = 0, gp1 = 0, in1 = 0;
	int instr = out->event[IC_CTR_INSTR] != NULL;
	int instr_gp = instr && !out->fixed[IC_CTR_INSTR];

	for (int c = 0; c < IC_CTR_ATTRIBUTION_FIRST; c++) {
		if (!out->event[c])
			continue;
		out->sets[c] = 1u;
		gp0 += !out->fixed[c];
	}
	if (gp0 > gp) {
		/* The core alone needs multiplexing: no room for anything else. */
		ic_drop_attribution(out, "left out: the core counters alone need every "
				    "general-purpose counter, multiplexed");
	}
	for (size_t g = 0; g < sizeof(ic_groups) / sizeof(ic_groups[0]) && gp0 <= gp; g++) {
		int cost = 0, n = 0;

		for (int k = 0; k < 2; k++) {
			int c = ic_groups[g][k];
			if (c < 0 || !out->event[c])
				continue;
			n++;
			cost += !out->fixed[c];
		}
		if (!n)
			continue;
		int extra1 = in1 ? 0 : instr_gp;    /* the canary, once */
		unsigned bit;
		if (gp0 + cost <= gp) {
			bit = 1u;
			gp0 += cost;
		} else if (gp1 + extra1 + cost <= gp) {
			bit = 2u;
			if (!in1 && instr) {
				out->sets[IC_CTR_INSTR] |= 2u;
				gp1 += instr_gp;
			}
			in1 = 1;
			gp1 += cost;
		} else {
			for (int k = 0; k < 2; k++)
				if (ic_groups[g][k] >= 0)
					ic_choice_remove(out, ic_groups[g][k], "left out: no room in "
							 "either event set without multiplexing");
			continue;
		}
		for (int k = 0; k < 2; k++) {
			int c = ic_groups[g][k];
			if (c >= 0 && out->event[c])
				out->sets[c] = bit;
		}
	}
	ic_sets_recount(out);
	out->multiplex = out->set_gp[0] > gp;
}

/* The per-set counts from sets[] and fixed[]; set 1 keeps the instruction
 * event only while it holds an attribution event. */
static void ic_sets_recount(struct ic_event_choice *ch)
{
	int any1 = 0;

	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		any1 |= ch->event[c] && (ch->sets[c] & 2u);
	if (!any1)
		ch->sets[IC_CTR_INSTR] &= ~2u;
	ch->set_gp[0] = ch->set_gp[1] = ch->set_fixed[0] = ch->set_fixed[1] = 0;
	for (int c = 0; c < IC_CTR_COUNT; c++)
		for (int k = 0; k < 2; k++)
			if (ch->event[c] && (ch->sets[c] & (1u << k))) {
				if (ch->fixed[c])
					ch->set_fixed[k]++;
				else
					ch->set_gp[k]++;
			}
	ch->n_sets = ch->n_events ? (any1 ? 2 : 1) : 0;
}

/* Take counter c out of the choice, with why. */
static void ic_choice_remove(struct ic_event_choice *ch, int c, const char *why)
{
	if (!ch->event[c])
		return;
	ch->event[c] = NULL;
	ch->why[c] = why;
	ch->n_events--;
	ch->sets[c] = 0;
	if (ch->fixed[c]) {
		ch->fixed[c] = 0;
		ch->n_fixed_events--;
	} else {
		ch->n_gp_events--;
	}
}

void ic_drop_attribution(struct ic_event_choice *ch, const char *why)
{
	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		ic_choice_remove(ch, c, why);
	ic_sets_recount(ch);
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

/* ---- the canary (pure) ---------------------------------------------------- */

int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len)
{
	int n_valid = 0, n_zero = 0;

	if (why && why_len)
		why[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (!valid[c])
			continue;
		n_valid++;
		n_zero += value[c] == 0;
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

/* ---- absent counts and combining threads (pure) -------------------------- */

const char *ic_ctr_absent_why(long long code)
{
	switch (code) {
	case IC_CTR_ABSENT_NO_SET:
		return "no running event set on this thread (open, start or stop failed)";
	case IC_CTR_ABSENT_NOT_COUNTED:
		return "this CPU counts no event for it";
	case IC_CTR_ABSENT_NOT_ADDED:
		return "its event would not go into this thread's event set";
	case IC_CTR_ABSENT_MPX_ZERO:
		return "0 under multiplexing: the event may never have been scheduled";
	case IC_CTR_ABSENT_BAD_COUNT:
		return "PAPI returned a negative count";
	case IC_CTR_ABSENT_OTHER_PASS:
		return "counted by the other event set, on alternate runs";
	case IC_CTR_ABSENT_CANARY:
		return "the event set failed its canary";
	default:
		return "count invalid";
	}
}

int ic_ctr_count_absent(long long count, int multiplexed)
{
	if (count < 0)
		return IC_CTR_ABSENT_BAD_COUNT;
	if (count == 0 && multiplexed)
		return IC_CTR_ABSENT_MPX_ZERO;
	return 0;
}

int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len)
{
	double ops_sum = 0;
	int n_ok = 0, named = 0, canary_bad = -1;
	char canary_why[200] = "";

	if (why && why_len)
		why[0] = '\0';
	for (int t = 0; t < n_threads; t++) {
		ops_sum += ops[t];
		/* Before any count is trusted: the first thread that fails the
		 * canary takes every count of the run with it. */
		if (canary_bad < 0 &&
		    ic_ctr_canary(value[t], valid[t], ops[t], min_instr_per_op, canary_why,
				  sizeof(canary_why)) != 0)
			canary_bad = t;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		double sum = 0;
		int lacking = -1, not_counted = 0;

		ok[c] = 0;
		per_op[c] = NAN;
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
		if (n_threads > 0 && lacking < 0 && ops_sum > 0) {
			ok[c] = 1;
			per_op[c] = sum / ops_sum;
			n_ok++;
			continue;
		}
		if (named || !why || !why_len)
			continue;
		if (canary_bad >= 0) {
			named = 1;
			snprintf(why, why_len, "counts absent: thread %d of %d: %s", canary_bad, n_threads,
				 canary_why);
			continue;
		}
		if (not_counted)
			continue;
		named = 1;
		if (n_threads <= 0) {
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

/* ---- runtime ------------------------------------------------------------ */

/* More than any CPU's candidate lists hold together (about 30). */
#define IC_MAX_CANDIDATES 64

static pthread_once_t ic_init_once = PTHREAD_ONCE_INIT;
static int ic_working;                       /* 1: counting works */
static int ic_cidx = -1;                     /* perf_event component */
static struct ic_event_choice ic_choice;
static int ic_n_hw, ic_n_fixed;              /* what ic_choice was given */
static char ic_note[1536] = "counters not initialised";
static atomic_flag ic_notice_done = ATOMIC_FLAG_INIT;
static atomic_uint ic_pass;                  /* runs so far; the set is ic_pass % n_sets */
static _Thread_local char ic_set_err[sizeof(ic_note) + 64];

/* PAPI's text for rc, or the number where it has none. */
static const char *ic_strerror(int rc)
{
	static _Thread_local char buf[32];
	const char *t = PAPI_strerror(rc);

	if (t && *t)
		return t;
	snprintf(buf, sizeof(buf), "PAPI error %d", rc);
	return buf;
}

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
	__attribute__((format(printf, 2, 3)));

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
				ic_strerror(papi_rc));
	if (par != -100 && len < sizeof(ic_note))
		snprintf(ic_note + len, sizeof(ic_note) - len,
			 "; perf_event_paranoid=%d", par);
}

static void ic_note_papi(int refit)
{
	size_t len = 0;
	int w;

	for (int c = 0; c < IC_CTR_COUNT && len < sizeof(ic_note); c++) {
		const char *set = "";
		if (ic_choice.event[c] && ic_choice.n_sets == 2)
			set = ic_choice.sets[c] == 3u ? " (both sets)" : ic_choice.sets[c] == 2u ? " (set 2)" : "";
		w = snprintf(ic_note + len, sizeof(ic_note) - len, "%s%s=%s%s",
			     c ? ", " : "", ic_ctr_names[c],
			     ic_choice.event[c] ? ic_choice.event[c] : "absent", set);
		if (w < 0)
			return;
		len += (size_t)w;
	}
	if (len < sizeof(ic_note)) {
		w = snprintf(ic_note + len, sizeof(ic_note) - len,
			     "; %s (%d events: %d on fixed counters, %d on %d general-purpose "
			     "counters = %d counters less %d fixed)%s",
			     ic_choice.multiplex ? "multiplexed" : "not multiplexed",
			     ic_choice.n_events, ic_choice.n_fixed_events, ic_choice.n_gp_events,
			     ic_choice.n_gp_counters, ic_n_hw, ic_n_fixed,
			     refit ? ", because the set did not fit unmultiplexed" : "");
		if (w > 0)
			len += (size_t)w;
	}
	if (ic_choice.n_sets == 2 && len < sizeof(ic_note))
		snprintf(ic_note + len, sizeof(ic_note) - len,
			 "; two event sets counted on alternate runs (set 1: the core counters, "
			 "%d general-purpose; set 2: the attribution events that did not fit beside "
			 "them, %d general-purpose, with instructions again as its canary), so each "
			 "counter comes from about half of the repetitions",
			 ic_choice.set_gp[0], ic_choice.set_gp[1]);
}

/* Fixed counters: CPUID leaf 0xA, EDX[4:0] when the architectural perfmon
 * version (EAX[7:0]) is 2 or more. 0 on AMD (leaf 0xA reads as zeros) and
 * off x86. */
static int ic_cpuid_fixed_counters(void)
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

/* Tear an event set down, also when PAPI still counts it as running (a
 * PAPI_stop that failed leaves it so: its descriptors stay open and the
 * thread can start no other set). 0 when it is gone; else -1 with the
 * reason in err. */
static int ic_evset_drop(int *evset, char *err, size_t err_len)
{
	long long scratch[IC_CTR_COUNT + 1];
	int state = 0, rc;

	if (*evset == PAPI_NULL)
		return 0;
	if (PAPI_state(*evset, &state) == PAPI_OK && (state & PAPI_RUNNING))
		PAPI_stop(*evset, scratch);        /* once more; its answer is in rc below */
	rc = PAPI_cleanup_eventset(*evset);
	if (rc == PAPI_OK)
		rc = PAPI_destroy_eventset(evset);
	if (rc != PAPI_OK) {
		if (err && err_len)
			snprintf(err, err_len, "%s", ic_strerror(rc));
		return -1;
	}
	*evset = PAPI_NULL;
	return 0;
}

/* Add the chosen events of set pass (0 or 1) to a fresh event set; slot[c]
 * is the position of counter c in PAPI's value array, -1 where the event is
 * not in this set or could not be added. */
static int ic_evset_build(int pass, int *evset, int slot[IC_CTR_COUNT], char *err, size_t err_len)
{
	int rc, n = 0;

	*evset = PAPI_NULL;
	rc = PAPI_create_eventset(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_create_eventset: %s", ic_strerror(rc));
		return -1;
	}
	if (ic_choice.multiplex && pass == 0) {
		/* Multiplexing needs the component bound before conversion. */
		rc = PAPI_assign_eventset_component(*evset, ic_cidx);
		if (rc == PAPI_OK)
			rc = PAPI_set_multiplex(*evset);
		if (rc != PAPI_OK) {
			snprintf(err, err_len, "PAPI_set_multiplex: %s", ic_strerror(rc));
			PAPI_destroy_eventset(evset);
			return -1;
		}
	}
	err[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		slot[c] = -1;
		if (!ic_choice.event[c] || !(ic_choice.sets[c] & (1u << pass)))
			continue;
		rc = PAPI_add_named_event(*evset, ic_choice.event[c]);
		if (rc == PAPI_OK)
			slot[c] = n++;
		else if (!err[0])
			snprintf(err, err_len, "PAPI_add_named_event(%s): %s",
				 ic_choice.event[c], ic_strerror(rc));
	}
	if (n == 0) {
		if (!err[0])
			snprintf(err, err_len, "no event could be added");
		ic_evset_drop(evset, NULL, 0);
		return -1;
	}
	return n;
}

/* Known work for the start-up trial: at least 2 instructions an iteration
 * (the add and the loop's branch), which the compiler cannot drop. */
#define IC_TRIAL_ITERS 200000UL

static void ic_trial_work(void)
{
	for (unsigned long i = 0; i < IC_TRIAL_ITERS; i++)
		__asm__ volatile("" ::: "memory");
}

/* Start, run known work, stop, and apply the canary: a set the kernel
 * accepts but never schedules reads 0. 0 ok, else -1 with the reason. */
static int ic_trial(int evset, const int slot[IC_CTR_COUNT], int multiplexed, char *err,
		    size_t err_len)
{
	long long raw[IC_CTR_COUNT + 1], value[IC_CTR_COUNT];
	int valid[IC_CTR_COUNT], rc;

	rc = PAPI_start(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_start on perf_event failed: %s", ic_strerror(rc));
		return -1;
	}
	ic_trial_work();
	rc = PAPI_stop(evset, raw);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_stop on perf_event failed: %s", ic_strerror(rc));
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
	return ic_ctr_canary(value, valid, (double)IC_TRIAL_ITERS, 1.0, err, err_len) ? -1 : 0;
}

static void ic_counters_init_once(void)
{
	const PAPI_component_info_t *ci;
	struct ic_cpu_ident cpu;
	const char *cand[IC_MAX_CANDIDATES], *avail[IC_MAX_CANDIDATES];
	size_t n_cand, n_avail = 0;
	int rc, n_hw, evset, slot[IC_CTR_COUNT], refit = 0;
	char err[512], pfm[32];

	ic_cpu_ident_read(&cpu);
#if PAPI_VERSION_MAJOR(PAPI_VERSION) < 7 || \
    (PAPI_VERSION_MAJOR(PAPI_VERSION) == 7 && PAPI_VERSION_MINOR(PAPI_VERSION) == 0)
	/* PAPI 7.0 finds two core PMUs on a hybrid CPU and fails (PAPI_ECOUNT). */
	if (ic_pmu_hybrid(NULL, err, sizeof(err))) {
		ic_note_none(0, "%s", err);
		return;
	}
#endif
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
	/* Before PAPI's own reason: libpfm4 may not know this CPU at all,
	 * which PAPI reports only as "no default PMU found". */
	ic_pfm_release(pfm);
	if (!ic_pfm_knows_cpu(&cpu, pfm, err, sizeof(err))) {
		ic_note_none(0, "%s%s%s%s", err, ci->disabled ? "; PAPI: " : "",
			     ci->disabled ? ci->disabled_reason : "",
			     ic_core_pmu_present() ? "" : "; and the kernel offers no core PMU here "
			     "(no /sys/bus/event_source/devices/cpu: a VM without a virtual PMU?)");
		return;
	}
	if (ci->disabled) {
		ic_note_none(0, "perf_event component disabled: %s%s",
			     ci->disabled_reason[0] ? ci->disabled_reason : "no reason given",
			     ic_core_pmu_present() ? "" : " (the kernel offers no core PMU here: no "
			     "/sys/bus/event_source/devices/cpu, as in a VM without a virtual PMU)");
		return;
	}
	n_hw = PAPI_num_cmp_hwctrs(ic_cidx);
	if (n_hw <= 0) {
		ic_note_none(n_hw < 0 ? n_hw : 0, "PAPI reports 0 hardware counters");
		return;
	}

	n_cand = ic_events_candidates(&cpu, cand, IC_MAX_CANDIDATES);
	for (size_t i = 0; i < n_cand; i++)
		if (PAPI_query_named_event(cand[i]) == PAPI_OK)
			avail[n_avail++] = cand[i];
	ic_n_hw = n_hw;
	ic_n_fixed = cpu.vendor == IC_VENDOR_INTEL ? ic_cpuid_fixed_counters() : 0;
	ic_events_choose(&cpu, avail, n_avail, ic_n_hw, ic_n_fixed, &ic_choice);
	if (ic_choice.n_events == 0) {
		ic_note_none(0, "PAPI knows none of the events this CPU needs (%s family %#x model %#x, "
			     "libpfm4 %s)", cpu.vendor == IC_VENDOR_INTEL ? "Intel"
			     : cpu.vendor == IC_VENDOR_AMD ? "AMD" : "other vendor", cpu.family,
			     cpu.model, pfm[0] ? pfm : "of unknown release");
		return;
	}
	if (ic_choice.multiplex) {
		rc = PAPI_multiplex_init();
		if (rc != PAPI_OK) {
			ic_note_none(rc, "PAPI_multiplex_init failed");
			return;
		}
	}

	/* Try each set once here: a paranoid kernel fails at start, not
	 * before, and a set that starts may still read nothing. */
	for (int pass = 0; pass < ic_choice.n_sets; pass++) {
		if (ic_evset_build(pass, &evset, slot, err, sizeof(err)) < 0) {
			if (pass == 1) {   /* the core set counts: go on without set 2 */
				ic_drop_attribution(&ic_choice, "left out: the second event set would not build");
				break;
			}
			ic_note_none(0, "%s", err);
			return;
		}
		/* Derived presets take two counters, some events share one, and
		 * libpfm4 counts counters as with SMT off. If not all fit, first
		 * leave out the attribution events, then multiplex set 1 rather
		 * than lose a core column. */
		for (int c = 0; c < IC_CTR_COUNT && pass == 0; c++) {
			if (!ic_choice.event[c] || !(ic_choice.sets[c] & 1u) || slot[c] >= 0)
				continue;
			ic_evset_drop(&evset, NULL, 0);
			ic_drop_attribution(&ic_choice, "left out: the event set did not fit the "
					    "counters without multiplexing");
			if (ic_evset_build(pass, &evset, slot, err, sizeof(err)) < 0) {
				ic_note_none(0, "%s", err);
				return;
			}
			break;
		}
		for (int c = 0; c < IC_CTR_COUNT && pass == 0 && !ic_choice.multiplex; c++) {
			if (ic_choice.event[c] && (ic_choice.sets[c] & 1u) && slot[c] < 0 &&
			    PAPI_multiplex_init() == PAPI_OK) {
				ic_evset_drop(&evset, NULL, 0);
				ic_choice.multiplex = 1;
				refit = 1;
				if (ic_evset_build(pass, &evset, slot, err, sizeof(err)) < 0) {
					ic_note_none(0, "%s", err);
					return;
				}
			}
		}
		rc = ic_trial(evset, slot, pass == 0 && ic_choice.multiplex, err, sizeof(err));
		ic_evset_drop(&evset, NULL, 0);
		if (rc != 0 && pass == 0) {
			ic_note_none(0, "%s", err);
			return;
		}
		if (rc != 0) {
			ic_drop_attribution(&ic_choice, "left out: the second event set failed its trial");
			break;
		}
		for (int c = 0; c < IC_CTR_COUNT; c++)
			if (ic_choice.event[c] && (ic_choice.sets[c] & (1u << pass)) && slot[c] < 0 &&
			    !(c == IC_CTR_INSTR && pass == 1))
				ic_choice_remove(&ic_choice, c, "chosen event could not be added to an event set");
		ic_sets_recount(&ic_choice);
	}
	ic_working = 1;
	ic_note_papi(refit);
}

int ic_counters_init(void)
{
	pthread_once(&ic_init_once, ic_counters_init_once);
	return ic_working;
}

int ic_counters_passes(void)
{
	return ic_counters_init() && ic_choice.n_sets > 1 ? ic_choice.n_sets : 1;
}

void ic_counters_next_pass(void)
{
	atomic_fetch_add(&ic_pass, 1u);
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
	int evset;          /* PAPI_NULL once torn down */
	int slot[IC_CTR_COUNT];
	int n;
	int pass;           /* which of ic_choice's sets this is */
	int running;
	int multiplexed;    /* built as a multiplexed set */
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
			 ic_strerror(rc));
		free(set);
		return NULL;
	}
	set->pass = (int)(atomic_load(&ic_pass) % (unsigned)ic_counters_passes());
	set->multiplexed = ic_choice.multiplex && set->pass == 0;
	set->n = ic_evset_build(set->pass, &set->evset, set->slot, ic_set_err, sizeof(ic_set_err));
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

	if (!set || set->running || set->evset == PAPI_NULL)
		return -1;
	rc = PAPI_start(set->evset);
	if (rc != PAPI_OK) {
		snprintf(ic_set_err, sizeof(ic_set_err), "PAPI_start: %s", ic_strerror(rc));
		return -1;
	}
	set->running = 1;
	return 0;
}

int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT])
{
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
		/* Still running in PAPI's view: tear it down now, or its
		 * descriptors stay open and this thread can start no other set. */
		int gone = ic_evset_drop(&set->evset, why, sizeof(why)) == 0;
		snprintf(ic_set_err, sizeof(ic_set_err), "PAPI_stop: %s; the event set %s%s",
			 ic_strerror(rc), gone ? "was cleaned up and destroyed"
			 : "could not be cleaned up: ", gone ? "" : why);
		return -1;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		int absent;

		if (set->slot[c] < 0) {
			value[c] = !ic_choice.event[c] ? IC_CTR_ABSENT_NOT_COUNTED
				 : !(ic_choice.sets[c] & (1u << set->pass)) ? IC_CTR_ABSENT_OTHER_PASS
				 : IC_CTR_ABSENT_NOT_ADDED;
			continue;
		}
		absent = ic_ctr_count_absent(raw[set->slot[c]], set->multiplexed);
		value[c] = absent ? absent : raw[set->slot[c]];
		valid[c] = !absent;
	}
	return 0;
}

void ic_ctr_set_close(struct ic_ctr_set *set)
{
	if (!set)
		return;
	ic_evset_drop(&set->evset, NULL, 0);
	PAPI_unregister_thread();
	free(set);
}
