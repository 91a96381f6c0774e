/* hwloc topology: cache geometry for the report, one core per thread. */
#define _GNU_SOURCE
#include "topology.h"

#include <errno.h>
#include <hwloc.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static hwloc_topology_t ic_topo;
static int ic_topo_loaded;
/* The process's binding at open (taskset, cpusets): unbinding returns to it, not to every allowed PU. */
static hwloc_bitmap_t ic_topo_start_set;
/* On a hybrid CPU, the PUs of the kind threads go on (NULL: one kind). */
static hwloc_bitmap_t ic_topo_kind_set;
static char ic_topo_kinds[160] = "not known";
static pthread_mutex_t ic_topo_lock = PTHREAD_MUTEX_INITIALIZER;

/* Kind k's rank: its efficiency, or where none is ranked whether it is a P-core. */
static int ic_kind_rank(int k, int ranked, const int *efficiency, const char *const *core_type)
{
	return ranked ? efficiency[k] : core_type && core_type[k] && !strcmp(core_type[k], "IntelCore");
}

int ic_pick_core_kind(int n, const int *efficiency, const int *n_pus,
		      const char *const *core_type)
{
	int best = n > 0 ? 0 : -1, ranked = 0;

	for (int i = 0; i < n; i++)
		ranked |= efficiency[i] >= 0;
	for (int i = 1; i < n; i++) {
		int ri = ic_kind_rank(i, ranked, efficiency, core_type);
		int rb = ic_kind_rank(best, ranked, efficiency, core_type);

		if (ri > rb || (ri == rb && n_pus[i] > n_pus[best]))
			best = i;
	}
	return best;
}

#define IC_MAX_KINDS 8

/* hwloc's core kinds: on a hybrid CPU keep the picked kind's PUs. */
static void ic_topo_pick_kind(void)
{
	int n = hwloc_cpukinds_get_nr(ic_topo, 0), eff[IC_MAX_KINDS], pus[IC_MAX_KINDS], k;
	const char *type[IC_MAX_KINDS];
	hwloc_bitmap_t set;

	if (n <= 1) {
		snprintf(ic_topo_kinds, sizeof(ic_topo_kinds), n == 1 ? "one kind" : "not known (hwloc "
			 "reports no core kinds)");
		return;
	}
	if (n > IC_MAX_KINDS)
		n = IC_MAX_KINDS;
	set = hwloc_bitmap_alloc();
	for (k = 0; k < n; k++) {
		unsigned nr = 0;
		struct hwloc_info_s *infos = NULL;

		eff[k] = -1;
		type[k] = NULL;
		pus[k] = set && hwloc_cpukinds_get_info(ic_topo, (unsigned)k, set, &eff[k], &nr, &infos, 0) == 0
			 ? hwloc_bitmap_weight(set) : 0;
		for (unsigned i = 0; i < nr; i++)
			if (!strcmp(infos[i].name, "CoreType"))
				type[k] = infos[i].value;
	}
	k = ic_pick_core_kind(n, eff, pus, type);
	if (k >= 0 && pus[k] > 0 && hwloc_cpukinds_get_info(ic_topo, (unsigned)k, set, NULL, NULL, NULL, 0) == 0) {
		ic_topo_kind_set = set;
		set = NULL;
		snprintf(ic_topo_kinds, sizeof(ic_topo_kinds), "%d kinds; threads on %s (%d PUs, %s)", n,
			 type[k] ? type[k] : "one kind", pus[k],
			 eff[k] >= 0 ? "the most performant kind" : "kinds not ranked by hwloc");
	} else {
		snprintf(ic_topo_kinds, sizeof(ic_topo_kinds), "%d kinds; none could be read, threads "
			 "placed over all", n);
	}
	hwloc_bitmap_free(set);
}

static int ic_topo_load(void)
{
	if (hwloc_topology_init(&ic_topo) < 0) {
		fprintf(stderr, "inlinecost: hwloc_topology_init failed: %s\n", strerror(errno));
		return -1;
	}
	/* hwloc 2 drops instruction caches unless asked; L1i is the point here. */
	hwloc_topology_set_icache_types_filter(ic_topo, HWLOC_TYPE_FILTER_KEEP_ALL);
	if (hwloc_topology_load(ic_topo) < 0) {
		fprintf(stderr, "inlinecost: hwloc_topology_load failed: %s\n", strerror(errno));
		hwloc_topology_destroy(ic_topo);
		return -1;
	}
	ic_topo_start_set = hwloc_bitmap_alloc();
	if (ic_topo_start_set &&
	    hwloc_get_cpubind(ic_topo, ic_topo_start_set, HWLOC_CPUBIND_PROCESS) < 0 &&
	    hwloc_get_cpubind(ic_topo, ic_topo_start_set, HWLOC_CPUBIND_THREAD) < 0) {
		hwloc_bitmap_free(ic_topo_start_set);
		ic_topo_start_set = NULL;
	}
	ic_topo_pick_kind();
	ic_topo_loaded = 1;
	return 0;
}

int ic_topo_open(void)
{
	pthread_mutex_lock(&ic_topo_lock);
	int rc = ic_topo_loaded ? 0 : ic_topo_load();
	pthread_mutex_unlock(&ic_topo_lock);
	return rc;
}

void ic_topo_close(void)
{
	pthread_mutex_lock(&ic_topo_lock);
	if (ic_topo_loaded)
		hwloc_topology_destroy(ic_topo);
	hwloc_bitmap_free(ic_topo_start_set);
	ic_topo_start_set = NULL;
	hwloc_bitmap_free(ic_topo_kind_set);
	ic_topo_kind_set = NULL;
	ic_topo_loaded = 0;
	pthread_mutex_unlock(&ic_topo_lock);
}

/* Cores to pin to: Core objects, or PUs where hwloc found no cores. */
static hwloc_obj_type_t ic_core_type(void)
{
	return hwloc_get_nbobjs_by_type(ic_topo, HWLOC_OBJ_CORE) > 0
		? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
}

static long ic_cache_size(hwloc_obj_type_t type)
{
	hwloc_obj_t c = hwloc_get_obj_by_type(ic_topo, type, 0);

	return c && c->attr->cache.size > 0 ? (long)c->attr->cache.size : -1;
}

int ic_topo_describe(struct ic_topo_info *out)
{
	hwloc_obj_t pkg, l1i;
	const char *model;

	memset(out, 0, sizeof(*out));
	out->l1i_size = out->l1i_assoc = out->l1i_line = -1;
	out->l1d_size = out->l2_size = out->l3_size = -1;
	if (!ic_topo_loaded)
		return -1;

	pkg = hwloc_get_obj_by_type(ic_topo, HWLOC_OBJ_PACKAGE, 0);
	model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
	if (!model)   /* some platforms attach it to the root only */
		model = hwloc_obj_get_info_by_name(hwloc_get_root_obj(ic_topo), "CPUModel");
	snprintf(out->cpu_model, sizeof(out->cpu_model), "%s", model ? model : "");

	out->cores = hwloc_get_nbobjs_by_type(ic_topo, ic_core_type());
	out->pus = hwloc_get_nbobjs_by_type(ic_topo, HWLOC_OBJ_PU);
	/* Every PU is in a core: more PUs than cores means some core has two. */
	out->smt = out->pus > out->cores;

	out->l1i_size = ic_cache_size(HWLOC_OBJ_L1ICACHE);
	if ((l1i = hwloc_get_obj_by_type(ic_topo, HWLOC_OBJ_L1ICACHE, 0))) {
		const struct hwloc_cache_attr_s *ca = &l1i->attr->cache;
		if (ca->linesize > 0)
			out->l1i_line = (long)ca->linesize;
		/* hwloc: ways, -1 fully associative, 0 unknown. */
		if (ca->associativity > 0)
			out->l1i_assoc = ca->associativity;
		else if (ca->associativity == -1 && out->l1i_size > 0 && out->l1i_line > 0)
			out->l1i_assoc = out->l1i_size / out->l1i_line;
	}
	out->l1d_size = ic_cache_size(HWLOC_OBJ_L1CACHE);
	out->l2_size = ic_cache_size(HWLOC_OBJ_L2CACHE);
	out->l3_size = ic_cache_size(HWLOC_OBJ_L3CACHE);
	snprintf(out->kinds, sizeof(out->kinds), "%s", ic_topo_kinds);
	return 0;
}

const char *ic_bind_kind_name(enum ic_bind_kind kind)
{
	static const char *const name[] = { "core", "smt", "shared" };

	return (unsigned)kind < IC_BIND_NONE ? name[kind] : "unbound";
}

enum ic_bind_kind ic_place_thread(int thread_index, int n_cores, const int *pus_per_core,
				  int *core, int *pu)
{
	int total = 0, max_pus = 0;

	*core = *pu = -1;
	if (thread_index < 0 || n_cores <= 0)
		return IC_BIND_NONE;
	for (int c = 0; c < n_cores; c++) {
		total += pus_per_core[c];
		if (pus_per_core[c] > max_pus)
			max_pus = pus_per_core[c];
	}
	/* Round r of the PU order takes PU r of every core that has one. */
	int slot = thread_index % total;
	for (int r = 0; r < max_pus; r++)
		for (int c = 0; c < n_cores; c++)
			if (pus_per_core[c] > r && slot-- == 0) {
				*core = c;
				*pu = r;
				return thread_index >= total ? IC_BIND_SHARED : r == 0 ? IC_BIND_CORE : IC_BIND_SMT;
			}
	return IC_BIND_NONE;   /* not reached: slot < total */
}

#define IC_MAX_CORES 1024

int ic_topo_bind_thread(int thread_index, int *os_cpu_out, enum ic_bind_kind *kind_out,
			char *why, size_t why_len)
{
	hwloc_const_cpuset_t allowed;
	hwloc_obj_type_t core_type;
	hwloc_bitmap_t set = NULL, kind_allowed = NULL;
	int pus_per_core[IC_MAX_CORES];
	hwloc_obj_t cores[IC_MAX_CORES];
	int ncores, n = 0, core, pu, cpu = -1;
	enum ic_bind_kind kind = IC_BIND_NONE;

	if (!ic_topo_loaded)
		snprintf(why, why_len, "topology not open (call ic_topo_open first)");
	else if (thread_index < 0)
		snprintf(why, why_len, "thread index %d is negative", thread_index);
	else if (!hwloc_topology_get_support(ic_topo)->cpubind->set_thisthread_cpubind)
		snprintf(why, why_len, "binding threads is not supported on this system");
	else if (!(set = hwloc_bitmap_alloc()))
		snprintf(why, why_len, "out of memory");
	if (!set)
		goto out;
	/* The cores with an allowed PU, and how many allowed PUs each has. */
	core_type = ic_core_type();
	ncores = hwloc_get_nbobjs_by_type(ic_topo, core_type);
	/* Within the process's own binding too (taskset), where known and leaving something. */
	allowed = hwloc_topology_get_allowed_cpuset(ic_topo);
	if (ic_topo_start_set && hwloc_bitmap_intersects(ic_topo_start_set, allowed))
		allowed = ic_topo_start_set;
	/* One core kind on a hybrid CPU, where it leaves something. */
	if (ic_topo_kind_set && hwloc_bitmap_intersects(ic_topo_kind_set, allowed) &&
	    (kind_allowed = hwloc_bitmap_alloc())) {
		hwloc_bitmap_and(kind_allowed, ic_topo_kind_set, allowed);
		allowed = kind_allowed;
	}
	for (int i = 0; i < ncores && n < IC_MAX_CORES; i++) {
		hwloc_obj_t c = hwloc_get_obj_by_type(ic_topo, core_type, (unsigned)i);
		hwloc_bitmap_and(set, c->cpuset, allowed);
		int w = hwloc_bitmap_weight(set);
		if (w > 0) {
			cores[n] = c;
			pus_per_core[n++] = w;
		}
	}
	kind = ic_place_thread(thread_index, n, pus_per_core, &core, &pu);
	if (kind == IC_BIND_NONE) {
		snprintf(why, why_len, "no allowed core to bind thread %d to", thread_index);
		goto out;
	}
	/* PU number pu of the core's allowed PUs, alone in the set. */
	hwloc_bitmap_and(set, cores[core]->cpuset, allowed);
	cpu = hwloc_bitmap_first(set);
	for (int k = 0; k < pu; k++)
		cpu = hwloc_bitmap_next(set, cpu);
	hwloc_bitmap_only(set, (unsigned)cpu);
	if (hwloc_set_cpubind(ic_topo, set, HWLOC_CPUBIND_THREAD) < 0) {
		snprintf(why, why_len, "binding thread %d to core %d (cpu %d) failed: %s",
			 thread_index, core, cpu, strerror(errno));
		kind = IC_BIND_NONE;
	}
out:
	hwloc_bitmap_free(kind_allowed);
	hwloc_bitmap_free(set);
	if (os_cpu_out)
		*os_cpu_out = kind == IC_BIND_NONE ? -1 : cpu;
	if (kind_out)
		*kind_out = kind;
	return kind == IC_BIND_NONE ? -1 : 0;
}

int ic_topo_unbind_thread(void)
{
	if (!ic_topo_loaded)
		return -1;
	return hwloc_set_cpubind(ic_topo, ic_topo_start_set ? ic_topo_start_set
				 : hwloc_topology_get_allowed_cpuset(ic_topo), HWLOC_CPUBIND_THREAD) < 0 ? -1 : 0;
}

/* sched_getcpu fails only without getcpu, which every Linux since 2.6.19 has. */
int ic_topo_current_cpu(void)
{
	return sched_getcpu();
}

/* One warning per run: the first ("cannot pin", mostly) matters; every thread would repeat it. */
static atomic_flag ic_warned = ATOMIC_FLAG_INIT;

void ic_topo_warn_once(const char *msg)
{
	if (atomic_flag_test_and_set(&ic_warned))
		return;
	fprintf(stderr, "inlinecost: %s\n", msg);
	fflush(stderr);
}
