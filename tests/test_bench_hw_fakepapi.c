/* The counting paths that need a PMU, on a fake PAPI: this machine has no
 * counters, so ic_hw's calls into PAPI are redirected at link time
 * (-Wl,--wrap=PAPI_...) to the fakes below, which keep event sets and
 * answer as a working perf_event component would, or fail where told.
 * dl_iterate_phdr is wrapped too, to name the libpfm4 release, and
 * ic_cpu_ident_read, to be a Zen 5 where a scenario needs one.
 *
 * usage: test_bench_hw_fakepapi SCENARIO, one process each (PAPI is set up once):
 *   passes    a CPU whose attribution events need a second set: runs
 *             alternate between the sets, each set reads its own counters
 *   zeros     the kernel accepts the group but every count reads 0: the
 *             start-up canary turns counting off, saying so
 *   stopfail  PAPI_stop fails once: the set is torn down (stopped, cleaned
 *             up, destroyed), no set is left, and the error says so
 *   stuck     PAPI_stop keeps failing: the error says the set could not be
 *             cleaned up
 *   oldpfm    libpfm4 4.13 on a CPU it has no tables for (a Zen 5, on
 *             whatever CPU runs the test): the one-line reason
 */
#define _GNU_SOURCE
#include "check.h"
#include "counters.h"

#include <link.h>
#include <papi.h>
#include <string.h>

#define MAX_SETS 16
#define MAX_EV 16

static struct fake_set {
	int used, running, n;
} sets[MAX_SETS];
static int zeros, stop_fails, stop_fail_forever, live;
static const char *pfm_name = "/nonexistent/libpfm.so.4.14.0";
static PAPI_component_info_t info;

/* Every name the choice may ask for on Intel or AMD: all exist here. */
int __wrap_PAPI_query_named_event(const char *name)
{
	return strncmp(name, "perf::", 6) && strncmp(name, "PAPI_", 5) ? PAPI_OK : PAPI_ENOEVNT;
}
int __wrap_PAPI_library_init(int v) { return v; }
int __wrap_PAPI_thread_init(unsigned long (*id)(void)) { (void)id; return PAPI_OK; }
int __wrap_PAPI_get_component_index(const char *name) { (void)name; return 0; }
const PAPI_component_info_t *__wrap_PAPI_get_component_info(int cidx)
{
	(void)cidx;
	snprintf(info.support_version, sizeof(info.support_version), "4.0");
	return &info;
}
int __wrap_PAPI_num_cmp_hwctrs(int cidx) { (void)cidx; return 6; }
int __wrap_PAPI_multiplex_init(void) { return PAPI_OK; }
int __wrap_PAPI_register_thread(void) { return PAPI_OK; }
int __wrap_PAPI_unregister_thread(void) { return PAPI_OK; }
int __wrap_PAPI_assign_eventset_component(int s, int c) { (void)s; (void)c; return PAPI_OK; }
int __wrap_PAPI_set_multiplex(int s) { (void)s; return PAPI_OK; }

int __wrap_PAPI_create_eventset(int *s)
{
	for (int i = 0; i < MAX_SETS; i++)
		if (!sets[i].used) {
			sets[i] = (struct fake_set){ 1, 0, 0 };
			*s = i;
			live++;
			return PAPI_OK;
		}
	return PAPI_ENOMEM;
}
static struct fake_set *get(int s)
{
	return s >= 0 && s < MAX_SETS && sets[s].used ? &sets[s] : NULL;
}
/* 6 counters: a set holds at most 6 events. */
int __wrap_PAPI_add_named_event(int s, const char *name)
{
	struct fake_set *f = get(s);
	(void)name;
	if (!f)
		return PAPI_ENOEVST;
	if (f->n >= 6)
		return PAPI_ECNFLCT;
	f->n++;
	return PAPI_OK;
}
int __wrap_PAPI_start(int s)
{
	struct fake_set *f = get(s);
	if (!f)
		return PAPI_ENOEVST;
	for (int i = 0; i < MAX_SETS; i++)
		if (sets[i].used && sets[i].running)
			return PAPI_EISRUN;    /* one running set per thread */
	f->running = 1;
	return PAPI_OK;
}
int __wrap_PAPI_stop(int s, long long *v)
{
	struct fake_set *f = get(s);
	if (!f)
		return PAPI_ENOEVST;
	if (!f->running)
		return PAPI_ENOTRUN;
	if (stop_fail_forever || stop_fails) {
		if (stop_fails)
			stop_fails--;
		return PAPI_ESYS;          /* the read failed: still running */
	}
	f->running = 0;
	for (int i = 0; i < f->n; i++)
		v[i] = zeros ? 0 : 10000000LL * (i + 1);
	return PAPI_OK;
}
int __wrap_PAPI_state(int s, int *st)
{
	struct fake_set *f = get(s);
	if (!f)
		return PAPI_ENOEVST;
	*st = f->running ? PAPI_RUNNING : PAPI_STOPPED;
	return PAPI_OK;
}
int __wrap_PAPI_cleanup_eventset(int s)
{
	struct fake_set *f = get(s);
	if (!f)
		return PAPI_ENOEVST;
	if (f->running)
		return PAPI_EISRUN;
	f->n = 0;
	return PAPI_OK;
}
int __wrap_PAPI_destroy_eventset(int *s)
{
	struct fake_set *f = get(*s);
	if (!f)
		return PAPI_ENOEVST;
	if (f->running || f->n)
		return PAPI_EINVAL;
	f->used = 0;
	live--;
	*s = PAPI_NULL;
	return PAPI_OK;
}

/* The CPU as CPUID says, or a Zen 5 (family 0x1a, model 0x02: Turin),
 * whose tables libpfm4 4.13 lacks. */
static int fake_zen5;
void __real_ic_cpu_ident_read(struct ic_cpu_ident *cpu);
void __wrap_ic_cpu_ident_read(struct ic_cpu_ident *cpu)
{
	__real_ic_cpu_ident_read(cpu);
	if (fake_zen5)
		*cpu = (struct ic_cpu_ident){ .vendor = IC_VENDOR_AMD, .family = 0x1a, .model = 0x02 };
}

int __real_dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg);
int __wrap_dl_iterate_phdr(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg)
{
	struct dl_phdr_info i;
	memset(&i, 0, sizeof(i));
	i.dlpi_name = pfm_name;
	return cb(&i, sizeof(i), arg);
}

static int counted_in(const long long v[IC_CTR_COUNT], const int ok[IC_CTR_COUNT], int c)
{
	return ok[c] && v[c] > 0;
}

static void passes(void)
{
	long long v[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	struct ic_cpu_ident cpu;

	ic_cpu_ident_read(&cpu);
	CHECK(ic_counters_init() == 1, "fake PAPI does not count: %s", ic_counters_note());
	CHECK(live == 0, "%d event sets left over from the start-up trials", live);
	printf("fakepapi: %s\n", ic_counters_note());
	if (ic_counters_passes() == 1) {
		/* Intel's 8 general-purpose events fit one set of 6 + fixed only
		 * where CPUID says so; this CPU's choice fit in one. */
		printf("fakepapi: one event set on this CPU (vendor %d family %#x)\n", cpu.vendor, cpu.family);
		return;
	}
	CHECK(ic_counters_passes() == 2 && strstr(ic_counters_note(), "two event sets") &&
	      strstr(ic_counters_note(), "not multiplexed"),
	      "passes %d: %s", ic_counters_passes(), ic_counters_note());
	for (int run = 0; run < 4; run++) {
		struct ic_ctr_set *s = ic_ctr_set_open();
		CHECK(s, "open: %s", ic_ctr_set_error());
		CHECK(ic_ctr_set_start(s) == 0, "start: %s", ic_ctr_set_error());
		CHECK(ic_ctr_set_stop(s, v, ok) == 0, "stop: %s", ic_ctr_set_error());
		ic_ctr_set_close(s);
		CHECK(live == 0, "run %d: %d event sets left open", run, live);
		int second = run % 2;
		CHECK(counted_in(v, ok, IC_CTR_INSTR), "run %d: no instructions (the canary's)", run);
		CHECK(counted_in(v, ok, IC_CTR_CYCLES) == !second &&
		      (second ? v[IC_CTR_CYCLES] == IC_CTR_ABSENT_OTHER_PASS : 1),
		      "run %d: cycles %lld", run, v[IC_CTR_CYCLES]);
		if (cpu.vendor == IC_VENDOR_AMD)
			CHECK(counted_in(v, ok, IC_CTR_OPCACHE_HIT) == second &&
			      (!second ? v[IC_CTR_OPCACHE_HIT] == IC_CTR_ABSENT_OTHER_PASS : 1),
			      "run %d: op cache %lld", run, v[IC_CTR_OPCACHE_HIT]);
		ic_counters_next_pass();
	}
}

static void all_zeros(void)
{
	zeros = 1;
	CHECK(ic_counters_init() == 0, "counting on with every count 0");
	CHECK(strstr(ic_counters_note(), "canary failed: all") &&
	      strstr(ic_counters_note(), "never scheduled"), "note: %s", ic_counters_note());
	CHECK(live == 0, "%d event sets left after a failed trial", live);
	printf("fakepapi: %s\n", ic_counters_note());
}

static void stop_fail(int forever)
{
	long long v[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	struct ic_ctr_set *s;

	CHECK(ic_counters_init() == 1, "fake PAPI does not count: %s", ic_counters_note());
	s = ic_ctr_set_open();
	CHECK(s && ic_ctr_set_start(s) == 0, "open or start: %s", ic_ctr_set_error());
	if (forever)
		stop_fail_forever = 1;
	else
		stop_fails = 1;
	CHECK(ic_ctr_set_stop(s, v, ok) == -1, "a failed PAPI_stop reported as counted");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(!ok[c] && v[c] == IC_CTR_ABSENT_NO_SET, "%s kept after a failed stop", ic_ctr_names[c]);
	printf("fakepapi: %s\n", ic_ctr_set_error());
	if (!forever) {
		CHECK(strstr(ic_ctr_set_error(), "PAPI_stop: ") &&
		      strstr(ic_ctr_set_error(), "was cleaned up and destroyed"), "error: %s",
		      ic_ctr_set_error());
		CHECK(live == 0, "the failed set is still there (%d)", live);
		/* The thread can count again. */
		struct ic_ctr_set *t = ic_ctr_set_open();
		CHECK(t && ic_ctr_set_start(t) == 0 && ic_ctr_set_stop(t, v, ok) == 0,
		      "no set after the cleanup: %s", ic_ctr_set_error());
		ic_ctr_set_close(t);
	} else {
		CHECK(strstr(ic_ctr_set_error(), "could not be cleaned up"), "error: %s",
		      ic_ctr_set_error());
	}
	ic_ctr_set_close(s);
	if (!forever)
		CHECK(live == 0, "%d sets left after close", live);
}

static void old_pfm(void)
{
	struct ic_cpu_ident cpu;
	char why[512];

	fake_zen5 = 1;
	ic_cpu_ident_read(&cpu);
	pfm_name = "/nonexistent/libpfm.so.4.13.0";
	CHECK(!ic_pfm_knows_cpu(&cpu, "4.13", why, sizeof(why)),
	      "libpfm4 4.13 knows the faked Zen 5 (family %#x model %#x)", cpu.family, cpu.model);
	CHECK(ic_counters_init() == 0, "counting on with libpfm4 4.13 here");
	CHECK(!strncmp(ic_counters_note(), why, strlen(why)), "note: %s\nwant: %s", ic_counters_note(), why);
	printf("fakepapi: %s\n", ic_counters_note());
}

int main(int argc, char **argv)
{
	CHECK(argc == 2, "usage: %s passes|zeros|stopfail|stuck|oldpfm", argv[0]);
	if (!strcmp(argv[1], "passes"))
		passes();
	else if (!strcmp(argv[1], "zeros"))
		all_zeros();
	else if (!strcmp(argv[1], "stopfail"))
		stop_fail(0);
	else if (!strcmp(argv[1], "stuck"))
		stop_fail(1);
	else if (!strcmp(argv[1], "oldpfm"))
		old_pfm();
	else
		CHECK(0, "unknown scenario %s", argv[1]);
	printf("bench_hw_fakepapi %s: ok\n", argv[1]);
	return 0;
}
