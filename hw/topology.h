/* Topology and thread pinning through hwloc: ic_topo_open first, then every call is thread-safe. */
#ifndef IC_TOPOLOGY_H
#define IC_TOPOLOGY_H

#include <stddef.h>

struct ic_topo_info {
	char cpu_model[128];    /* Package "CPUModel" info; "" if unknown */
	int cores;
	int pus;
	int smt;                /* 1 when some core has more than one PU */
	/* Bytes (assoc: ways; fully associative: size/line), -1 unknown; of the first
	 * cache of each kind (on the machines targeted one level is one size). */
	long l1i_size, l1i_assoc, l1i_line, l1d_size, l2_size, l3_size;
	/* hwloc cpukinds: "one kind", "2 kinds; threads on IntelCore (8 PUs, the most performant kind)" */
	char kinds[160];
};

/* 0 ok, -1 on failure (message on stderr). A second call is a no-op. */
int ic_topo_open(void);
void ic_topo_close(void);

/* 0 ok, -1 when the topology is not open. */
int ic_topo_describe(struct ic_topo_info *out);

/* How a thread was placed: one per core first, then onto SMT siblings, then round
 * again onto PUs that hold a thread (oversubscribed, and saying so, rather than
 * piling every extra thread onto one core). */
enum ic_bind_kind {
	IC_BIND_CORE,     /* a core of its own */
	IC_BIND_SMT,      /* an SMT sibling of a core another thread has */
	IC_BIND_SHARED,   /* a PU another thread of the run also has */
	IC_BIND_NONE,     /* not bound: runs where the OS puts it */
};

/* "core", "smt", "shared", "unbound". */
const char *ic_bind_kind_name(enum ic_bind_kind kind);

/* Pure: the core and PU (index within the core) of thread thread_index on n_cores
 * cores of pus_per_core[c] > 0 PUs; IC_BIND_NONE for a negative index or no cores. */
enum ic_bind_kind ic_place_thread(int thread_index, int n_cores, const int *pus_per_core,
				  int *core, int *pu);

/* Pure: the core kind threads go on, of n (a hybrid CPU's P- and E-cores differ in
 * caches and width: one run's threads must not mix them): the highest hwloc
 * efficiency, ties to more PUs; none ranked (all -1): core_type "IntelCore"
 * (entries may be NULL), else the most PUs. -1: n <= 0. */
int ic_pick_core_kind(int n, const int *efficiency, const int *n_pus,
		      const char *const *core_type);

/* Bind the calling thread to the PU ic_place_thread picks among the allowed ones
 * (of the picked core kind only). 0 ok, with that PU's OS number and how it was
 * placed (either pointer may be NULL); -1 with a line in why and IC_BIND_NONE. */
int ic_topo_bind_thread(int thread_index, int *os_cpu_out, enum ic_bind_kind *kind_out,
			char *why, size_t why_len);

/* Unbind to the process's PUs at ic_topo_open: no one-PU mask for its later threads; -1 failed. */
int ic_topo_unbind_thread(void);

/* OS number of the CPU the calling thread runs on now, -1 if unknown. */
int ic_topo_current_cpu(void);

/* "inlinecost: <msg>" on stderr, on the first call only (thread-safe). */
void ic_topo_warn_once(const char *msg);

#endif
