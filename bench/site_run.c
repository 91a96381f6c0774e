#include "site_run.h"

#include <stdlib.h>
#include <string.h>
#include "body.h"
#include "queue_extern.h"

/* A body's state: on cache lines of its own (no false sharing), zeroed (the first
 * touch, on the calling thread's core), set up by the body; NULL: out of memory. */
static void *ic_body_state_new(const struct ic_body *b)
{
	size_t align = b->state_align > IC_CACHE_LINE ? b->state_align : IC_CACHE_LINE;
	size_t size = b->state_size ? b->state_size : 1;
	void *s;

	size = (size + align - 1) / align * align;   /* aligned_alloc wants a multiple */
	s = aligned_alloc(align, size);
	if (!s)
		return NULL;
	memset(s, 0, size);
	b->setup(s);
	return s;
}

int ic_site_shared_new(const struct ic_point *pt, struct ic_site_shared *sh)
{
	memset(sh, 0, sizeof(*sh));
	if (pt->body) {
		sh->body = ic_body_state_new(pt->body);
		return sh->body ? 0 : -1;
	}
	sh->q = aligned_alloc(IC_CACHE_LINE, sizeof(*sh->q));
	if (!sh->q)
		return -1;
	ic_queue_init_extern(sh->q);
	return 0;
}

void ic_site_shared_free(struct ic_site_shared *sh)
{
	free(sh->q);
	free(sh->body);
	memset(sh, 0, sizeof(*sh));
}

struct ic_site_thread *ic_site_thread_new(const struct ic_point *pt, const struct ic_site_shared *shared)
{
	struct ic_site_thread *t = aligned_alloc(IC_CACHE_LINE, sizeof(*t));

	if (!t)
		return NULL;
	memset(t, 0, sizeof(*t));   /* first touch here, on this thread's core */
	ic_queue_init_extern(&t->q);
	ic_queue_init_extern(&t->scratch);
	/* A body's sites touch no queue: the private one stands by. */
	struct ic_queue *q = shared && shared->q ? shared->q : &t->q;
	ic_queue_tail_extern(q, &t->anchor.n);
	ic_queue_tail_extern(q, &t->spare.n);
	void *body = NULL;
	if (pt->body) {
		body = shared ? shared->body : (t->body_own = ic_body_state_new(pt->body));
		if (!body) {
			free(t);
			return NULL;
		}
	}
	t->ctx = (struct ic_site_ctx){
		.q = q, .scratch = &t->scratch, .node = &t->held.n, .anchor = &t->anchor.n,
		.body = body,
	};
	return t;
}

void ic_site_thread_free(struct ic_site_thread *t)
{
	if (!t)
		return;
	free(t->body_own);
	free(t);
}
