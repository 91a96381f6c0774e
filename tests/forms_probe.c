/* Object-code probe for check_forms.sh: one function per form, each calling
 * the same locked operation. noinline keeps each a separate symbol. */
#include "queue_inline.h"
#include "queue_hint.h"
#include "queue_extern.h"

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
