/* An example body's points, run: the descriptor says what the body is, every
 * pass runs every site (acc), and every form computes what the extern form
 * computes (the sink after the same passes from a fresh set-up), so the
 * suite's forms are one function compiled differently, not different work.
 * A shared state serves two threads' contexts in turn.
 *
 * usage: test_examples_run NAME SHARED_OK  (the points: body_test_<NAME>)
 */
#include <inttypes.h>
#include <string.h>

#include "body.h"
#include "check.h"
#include "site_run.h"

/* body_test_<NAME>_points (tests/CMakeLists.txt defines IC_POINTS_TABLE). */
extern const struct ic_point *const IC_POINTS_TABLE[];
#define body_test_points IC_POINTS_TABLE

#define PASSES 3

/* The sink of PASSES passes of pt on a fresh thread; acc checked. */
static uint64_t run_point(const struct ic_point *pt)
{
	struct ic_site_thread *t = ic_site_thread_new(pt, NULL);

	CHECK(t, "%s: out of memory", pt->name);
	CHECK(t->ctx.body, "%s: no body state", pt->name);
	for (int p = 0; p < PASSES; p++)
		pt->pass(&t->ctx);
	CHECK(t->ctx.acc == PASSES * pt->acc_per_pass, "%s: acc %" PRIx64 ", want %" PRIx64
	      ": not every site ran", pt->name, t->ctx.acc, PASSES * pt->acc_per_pass);
	uint64_t sink = t->ctx.sink;
	ic_site_thread_free(t);
	return sink;
}

/* The extern point of pt's layout, order, N and filler, or NULL. */
static const struct ic_point *extern_twin(const struct ic_point *pt)
{
	for (size_t i = 0; body_test_points[i]; i++) {
		const struct ic_point *q = body_test_points[i];

		if (!strcmp(q->form, "extern") && !strcmp(q->layout, pt->layout) &&
		    !strcmp(q->order, pt->order) && q->seed == pt->seed && q->sites == pt->sites &&
		    q->filler == pt->filler)
			return q;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	CHECK(argc == 3, "usage: test_examples_run NAME SHARED_OK");
	const char *name = argv[1];
	int shared_ok = atoi(argv[2]), points = 0, compared = 0;
	const struct ic_body *b = body_test_points[0] ? body_test_points[0]->body : NULL;

	CHECK(b, "the points have no body");
	CHECK(!strcmp(b->name, name), "body name '%s', want '%s'", b->name, name);
	CHECK(b->state_size > 0 && b->state_align > 0, "state %zu bytes, aligned %zu", b->state_size,
	      b->state_align);
	CHECK(b->setup, "%s has a set-up, but the descriptor has none", name);
	CHECK(b->shared_ok == shared_ok, "shared_ok %d, want %d", b->shared_ok, shared_ok);

	for (size_t i = 0; body_test_points[i]; i++) {
		const struct ic_point *pt = body_test_points[i];

		CHECK(pt->body == b, "%s: another body", pt->name);
		CHECK(!strcmp(pt->op, name), "%s: op '%s', want '%s'", pt->name, pt->op, name);
		uint64_t sink = run_point(pt);
		points++;
		if (!strcmp(pt->form, "mark")) {
			CHECK(sink == 0, "%s: the mark called the body", pt->name);
			continue;
		}
		const struct ic_point *twin = extern_twin(pt);
		if (!twin || twin == pt)
			continue;
		uint64_t want = run_point(twin);
		CHECK(sink == want, "%s: sink %" PRIx64 ", the extern form's %" PRIx64, pt->name, sink, want);
		compared++;
	}
	CHECK(compared >= 6, "only %d points compared with extern", compared);

	/* Shared: one state set up once, two contexts on it. */
	const struct ic_point *pt = body_test_points[0];
	struct ic_site_shared sh;
	CHECK(ic_site_shared_new(pt, &sh) == 0 && sh.body && !sh.q, "shared state not made");
	struct ic_site_thread *t0 = ic_site_thread_new(pt, &sh), *t1 = ic_site_thread_new(pt, &sh);
	CHECK(t0 && t1 && t0->ctx.body == sh.body && t1->ctx.body == sh.body, "threads do not share it");
	pt->pass(&t0->ctx);
	pt->pass(&t1->ctx);
	CHECK(t0->ctx.acc == pt->acc_per_pass && t1->ctx.acc == pt->acc_per_pass, "shared pass acc");
	ic_site_thread_free(t0);
	ic_site_thread_free(t1);
	ic_site_shared_free(&sh);

	printf("%s: %d points ran, %d agree with extern; state %zu B aligned %zu, shared %s\n", name,
	       points, compared, b->state_size, b->state_align, shared_ok ? "ok" : "no");
	return 0;
}
