/* Concurrent stress: T threads x M mixed locked operations on one shared
 * queue, then every node accounted for (none lost, none twice) and qlen equal
 * to the list's length. Thread i uses form i % 3, so the forms also prove they
 * interoperate on one queue.
 *
 * Phase A mixes the operations that may take any node (head, tail, dequeue,
 * dequeue_tail, insert/append at the head sentinel, purge). Phase B inserts
 * and appends next to per-thread anchors and unlinks the thread's own nodes:
 * unlink is only valid for a node known to be on the queue, so it cannot share
 * a queue with dequeuers that might take that node first.
 *
 * Usage: test_queue_stress [threads] [ops per thread] */
#include <pthread.h>
#include <string.h>
#include "check.h"
#include "queue_inline.h"
#include "queue_hint.h"
#include "queue_extern.h"

#define HELD_PER_THREAD 16   /* nodes each thread starts with */

static int n_threads = 4;
static long n_ops = 200000;

static struct ic_queue qa, qb;
static struct ic_node *pool;          /* n_threads * HELD_PER_THREAD nodes */
static struct ic_node *anchors;       /* one per thread, on qb */
static pthread_barrier_t start;

struct worker {
	int id;
	int n_held;
	struct ic_node **held;        /* capacity: every node */
	unsigned long long seed;
	long ops[8];
};

#define DEFINE_WORKERS(form)                                                          \
static void phase_a_##form(struct worker *w)                                          \
{                                                                                     \
	for (long i = 0; i < n_ops; i++) {                                            \
		unsigned op = (unsigned)(ic_test_rand(&w->seed) % 1000);              \
		struct ic_node *n;                                                    \
		if (op < 999 && op % 8 < 4 && w->n_held > 0) {                       \
			n = w->held[--w->n_held];                                     \
			switch (op % 4) {                                             \
			case 0: ic_queue_head_##form(&qa, n); break;                  \
			case 1: ic_queue_tail_##form(&qa, n); break;                  \
			case 2: ic_insert_##form(&qa, &qa.head, n); break;            \
			default: ic_append_##form(&qa, &qa.head, n); break;           \
			}                                                             \
			w->ops[op % 4]++;                                             \
		} else if (op < 999) {                                                \
			n = (op & 1) ? ic_dequeue_##form(&qa) : ic_dequeue_tail_##form(&qa); \
			if (n)                                                        \
				w->held[w->n_held++] = n;                             \
			w->ops[4 + (op & 1)]++;                                       \
		} else {                                                              \
			w->n_held += (int)ic_purge_##form(&qa, w->held + w->n_held);  \
			w->ops[6]++;                                                  \
		}                                                                     \
	}                                                                             \
}                                                                                     \
static void phase_b_##form(struct worker *w)                                          \
{                                                                                     \
	struct ic_node *mine[2];                                                      \
	struct ic_node *anchor = &anchors[w->id];                                     \
	CHECK(w->n_held >= 2, "phase B needs two nodes");                             \
	mine[0] = w->held[0];                                                         \
	mine[1] = w->held[1];                                                         \
	for (long i = 0; i < n_ops / 2; i++) {                                        \
		unsigned r = (unsigned)ic_test_rand(&w->seed);                       \
		for (int k = 0; k < 2; k++) {                                         \
			if ((r >> k) & 1)                                             \
				ic_insert_##form(&qb, anchor, mine[k]);               \
			else                                                          \
				ic_append_##form(&qb, anchor, mine[k]);               \
		}                                                                     \
		ic_unlink_##form(&qb, mine[(r >> 2) & 1]);                            \
		ic_unlink_##form(&qb, mine[!((r >> 2) & 1)]);                         \
		w->ops[7] += 2;                                                       \
	}                                                                             \
}

DEFINE_WORKERS(inline)
DEFINE_WORKERS(hint)
DEFINE_WORKERS(extern)

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	pthread_barrier_wait(&start);
	switch (w->id % 3) {
	case 0: phase_a_inline(w); break;
	case 1: phase_a_hint(w); break;
	default: phase_a_extern(w); break;
	}
	pthread_barrier_wait(&start);
	/* Main moves every node out of qa between the phases. */
	pthread_barrier_wait(&start);
	switch (w->id % 3) {
	case 0: phase_b_inline(w); break;
	case 1: phase_b_hint(w); break;
	default: phase_b_extern(w); break;
	}
	return NULL;
}

/* Walk q both ways; mark each node seen; return the count. */
static long walk(const struct ic_queue *q, unsigned char *seen, long total)
{
	long len = 0;
	const struct ic_node *n;

	for (n = q->head.next; n != &q->head; n = n->next) {
		CHECK(n->next->prev == n, "broken back link");
		if (n >= pool && n < pool + total) {
			CHECK(!seen[n - pool], "node %ld on the queue twice", (long)(n - pool));
			seen[n - pool] = 1;
		}
		CHECK(++len <= total + n_threads, "list longer than every node: a cycle");
	}
	return len;
}

int main(int argc, char **argv)
{
	if (argc > 1)
		n_threads = atoi(argv[1]);
	if (argc > 2)
		n_ops = atol(argv[2]);
	CHECK(n_threads >= 2 && n_ops >= 100, "usage: test_queue_stress [threads>=2] [ops>=100]");

	long total = (long)n_threads * HELD_PER_THREAD;
	pool = calloc((size_t)total, sizeof(*pool));
	anchors = calloc((size_t)n_threads, sizeof(*anchors));
	struct worker *w = calloc((size_t)n_threads, sizeof(*w));
	pthread_t *tid = calloc((size_t)n_threads, sizeof(*tid));
	unsigned char *seen = calloc((size_t)total, 1);
	CHECK(pool && anchors && w && tid && seen, "out of memory");

	ic_queue_init_extern(&qa);
	ic_queue_init_extern(&qb);
	for (int t = 0; t < n_threads; t++)
		ic_queue_tail_extern(&qb, &anchors[t]);
	pthread_barrier_init(&start, NULL, (unsigned)n_threads + 1);
	for (int t = 0; t < n_threads; t++) {
		w[t].id = t;
		w[t].seed = 0x2004ull * (unsigned long long)(t + 1);
		w[t].held = calloc((size_t)total, sizeof(*w[t].held));
		CHECK(w[t].held, "out of memory");
		for (int k = 0; k < HELD_PER_THREAD; k++)
			w[t].held[w[t].n_held++] = &pool[t * HELD_PER_THREAD + k];
		CHECK(pthread_create(&tid[t], NULL, worker_main, &w[t]) == 0, "pthread_create");
	}

	pthread_barrier_wait(&start);   /* phase A runs */
	pthread_barrier_wait(&start);   /* phase A done */
	long on_queue = walk(&qa, seen, total), held = 0;
	CHECK(qa.qlen == (uint32_t)on_queue, "phase A: qlen %u but the list holds %ld", qa.qlen, on_queue);
	for (int t = 0; t < n_threads; t++) {
		for (int k = 0; k < w[t].n_held; k++) {
			long i = w[t].held[k] - pool;
			CHECK(i >= 0 && i < total, "thread %d holds a foreign node", t);
			CHECK(!seen[i], "node %ld both held and queued, or held twice", i);
			seen[i] = 1;
		}
		held += w[t].n_held;
	}
	CHECK(on_queue + held == total, "phase A: %ld queued + %ld held != %ld nodes", on_queue, held, total);
	/* Give every thread at least two nodes for phase B. */
	for (int t = 0; t < n_threads; t++)
		w[t].n_held = 0;
	for (long i = 0; i < total; i++)
		w[i % n_threads].held[w[i % n_threads].n_held++] = &pool[i];
	ic_queue_init_extern(&qa);
	pthread_barrier_wait(&start);   /* phase B runs */

	long ops = 0;
	for (int t = 0; t < n_threads; t++) {
		CHECK(pthread_join(tid[t], NULL) == 0, "pthread_join");
		for (int k = 0; k < 8; k++)
			ops += w[t].ops[k];
	}
	memset(seen, 0, (size_t)total);
	long len = walk(&qb, seen, total);
	CHECK(len == n_threads && qb.qlen == (uint32_t)n_threads,
	      "phase B: %ld nodes listed, qlen %u, want the %d anchors", len, qb.qlen, n_threads);
	for (long i = 0; i < total; i++)
		CHECK(!seen[i], "phase B: node %ld left on the queue", i);
	for (int t = 0; t < n_threads; t++)
		free(w[t].held);
	free(w);
	free(tid);
	free(seen);
	free(anchors);
	free(pool);
	pthread_barrier_destroy(&start);
	printf("stress: %d threads, %ld operations, every node accounted for (lock %s)\n",
	       n_threads, ops, IC_LOCK_NAME);
	return 0;
}
