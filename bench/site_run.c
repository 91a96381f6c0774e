#include "site_run.h"

#include <stdlib.h>
#include <string.h>
#include "queue_extern.h"

struct ic_site_thread *ic_site_thread_new(const struct ic_point *pt, struct ic_queue *shared)
{
	struct ic_site_thread *t = aligned_alloc(IC_CACHE_LINE, sizeof(*t));

	(void)pt;
	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));   /* first touch here, on this thread's core */
	ic_queue_init_extern(&t->q);
	ic_queue_init_extern(&t->scratch);
	struct ic_queue *q = shared ? shared : &t->q;
	ic_queue_tail_extern(q, &t->anchor.n);
	ic_queue_tail_extern(q, &t->spare.n);
	t->ctx = (struct ic_site_ctx){
		.q = q, .scratch = &t->scratch, .node = &t->held.n, .anchor = &t->anchor.n,
	};
	return t;
}

void ic_site_thread_free(struct ic_site_thread *t, struct ic_queue *shared)
{
	(void)shared;
	free(t);
}
