/* Event choice over tables of available events (pure; runs anywhere). */
#include "check.h"
#include "counters.h"

#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct ic_cpu_ident skylake = { IC_VENDOR_INTEL, 6, 0x5e };
static const struct ic_cpu_ident sandy = { IC_VENDOR_INTEL, 6, 0x2a };
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

static void check_shape(const struct ic_event_choice *ch, int n_hw)
{
	int n = 0;

	for (int c = 0; c < IC_CTR_COUNT; c++) {
		CHECK(ch->why[c] && ch->why[c][0], "counter %s has no explanation", ic_ctr_names[c]);
		n += ch->event[c] != NULL;
	}
	CHECK(ch->n_events == n, "n_events %d but %d events set", ch->n_events, n);
	CHECK(ch->multiplex == (n > n_hw), "multiplex %d with %d events, %d counters",
	      ch->multiplex, n, n_hw);
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

static void test_skylake_native_l1i(void)
{
	const char *const avail[] = {
		"PAPI_L1_ICM", "PAPI_TOT_INS", "PAPI_TOT_CYC", "PAPI_BR_MSP", "PAPI_TLB_IM",
		"ICACHE_64B:IFTAG_MISS", "ITLB_MISSES:MISS_CAUSES_A_WALK",
	};
	struct ic_event_choice ch;

	ic_events_choose(&skylake, avail, N(avail), 8, &ch);
	check_shape(&ch, 8);
	expect(&ch, IC_CTR_L1I_MISS, "ICACHE_64B:IFTAG_MISS");
	expect(&ch, IC_CTR_INSTR, "PAPI_TOT_INS");
	expect(&ch, IC_CTR_CYCLES, "PAPI_TOT_CYC");
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	expect(&ch, IC_CTR_ITLB_MISS, "PAPI_TLB_IM");
	CHECK(!ch.multiplex, "5 events on 8 counters must not multiplex");
}

/* Older core, only presets: the preset, with a note that it is not L1i misses. */
static void test_intel_presets_only(void)
{
	struct ic_event_choice ch;

	ic_events_choose(&sandy, presets, N(presets), 4, &ch);
	check_shape(&ch, 4);
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

	ic_events_choose(&sandy, avail, N(avail), 4, &ch);
	check_shape(&ch, 4);
	expect(&ch, IC_CTR_L1I_MISS, "ICACHE:MISSES");
	expect(&ch, IC_CTR_CYCLES, NULL);
}

static void test_zen3(void)
{
	struct ic_event_choice ch;

	ic_events_choose(&zen3, zen3_avail, N(zen3_avail), 6, &ch);
	check_shape(&ch, 6);
	expect(&ch, IC_CTR_L1I_MISS, "IC_TAG_HIT_MISS:IC_MISS");
	expect(&ch, IC_CTR_INSTR, "PAPI_TOT_INS");
	expect(&ch, IC_CTR_CYCLES, "PAPI_TOT_CYC");
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	expect(&ch, IC_CTR_ITLB_MISS, "PAPI_TLB_IM");
	/* Zen 4 is family 19h too and uses the same names. */
	ic_events_choose(&zen4, zen3_avail, N(zen3_avail), 6, &ch);
	expect(&ch, IC_CTR_L1I_MISS, "IC_TAG_HIT_MISS:IC_MISS");
}

static void test_zen5_natives(void)
{
	struct ic_event_choice ch;

	ic_events_choose(&zen5, zen5_avail, N(zen5_avail), 6, &ch);
	check_shape(&ch, 6);
	expect(&ch, IC_CTR_L1I_MISS, "IC_TAG_HIT_MISS:IC_MISS");
	expect(&ch, IC_CTR_INSTR, "RETIRED_INSTRUCTIONS");
	expect(&ch, IC_CTR_CYCLES, "CYCLES_NOT_IN_HALT");
	expect(&ch, IC_CTR_BRANCH_MISS, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED");
	expect(&ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K");
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

	ic_events_choose(&zen1, avail, N(avail), 6, &ch);
	check_shape(&ch, 6);
	expect(&ch, IC_CTR_L1I_MISS, "32_BYTE_INSTRUCTION_CACHE_MISSES");
	expect(&ch, IC_CTR_ITLB_MISS, "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K");
	ic_events_choose(&zen2, avail + 2, N(avail) - 2, 6, &ch);
	check_shape(&ch, 6);
	expect(&ch, IC_CTR_L1I_MISS, "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ");
}

static void test_nothing_available(void)
{
	const struct ic_cpu_ident *cpus[] = { &skylake, &zen3, &zen5, &arm };
	struct ic_event_choice ch;

	for (size_t i = 0; i < N(cpus); i++) {
		ic_events_choose(cpus[i], NULL, 0, 0, &ch);
		check_shape(&ch, 0);
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
		ic_events_choose(&zen5, zen5_avail, N(zen5_avail), n_hw, &ch);
		check_shape(&ch, n_hw);
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

	ic_events_choose(&arm, avail, N(avail), 6, &ch);
	check_shape(&ch, 6);
	CHECK(ch.event[IC_CTR_INSTR] == avail[0], "expected the caller's string for instructions");
	expect(&ch, IC_CTR_CYCLES, "perf::PERF_COUNT_HW_CPU_CYCLES");
	expect(&ch, IC_CTR_BRANCH_MISS, "PAPI_BR_MSP");
	expect(&ch, IC_CTR_L1I_MISS, NULL);   /* AMD names mean nothing here */
}

/* Every CPU's candidate list: no duplicates, and choosing from all of them
 * fills every counter. */
static void test_candidates(void)
{
	const struct ic_cpu_ident *cpus[] = { &skylake, &sandy, &zen1, &zen2, &zen3, &zen5, &arm };
	const char *names[64];
	struct ic_event_choice ch;

	for (size_t i = 0; i < N(cpus); i++) {
		size_t n = ic_events_candidates(cpus[i], names, N(names));
		CHECK(n > IC_CTR_COUNT && n < N(names), "cpu %zu: %zu candidates", i, n);
		for (size_t a = 0; a < n; a++)
			for (size_t b = a + 1; b < n; b++)
				CHECK(strcmp(names[a], names[b]) != 0, "duplicate candidate %s", names[a]);
		ic_events_choose(cpus[i], names, n, 8, &ch);
		check_shape(&ch, 8);
		CHECK(ch.n_events == IC_CTR_COUNT, "cpu %zu: %d of %d counters from its own candidates",
		      i, ch.n_events, IC_CTR_COUNT);
	}
	CHECK(ic_events_candidates(&zen5, names, 3) == 3, "max is not respected");
}

int main(void)
{
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
	printf("hw_events: ok\n");
	return 0;
}
