/* Every generated site runs: for each point of gen/CMakeLists.txt's test set
 * (built with IC_SITE_TALLY), one pass bumps each site's tally once and adds
 * acc_per_pass, and leaves the queues as it found them.
 *
 * usage: test_gen_tally EXPECTED_POINTS
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site.h"
#include "queue_extern.h"

extern const struct ic_point *const gen_test_points[];

static int failures;

static void check(int ok, const struct ic_point *p, const char *what)
{
	if (!ok) {
		fprintf(stderr, "FAIL %s: %s\n", p->name, what);
		failures++;
	}
}

/* Nodes on q, head to tail, with their links consistent; -1 if broken. */
static int queue_count(const struct ic_queue *q, struct ic_node **seen, int max)
{
	const struct ic_node *prev = &q->head;
	int n = 0;

	for (struct ic_node *x = q->head.next; x != &q->head; x = x->next) {
		if (!x || x->prev != prev || n == max)
			return -1;
		seen[n++] = x;
		prev = x;
	}
	return q->head.prev == prev ? n : -1;
}

static void run_point(const struct ic_point *p)
{
	static struct ic_queue q, scratch;
	struct ic_node pre, anchor, own, *on_q[4];
	struct ic_site_ctx ctx;
	char name[160];
	int n;

	snprintf(name, sizeof name, "%s/%s/%s/%s/%u", p->form, p->op, p->layout, p->order,
		 (unsigned)p->sites);
	check(strcmp(name, p->name) == 0, p, "name does not match its fields");

	ic_queue_init_extern(&q);
	ic_queue_init_extern(&scratch);
	ic_queue_tail_extern(&q, &pre);
	ic_queue_tail_extern(&q, &anchor);
	memset(&ctx, 0, sizeof ctx);
	ctx.q = &q;
	ctx.scratch = &scratch;
	ctx.node = &own;
	ctx.anchor = &anchor;
	ctx.tally = calloc(p->sites, sizeof *ctx.tally);
	if (!ctx.tally) {
		fprintf(stderr, "out of memory\n");
		exit(1);
	}

	for (uint64_t pass = 1; pass <= 2; pass++) {
		uint32_t bad = 0;

		p->pass(&ctx);
		for (uint32_t k = 0; k < p->sites; k++)
			bad += ctx.tally[k] != pass;
		if (bad)
			fprintf(stderr, "FAIL %s: %u of %u sites did not run exactly %u time(s)\n",
				p->name, (unsigned)bad, (unsigned)p->sites, (unsigned)pass);
		failures += bad != 0;
		check(ctx.acc == pass * p->acc_per_pass, p, "acc != passes x acc_per_pass");
		check(q.qlen == 2, p, "q's length changed");
		check(scratch.qlen == 0 && ic_queue_empty(&scratch), p, "scratch not empty");

		/* The thread holds one of the three nodes, q the other two. */
		n = queue_count(&q, on_q, 4);
		check(n == 2, p, "q's links are broken or it lost a node");
		check(ctx.node == &pre || ctx.node == &anchor || ctx.node == &own, p,
		      "the thread holds a stranger");
		if (n == 2)
			check(on_q[0] != ctx.node && on_q[1] != ctx.node && on_q[0] != on_q[1], p,
			      "a node is both held and queued");
		if (strcmp(p->op, "insert_unlink") == 0 || strcmp(p->op, "append_unlink") == 0)
			check(n == 2 && (on_q[0] == &anchor || on_q[1] == &anchor), p,
			      "the anchor left q");
	}
	free(ctx.tally);
}

int main(int argc, char **argv)
{
	int count = 0;

	for (const struct ic_point *const *p = gen_test_points; *p; p++, count++)
		run_point(*p);
	if (argc > 1 && count != atoi(argv[1])) {
		fprintf(stderr, "FAIL: %d points linked, %s expected\n", count, argv[1]);
		failures++;
	}
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("ok: %d points, every site ran once per pass\n", count);
	return 0;
}
