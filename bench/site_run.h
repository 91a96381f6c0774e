/* A thread's working set for running a point's call sites: its nodes, its
 * private queues, and the site context. Allocated and touched by the thread
 * that uses it, after it is bound to its core. */
#ifndef IC_SITE_RUN_H
#define IC_SITE_RUN_H

#include "site.h"

/* Nodes on their own cache lines, like the kernel's separately allocated
 * sk_buffs: no false sharing between one thread's nodes and another's. */
struct ic_site_node {
	alignas(IC_CACHE_LINE) struct ic_node n;
};

struct ic_site_thread {
	struct ic_queue q;          /* the private queue (private mode) */
	struct ic_queue scratch;    /* always private: `mixed` purges it */
	struct ic_site_node held;   /* the node the sites pass along */
	struct ic_site_node anchor; /* stays on the queue for insert/append */
	struct ic_site_node spare;  /* keeps the queue non-empty for dequeue */
	struct ic_site_ctx ctx;
};

/* shared: the queue every thread works on, or NULL for a private one. The
 * thread's anchor and spare node go onto the queue; one warm-up is up to the
 * caller. NULL when out of memory. */
struct ic_site_thread *ic_site_thread_new(const struct ic_point *pt, struct ic_queue *shared);

/* Frees the thread's memory. For a shared queue the caller re-initialises it
 * once every thread has finished. */
void ic_site_thread_free(struct ic_site_thread *t, struct ic_queue *shared);

#endif
