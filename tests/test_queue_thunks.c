/* The kernel build's thunks (queue/thunks.S) do what a return and an
 * indirect call must: this file is compiled as the sites are (every return
 * a jump to __x86_return_thunk, every indirect call one to
 * __x86_indirect_thunk_<reg>), runs each variant's untraining routine, then
 * deep recursion, calls through pointers and the queue's extern copies, and
 * checks every result. A wrong thunk crashes or returns to the wrong place.
 * Built once per return thunk (ret, retbleed, srso). */
#include "check.h"
#include "queue_extern.h"

void ic_untrain_ret(void);

static struct ic_queue q;
static struct ic_node nodes[64];

__attribute__((noinline)) static unsigned long depth(unsigned long n)
{
	/* Not a tail call: every level returns through the thunk. */
	return n ? 1 + depth(n - 1) + (n & 1) : 0;
}

__attribute__((noinline)) static int twice(int x) { return 2 * x; }
__attribute__((noinline)) static int plus1(int x) { return x + 1; }
static int (*volatile fns[2])(int) = { twice, plus1 };

int main(void)
{
	ic_untrain_ret();
	CHECK(depth(1000) == 1500, "recursion returned %lu", depth(1000));
	int x = 1;
	for (int i = 0; i < 10; i++)
		x = fns[i & 1](x);
	CHECK(x == 63, "indirect calls gave %d, not 63", x);
	ic_queue_init_extern(&q);
	for (int i = 0; i < 64; i++)
		ic_queue_tail_extern(&q, &nodes[i]);
	struct ic_node *out[64];
	CHECK(ic_purge_extern(&q, out) == 64, "purge through the thunks lost nodes");
	for (int i = 0; i < 64; i++)
		CHECK(out[i] == &nodes[i], "node %d out of order", i);
	ic_untrain_ret();
	CHECK(ic_dequeue_extern(&q) == NULL, "queue not empty");
	printf("ok: returns and indirect calls through the thunks\n");
	return 0;
}
