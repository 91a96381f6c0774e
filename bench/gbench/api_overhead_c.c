/* The C halves of api_overhead (see api_overhead.h): loops in C, one call
 * into the library per batch. */
#include "api_overhead.h"

#include <stdio.h>
#include <stdlib.h>

#include "opt_barrier.h"
#include "queue_extern.h"

int api_overhead_fixture_init(struct api_overhead_fixture *f)
{
	/* struct ic_queue is cache-line aligned (its lock has a line of its own). */
	f->q = aligned_alloc(_Alignof(struct ic_queue), sizeof(*f->q));
	f->node = malloc(sizeof(*f->node));
	if (!f->q || !f->node) {
		fprintf(stderr, "api_overhead: out of memory for the queue fixture\n");
		api_overhead_fixture_fini(f);
		return -1;
	}
	ic_queue_init_extern(f->q);
	return 0;
}

void api_overhead_fixture_fini(struct api_overhead_fixture *f)
{
	free(f->q);
	free(f->node);
	f->q = NULL;
	f->node = NULL;
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
	struct api_overhead_fixture f;

	(void)arg;
	if (api_overhead_fixture_init(&f) != 0) {
		icb_skip_with_error(st, "out of memory for the queue fixture");
		return;
	}
	/* Copies whose address is not taken stay in registers on both sides. */
	struct ic_queue *q = f.q;
	struct ic_node *node = f.node;

	while (icb_keep_running_batch(st, batch))
		for (int64_t i = 0; i < batch; i++) {
			ic_queue_tail_extern(q, node);
			icb_sink_ptr(ic_dequeue_extern(q));
		}
	api_overhead_fixture_fini(&f);
}
