/* Event choice on the event tables PAPI would list for five CPU models
 * (tests/data/papi/<pmu>.txt, recorded with LIBPFM_FORCE_PMU by record.sh; see
 * the README there). Pure: runs anywhere, counters or not.
 *
 * What PAPI would accept, from a listing:
 *  - "EVENT:UMASK" for every umask line under an event;
 *  - bare "EVENT" for an event listed without umasks (an event with umasks
 *    may have no default one, and PAPI refuses it bare, as libpfm4 does for
 *    L1_ITLB_MISS_L2_ITLB_MISS);
 *  - "EVENT:U1:U2..." when every Ui is a umask of EVENT: libpfm4 ORs such
 *    umasks together; only AMD candidates combine umasks, and this test
 *    checks that;
 *  - the presets papi_avail -a listed for that table (PAPI loads the
 *    papi_events.csv section of the forced PMU: skl and Zen 2 have one; icl,
 *    spr and Zen 4 have none, so no presets there);
 *  - no perf:: generic events: with a forced PMU PAPI lists none, and a real
 *    machine's perf:: events come last in every candidate list anyway.
 * The fixed counters are what CPUID leaf 0xA reports on such a CPU: Skylake
 * 3, Ice Lake and Sapphire Rapids 4, AMD 0 (libpfm4's skl and icl tables add
 * the same 3 and 4 to their general-purpose counts).
 */
#include "check.h"
#include "counters.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

struct listing {
	char **name;          /* full names PAPI would accept */
	size_t n, cap;
	char **event;         /* event names, with umask count */
	int *n_umasks;
	size_t n_event, cap_event;
	int n_hw;             /* "Number Hardware Counters" */
	int n_presets;
};

static char *dup_str(const char *s)
{
	char *d = strdup(s);
	CHECK(d, "out of memory");
	return d;
}

static void add_name(struct listing *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->name = realloc(l->name, l->cap * sizeof(*l->name));
		CHECK(l->name, "out of memory");
	}
	l->name[l->n++] = dup_str(s);
}

static void add_event(struct listing *l, const char *s)
{
	if (l->n_event == l->cap_event) {
		l->cap_event = l->cap_event ? 2 * l->cap_event : 256;
		l->event = realloc(l->event, l->cap_event * sizeof(*l->event));
		l->n_umasks = realloc(l->n_umasks, l->cap_event * sizeof(*l->n_umasks));
		CHECK(l->event && l->n_umasks, "out of memory");
	}
	l->event[l->n_event] = dup_str(s);
	l->n_umasks[l->n_event++] = 0;
}

static int has(const struct listing *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->name[i], s) == 0)
			return 1;
	return 0;
}

static int event_umasks(const struct listing *l, const char *ev)
{
	for (size_t i = 0; i < l->n_event; i++)
		if (strcmp(l->event[i], ev) == 0)
			return l->n_umasks[i];
	return -1;
}

static void strip(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '|'))
		s[--n] = '\0';
}

static void load(const char *dir, const char *file, struct listing *l)
{
	char path[4096], line[512], event[512] = "";
	FILE *f;

	memset(l, 0, sizeof(*l));
	l->n_hw = -1;
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "r");
	CHECK(f, "cannot open %s", path);
	while (fgets(line, sizeof(line), f)) {
		strip(line);
		if (line[0] == '#')
			continue;
		if (sscanf(line, "Number Hardware Counters : %d", &l->n_hw) == 1)
			continue;
		if (strncmp(line, "|     :", 7) == 0) {
			char full[1024];
			CHECK(event[0], "%s: umask before any event: %s", file, line);
			snprintf(full, sizeof(full), "%s:%s", event, line + 7);
			add_name(l, full);
			l->n_umasks[l->n_event - 1]++;
		} else if (strncmp(line, "| ", 2) == 0 && line[2] != ' ') {
			snprintf(event, sizeof(event), "%s", line + 2);
			add_event(l, event);
		} else if (strncmp(line, "PAPI_", 5) == 0) {
			char preset[64];
			CHECK(sscanf(line, "%63s", preset) == 1, "%s: preset line %s", file, line);
			add_name(l, preset);
			l->n_presets++;
		}
	}
	fclose(f);
	for (size_t i = 0; i < l->n_event; i++)
		if (l->n_umasks[i] == 0)
			add_name(l, l->event[i]);
	CHECK(l->n_hw > 0, "%s: no 'Number Hardware Counters' line", file);
	CHECK(l->n_event > 50, "%s: only %zu events", file, l->n_event);
}

/* What load() allocated. */
static void unload(struct listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->name[i]);
	for (size_t i = 0; i < l->n_event; i++)
		free(l->event[i]);
	free(l->name);
	free(l->event);
	free(l->n_umasks);
}

/* Would PAPI accept this name on this table? (see the top comment) */
static int accepts(const struct listing *l, const char *name, int *combined)
{
	char buf[256], *colon, *u, *save = NULL;
	int n_umasks = 0;

	*combined = 0;
	if (strncmp(name, "perf::", 6) == 0)
		return 0;
	if (has(l, name))
		return 1;
	snprintf(buf, sizeof(buf), "%s", name);
	colon = strchr(buf, ':');
	if (!colon)
		return 0;
	*colon = '\0';
	if (event_umasks(l, buf) <= 0)
		return 0;
	for (u = strtok_r(colon + 1, ":", &save); u; u = strtok_r(NULL, ":", &save)) {
		char one[512];
		snprintf(one, sizeof(one), "%s:%s", buf, u);
		if (!has(l, one))
			return 0;
		n_umasks++;
	}
	*combined = n_umasks > 1;
	return n_umasks > 0;
}

struct cpu_case {
	const char *file;
	struct ic_cpu_ident cpu;
	int n_hw;                          /* expected from the listing */
	int n_fixed;                       /* CPUID leaf 0xA on such a CPU */
	int presets;                       /* the listing has presets */
	const char *event[IC_CTR_COUNT];   /* expected choice, NULL: absent */
	int n_fixed_events, n_gp_events, multiplex;
	int n_sets, set_gp1;               /* event sets; general-purpose events of set 2 */
	unsigned sets[IC_CTR_COUNT];       /* expected sets where not set 1 alone */
};

/* What every Intel listing here gives beside its L1i event, and every AMD
 * one beside its L1i and iTLB events. */
#define INTEL_EVENTS \
	[IC_CTR_INSTR] = "INSTRUCTION_RETIRED", [IC_CTR_CYCLES] = "UNHALTED_CORE_CYCLES", \
	[IC_CTR_BRANCH_MISS] = "BR_MISP_RETIRED:ALL_BRANCHES", \
	[IC_CTR_ITLB_MISS] = "ITLB_MISSES:WALK_COMPLETED", [IC_CTR_DSB_UOPS] = "IDQ:DSB_UOPS", \
	[IC_CTR_MITE_UOPS] = "IDQ:MITE_UOPS", [IC_CTR_MACHINE_CLEAR] = "MACHINE_CLEARS:COUNT", \
	[IC_CTR_FE_STALL] = "IDQ_UOPS_NOT_DELIVERED:CORE"
#define AMD_EVENTS \
	[IC_CTR_INSTR] = "RETIRED_INSTRUCTIONS", [IC_CTR_CYCLES] = "CYCLES_NOT_IN_HALT", \
	[IC_CTR_BRANCH_MISS] = "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED",

/* Intel: everything fits one set. Zen 2 and Zen 4, 6 counters: the core
 * five in set 1 (Zen 4 with its front-end stall beside them), the op-cache
 * and decoder-source events in set 2 with instructions again. */
static const struct cpu_case cases[] = {
	{ "skl.txt", { IC_VENDOR_INTEL, 6, 0x5e }, 11, 3, 1,
	  { [IC_CTR_L1I_MISS] = "ICACHE_64B:IFTAG_MISS",
	    [IC_CTR_FETCH_STALL] = "ICACHE_16B:IFDATA_STALL", INTEL_EVENTS },
	  2, 8, 0, 1, 0, { 0 } },
	{ "icl.txt", { IC_VENDOR_INTEL, 6, 0x7e }, 20, 4, 0,
	  { [IC_CTR_L1I_MISS] = "ICACHE_64B:IFTAG_MISS",
	    [IC_CTR_FETCH_STALL] = "ICACHE_16B:IFDATA_STALL", INTEL_EVENTS },
	  2, 8, 0, 1, 0, { 0 } },
	{ "spr.txt", { IC_VENDOR_INTEL, 6, 0x8f }, 20, 4, 0,
	  { [IC_CTR_L1I_MISS] = "FRONTEND_RETIRED:L1I_MISS",
	    [IC_CTR_FETCH_STALL] = "ICACHE_DATA:STALLS", INTEL_EVENTS },
	  2, 8, 0, 1, 0, { 0 } },
	{ "amd64_fam17h_zen2.txt", { IC_VENDOR_AMD, 0x17, 0x31 }, 6, 0, 1,
	  { [IC_CTR_L1I_MISS] = "REQUESTS_TO_L2_GROUP1:CACHEABLE_IC_READ",
	    AMD_EVENTS
	    [IC_CTR_ITLB_MISS] = "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K",
	    [IC_CTR_DSB_UOPS] = "UOPS_DISPATCHED_FROM_DECODER:OPCACHE_DISPATCHED",
	    [IC_CTR_MITE_UOPS] = "UOPS_DISPATCHED_FROM_DECODER:DECODER_DISPATCHED" },
	  0, 7, 0, 2, 3,
	  { [IC_CTR_INSTR] = 3u, [IC_CTR_DSB_UOPS] = 2u, [IC_CTR_MITE_UOPS] = 2u } },
	{ "amd64_fam19h_zen4.txt", { IC_VENDOR_AMD, 0x19, 0x11 }, 6, 0, 0,
	  { [IC_CTR_L1I_MISS] = "IC_TAG_HIT_MISS:IC_MISS",
	    AMD_EVENTS
	    [IC_CTR_ITLB_MISS] = "L1_ITLB_MISS_L2_ITLB_MISS:COALESCED4K:IF1G:IF2M:IF4K",
	    [IC_CTR_OPCACHE_HIT] = "OP_CACHE_HIT_MISS:OC_HIT",
	    [IC_CTR_OPCACHE_MISS] = "OP_CACHE_HIT_MISS:OC_MISS",
	    [IC_CTR_DSB_UOPS] = "OPS_SOURCE_DISPATCHED_FROM_DECODER:OPCACHE",
	    [IC_CTR_MITE_UOPS] = "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER",
	    [IC_CTR_FE_STALL] = "DISPATCH_STALLS_1:FE_NO_OPS" },
	  /* 5 core + 2 op-cache + 2 source + 1 stall on 6 counters: the
	   * op-cache and source pairs in set 2, never multiplexed. */
	  0, 10, 0, 2, 5,
	  { [IC_CTR_INSTR] = 3u, [IC_CTR_OPCACHE_HIT] = 2u, [IC_CTR_OPCACHE_MISS] = 2u,
	    [IC_CTR_DSB_UOPS] = 2u, [IC_CTR_MITE_UOPS] = 2u } },
};

static void check_choice(const struct cpu_case *k, const struct ic_event_choice *ch, int n_hw,
			 const char *how)
{
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		const char *want = k->event[c], *got = ch->event[c];
		CHECK(want ? got && strcmp(got, want) == 0 : got == NULL,
		      "%s (%s): %s: expected %s, got %s (%s)", k->file, how, ic_ctr_names[c],
		      want ? want : "none", got ? got : "none", ch->why[c]);
		CHECK(ch->why[c] && ch->why[c][0], "%s: %s has no why", k->file, ic_ctr_names[c]);
		CHECK(ch->fixed[c] == (k->n_fixed > 0 && (c == IC_CTR_INSTR || c == IC_CTR_CYCLES)),
		      "%s: %s fixed %d", k->file, ic_ctr_names[c], ch->fixed[c]);
	}
	CHECK(ch->n_fixed_events == k->n_fixed_events && ch->n_gp_events == k->n_gp_events,
	      "%s (%s): %d fixed + %d general-purpose events, expected %d + %d", k->file, how,
	      ch->n_fixed_events, ch->n_gp_events, k->n_fixed_events, k->n_gp_events);
	CHECK(ch->n_gp_counters == n_hw - k->n_fixed, "%s: %d general-purpose counters from %d - %d",
	      k->file, ch->n_gp_counters, n_hw, k->n_fixed);
	CHECK(ch->multiplex == k->multiplex, "%s (%s): multiplex %d, expected %d", k->file, how,
	      ch->multiplex, k->multiplex);
	CHECK(ch->n_sets == k->n_sets && ch->set_gp[1] == k->set_gp1 &&
	      ch->set_gp[0] <= ch->n_gp_counters && ch->set_gp[1] <= ch->n_gp_counters,
	      "%s (%s): %d sets with %d + %d general-purpose events, expected %d sets, %d in set 2",
	      k->file, how, ch->n_sets, ch->set_gp[0], ch->set_gp[1], k->n_sets, k->set_gp1);
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		unsigned want = k->sets[c] ? k->sets[c] : k->event[c] ? 1u : 0u;
		CHECK(ch->sets[c] == want, "%s (%s): %s in sets %u, expected %u", k->file, how,
		      ic_ctr_names[c], ch->sets[c], want);
	}
}

static void test_case(const char *dir, const struct cpu_case *k)
{
	struct listing l;
	struct ic_event_choice full, rt;
	const char *cand[64], *avail[64];
	size_t n_cand, n_avail = 0;

	load(dir, k->file, &l);
	CHECK(l.n_hw == k->n_hw, "%s: Number Hardware Counters %d, expected %d", k->file, l.n_hw, k->n_hw);
	CHECK((l.n_presets > 0) == k->presets, "%s: %d presets", k->file, l.n_presets);

	/* As the runtime does it: ask about each candidate, choose among the yes. */
	n_cand = ic_events_candidates(&k->cpu, cand, N(cand));
	CHECK(n_cand < N(cand), "%s: %zu candidates", k->file, n_cand);
	for (size_t i = 0; i < n_cand; i++) {
		int combined;
		if (!accepts(&l, cand[i], &combined))
			continue;
		CHECK(!combined || k->cpu.vendor == IC_VENDOR_AMD,
		      "%s: Intel candidate %s combines umasks", k->file, cand[i]);
		avail[n_avail++] = cand[i];
	}
	ic_events_choose(&k->cpu, avail, n_avail, l.n_hw, k->n_fixed, &rt);
	check_choice(k, &rt, l.n_hw, "candidates queried");

	/* The whole listing as names, plus the accepted combined-umask
	 * candidates (a listing cannot spell every combination). */
	for (size_t i = 0; i < n_avail; i++)
		if (!has(&l, avail[i]))
			add_name(&l, avail[i]);
	ic_events_choose(&k->cpu, (const char *const *)l.name, l.n, l.n_hw, k->n_fixed, &full);
	check_choice(k, &full, l.n_hw, "whole listing");

	/* The sets follow the general-purpose counters: with the NMI watchdog
	 * on (PAPI counts one fewer) and, on Skylake, with SMT on (4
	 * general-purpose counters per thread: 7 = 4 + 3). The core five always
	 * fit these CPUs, so nothing is multiplexed; what fits nowhere is left
	 * out with why. */
	ic_events_choose(&k->cpu, (const char *const *)l.name, l.n, l.n_hw - 1, k->n_fixed, &full);
	CHECK(!full.multiplex && full.set_gp[0] <= full.n_gp_counters &&
	      full.set_gp[1] <= full.n_gp_counters,
	      "%s: watchdog on: multiplex %d, sets of %d and %d on %d counters", k->file, full.multiplex,
	      full.set_gp[0], full.set_gp[1], full.n_gp_counters);
	if (k->cpu.vendor == IC_VENDOR_AMD && k->cpu.family == 0x19)
		CHECK(full.event[IC_CTR_OPCACHE_HIT] && full.sets[IC_CTR_OPCACHE_HIT] == 2u &&
		      !full.event[IC_CTR_FE_STALL] && strstr(full.why[IC_CTR_FE_STALL], "no room"),
		      "%s: watchdog on: op cache in set %u, front-end stall %s (%s)", k->file,
		      full.sets[IC_CTR_OPCACHE_HIT], full.event[IC_CTR_FE_STALL] ? "kept" : "left out",
		      full.why[IC_CTR_FE_STALL]);
	if (k->cpu.vendor == IC_VENDOR_INTEL && k->n_fixed == 3) {
		ic_events_choose(&k->cpu, (const char *const *)l.name, l.n, 7, 3, &full);
		CHECK(!full.multiplex && full.n_gp_counters == 4 && full.n_sets == 2 &&
		      full.n_gp_events == 8 && full.set_gp[0] == 4 && full.set_gp[1] == 4 &&
		      full.sets[IC_CTR_DSB_UOPS] == 2u && full.sets[IC_CTR_INSTR] == 3u,
		      "%s: SMT on: the attribution events should go to a second set (%d sets, %d + %d)",
		      k->file, full.n_sets, full.set_gp[0], full.set_gp[1]);
	}

	printf("bench_hw_listings: %-22s %d counters (%d fixed): %d fixed + %d general-purpose events, "
	       "%d set%s, %s\n", k->file, l.n_hw, k->n_fixed, rt.n_fixed_events, rt.n_gp_events,
	       rt.n_sets, rt.n_sets == 1 ? "" : "s", rt.multiplex ? "multiplexed" : "not multiplexed");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		printf("  %-27s %s%s\n", ic_ctr_names[c], rt.event[c] ? rt.event[c] : "-",
		       rt.sets[c] == 2u ? "  (set 2)" : rt.sets[c] == 3u ? "  (both sets)" : "");

	unload(&l);
}

/* The why strings the brief asks for, on the listings' choices. */
static void test_whys(const char *dir)
{
	struct listing l;
	struct ic_event_choice ch;

	load(dir, "spr.txt", &l);
	ic_events_choose(&cases[2].cpu, (const char *const *)l.name, l.n, l.n_hw, 4, &ch);
	CHECK(strstr(ch.why[IC_CTR_L1I_MISS], "retired instructions that missed L1i") &&
	      strstr(ch.why[IC_CTR_L1I_MISS], "different unit"), "spr L1i why: %s",
	      ch.why[IC_CTR_L1I_MISS]);
	CHECK(strstr(ch.why[IC_CTR_OPCACHE_HIT], "AMD"), "spr op-cache why: %s",
	      ch.why[IC_CTR_OPCACHE_HIT]);
	unload(&l);
}

/* Which libpfm4 knows which CPU: Zen 5 with Debian 12's 4.13 gets one line
 * naming the family, model and the release needed; what 4.13 has (the
 * recorded tables above: Zen 2, Zen 4, Intel) passes. */
static void test_pfm_versions(void)
{
	static const struct { struct ic_cpu_ident cpu; const char *ver; int knows; const char *need; } v[] = {
		{ { IC_VENDOR_AMD, 0x1a, 0x44 }, "4.13", 0, "libpfm4 4.14 or later" },
		{ { IC_VENDOR_AMD, 0x1a, 0x02 }, "4.13", 0, "libpfm4 4.14 or later" },
		{ { IC_VENDOR_AMD, 0x1a, 0x44 }, "4.14", 1, NULL },
		{ { IC_VENDOR_AMD, 0x1a, 0xd0 }, "4.14", 0, "knows family 0x1a" },
		{ { IC_VENDOR_AMD, 0x19, 0x11 }, "4.13", 1, NULL },
		{ { IC_VENDOR_AMD, 0x19, 0x11 }, "4.12", 0, "libpfm4 4.13 or later" },
		{ { IC_VENDOR_AMD, 0x19, 0x01 }, "4.12", 1, NULL },
		{ { IC_VENDOR_AMD, 0x17, 0x31 }, "4.13", 1, NULL },
		{ { IC_VENDOR_INTEL, 6, 0x8f }, "4.13", 1, NULL },
		{ { IC_VENDOR_AMD, 0x1a, 0x44 }, "", 1, NULL },      /* no release known: PAPI says */
	};
	char why[512];

	for (size_t i = 0; i < N(v); i++) {
		int k = ic_pfm_knows_cpu(&v[i].cpu, v[i].ver, why, sizeof(why));
		CHECK(k == v[i].knows, "family %#x model %#x, libpfm4 %s: knows %d: %s", v[i].cpu.family,
		      v[i].cpu.model, v[i].ver, k, why);
		CHECK(k ? why[0] == '\0' : strstr(why, v[i].need) && !strchr(why, '\n'),
		      "family %#x model %#x, libpfm4 %s: %s", v[i].cpu.family, v[i].cpu.model,
		      v[i].ver, why);
	}
	ic_pfm_knows_cpu(&v[0].cpu, "4.13", why, sizeof(why));
	CHECK(!strcmp(why, "libpfm4 4.13 has no event tables for this CPU (AMD family 0x1a model "
		      "0x44, Zen 5): counting needs libpfm4 4.14 or later and a PAPI built with it"),
	      "the Zen 5 line: %s", why);
	printf("bench_hw_listings: Zen 5 with libpfm4 4.13: %s\n", why);
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: %s tests/data/papi", argv[0]);
	for (size_t i = 0; i < N(cases); i++)
		test_case(argv[1], &cases[i]);
	test_whys(argv[1]);
	test_pfm_versions();
	printf("bench_hw_listings: ok\n");
	return 0;
}
