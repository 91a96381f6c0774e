/* The locked queue operations, written once. Not a normal header: each form's header defines
 * IC_FORM_ATTR (storage and inlining attributes) and IC_FORM_SUFFIX, then includes this file, which
 * defines (or, with IC_FORM_DECLARE_ONLY, declares) ic_<op>_<suffix>. Each operation takes q->lock
 * around the matching unlocked primitive of queue.h, through IC_FORM_ACQUIRE / IC_FORM_RELEASE:
 * ic_lock_acquire/ic_lock_release unless the form header names others (the nolock forms' compiler
 * barrier). */
#include "queue.h"

#ifndef IC_FORM_ACQUIRE
#define IC_FORM_ACQUIRE ic_lock_acquire
#define IC_FORM_RELEASE ic_lock_release
#define IC__FORM_LOCK_DEFAULT
#endif

#define IC__CAT2(a, b) a##_##b
#define IC__CAT(a, b) IC__CAT2(a, b)
#define IC_FORM(op) IC__CAT(op, IC_FORM_SUFFIX)

#ifdef IC_FORM_DECLARE_ONLY
#define IC__BODY(...) ;
#else
#define IC__BODY(...) { __VA_ARGS__ }
#endif

/* stmt with q->lock held. */
#define IC__LOCKED(stmt) do { \
	IC_FORM_ACQUIRE(&q->lock); \
	stmt; \
	IC_FORM_RELEASE(&q->lock); \
} while (0)

IC_FORM_ATTR void IC_FORM(ic_queue_init)(struct ic_queue *q)
IC__BODY(
	ic_lock_init(&q->lock);
	__ic_queue_init(q);
)

IC_FORM_ATTR void IC_FORM(ic_queue_head)(struct ic_queue *q, struct ic_node *n)
IC__BODY(
	IC__LOCKED(__ic_queue_head(q, n));
)

IC_FORM_ATTR void IC_FORM(ic_queue_tail)(struct ic_queue *q, struct ic_node *n)
IC__BODY(
	IC__LOCKED(__ic_queue_tail(q, n));
)

/* Returns the first node, or NULL when the queue is empty. */
IC_FORM_ATTR struct ic_node *IC_FORM(ic_dequeue)(struct ic_queue *q)
IC__BODY(
	struct ic_node *n;

	IC__LOCKED(n = __ic_dequeue(q));
	return n;
)

/* Returns the last node, or NULL when the queue is empty. */
IC_FORM_ATTR struct ic_node *IC_FORM(ic_dequeue_tail)(struct ic_queue *q)
IC__BODY(
	struct ic_node *n;

	IC__LOCKED(n = __ic_dequeue_tail(q));
	return n;
)

/* Put n before old, which must be on q. */
IC_FORM_ATTR void IC_FORM(ic_insert)(struct ic_queue *q, struct ic_node *old, struct ic_node *n)
IC__BODY(
	IC__LOCKED(__ic_insert(q, old, n));
)

/* Put n after old, which must be on q. */
IC_FORM_ATTR void IC_FORM(ic_append)(struct ic_queue *q, struct ic_node *old, struct ic_node *n)
IC__BODY(
	IC__LOCKED(__ic_append(q, old, n));
)

/* n must be on q. */
IC_FORM_ATTR void IC_FORM(ic_unlink)(struct ic_queue *q, struct ic_node *n)
IC__BODY(
	IC__LOCKED(__ic_unlink(q, n));
)

/* Empty q into out[], in queue order, each node stored outside the lock; returns how many. out
 * must have room for every node on q. As skb_queue_purge did, the lock is taken once per node,
 * so other CPUs are never held off for the whole queue. The release is one store per node in
 * every form: a release callback became one store where purge was inlined but an indirect call
 * per node out of line, so the forms did not do the same work. */
IC_FORM_ATTR size_t IC_FORM(ic_purge)(struct ic_queue *q, struct ic_node **out)
IC__BODY(
	struct ic_node *n;
	size_t k = 0;

	while ((n = IC_FORM(ic_dequeue)(q)) != NULL)
		out[k++] = n;
	return k;
)

#undef IC__LOCKED
#undef IC__BODY
#ifdef IC__FORM_LOCK_DEFAULT
#undef IC_FORM_ACQUIRE
#undef IC_FORM_RELEASE
#undef IC__FORM_LOCK_DEFAULT
#endif
#undef IC_FORM
#undef IC__CAT
#undef IC__CAT2
