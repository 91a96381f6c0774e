/* Every locked operation in every form against a reference model: long random
 * operation sequences with fixed seeds; contents (walked both ways) and qlen
 * compared after every step. */
#include <string.h>
#include "check.h"
#include "queue_inline.h"
#include "queue_hint.h"
#include "queue_extern.h"

#define NODES 48          /* small, so the queue often fills and empties */
#define STEPS 100000      /* per seed and form (issue: at least 100,000) */

struct model {
	int item[NODES];      /* node indices, first to last */
	int len;
	int on_queue[NODES];
};

static struct ic_node nodes[NODES];
static struct ic_node *purged[NODES];

static int idx(const struct ic_node *n) { return (int)(n - nodes); }

static void model_insert_at(struct model *m, int pos, int v)
{
	memmove(&m->item[pos + 1], &m->item[pos], (size_t)(m->len - pos) * sizeof(int));
	m->item[pos] = v;
	m->len++;
	m->on_queue[v] = 1;
}

static int model_remove_at(struct model *m, int pos)
{
	int v = m->item[pos];
	memmove(&m->item[pos], &m->item[pos + 1], (size_t)(m->len - pos - 1) * sizeof(int));
	m->len--;
	m->on_queue[v] = 0;
	return v;
}

static int model_pos(const struct model *m, int v)
{
	for (int i = 0; i < m->len; i++)
		if (m->item[i] == v)
			return i;
	return -1;
}

static void compare(const struct ic_queue *q, const struct model *m, const char *form,
		    unsigned long long step)
{
	const struct ic_node *n = q->head.next;
	int i = 0;

	CHECK(q->qlen == (uint32_t)m->len, "%s step %llu: qlen %u, model %d", form, step, q->qlen, m->len);
	for (; n != &q->head; n = n->next, i++) {
		CHECK(i < m->len && idx(n) == m->item[i], "%s step %llu: forward walk differs at %d", form, step, i);
		CHECK(n->next->prev == n, "%s step %llu: broken back link at %d", form, step, i);
	}
	CHECK(i == m->len, "%s step %llu: forward walk found %d nodes, model %d", form, step, i, m->len);
	for (n = q->head.prev, i = m->len - 1; n != &q->head; n = n->prev, i--)
		CHECK(i >= 0 && idx(n) == m->item[i], "%s step %llu: backward walk differs at %d", form, step, i);
	CHECK(i == -1, "%s step %llu: backward walk length differs", form, step);
}

/* Pick a node not on the queue, or -1. */
static int pick_free(const struct model *m, unsigned long long *s)
{
	int start = (int)(ic_test_rand(s) % NODES);
	for (int k = 0; k < NODES; k++) {
		int v = (start + k) % NODES;
		if (!m->on_queue[v])
			return v;
	}
	return -1;
}

/* One test function per form, so each form's calls are compiled as that form
 * (taking addresses would defeat the inline forms). */
#define DEFINE_MODEL_RUN(form)                                                        \
static void run_##form(unsigned long long seed)                                       \
{                                                                                     \
	struct ic_queue q;                                                            \
	struct model m = { .len = 0 };                                                \
	unsigned long long s = seed;                                                  \
	int counts[8] = { 0 };                                                        \
                                                                                      \
	ic_queue_init_##form(&q);                                                     \
	for (unsigned long long step = 0; step < STEPS; step++) {                     \
		unsigned op = (unsigned)(ic_test_rand(&s) % 64);                     \
		int v = pick_free(&m, &s), pos;                                       \
		struct ic_node *got;                                                  \
                                                                                      \
		if (op < 10 && v >= 0) {                                              \
			ic_queue_head_##form(&q, &nodes[v]);                          \
			model_insert_at(&m, 0, v); counts[0]++;                       \
		} else if (op < 20 && v >= 0) {                                       \
			ic_queue_tail_##form(&q, &nodes[v]);                          \
			model_insert_at(&m, m.len, v); counts[1]++;                   \
		} else if (op < 29) {                                                 \
			got = ic_dequeue_##form(&q);                                  \
			if (m.len == 0)                                               \
				CHECK(got == NULL, #form " dequeue on empty queue");  \
			else                                                          \
				CHECK(got && idx(got) == model_remove_at(&m, 0),      \
				      #form " dequeue returned the wrong node");      \
			counts[2]++;                                                  \
		} else if (op < 38) {                                                 \
			got = ic_dequeue_tail_##form(&q);                             \
			if (m.len == 0)                                               \
				CHECK(got == NULL, #form " dequeue_tail on empty");   \
			else                                                          \
				CHECK(got && idx(got) == model_remove_at(&m, m.len - 1), \
				      #form " dequeue_tail returned the wrong node"); \
			counts[3]++;                                                  \
		} else if (op < 46 && v >= 0) {                                       \
			/* before a random member, or before the head (= at the tail) */ \
			pos = (int)(ic_test_rand(&s) % (unsigned)(m.len + 1));        \
			ic_insert_##form(&q, pos == m.len ? &q.head : &nodes[m.item[pos]], &nodes[v]); \
			model_insert_at(&m, pos, v); counts[4]++;                     \
		} else if (op < 54 && v >= 0) {                                       \
			/* after a random member, or after the head (= at the front) */ \
			pos = (int)(ic_test_rand(&s) % (unsigned)(m.len + 1));        \
			ic_append_##form(&q, pos == m.len ? &q.head : &nodes[m.item[pos]], &nodes[v]); \
			model_insert_at(&m, pos == m.len ? 0 : pos + 1, v); counts[5]++; \
		} else if (op < 63 && m.len > 0) {                                    \
			pos = (int)(ic_test_rand(&s) % (unsigned)m.len);              \
			v = m.item[pos];                                              \
			ic_unlink_##form(&q, &nodes[v]);                              \
			CHECK(model_pos(&m, v) == pos, "model lost node");           \
			model_remove_at(&m, pos);                                     \
			CHECK(nodes[v].next == NULL && nodes[v].prev == NULL,         \
			      #form " unlink left stale links");                      \
			counts[6]++;                                                  \
		} else if (op == 63) {                                                \
			int want = m.len;                                             \
			int n_purged = (int)ic_purge_##form(&q, purged);              \
			CHECK(n_purged == want, #form " purge released %d of %d", n_purged, want); \
			for (int i = 0; i < want; i++)                                \
				CHECK(idx(purged[i]) == model_remove_at(&m, 0),       \
				      #form " purge released out of order");          \
			counts[7]++;                                                  \
		}                                                                     \
		compare(&q, &m, #form, step);                                         \
	}                                                                             \
	for (int k = 0; k < 8; k++)                                                   \
		CHECK(counts[k] > 100, #form " seed %llu: operation %d ran only %d times", seed, k, counts[k]); \
}

DEFINE_MODEL_RUN(inline)
DEFINE_MODEL_RUN(hint)
DEFINE_MODEL_RUN(extern)

int main(void)
{
	static const unsigned long long seeds[] = { 1, 2004, 0x5eedull };

	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		run_inline(seeds[i]);
		run_hint(seeds[i]);
		run_extern(seeds[i]);
	}
	printf("model: 3 forms x %zu seeds x %d steps agree (lock %s)\n",
	       sizeof(seeds) / sizeof(seeds[0]), STEPS, IC_LOCK_NAME);
	return 0;
}
