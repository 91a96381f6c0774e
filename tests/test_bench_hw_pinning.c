/* Topology and pinning: cache geometry is known, thread i lands on core i,
 * threads beyond the cores go to SMT siblings and then share PUs evenly
 * (never all onto core 0), impossible bindings fail with a reason, warnings
 * print once. */
#define _GNU_SOURCE
#include "check.h"
#include "topology.h"

#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 8

/* An independent view of the machine to check ic_topo_* against. */
static hwloc_topology_t oracle;
static pthread_barrier_t start_barrier;

struct pin_result {
	int index;
	int rc;
	int os_cpu;
	int ran_on;
	int current;
	int affinity_count;
	enum ic_bind_kind kind;
	char why[256];
};

static void *pin_thread(void *arg)
{
	struct pin_result *r = arg;
	cpu_set_t mask;

	pthread_barrier_wait(&start_barrier);
	r->rc = ic_topo_bind_thread(r->index, &r->os_cpu, &r->kind, r->why, sizeof(r->why));
	sched_yield();   /* let the scheduler act on the new mask */
	r->ran_on = sched_getcpu();
	r->current = ic_topo_current_cpu();
	CPU_ZERO(&mask);
	if (sched_getaffinity(0, sizeof(mask), &mask) == 0)
		r->affinity_count = CPU_COUNT(&mask);
	return NULL;
}

static int core_has_cpu(int core_index, int cpu)
{
	hwloc_obj_t core = hwloc_get_obj_by_type(oracle, HWLOC_OBJ_CORE, (unsigned)core_index);

	return core && cpu >= 0 && hwloc_bitmap_isset(core->cpuset, (unsigned)cpu);
}

static void check_describe(struct ic_topo_info *info)
{
	CHECK(ic_topo_describe(info) == 0, "describe failed with the topology open");
	CHECK(info->kinds[0], "no core-kind line");
	printf("bench_hw_pinning: core kinds: %s\n", info->kinds);
	printf("bench_hw_pinning: %s: %d cores, %d PUs, smt %d; L1i %ld B %ld-way %ld B lines; "
	       "L1d %ld L2 %ld L3 %ld\n", info->cpu_model[0] ? info->cpu_model : "(unknown model)",
	       info->cores, info->pus, info->smt, info->l1i_size, info->l1i_assoc,
	       info->l1i_line, info->l1d_size, info->l2_size, info->l3_size);
	CHECK(info->cores >= 1, "cores %d", info->cores);
	CHECK(info->pus >= info->cores, "pus %d < cores %d", info->pus, info->cores);
	CHECK(info->smt == (info->pus > info->cores), "smt %d with %d PUs on %d cores",
	      info->smt, info->pus, info->cores);
#if defined(__x86_64__) || defined(__i386__)
	CHECK(info->l1i_size > 0, "l1i_size %ld", info->l1i_size);
	CHECK(info->l1i_line > 0, "l1i_line %ld", info->l1i_line);
#endif
	/* Unknown is -1, never 0. */
	CHECK(info->l1i_size != 0 && info->l1i_line != 0 && info->l1i_assoc != 0 &&
	      info->l1d_size != 0 && info->l2_size != 0 && info->l3_size != 0,
	      "a size of 0 stands for unknown");
	if (hwloc_get_nbobjs_by_type(oracle, HWLOC_OBJ_CORE) > 0)
		CHECK(info->cores == hwloc_get_nbobjs_by_type(oracle, HWLOC_OBJ_CORE),
		      "cores %d, hwloc says %d", info->cores,
		      hwloc_get_nbobjs_by_type(oracle, HWLOC_OBJ_CORE));
}

static void check_bad_bindings(void)
{
	char why[256];
	int os_cpu = 1234;
	enum ic_bind_kind kind = IC_BIND_CORE;

	why[0] = '\0';
	CHECK(ic_topo_bind_thread(-1, &os_cpu, &kind, why, sizeof(why)) == -1 && why[0],
	      "negative index accepted");
	CHECK(os_cpu == -1 && kind == IC_BIND_NONE, "os_cpu %d kind %d after a failed binding",
	      os_cpu, kind);
	printf("bench_hw_pinning: thread -1 refused: %s\n", why);
}

/* The placement order, on made-up machines: cores first, then siblings,
 * then round again. */
static void check_place(void)
{
	static const int two_smt[] = { 2, 2 }, two[] = { 1, 1 }, uneven[] = { 1, 3 };
	static const struct {
		const int *pus;
		int cores, index, core, pu;
		enum ic_bind_kind kind;
	} cases[] = {
		{ two, 2, 0, 0, 0, IC_BIND_CORE },
		{ two, 2, 1, 1, 0, IC_BIND_CORE },
		{ two, 2, 2, 0, 0, IC_BIND_SHARED },
		{ two, 2, 3, 1, 0, IC_BIND_SHARED },
		{ two_smt, 2, 1, 1, 0, IC_BIND_CORE },
		{ two_smt, 2, 2, 0, 1, IC_BIND_SMT },
		{ two_smt, 2, 3, 1, 1, IC_BIND_SMT },
		{ two_smt, 2, 4, 0, 0, IC_BIND_SHARED },
		{ uneven, 2, 2, 1, 1, IC_BIND_SMT },
		{ uneven, 2, 3, 1, 2, IC_BIND_SMT },
		{ uneven, 2, 4, 0, 0, IC_BIND_SHARED },
		{ two, 2, -1, -1, -1, IC_BIND_NONE },
		{ two, 0, 0, -1, -1, IC_BIND_NONE },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int core = 7, pu = 7;
		enum ic_bind_kind k = ic_place_thread(cases[i].index, cases[i].cores, cases[i].pus, &core, &pu);
		CHECK(k == cases[i].kind && core == cases[i].core && pu == cases[i].pu,
		      "case %zu: thread %d placed %s core %d pu %d, expected %s core %d pu %d", i,
		      cases[i].index, ic_bind_kind_name(k), core, pu, ic_bind_kind_name(cases[i].kind),
		      cases[i].core, cases[i].pu);
	}
}

static void *warn_thread(void *arg)
{
	pthread_barrier_wait(&start_barrier);
	ic_topo_warn_once(arg);
	return NULL;
}

/* Several threads warn at once, with different texts: one line in all. */
static void check_warn_once(void)
{
	FILE *capture = tmpfile();
	char line[512];
	int saved, lines = 0;
	pthread_t t[4];
	char *msgs[4] = { "cannot pin thread 0", "cannot pin thread 1",
			  "cannot pin thread 2", "cannot pin thread 3" };

	CHECK(capture, "tmpfile failed");
	fflush(stderr);
	saved = dup(STDERR_FILENO);
	CHECK(saved >= 0 && dup2(fileno(capture), STDERR_FILENO) >= 0, "redirecting stderr");
	pthread_barrier_init(&start_barrier, NULL, 4);
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, warn_thread, msgs[i]);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start_barrier);
	ic_topo_warn_once("one more");
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(capture);
	while (fgets(line, sizeof(line), capture)) {
		lines++;
		CHECK(strncmp(line, "inlinecost: cannot pin thread ", 30) == 0, "warning: %s", line);
	}
	fclose(capture);
	CHECK(lines == 1, "%d warning lines, expected 1", lines);
}

/* Hybrid CPUs: threads on one core kind, the most performant. */
static void check_core_kind(void)
{
	const int eff2[] = { 0, 1 }, pus2[] = { 8, 8 };
	const int eff_tie[] = { 1, 1 }, pus_tie[] = { 4, 8 };
	const int unranked[] = { -1, -1, -1 }, pus3[] = { 16, 4, 8 };
	const char *const types[] = { "IntelAtom", "IntelCore", NULL };

	CHECK(ic_pick_core_kind(2, eff2, pus2, NULL) == 1, "E-cores first, P-cores second: pick 1");
	CHECK(ic_pick_core_kind(2, eff_tie, pus_tie, NULL) == 1, "a tie goes to more PUs");
	CHECK(ic_pick_core_kind(3, unranked, pus3, types) == 1, "unranked: the IntelCore kind");
	CHECK(ic_pick_core_kind(3, unranked, pus3, NULL) == 0, "unranked, no types: most PUs");
	CHECK(ic_pick_core_kind(1, eff2, pus2, NULL) == 0 && ic_pick_core_kind(0, eff2, pus2, NULL) == -1,
	      "one kind, or none");
}

int main(void)
{
	check_core_kind();
	struct ic_topo_info info;
	struct pin_result res[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	int n;

	CHECK(hwloc_topology_init(&oracle) == 0 && hwloc_topology_load(oracle) == 0,
	      "oracle topology");
	CHECK(ic_topo_describe(&info) == -1, "describe before open succeeded");
	CHECK(ic_topo_open() == 0, "ic_topo_open failed");
	CHECK(ic_topo_open() == 0, "second ic_topo_open failed");
	check_describe(&info);
	check_bad_bindings();
	check_place();
	check_warn_once();

	if (info.cores < 2) {
		printf("bench_hw_pinning: skip: 1 core, thread-per-core pinning cannot be checked\n");
		ic_topo_close();
		hwloc_topology_destroy(oracle);
		return IC_TEST_SKIP;
	}

	/* Thread i to core i, all at once from several threads; two threads
	 * more than the PUs share PUs, one per PU, never stacked on one. */
	n = info.pus + 2 < MAX_THREADS ? info.pus + 2 : MAX_THREADS;
	pthread_barrier_init(&start_barrier, NULL, (unsigned)n);
	for (int i = 0; i < n; i++) {
		memset(&res[i], 0, sizeof(res[i]));
		res[i].index = i;
		CHECK(pthread_create(&t[i], NULL, pin_thread, &res[i]) == 0, "pthread_create");
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	pthread_barrier_destroy(&start_barrier);
	for (int i = 0; i < n; i++) {
		struct pin_result *r = &res[i];
		CHECK(r->rc == 0, "thread %d not bound: %s", i, r->why);
		CHECK(r->ran_on == r->os_cpu, "thread %d bound to cpu %d but ran on %d",
		      i, r->os_cpu, r->ran_on);
		CHECK(r->current == r->ran_on, "ic_topo_current_cpu %d, sched_getcpu %d",
		      r->current, r->ran_on);
		CHECK(r->affinity_count == 1, "thread %d may run on %d cpus", i, r->affinity_count);
		if (i < info.cores) {
			CHECK(r->kind == IC_BIND_CORE && core_has_cpu(i, r->os_cpu),
			      "thread %d: %s cpu %d, expected core %d of its own", i,
			      ic_bind_kind_name(r->kind), r->os_cpu, i);
		} else if (i < info.pus) {
			CHECK(r->kind == IC_BIND_SMT, "thread %d: %s, expected an SMT sibling", i,
			      ic_bind_kind_name(r->kind));
		} else {
			CHECK(r->kind == IC_BIND_SHARED && r->os_cpu == res[i - info.pus].os_cpu,
			      "thread %d: %s cpu %d, expected to share thread %d's cpu %d", i,
			      ic_bind_kind_name(r->kind), r->os_cpu, i - info.pus,
			      res[i - info.pus].os_cpu);
		}
		for (int k = 0; k < i && k < info.pus; k++)
			CHECK(i >= info.pus || res[k].os_cpu != r->os_cpu,
			      "threads %d and %d on cpu %d with PUs to spare", k, i, r->os_cpu);
		printf("bench_hw_pinning: thread %d -> cpu %d (%s)\n", i, r->ran_on, ic_bind_kind_name(r->kind));
	}

	/* Unbinding gives the thread the allowed cpuset back. */
	char why[256];
	cpu_set_t mask;
	CHECK(ic_topo_bind_thread(0, NULL, NULL, why, sizeof(why)) == 0, "bind main: %s", why);
	CHECK(ic_topo_unbind_thread() == 0, "unbind failed");
	CPU_ZERO(&mask);
	CHECK(sched_getaffinity(0, sizeof(mask), &mask) == 0 && CPU_COUNT(&mask) == info.pus,
	      "after unbind the thread may run on %d cpus of %d", CPU_COUNT(&mask), info.pus);

	ic_topo_close();
	CHECK(ic_topo_bind_thread(0, NULL, NULL, (char[64]){0}, 64) == -1, "bind after close succeeded");
	hwloc_topology_destroy(oracle);
	printf("bench_hw_pinning: ok\n");
	return 0;
}
