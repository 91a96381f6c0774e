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
};

/* 0 ok, -1 on failure (message on stderr). A second call is a no-op. */
int ic_topo_open(void);
void ic_topo_close(void);

/* 0 ok, -1 when the topology is not open. */
int ic_topo_describe(struct ic_topo_info *out);

/* Bind the calling thread to one PU (the first) of core thread_index, in
 * hwloc's logical core order. 0 ok and *os_cpu_out = that PU's OS number;
 * -1 with a one-line reason in why when thread_index >= cores, the core is
 * outside the allowed cpuset, or binding is unsupported or fails. */
int ic_topo_bind_thread(int thread_index, int *os_cpu_out, char *why, size_t why_len);

/* OS number of the CPU the calling thread runs on now, -1 if unknown. */
int ic_topo_current_cpu(void);

/* Print "inlinecost: <msg>" on stderr on the first call of the run only;
 * later calls print nothing (thread-safe). */
void ic_topo_warn_once(const char *msg);

#endif
