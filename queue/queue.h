/* The locked packet queue, modelled on the kernel's sk_buff_head. The head doubles as the list's
 * sentinel: an empty queue's head points at itself, so no operation tests for NULL neighbours.
 * Nodes are meant to be embedded in the caller's own structures.
 *
 * This header holds the types and the unlocked primitives (the kernel's __skb_* twins). Every
 * __ic_* function here takes no locks: the caller must hold q->lock, or own the queue outright.
 * The locked operations are written once in queue_body.h and come in three forms, named by suffix:
 *   queue_inline.h  ic_<op>_inline  forced inlining (the 2004 kernel's inline)
 *   queue_hint.h    ic_<op>_hint    plain static inline, the compiler decides
 *   queue_extern.h  ic_<op>_extern  one out-of-line copy, never inlined
 * and two controls without the lock (a compiler barrier instead; one thread on a private queue
 * only): queue_inline_nolock.h, queue_extern_nolock.h. gen's clone form copies the inline body
 * out of line per site (queue_clone.h). Your own function instead of the queue, in the same
 * forms: body.h. */
#ifndef IC_QUEUE_H
#define IC_QUEUE_H

#include <stddef.h>
#include <stdint.h>
#include "lock.h"

struct ic_node {
	struct ic_node *next;
	struct ic_node *prev;
};

struct ic_queue {
	struct ic_lock lock;                     /* on a line of its own */
	alignas(IC_CACHE_LINE) struct ic_node head; /* sentinel: next = first, prev = last */
	uint32_t qlen;
};

IC_ALWAYS_INLINE void __ic_queue_init(struct ic_queue *q)
{
	q->head.next = q->head.prev = &q->head;
	q->qlen = 0;
}

IC_ALWAYS_INLINE int ic_queue_empty(const struct ic_queue *q)
{
	return q->head.next == &q->head;
}

IC_ALWAYS_INLINE void __ic_link_between(struct ic_queue *q, struct ic_node *n,
					struct ic_node *prev, struct ic_node *next)
{
	n->next = next;
	n->prev = prev;
	next->prev = n;
	prev->next = n;
	q->qlen++;
}

IC_ALWAYS_INLINE void __ic_queue_head(struct ic_queue *q, struct ic_node *n)
{
	__ic_link_between(q, n, &q->head, q->head.next);
}

IC_ALWAYS_INLINE void __ic_queue_tail(struct ic_queue *q, struct ic_node *n)
{
	__ic_link_between(q, n, q->head.prev, &q->head);
}

/* Put n just before old, which must be on q (old may be the head: the tail). */
IC_ALWAYS_INLINE void __ic_insert(struct ic_queue *q, struct ic_node *old, struct ic_node *n)
{
	__ic_link_between(q, n, old->prev, old);
}

/* Put n just after old, which must be on q. */
IC_ALWAYS_INLINE void __ic_append(struct ic_queue *q, struct ic_node *old, struct ic_node *n)
{
	__ic_link_between(q, n, old, old->next);
}

IC_ALWAYS_INLINE void __ic_unlink(struct ic_queue *q, struct ic_node *n)
{
	struct ic_node *next = n->next, *prev = n->prev;

	q->qlen--;
	n->next = n->prev = NULL;
	next->prev = prev;
	prev->next = next;
}

/* n, unlinked; NULL when n is the head (the queue is empty). */
IC_ALWAYS_INLINE struct ic_node *__ic_take(struct ic_queue *q, struct ic_node *n)
{
	if (n == &q->head)
		return NULL;
	__ic_unlink(q, n);
	return n;
}

IC_ALWAYS_INLINE struct ic_node *__ic_dequeue(struct ic_queue *q)
{
	return __ic_take(q, q->head.next);
}

IC_ALWAYS_INLINE struct ic_node *__ic_dequeue_tail(struct ic_queue *q)
{
	return __ic_take(q, q->head.prev);
}

#endif /* IC_QUEUE_H */
