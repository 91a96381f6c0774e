/* Object-code probe for test_queue_forms_objcode.sh: one function per form, each calling
 * the same locked operation. noinline keeps each a separate symbol. */
#include "queue_inline.h"
#include "queue_hint.h"
#include "queue_extern.h"
#include "queue_inline_nolock.h"
#include "queue_extern_nolock.h"
#include "queue_clone.h"

__attribute__((noinline)) void probe_inline(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_inline(q, n);
}

__attribute__((noinline)) void probe_hint(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_hint(q, n);
}

__attribute__((noinline)) void probe_extern(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_extern(q, n);
}

__attribute__((noinline)) void probe_inline_nolock(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_inline_nolock(q, n);
}

__attribute__((noinline)) void probe_extern_nolock(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_extern_nolock(q, n);
}

/* Two identical copies, as gen's clone form writes one per site: they must
 * stay two functions, each called. */
static IC_CLONE_ATTR void probe_clone_a(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_inline(q, n);
}

static IC_CLONE_ATTR void probe_clone_b(struct ic_queue *q, struct ic_node *n)
{
	ic_queue_tail_inline(q, n);
}

__attribute__((noinline)) void probe_clone(struct ic_queue *q, struct ic_node *n)
{
	probe_clone_a(q, n);
	probe_clone_b(q, n);
}

/* purge in every form, for its release work: one store per node, and no
 * call through a pointer, wherever the loop ends up. */
__attribute__((noinline)) size_t probe_purge_inline(struct ic_queue *q, struct ic_node **out)
{
	return ic_purge_inline(q, out);
}

__attribute__((noinline)) size_t probe_purge_extern(struct ic_queue *q, struct ic_node **out)
{
	return ic_purge_extern(q, out);
}

static IC_CLONE_ATTR size_t probe_purge_clone_a(struct ic_queue *q, struct ic_node **out)
{
	return ic_purge_inline(q, out);
}

__attribute__((noinline)) size_t probe_purge_clone(struct ic_queue *q, struct ic_node **out)
{
	return probe_purge_clone_a(q, out);
}
