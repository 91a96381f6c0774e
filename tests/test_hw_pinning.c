/* Topology and pinning: cache geometry is known, thread i lands on core i,
 * impossible bindings fail with a reason, warnings print once. */
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
	char why[256];
};

static void *pin_thread(void *arg)
{
	struct pin_result *r = arg;
	cpu_set_t mask;

	pthread_barrier_wait(&start_barrier);
	r->rc = ic_topo_bind_thread(r->index, &r->os_cpu, r->why, sizeof(r->why));
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
	printf("hw_pinning: %s: %d cores, %d PUs, smt %d; L1i %ld B %ld-way %ld B lines; "
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

static void check_bad_bindings(int cores)
{
	char why[256];
	int os_cpu = 1234;

	why[0] = '\0';
	CHECK(ic_topo_bind_thread(cores, &os_cpu, why, sizeof(why)) == -1,
	      "binding to core %d of %d succeeded", cores, cores);
	CHECK(why[0] && strstr(why, "core"), "no reason for core %d: '%s'", cores, why);
	CHECK(os_cpu == -1, "os_cpu %d after a failed binding", os_cpu);
	printf("hw_pinning: thread %d refused: %s\n", cores, why);
	why[0] = '\0';
	CHECK(ic_topo_bind_thread(-1, &os_cpu, why, sizeof(why)) == -1 && why[0],
	      "negative index accepted");
	why[0] = '\0';
	CHECK(ic_topo_bind_thread(cores + 100, NULL, why, sizeof(why)) == -1 && why[0],
	      "far index accepted");
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

int main(void)
{
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
	check_bad_bindings(info.cores);
	check_warn_once();

	if (info.cores < 2) {
		printf("hw_pinning: skip: 1 core, thread-per-core pinning cannot be checked\n");
		ic_topo_close();
		hwloc_topology_destroy(oracle);
		return IC_TEST_SKIP;
	}

	/* Thread i to core i, all at once from several threads. */
	n = info.cores < MAX_THREADS ? info.cores : MAX_THREADS;
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
		CHECK(core_has_cpu(i, r->os_cpu), "thread %d: cpu %d is not in core %d",
		      i, r->os_cpu, i);
		CHECK(core_has_cpu(i, r->ran_on), "thread %d ran on cpu %d, outside core %d",
		      i, r->ran_on, i);
		CHECK(r->ran_on == r->os_cpu, "thread %d bound to cpu %d but ran on %d",
		      i, r->os_cpu, r->ran_on);
		CHECK(r->current == r->ran_on, "ic_topo_current_cpu %d, sched_getcpu %d",
		      r->current, r->ran_on);
		CHECK(r->affinity_count == 1, "thread %d may run on %d cpus", i, r->affinity_count);
		printf("hw_pinning: thread %d -> core %d, cpu %d\n", i, i, r->ran_on);
	}

	ic_topo_close();
	CHECK(ic_topo_bind_thread(0, NULL, (char[64]){0}, 64) == -1, "bind after close succeeded");
	hwloc_topology_destroy(oracle);
	printf("hw_pinning: ok\n");
	return 0;
}
