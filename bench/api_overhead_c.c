/* api_overhead's C halves (api_overhead.h): loops in C, a library call per batch. */
#include "api_overhead.h"

#include "opt_barrier.h"
#include "queue_extern.h"

struct api_overhead_fixture api_overhead_fixture(void)
{
	/* struct ic_queue is cache-line aligned (its lock has its own line). */
	static struct ic_queue q;
	static struct ic_node node;

	ic_queue_init_extern(&q);
	return (struct api_overhead_fixture){ &q, &node };
}

void api_overhead_c_empty(icb_state *st, void *arg)
{
	int64_t batch = icb_range(st, 0);

	(void)arg;
	while (icb_keep_running_batch(st, batch))
		for (int64_t i = 0; i < batch; i++)
			icb_sink_u64((uint64_t)i);
}

void api_overhead_c_queue(icb_state *st, void *arg)
{
	int64_t batch = icb_range(st, 0);
	struct api_overhead_fixture f = api_overhead_fixture();

	(void)arg;
	/* Copies whose address is not taken stay in registers on both sides. */
	struct ic_queue *q = f.q;
	struct ic_node *node = f.node;

	while (icb_keep_running_batch(st, batch))
		for (int64_t i = 0; i < batch; i++) {
			ic_queue_tail_extern(q, node);
			icb_sink_ptr(ic_dequeue_extern(q));
		}
}
