/* Absent, never 0: a multiplexed zero is absent, and a run's per-op figure
 * is absent when any thread lacks the count (pure; runs anywhere). */
#include "check.h"
#include "counters.h"

#include <math.h>
#include <string.h>

#define T 4

/* PAPI returns a raw 0 for a multiplexed event that never ran. */
static void test_count_absent(void)
{
	CHECK(ic_ctr_count_absent(0, 1) == IC_CTR_ABSENT_MPX_ZERO, "multiplexed 0 must be absent");
	CHECK(ic_ctr_count_absent(1, 1) == 0, "multiplexed 1 is a count");
	CHECK(ic_ctr_count_absent(123456789, 1) == 0, "multiplexed count is a count");
	CHECK(ic_ctr_count_absent(0, 0) == 0, "0 without multiplexing is a real 0");
	CHECK(ic_ctr_count_absent(42, 0) == 0, "count without multiplexing");
	CHECK(ic_ctr_count_absent(-7, 0) == IC_CTR_ABSENT_BAD_COUNT, "negative count");
	CHECK(ic_ctr_count_absent(-7, 1) == IC_CTR_ABSENT_BAD_COUNT, "negative multiplexed count");
	CHECK(strstr(ic_ctr_absent_why(IC_CTR_ABSENT_MPX_ZERO), "0 under multiplexing"),
	      "why: %s", ic_ctr_absent_why(IC_CTR_ABSENT_MPX_ZERO));
	CHECK(strstr(ic_ctr_absent_why(IC_CTR_ABSENT_MPX_ZERO), "never have been scheduled"),
	      "why: %s", ic_ctr_absent_why(IC_CTR_ABSENT_MPX_ZERO));
	for (long long code = -8; code <= 0; code++)
		CHECK(ic_ctr_absent_why(code)[0], "no text for code %lld", code);
	CHECK(IC_CTR_ABSENT_NO_SET == -1, "a NULL set's counts stay -1");
}

struct run {
	long long value[T][IC_CTR_COUNT];
	int valid[T][IC_CTR_COUNT];
	double ops[T];
	const char *why[T];
};

/* Every thread counts every counter: value = (t + 1) * (c + 1) * 100, ops = (t + 1) * 10. */
static void run_all_valid(struct run *r)
{
	memset(r, 0, sizeof(*r));
	for (int t = 0; t < T; t++) {
		r->ops[t] = (t + 1) * 10.0;
		r->why[t] = "";
		for (int c = 0; c < IC_CTR_COUNT; c++) {
			r->value[t][c] = (long long)(t + 1) * (c + 1) * 100;
			r->valid[t][c] = 1;
		}
	}
}

/* Combine with the canary floor given (instructions per operation); combine()
 * uses 1, a mark's add. */
static int combine_at(const struct run *r, int n, double floor, double per_op[IC_CTR_COUNT],
		      int ok[IC_CTR_COUNT], char *why, size_t len)
{
	return ic_ctr_combine(n, (const long long(*)[IC_CTR_COUNT])r->value,
			      (const int(*)[IC_CTR_COUNT])r->valid, r->ops, r->why, floor, per_op, ok,
			      why, len);
}

static int combine(const struct run *r, int n, double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT],
		   char *why, size_t len)
{
	return combine_at(r, n, 1.0, per_op, ok, why, len);
}

static void test_all_valid(void)
{
	struct run r;
	double per_op[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	char why[256] = "junk";

	run_all_valid(&r);
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT, "not all ok");
	CHECK(why[0] == '\0', "why set with all ok: %s", why);
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		/* sum over t of (t+1)(c+1)100 / sum of (t+1)10 = (c+1) * 10 */
		CHECK(ok[c] && fabs(per_op[c] - (c + 1) * 10.0) < 1e-9, "%s: ok %d per_op %g",
		      ic_ctr_names[c], ok[c], per_op[c]);
	}
	/* Uneven threads: the sum over the sum, not the mean of per-thread ratios. */
	r.value[0][0] = 1000;   /* thread 0: 100 per op over 10 ops */
	r.value[1][0] = 0;      /* thread 1: 0 over 20 ops (a real 0) */
	r.value[2][0] = 0;
	r.value[3][0] = 0;
	combine(&r, T, per_op, ok, why, sizeof(why));
	CHECK(ok[0] && fabs(per_op[0] - 1000.0 / 100.0) < 1e-9, "per_op %g, want 10", per_op[0]);
	/* One thread. */
	CHECK(combine(&r, 1, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT, "one thread");
	CHECK(fabs(per_op[0] - 100.0) < 1e-9, "one thread per_op %g", per_op[0]);
	/* No reasons at all is fine. */
	r.why[0] = r.why[1] = r.why[2] = r.why[3] = NULL;
	CHECK(ic_ctr_combine(T, (const long long(*)[IC_CTR_COUNT])r.value,
			     (const int(*)[IC_CTR_COUNT])r.valid, r.ops, NULL, 1.0, per_op, ok, NULL, 0) ==
	      IC_CTR_COUNT, "NULL thread_why and why");
}

/* Thread 2's set did not open: every counter absent, and why says where. */
static void test_thread_failed(void)
{
	struct run r;
	double per_op[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	char why[256];

	run_all_valid(&r);
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		r.valid[2][c] = 0;
		r.value[2][c] = IC_CTR_ABSENT_NO_SET;
	}
	r.why[2] = "event set did not open: PAPI_register_thread: Permission denied";
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == 0, "a failed thread leaves counters ok");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(!ok[c] && isnan(per_op[c]), "%s: ok %d per_op %g", ic_ctr_names[c], ok[c], per_op[c]);
	CHECK(strstr(why, "l1i_miss_per_op absent") && strstr(why, "thread 2 of 4") &&
	      strstr(why, "no running event set") && strstr(why, "PAPI_register_thread"),
	      "why: %s", why);
	/* A small buffer truncates, terminated. */
	CHECK(combine(&r, T, per_op, ok, why, 10) == 0 && strlen(why) == 9, "truncated why: %s", why);
}

/* One event invalid on one thread: that counter only. */
static void test_one_event_invalid(void)
{
	struct run r;
	double per_op[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	char why[256];

	run_all_valid(&r);
	r.valid[3][IC_CTR_ITLB_MISS] = 0;
	r.value[3][IC_CTR_ITLB_MISS] = IC_CTR_ABSENT_MPX_ZERO;
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT - 1, "one counter absent");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(ok[c] == (c != IC_CTR_ITLB_MISS), "%s ok %d", ic_ctr_names[c], ok[c]);
	CHECK(isnan(per_op[IC_CTR_ITLB_MISS]), "absent counter not NAN: %g", per_op[IC_CTR_ITLB_MISS]);
	CHECK(strstr(why, "itlb_miss_per_op absent: thread 3 of 4: 0 under multiplexing"), "why: %s", why);
	/* Not a sum over the threads that had it divided by all the ops. */
	CHECK(fabs(per_op[IC_CTR_INSTR] - 20.0) < 1e-9, "instr per_op %g", per_op[IC_CTR_INSTR]);
}

/* Counters this CPU does not count are absent everywhere but not named. */
static void test_not_counted(void)
{
	struct run r;
	double per_op[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	char why[256];

	run_all_valid(&r);
	for (int t = 0; t < T; t++) {
		r.valid[t][IC_CTR_OPCACHE_HIT] = r.valid[t][IC_CTR_OPCACHE_MISS] = 0;
		r.value[t][IC_CTR_OPCACHE_HIT] = r.value[t][IC_CTR_OPCACHE_MISS] = IC_CTR_ABSENT_NOT_COUNTED;
	}
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT - 2, "two not counted");
	CHECK(why[0] == '\0', "not-counted counters named: %s", why);
	/* With a failed thread as well, the failure is named, not the op cache. */
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		r.valid[1][c] = 0;
		r.value[1][c] = IC_CTR_ABSENT_NO_SET;
	}
	r.why[1] = "event set did not open";
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == 0, "failed thread");
	CHECK(strstr(why, "l1i_miss_per_op absent: thread 1 of 4"), "why: %s", why);
}

/* Zero operations: nothing per op, and why says so. */
static void test_zero_ops(void)
{
	struct run r;
	double per_op[IC_CTR_COUNT];
	int ok[IC_CTR_COUNT];
	char why[256];

	run_all_valid(&r);
	for (int t = 0; t < T; t++)
		r.ops[t] = 0;
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == 0, "zero ops gave ok counters");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(!ok[c] && isnan(per_op[c]), "%s: ok %d per_op %g", ic_ctr_names[c], ok[c], per_op[c]);
	CHECK(strstr(why, "ran no operations"), "why: %s", why);
	/* Some threads ran none: the others' ops still count. */
	r.ops[0] = 10;
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT, "one thread ran");
	/* sum of values over threads for c = 0: 100 + 200 + 300 + 400 = 1000, over 10 ops */
	CHECK(fabs(per_op[0] - 100.0) < 1e-9, "per_op %g", per_op[0]);
	/* No threads. */
	CHECK(combine(&r, 0, per_op, ok, why, sizeof(why)) == 0 && strstr(why, "no threads"),
	      "no threads: %s", why);
}

/* Before any count is trusted: a read of all zeros (a group the kernel
 * accepted but never scheduled) and too few instructions fail the canary,
 * and a run with such a thread reports no count at all, saying why. */
static void test_canary(void)
{
	long long v[IC_CTR_COUNT] = { 0 };
	int valid[IC_CTR_COUNT] = { 0 }, ok[IC_CTR_COUNT];
	double per_op[IC_CTR_COUNT];
	char why[512];
	struct run r;

	CHECK(ic_ctr_canary(v, valid, 100, 1, why, sizeof(why)) == 0 && !why[0],
	      "nothing counted is absent already, not a canary failure: %s", why);
	for (int c = 0; c < IC_CTR_COUNT; c++)
		valid[c] = c < 5;
	CHECK(ic_ctr_canary(v, valid, 100, 1, why, sizeof(why)) == -1 &&
	      strstr(why, "canary failed: all 5 counts read 0") && strstr(why, "never scheduled"),
	      "all zeros: %s", why);
	v[IC_CTR_CYCLES] = 1000;
	v[IC_CTR_INSTR] = 50;           /* half an instruction per operation */
	CHECK(ic_ctr_canary(v, valid, 100, 1, why, sizeof(why)) == -1 &&
	      strstr(why, "0.5 instructions per operation"), "too few instructions: %s", why);
	v[IC_CTR_INSTR] = 700;
	CHECK(ic_ctr_canary(v, valid, 100, 1, why, sizeof(why)) == 0 && !why[0], "7 per op: %s", why);
	CHECK(ic_ctr_canary(v, valid, 100, 8, why, sizeof(why)) == -1, "7 per op below the mark's 8");
	v[IC_CTR_INSTR] = 0;            /* instructions 0 beside other counts: fails too */
	CHECK(ic_ctr_canary(v, valid, 100, 1, why, sizeof(why)) == -1, "0 instructions passed");

	/* In a run: thread 2 read zeros everywhere; nothing of the run is taken. */
	run_all_valid(&r);
	for (int c = 0; c < IC_CTR_COUNT; c++)
		r.value[2][c] = 0;
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == 0, "counts taken past a failed canary");
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(!ok[c] && isnan(per_op[c]), "%s taken", ic_ctr_names[c]);
	CHECK(!strncmp(why, "counts absent: thread 2 of 4: canary failed: all 12 counts read 0", 62),
	      "why: %s", why);

	/* The floor is the caller's: the mark's instructions per site. */
	run_all_valid(&r);              /* thread 0: 20 instructions per operation */
	CHECK(combine_at(&r, T, 25, per_op, ok, why, sizeof(why)) == 0 && strstr(why, "fewer than the 25"),
	      "floor 25: %s", why);
	CHECK(combine_at(&r, T, 1, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT, "floor 1: %s", why);
}

/* Counters of the other event set are absent from this run, unnamed: the
 * note lists the sets, and the other runs carry them. */
static void test_other_pass(void)
{
	int ok[IC_CTR_COUNT];
	double per_op[IC_CTR_COUNT];
	char why[512];
	struct run r;

	run_all_valid(&r);
	for (int t = 0; t < T; t++) {
		r.value[t][IC_CTR_OPCACHE_HIT] = r.value[t][IC_CTR_OPCACHE_MISS] = IC_CTR_ABSENT_OTHER_PASS;
		r.valid[t][IC_CTR_OPCACHE_HIT] = r.valid[t][IC_CTR_OPCACHE_MISS] = 0;
	}
	CHECK(combine(&r, T, per_op, ok, why, sizeof(why)) == IC_CTR_COUNT - 2 && !why[0] &&
	      !ok[IC_CTR_OPCACHE_HIT] && ok[IC_CTR_L1I_MISS], "other pass: why '%s'", why);
	CHECK(strstr(ic_ctr_absent_why(IC_CTR_ABSENT_OTHER_PASS), "other event set"), "why text");
}

int main(void)
{
	test_canary();
	test_other_pass();
	test_count_absent();
	test_all_valid();
	test_thread_failed();
	test_one_event_invalid();
	test_not_counted();
	test_zero_ops();
	printf("bench_hw_combine: ok\n");
	return 0;
}
