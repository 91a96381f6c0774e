/* Machine topology and thread pinning through hwloc.
 *
 * Open once (ic_topo_open) before any other call; after that every function
 * is safe to call from several threads at once.
 */
#ifndef IC_TOPOLOGY_H
#define IC_TOPOLOGY_H

#include <stddef.h>

struct ic_topo_info {
	char cpu_model[128];    /* Package "CPUModel" info; "" if unknown */
	int cores;
	int pus;
	int smt;                /* 1 when some core has more than one PU */
	/* Bytes (assoc: ways, a fully associative cache has size/line ways);
	 * -1 unknown, never 0. The first cache of each kind: caches of the
	 * same level are the same size on the machines this suite targets. */
	long l1i_size, l1i_assoc, l1i_line, l1d_size, l2_size, l3_size;
	/* Core kinds (hwloc cpukinds): "one kind", or on a hybrid CPU which
	 * kind threads are placed on, e.g. "2 kinds; threads on IntelCore
	 * (8 PUs, the most performant kind)". */
	char kinds[160];
};

/* 0 ok, -1 on failure (message on stderr). A second call is a no-op. */
int ic_topo_open(void);
void ic_topo_close(void);

/* 0 ok, -1 when the topology is not open. */
int ic_topo_describe(struct ic_topo_info *out);

/* How a thread was placed. Threads go one per core first, then onto the
 * cores' further PUs (SMT siblings), then round again onto PUs that already
 * hold a thread: a run with more threads than PUs is oversubscribed, and
 * says so, rather than piling every extra thread onto one core. */
enum ic_bind_kind {
	IC_BIND_CORE,     /* a core of its own */
	IC_BIND_SMT,      /* an SMT sibling of a core another thread has */
	IC_BIND_SHARED,   /* a PU another thread of the run also has */
	IC_BIND_NONE,     /* not bound: runs where the OS puts it */
};

/* "core", "smt", "shared", "unbound". */
const char *ic_bind_kind_name(enum ic_bind_kind kind);

/* Pure: where thread thread_index goes on a machine of n_cores cores with
 * pus_per_core[c] PUs each (all > 0, hwloc's logical order). Sets *core and
 * *pu (index within the core) and returns the kind; IC_BIND_NONE for a
 * negative index or no cores. */
enum ic_bind_kind ic_place_thread(int thread_index, int n_cores, const int *pus_per_core,
				  int *core, int *pu);

/* Pure: the core kind threads go on, of n kinds (hwloc's order, least
 * performant first): the highest efficiency rank (hwloc: higher means more
 * performance), ties to the kind with more PUs; where hwloc could not rank
 * them (all efficiency -1), the kind whose core_type is "IntelCore" (a
 * P-core; core_type entries may be NULL), else the one with the most PUs.
 * -1 when n <= 0. A hybrid CPU's P- and E-cores differ in caches and
 * width, so one run's threads must not mix them. */
int ic_pick_core_kind(int n, const int *efficiency, const int *n_pus,
		      const char *const *core_type);

/* Bind the calling thread to one PU, placed by ic_place_thread over the
 * cores and PUs of the allowed cpuset (of the picked core kind only, on a
 * hybrid CPU: ic_pick_core_kind). 0 ok, *os_cpu_out = that PU's OS
 * number and *kind_out how it was placed; -1 with a one-line reason in why
 * (and *kind_out = IC_BIND_NONE) when thread_index < 0, nothing is allowed,
 * or binding is unsupported or fails. Either out pointer may be NULL. */
int ic_topo_bind_thread(int thread_index, int *os_cpu_out, enum ic_bind_kind *kind_out,
			char *why, size_t why_len);

/* Let the calling thread run where the process could when the topology was
 * opened (its taskset or cpuset; the allowed cpuset if that is unknown), so
 * the threads it creates later do not inherit a one-PU mask. 0 ok, -1 failed. */
int ic_topo_unbind_thread(void);

/* OS number of the CPU the calling thread runs on now, -1 if unknown. */
int ic_topo_current_cpu(void);

/* Print "inlinecost: <msg>" on stderr on the first call of the run only;
 * later calls print nothing (thread-safe). */
void ic_topo_warn_once(const char *msg);

#endif
