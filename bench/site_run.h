/* A thread's working set for a point's call sites: its nodes, its private
 * queues, a body's state (queue/body.h), the site context; allocated and
 * touched by the thread that uses it, once bound to its core. */
#ifndef IC_SITE_RUN_H
#define IC_SITE_RUN_H

#include "site.h"

/* Nodes on cache lines of their own, like the kernel's sk_buffs: no false sharing between threads. */
struct ic_site_node {
	alignas(IC_CACHE_LINE) struct ic_node n;
};

struct ic_site_thread {
	struct ic_queue q;          /* the private queue (private mode) */
	struct ic_queue scratch;    /* always private: `mixed` purges it */
	struct ic_site_node held;   /* the node the sites pass along */
	struct ic_site_node anchor; /* stays on the queue for insert/append */
	struct ic_site_node spare;  /* keeps the queue non-empty for dequeue */
	void *body_own;             /* a body's state of this thread's own (private mode) */
	struct ic_site_ctx ctx;
};

/* A shared run's queue, or a body's state (set up), made once by thread 0 on its core. */
struct ic_site_shared {
	struct ic_queue *q;
	void *body;
};

/* Makes sh for pt: 0, or -1 when out of memory (sh then holds nothing); freed
 * once every thread has finished with it. */
int ic_site_shared_new(const struct ic_point *pt, struct ic_site_shared *sh);
void ic_site_shared_free(struct ic_site_shared *sh);

/* shared: what every thread works on, or NULL for a queue and body state of the
 * thread's own (zeroed and set up here, on this thread). The anchor and spare
 * node go onto the queue; a warm-up is the caller's. NULL when out of memory. */
struct ic_site_thread *ic_site_thread_new(const struct ic_point *pt, const struct ic_site_shared *shared);

/* Frees t (may be NULL); a shared queue keeps its nodes until ic_site_shared_free. */
void ic_site_thread_free(struct ic_site_thread *t);

#endif
