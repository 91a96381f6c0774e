/* Event choice over tables of available events (pure; runs anywhere). */
#include "check.h"
#include "counters.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct ic_cpu_ident skylake = { IC_VENDOR_INTEL, 6, 0x5e };
static const struct ic_cpu_ident sandy = { IC_VENDOR_INTEL, 6, 0x2a };
static const struct ic_cpu_ident spr = { IC_VENDOR_INTEL, 6, 0x8f };
static const struct ic_cpu_ident zen1 = { IC_VENDOR_AMD, 0x17, 0x01 };
static const struct ic_cpu_ident zen2 = { IC_VENDOR_AMD, 0x17, 0x31 };
static const struct ic_cpu_ident zen3 = { IC_VENDOR_AMD, 0x19, 0x01 };
static const struct ic_cpu_ident zen4 = { IC_VENDOR_AMD, 0x19, 0x11 };
static const struct ic_cpu_ident zen5 = { IC_VENDOR_AMD, 0x1a, 0x02 };
static const struct ic_cpu_ident arm = { IC_VENDOR_OTHER, 0, 0 };

static const char *const presets[] = {
	"PAPI_L1_ICM", "PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_MSP", "PAPI_TLB_IM",
};

/* What PAPI 7.0 offers on Zen 3: presets except PAPI_L1_ICM, plus natives. */
static const char *const zen3_avail[] = {
	"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_MSP", "PAPI_TLB_IM",
	"REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ", "IC_TAG_HIT_MISS:IC_MISS",
	"RETIRED_INSTRUCTIONS", "CYCLES_NOT_IN_HALT",
	"RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	"L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
	"perf::PERF_COUNT_HW_CACHE_L1I:READ:MISS",
};

/* Zen 5: PAPI 7.0 has no presets for it, natives only. */
static const char *const zen5_avail[] = {
	"perf::PERF_COUNT_HW_INSTRUCTIONS", "IC_TAG_HIT_MISS:IC_MISS",
	"RETIRED_INSTRUCTIONS", "CYCLES_NOT_IN_HALT",
	"RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",
	"L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
};

/* Consistency of a choice made with n_hw counters of which n_fixed fixed. */
static void check_shape(const struct ic_event_choice *ch, int n_hw, int n_fixed)
{
	int n = 0, nf = 0;

	for (int c = 0; c < IC_CTR_COUNT; c++) {
		CHECK(ch->why[c] && ch->why[c][0], "counter %s has no explanation", ic_ctr_names[c]);
		n += ch->event[c] != NULL;
		nf += ch->fixed[c];
		CHECK(!ch->fixed[c] || ch->event[c], "%s on a fixed counter without an event",
		      ic_ctr_names[c]);
	}
	CHECK(ch->n_events == n, "n_events %d but %d events set", ch->n_events, n);
	CHECK(ch->n_fixed_events == nf && nf <= n_fixed, "n_fixed_events %d, %d flagged, %d fixed counters",
	      ch->n_fixed_events, nf, n_fixed);
	CHECK(ch->n_gp_events == n - nf, "n_gp_events %d with %d events, %d fixed",
	      ch->n_gp_events, n, nf);
	CHECK(ch->n_gp_counters == n_hw - n_fixed, "n_gp_counters %d from %d counters, %d fixed",
	      ch->n_gp_counters, n_hw, n_fixed);
	/* Sets: every event in one (instructions may be in both), set 1 only
	 * beside set 0, never beyond the counters; only set 0 multiplexes,
	 * and only when the core counters alone do not fit. */
	int gp = n_hw - n_fixed > 0 ? n_hw - n_fixed : 0, core_gp = 0, in1 = 0;
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		CHECK(!ch->event[c] == !ch->sets[c], "%s: event %s but sets %u", ic_ctr_names[c],
		      ch->event[c] ? ch->event[c] : "none", ch->sets[c]);
		CHECK(ch->sets[c] != 3u || c == IC_CTR_INSTR, "%s in both sets", ic_ctr_names[c]);
		core_gp += c < IC_CTR_ATTRIBUTION_FIRST && ch->event[c] && !ch->fixed[c];
		in1 |= c >= IC_CTR_ATTRIBUTION_FIRST && (ch->sets[c] & 2u);
	}
	CHECK(ch->n_sets == (n ? (in1 ? 2 : 1) : 0), "n_sets %d", ch->n_sets);
	CHECK(ch->set_gp[1] <= gp, "set 2 has %d general-purpose events on %d", ch->set_gp[1], gp);
	CHECK(ch->multiplex == (core_gp > gp) && (ch->multiplex || ch->set_gp[0] <= gp),
	      "multiplex %d with %d core general-purpose events, set 1 %d, %d counters",
	      ch->multiplex, core_gp, ch->set_gp[0], gp);
}

static void expect(const struct ic_event_choice *ch, enum ic_ctr c, const char *name)
{
	if (!name) {
		CHECK(ch->event[c] == NULL, "%s: expected none, got %s", ic_ctr_names[c], ch->event[c]);
		return;
	}
	CHECK(ch->event[c] != NULL, "%s: expected %s, got none", ic_ctr_names[c], name);
	CHECK(strcmp(ch->event[c], name) == 0, "%s: expected %s, got %s",
	      ic_ctr_names[c], name, ch->event[c]);
}

/* ic_events_choose, and the choice's consistency (check_shape). */
static void choose(const struct ic_cpu_ident *cpu, const char *const *avail, size_t n_avail,
		   int n_hw, int n_fixed, struct ic_event_choice *ch)
{
	ic_events_choose(cpu, avail, n_avail, n_hw, n_fixed, ch);
	check_shape(ch, n_hw, n_fixed);
}

/* Zen 3 and Zen 5's natives, as PAPI 7.0 names them: natives first (the
 * same events as the presets, named), and for the iTLB not the preset PAPI
 * derives from two events. */
static void expect_zen_natives(const struct ic_event_choice *ch)
{
	expect(ch, IC_CTR_L1I_MISS, "IC_TAG_HIT_MISS:IC_MISS");
	expect(ch, IC_CTR_INSTR, "RETIRED_INSTRUCTIONS");
	expect(ch, IC_CTR_CYCLES, "CYCLES_NOT_IN_HALT");
	expect(ch, IC_CTR_BRANCH_MISS, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED");
	expect(ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K");
}

static void test_skylake_native_l1i(void)
{
	const char *const avail[] = {
		"PAPI_L1_ICM", "PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_MSP", "PAPI_TLB_IM",
		"ICACHE_64B:IFTAG_MISS", "ITLB_MISSES:MISS_CAUSES_A_WALK",
	};
	struct ic_event_choice ch;

	choose(&skylake, avail, N(avail), 11, 3, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "ICACHE_64B:IFTAG_MISS");
	expect(&ch, IC_CTR_INSTR, "PAPI_TOT_INS");
	expect(&ch, IC_CTR_CYCLES, "PAPI_TOT_CYC");
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	/* The native walk event beats the preset (the same event on Skylake). */
	expect(&ch, IC_CTR_ITLB_MISS, "ITLB_MISSES:MISS_CAUSES_A_WALK");
	/* Only conditional branches: the why must say so. */
	CHECK(strstr(ch.why[IC_CTR_BRANCH_MISS], "conditional"), "PAPI_BR_MSP why: %s",
	      ch.why[IC_CTR_BRANCH_MISS]);
	/* Presets are taken as general-purpose events. */
	CHECK(ch.n_fixed_events == 0 && ch.n_gp_events == 5, "fixed %d gp %d",
	      ch.n_fixed_events, ch.n_gp_events);
	CHECK(!ch.multiplex, "5 events on 8 general-purpose counters must not multiplex");
}

/* Older core, only presets: the preset, with a note that it is not L1i misses. */
static void test_intel_presets_only(void)
{
	struct ic_event_choice ch;

	choose(&sandy, presets, N(presets), 4, 0, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "PAPI_L1_ICM");
	CHECK(strstr(ch.why[IC_CTR_L1I_MISS], "preset") &&
	      strstr(ch.why[IC_CTR_L1I_MISS], "L2"),
	      "preset choice needs a note about L2 code reads: %s", ch.why[IC_CTR_L1I_MISS]);
	CHECK(ch.multiplex, "5 events on 4 counters must multiplex");
}

/* A native ICACHE:MISSES beats the preset on pre-Skylake Intel too. */
static void test_intel_old_native(void)
{
	const char *const avail[] = { "PAPI_L1_ICM", "ICACHE:MISSES", "PAPI_TOT_INS" };
	struct ic_event_choice ch;

	choose(&sandy, avail, N(avail), 7, 3, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "ICACHE:MISSES");
	expect(&ch, IC_CTR_CYCLES, NULL);
}

static void test_zen3(void)
{
	struct ic_event_choice ch;

	choose(&zen3, zen3_avail, N(zen3_avail), 6, 0, &ch);
	expect_zen_natives(&ch);
	expect(&ch, IC_CTR_OPCACHE_HIT, NULL);   /* not in this table */
	/* Zen 4 is family 19h too and uses the same names. */
	ic_events_choose(&zen4, zen3_avail, N(zen3_avail), 6, 0, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "IC_TAG_HIT_MISS:IC_MISS");
}

static void test_zen5_natives(void)
{
	struct ic_event_choice ch;

	choose(&zen5, zen5_avail, N(zen5_avail), 6, 0, &ch);
	expect_zen_natives(&ch);
	CHECK(!ch.multiplex, "5 events on 6 counters must not multiplex");
}

static void test_zen12(void)
{
	const char *const avail[] = {
		"PAPI_L1_ICM", "32_BYTE_INSTRUCTION_CACHE_MISSES",
		"REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
		"L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K",
	};
	struct ic_event_choice ch;

	choose(&zen1, avail, N(avail), 6, 0, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "32_BYTE_INSTRUCTION_CACHE_MISSES");
	expect(&ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K");
	choose(&zen2, avail + 2, N(avail) - 2, 6, 0, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ");
}

static void test_nothing_available(void)
{
	const struct ic_cpu_ident *cpus[] = { &skylake, &zen3, &zen5, &arm };
	struct ic_event_choice ch;

	for (size_t i = 0; i < N(cpus); i++) {
		choose(cpus[i], NULL, 0, 0, 0, &ch);
		for (int c = 0; c < IC_CTR_COUNT; c++)
			expect(&ch, c, NULL);
		CHECK(ch.n_events == 0 && !ch.multiplex, "empty table: n_events %d multiplex %d",
		      ch.n_events, ch.multiplex);
	}
}

static void test_multiplex_flag(void)
{
	struct ic_event_choice ch;

	for (int n_hw = 0; n_hw <= 8; n_hw++) {
		choose(&zen5, zen5_avail, N(zen5_avail), n_hw, 0, &ch);
		CHECK(ch.n_events == 5, "zen5 table gives %d events", ch.n_events);
		CHECK(ch.multiplex == (n_hw < 5), "n_hw %d: multiplex %d", n_hw, ch.multiplex);
	}
}

/* Unknown vendor: presets, else the kernel's generic events; names match
 * case-insensitively and the chosen string is the caller's. */
static void test_other_vendor(void)
{
	const char *const avail[] = {
		"perf::perf_count_hw_instructions", "perf::PERF_COUNT_HW_CPU_CYCLES", "PAPI_BR_MSP",
		"IC_TAG_HIT_MISS:IC_MISS",
	};
	struct ic_event_choice ch;

	choose(&arm, avail, N(avail), 6, 0, &ch);
	CHECK(ch.event[IC_CTR_INSTR] == avail[0], "expected the caller's string for instructions");
	expect(&ch, IC_CTR_CYCLES, "perf::PERF_COUNT_HW_CPU_CYCLES");
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	expect(&ch, IC_CTR_L1I_MISS, NULL);   /* AMD names mean nothing here */
}

static int has_name(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], name) == 0)
			return 1;
	return 0;
}

/* Every CPU's candidate list: no duplicates, every name a choice can make
 * among them (the new counters' too), and choosing from all of them fills
 * every counter the vendor has an event for; the others say why not. */
static void test_candidates(void)
{
	static const struct {
		const struct ic_cpu_ident *cpu;
		int n_counted;                /* counters with an event on this vendor */
		const char *must[6];          /* names the list must hold */
	} cpus[] = {
		{ &skylake, 10, { "INSTRUCTION_RETIRED", "UNHALTED_CORE_CYCLES", "FRONTEND_RETIRED:L1I_MISS",
				 "IDQ:DSB_UOPS", "IDQ:MITE_UOPS", "MACHINE_CLEARS:COUNT" } },
		{ &sandy, 10, { "BR_MISP_RETIRED:ALL_BRANCHES", "ITLB_MISSES:WALK_COMPLETED" } },
		{ &zen1, 8, { "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K" } },
		{ &zen2, 8, { "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED" } },
		{ &zen3, 10, { "OP_CACHE_HIT_MISS:OC_HIT", "OP_CACHE_HIT_MISS:OC_MISS" } },
		{ &zen5, 10, { "OP_CACHE_HIT_MISS:OC_HIT", "OP_CACHE_HIT_MISS:OC_MISS",
			       "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER", "DISPATCH_STALLS_1:FE_NO_OPS" } },
		{ &arm, 5, { "PAPI_TOT_INS" } },
	};
	const char *names[64];
	struct ic_event_choice ch;

	for (size_t i = 0; i < N(cpus); i++) {
		size_t n = ic_events_candidates(cpus[i].cpu, names, N(names));
		CHECK(n > 5 && n < N(names), "cpu %zu: %zu candidates", i, n);
		for (size_t a = 0; a < n; a++)
			for (size_t b = a + 1; b < n; b++)
				CHECK(strcmp(names[a], names[b]) != 0, "duplicate candidate %s", names[a]);
		for (size_t m = 0; m < N(cpus[i].must) && cpus[i].must[m]; m++)
			CHECK(has_name(names, n, cpus[i].must[m]), "cpu %zu: %s is not a candidate",
			      i, cpus[i].must[m]);
		choose(cpus[i].cpu, names, n, 16, 0, &ch);
		CHECK(ch.n_events == cpus[i].n_counted, "cpu %zu: %d of %d counters from its own candidates",
		      i, ch.n_events, cpus[i].n_counted);
		for (int c = 0; c < IC_CTR_COUNT; c++)
			CHECK(ch.event[c] || strstr(ch.why[c], "only") || strstr(ch.why[c], "Intel") ||
			      strstr(ch.why[c], "AMD") || strstr(ch.why[c], "libpfm4"),
			      "cpu %zu: %s absent without a vendor reason: %s", i, ic_ctr_names[c], ch.why[c]);
	}
	CHECK(ic_events_candidates(&zen5, names, 3) == 3, "max is not respected");
}

/* Intel: the architectural instruction and cycle events go on fixed
 * counters 0 and 1 and beat the presets (PAPI_TOT_INS is INST_RETIRED:ANY_P
 * on Skylake by PAPI's csv); only the other events need general-purpose
 * counters, which are PAPI's count less the fixed ones. */
static const char *const skl_like[] = {
	"PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_MSP", "PAPI_L1_ICM", "PAPI_TLB_IM",
	"INSTRUCTION_RETIRED", "UNHALTED_CORE_CYCLES", "ICACHE_64B:IFTAG_MISS",
	"FRONTEND_RETIRED:L1I_MISS", "BR_MISP_RETIRED:CONDITIONAL", "BR_MISP_RETIRED:ALL_BRANCHES",
	"ITLB_MISSES:WALK_COMPLETED", "IDQ:DSB_UOPS", "IDQ:MITE_UOPS", "MACHINE_CLEARS:COUNT",
};

static void test_intel_fixed_counters(void)
{
	struct ic_event_choice ch;

	choose(&skylake, skl_like, N(skl_like), 11, 3, &ch);
	expect(&ch, IC_CTR_INSTR, "INSTRUCTION_RETIRED");
	expect(&ch, IC_CTR_CYCLES, "UNHALTED_CORE_CYCLES");
	CHECK(ch.fixed[IC_CTR_INSTR] && ch.fixed[IC_CTR_CYCLES], "instructions and cycles not on fixed counters");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(ch.fixed[c] == (c == IC_CTR_INSTR || c == IC_CTR_CYCLES), "%s fixed %d",
		      ic_ctr_names[c], ch.fixed[c]);
	CHECK(ch.n_events == 8 && ch.n_fixed_events == 2 && ch.n_gp_events == 6 &&
	      ch.n_gp_counters == 8 && !ch.multiplex,
	      "8 events, 2 fixed, 6 on 8 general-purpose counters: got %d %d %d %d mpx %d",
	      ch.n_events, ch.n_fixed_events, ch.n_gp_events, ch.n_gp_counters, ch.multiplex);

	/* 8 counters in PAPI's count, 3 of them fixed: 6 events on 5
	 * general-purpose counters do not fit (8 events on 8 counters would
	 * seem to): the DSB/MITE pair fits beside the core, machine clears go
	 * to a second set with instructions again (fixed), nothing multiplexed. */
	choose(&skylake, skl_like, N(skl_like), 8, 3, &ch);
	CHECK(ch.n_gp_counters == 5 && !ch.multiplex && ch.n_gp_events == 6 && ch.n_sets == 2 &&
	      ch.sets[IC_CTR_DSB_UOPS] == 1u && ch.sets[IC_CTR_MITE_UOPS] == 1u &&
	      ch.sets[IC_CTR_MACHINE_CLEAR] == 2u && ch.sets[IC_CTR_INSTR] == 3u &&
	      ch.set_gp[0] == 5 && ch.set_gp[1] == 1 && ch.set_fixed[1] == 1,
	      "6 events on 5 general-purpose counters: %d events, %d sets, mpx %d",
	      ch.n_gp_events, ch.n_sets, ch.multiplex);
	/* 5 counters, 3 fixed: the 3 core general-purpose events on 2 counters
	 * must multiplex, although 5 events fit 5 counters in PAPI's count. */
	choose(&skylake, skl_like, N(skl_like), 5, 3, &ch);
	CHECK(ch.n_gp_counters == 2 && ch.multiplex && ch.n_events == 5,
	      "3 core events on 2 general-purpose counters: mpx %d, %d events", ch.multiplex, ch.n_events);
	/* 6 general-purpose counters: all fit, the attribution events too. */
	choose(&skylake, skl_like, N(skl_like), 9, 3, &ch);
	CHECK(!ch.multiplex && ch.event[IC_CTR_DSB_UOPS], "6 events on 6 general-purpose counters must all be counted, unmultiplexed");

	/* No fixed counters (a VM that hides them): every event is general-purpose. */
	choose(&skylake, skl_like, N(skl_like), 8, 0, &ch);
	CHECK(ch.n_fixed_events == 0 && ch.n_gp_events == 8 && !ch.multiplex,
	      "without fixed counters: %d fixed, %d gp, mpx %d", ch.n_fixed_events, ch.n_gp_events,
	      ch.multiplex);
	/* One fixed counter: instructions only. */
	choose(&skylake, skl_like, N(skl_like), 9, 1, &ch);
	CHECK(ch.fixed[IC_CTR_INSTR] && !ch.fixed[IC_CTR_CYCLES], "one fixed counter holds instructions only");
	/* Nonsense counts do not make negative counters. */
	ic_events_choose(&skylake, skl_like, N(skl_like), 2, 3, &ch);
	CHECK(ch.n_gp_counters == 0 && ch.multiplex, "2 counters, 3 fixed: gp %d", ch.n_gp_counters);

	/* The presets alone: general-purpose (their encoding is PAPI's csv's). */
	choose(&skylake, skl_like, 5, 11, 3, &ch);
	expect(&ch, IC_CTR_INSTR, "PAPI_TOT_INS");
	CHECK(ch.n_fixed_events == 0, "a preset taken as fixed");
	/* perf's generic instructions and cycles are 0x00c0 and 0x003c too. */
	{
		const char *const perf_only[] = {
			"perf::PERF_COUNT_HW_INSTRUCTIONS", "perf::PERF_COUNT_HW_CPU_CYCLES",
		};
		choose(&skylake, perf_only, N(perf_only), 4, 3, &ch);
		CHECK(ch.n_fixed_events == 2, "perf generic events: %d fixed", ch.n_fixed_events);
		ic_events_choose(&arm, perf_only, N(perf_only), 4, 3, &ch);
		CHECK(ch.n_fixed_events == 0, "fixed counters are Intel's: %d fixed", ch.n_fixed_events);
	}
}

/* All mispredicted branches, not the conditional-only preset. */
static void test_branch_all(void)
{
	const char *const avail[] = { "PAPI_BR_MSP", "BR_MISP_RETIRED:CONDITIONAL", "BR_MISP_RETIRED:ALL_BRANCHES" };
	const char *const arch[] = { "PAPI_BR_MSP", "MISPREDICTED_BRANCH_RETIRED" };
	struct ic_event_choice ch;

	ic_events_choose(&skylake, avail, N(avail), 11, 3, &ch);
	expect(&ch, IC_CTR_BRANCH_MISS, "BR_MISP_RETIRED:ALL_BRANCHES");
	CHECK(strstr(ch.why[IC_CTR_BRANCH_MISS], "all types"), "why: %s", ch.why[IC_CTR_BRANCH_MISS]);
	ic_events_choose(&skylake, arch, N(arch), 11, 3, &ch);
	expect(&ch, IC_CTR_BRANCH_MISS, "MISPREDICTED_BRANCH_RETIRED");
	ic_events_choose(&zen4, presets, N(presets), 6, 0, &ch);
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	ic_events_choose(&zen4, zen3_avail, N(zen3_avail), 6, 0, &ch);
	expect(&ch, IC_CTR_BRANCH_MISS, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED");
}

/* Sapphire Rapids has no ICACHE_64B: the frontend event, with its unit said. */
static void test_intel_l1i_frontend(void)
{
	const char *const avail[] = { "PAPI_L1_ICM", "FRONTEND_RETIRED:L1I_MISS", "ICACHE_DATA:STALLS" };
	struct ic_event_choice ch;

	choose(&spr, avail, N(avail), 20, 4, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "FRONTEND_RETIRED:L1I_MISS");
	CHECK(strstr(ch.why[IC_CTR_L1I_MISS], "retired instructions that missed L1i") &&
	      strstr(ch.why[IC_CTR_L1I_MISS], "different unit") &&
	      strstr(ch.why[IC_CTR_L1I_MISS], "tag misses"),
	      "FRONTEND_RETIRED why must give its unit: %s", ch.why[IC_CTR_L1I_MISS]);
	/* Where both exist (Skylake to Ice Lake) the tag misses win. */
	ic_events_choose(&skylake, skl_like, N(skl_like), 11, 3, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "ICACHE_64B:IFTAG_MISS");
}

/* Zen 2 and 3: one native iTLB event, not the preset derived from two. */
static void test_zen_itlb_native(void)
{
	const char *const z2[] = { "PAPI_TLB_IM", "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K" };
	struct ic_event_choice ch;

	ic_events_choose(&zen2, z2, N(z2), 6, 0, &ch);
	expect(&ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K");
	ic_events_choose(&zen2, z2, 1, 6, 0, &ch);
	expect(&ch, IC_CTR_ITLB_MISS, "PAPI_TLB_IM");
	CHECK(strstr(ch.why[IC_CTR_ITLB_MISS], "two events"), "derived preset why: %s",
	      ch.why[IC_CTR_ITLB_MISS]);
	ic_events_choose(&zen3, zen3_avail, N(zen3_avail), 6, 0, &ch);
	expect(&ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K");
}

/* The attribution counters: op cache on Zen 3 on, DSB/MITE and machine
 * clears on Intel; elsewhere absent with a reason. */
static void test_new_counters(void)
{
	const char *const z4[] = {
		"RETIRED_INSTRUCTIONS", "OP_CACHE_HIT_MISS:OC_HIT", "OP_CACHE_HIT_MISS:OC_MISS",
		"IDQ:DSB_UOPS", "MACHINE_CLEARS:COUNT",
	};
	struct ic_event_choice ch;

	choose(&zen4, z4, N(z4), 6, 0, &ch);
	expect(&ch, IC_CTR_OPCACHE_HIT, "OP_CACHE_HIT_MISS:OC_HIT");
	expect(&ch, IC_CTR_OPCACHE_MISS, "OP_CACHE_HIT_MISS:OC_MISS");
	expect(&ch, IC_CTR_DSB_UOPS, NULL);         /* Intel names mean nothing here */
	expect(&ch, IC_CTR_MACHINE_CLEAR, NULL);
	CHECK(strstr(ch.why[IC_CTR_MACHINE_CLEAR], "Intel"), "why: %s", ch.why[IC_CTR_MACHINE_CLEAR]);
	CHECK(strstr(ch.why[IC_CTR_FETCH_STALL], "AMD"), "why: %s", ch.why[IC_CTR_FETCH_STALL]);
	ic_events_choose(&zen2, z4, N(z4), 6, 0, &ch);
	expect(&ch, IC_CTR_OPCACHE_HIT, NULL);
	CHECK(strstr(ch.why[IC_CTR_OPCACHE_HIT], "Zen 2"), "why: %s", ch.why[IC_CTR_OPCACHE_HIT]);
	ic_events_choose(&skylake, skl_like, N(skl_like), 11, 3, &ch);
	expect(&ch, IC_CTR_DSB_UOPS, "IDQ:DSB_UOPS");
	expect(&ch, IC_CTR_MITE_UOPS, "IDQ:MITE_UOPS");
	expect(&ch, IC_CTR_MACHINE_CLEAR, "MACHINE_CLEARS:COUNT");
	expect(&ch, IC_CTR_OPCACHE_HIT, NULL);
	CHECK(strstr(ch.why[IC_CTR_OPCACHE_MISS], "AMD"), "why: %s", ch.why[IC_CTR_OPCACHE_MISS]);
	/* Names and order: the five first as before, then the new ones. */
	CHECK(IC_CTR_COUNT == 12 && IC_CTR_MACHINE_CLEAR == 9 && IC_CTR_ITLB_MISS == 4 &&
	      IC_CTR_FE_STALL == 11,
	      "enum ic_ctr order changed");
	CHECK(strcmp(ic_ctr_names[IC_CTR_L1I_MISS], "l1i_miss_per_op") == 0 &&
	      strcmp(ic_ctr_names[IC_CTR_ITLB_MISS], "itlb_miss_per_op") == 0, "old names changed");
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		size_t len = strlen(ic_ctr_names[c]);
		CHECK(len > 7 && strcmp(ic_ctr_names[c] + len - 7, "_per_op") == 0, "name %s",
		      ic_ctr_names[c]);
	}
}

/* Hybrid CPUs show two core PMUs in sysfs (cpu_core, cpu_atom); a plain
 * one shows "cpu". Fake trees. */
static void mk(const char *path)
{
	char p[4096];
	snprintf(p, sizeof(p), "%s", path);
	for (char *s = strchr(p + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		CHECK(mkdir(p, 0755) == 0 || errno == EEXIST, "mkdir %s", p);
		*s = '/';
	}
	FILE *f = fopen(p, "w");
	CHECK(f, "cannot write %s", p);
	fputs("4\n", f);
	fclose(f);
}

static void test_hybrid_pmu(void)
{
	char dir[] = "/tmp/test_bench_hw_events.XXXXXX", path[4200], why[512], cmd[4300];

	CHECK(mkdtemp(dir), "mkdtemp");
	snprintf(path, sizeof(path), "%s/plain/sys/bus/event_source/devices/cpu/type", dir);
	mk(path);
	snprintf(path, sizeof(path), "%s/plain", dir);
	CHECK(ic_pmu_hybrid(path, why, sizeof(why)) == 0 && !why[0], "plain CPU called hybrid: %s", why);
	snprintf(path, sizeof(path), "%s/hybrid/sys/bus/event_source/devices/cpu_core/type", dir);
	mk(path);
	snprintf(path, sizeof(path), "%s/hybrid/sys/bus/event_source/devices/cpu_atom/type", dir);
	mk(path);
	snprintf(path, sizeof(path), "%s/hybrid", dir);
	CHECK(ic_pmu_hybrid(path, why, sizeof(why)) == 1 && strstr(why, "hybrid CPU") &&
	      strstr(why, "PAPI_ECOUNT") && strstr(why, "one core kind") && !strchr(why, '\n'),
	      "hybrid: %s", why);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	CHECK(system(cmd) == 0, "%s", cmd);
}

int main(void)
{
	test_hybrid_pmu();
	test_skylake_native_l1i();
	test_intel_presets_only();
	test_intel_old_native();
	test_zen3();
	test_zen5_natives();
	test_zen12();
	test_nothing_available();
	test_multiplex_flag();
	test_other_vendor();
	test_candidates();
	test_intel_fixed_counters();
	test_branch_all();
	test_intel_l1i_frontend();
	test_zen_itlb_native();
	test_new_counters();
	printf("bench_hw_events: ok\n");
	return 0;
}
