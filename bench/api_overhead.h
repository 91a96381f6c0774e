/* api_overhead's two halves: each loop natively on benchmark::State
 * (api_overhead.cc) and in C through gbench_c.h (api_overhead_c.c), both with
 * the batch size from range(0), one fixture and one barrier: only the API differs. */
#ifndef ICB_API_OVERHEAD_H
#define ICB_API_OVERHEAD_H

#include "gbench_c.h"

#ifdef __cplusplus
extern "C" {
#endif

struct ic_queue;
struct ic_node;

/* queue_extern.h needs C11 <stdatomic.h>, which C++17 cannot include: the two
 * operations used again here (api_overhead_c.c includes both: a mismatch fails). */
void ic_queue_tail_extern(struct ic_queue *q, struct ic_node *n);
struct ic_node *ic_dequeue_extern(struct ic_queue *q);

/* A private (uncontended) queue and one node to cycle through it. */
struct api_overhead_fixture {
	struct ic_queue *q;
	struct ic_node *node;
};

/* The fixture, static, its queue initialised afresh: the benchmarks run one at a time. */
struct api_overhead_fixture api_overhead_fixture(void);

/* The C halves, for icb_register; arg is unused. */
void api_overhead_c_empty(icb_state *st, void *arg);
void api_overhead_c_queue(icb_state *st, void *arg);

#ifdef __cplusplus
}
#endif

#endif /* ICB_API_OVERHEAD_H */
