/* One uncontended locked queue operation in each form, beside a bare atomic exchange and a
 * release store back to back: an uncontended test-and-set lock with no critical section.
 * (Named floor/ in the output, though it bounds nothing: on the Xeon guest, 2026-12-06, a
 * whole inlined operation measured 12% faster.) One iteration is one locked operation: the
 * loop alternates queue_tail and dequeue on a private queue holding one other node, in
 * steady state. Built once per lock (queue_microbench_tas, _ticket). */
#include <stdalign.h>
#include <stdatomic.h>
#include <stdlib.h>
#include "gbench_c.h"
#include "opt_barrier.h"
#include "queue_inline.h"
#include "queue_hint.h"
#include "queue_extern.h"

#define PAIRS_PER_BATCH 512   /* 1,024 operations between crossings into C++ */

struct fixture {
	struct ic_queue q;
	struct ic_node held, other;
};

static struct fixture *fixture_new(void)
{
	struct fixture *f = aligned_alloc(IC_CACHE_LINE, sizeof(*f));
	if (!f)
		return NULL;
	ic_queue_init_extern(&f->q);
	ic_queue_tail_extern(&f->q, &f->other);
	return f;
}

#define DEFINE_FORM_BENCH(form)                                                    \
static void bench_##form(icb_state *st, void *arg)                                 \
{                                                                                  \
	struct fixture *f = fixture_new();                                         \
	struct ic_node *n;                                                         \
	(void)arg;                                                                 \
	if (!f) {                                                                  \
		icb_skip_with_error(st, "out of memory");                          \
		return;                                                            \
	}                                                                          \
	n = &f->held;                                                              \
	while (icb_keep_running_batch(st, 2 * PAIRS_PER_BATCH))                    \
		for (int i = 0; i < PAIRS_PER_BATCH; i++) {                        \
			ic_queue_tail_##form(&f->q, n);                            \
			n = ic_dequeue_##form(&f->q);                              \
			icb_sink_ptr(n);                                           \
		}                                                                  \
	icb_set_items_processed(st, icb_iterations_done(st));                      \
	free(f);                                                                   \
}

DEFINE_FORM_BENCH(inline)
DEFINE_FORM_BENCH(hint)
DEFINE_FORM_BENCH(extern)

static void bench_floor(icb_state *st, void *arg)
{
	static alignas(IC_CACHE_LINE) atomic_uint word;
	(void)arg;
	while (icb_keep_running_batch(st, 2 * PAIRS_PER_BATCH))
		for (int i = 0; i < 2 * PAIRS_PER_BATCH; i++) {
			unsigned was = atomic_exchange_explicit(&word, 1, memory_order_acquire);
			icb_sink_u64(was);
			atomic_store_explicit(&word, 0, memory_order_release);
		}
	icb_set_items_processed(st, icb_iterations_done(st));
}

int main(int argc, char **argv)
{
	icb_initialize(&argc, argv);
	if (icb_report_unrecognized(argc, argv))
		return 2;
	icb_add_context("lock", IC_LOCK_NAME);
	icb_register("floor/" IC_LOCK_NAME "/xchg+release", bench_floor, NULL);
	icb_register("queue/" IC_LOCK_NAME "/inline", bench_inline, NULL);
	icb_register("queue/" IC_LOCK_NAME "/hint", bench_hint, NULL);
	icb_register("queue/" IC_LOCK_NAME "/extern", bench_extern, NULL);
	size_t ran = icb_run_specified();
	icb_shutdown();
	return ran ? 0 : 1;
}
