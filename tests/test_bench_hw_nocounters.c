/* Counter runtime: without counters (as on a VM) everything reads invalid and
 * says why; with counters, a small loop counts instructions. */
#include "check.h"
#include "counters.h"

#include <pthread.h>
#include <string.h>

#define NOTICE_THREADS 4

static FILE *notice_file;
static pthread_barrier_t notice_barrier;

static void *notice_thread(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&notice_barrier);
	ic_counters_notice_once(notice_file);
	return NULL;
}

/* Several threads at once, then again: exactly one line. */
static void check_notice_once(const char *must_contain)
{
	pthread_t t[NOTICE_THREADS];
	char line[2048];
	int lines = 0;

	notice_file = tmpfile();
	CHECK(notice_file, "tmpfile failed");
	pthread_barrier_init(&notice_barrier, NULL, NOTICE_THREADS);
	for (int i = 0; i < NOTICE_THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, notice_thread, NULL) == 0, "pthread_create");
	for (int i = 0; i < NOTICE_THREADS; i++)
		pthread_join(t[i], NULL);
	ic_counters_notice_once(notice_file);
	rewind(notice_file);
	while (fgets(line, sizeof(line), notice_file)) {
		lines++;
		CHECK(strncmp(line, "inlinecost: ", 12) == 0, "notice starts oddly: %s", line);
		CHECK(strstr(line, must_contain), "notice lacks \"%s\": %s", must_contain, line);
	}
	CHECK(lines == 1, "notice printed %d lines, expected 1", lines);
	fclose(notice_file);
	pthread_barrier_destroy(&notice_barrier);
}

static void check_all_invalid(const long long v[IC_CTR_COUNT], const int valid[IC_CTR_COUNT])
{
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		CHECK(!valid[c], "%s reported valid without counters", ic_ctr_names[c]);
		CHECK(v[c] == -1 && v[c] == IC_CTR_ABSENT_NO_SET, "%s invalid but value %lld, expected -1",
		      ic_ctr_names[c], v[c]);
	}
}

static void *nocounter_thread(void *arg)
{
	struct ic_ctr_set *set = ic_ctr_set_open();
	long long v[IC_CTR_COUNT];
	int valid[IC_CTR_COUNT];

	(void)arg;
	CHECK(set == NULL, "a set opened without counters");
	CHECK(ic_ctr_set_error()[0], "failed open left no reason");
	CHECK(ic_ctr_set_start(set) == -1, "start of a NULL set succeeded");
	memset(valid, 0x55, sizeof(valid));
	memset(v, 0, sizeof(v));
	CHECK(ic_ctr_set_stop(set, v, valid) == -1, "stop of a NULL set succeeded");
	check_all_invalid(v, valid);
	ic_ctr_set_close(set);
	return NULL;
}

static int test_without_counters(void)
{
	pthread_t t;

	CHECK(strcmp(ic_counters_source(), "none") == 0, "source %s", ic_counters_source());
	CHECK(ic_counters_note()[0], "empty note");
	CHECK(!strstr(ic_counters_note(), "not initialised"), "note: %s", ic_counters_note());
	for (int c = 0; c < IC_CTR_COUNT; c++)
		CHECK(ic_counters_event(c) == NULL, "%s has event %s without counters",
		      ic_ctr_names[c], ic_counters_event(c));
	nocounter_thread(NULL);
	CHECK(pthread_create(&t, NULL, nocounter_thread, NULL) == 0, "pthread_create");
	pthread_join(t, NULL);
	check_notice_once("no hardware counters (PAPI: ");
	printf("bench_hw_nocounters: no counters, as expected here: %s\n", ic_counters_note());
	return 0;
}

static int test_with_counters(void)
{
	struct ic_ctr_set *set;
	long long v[IC_CTR_COUNT];
	int valid[IC_CTR_COUNT];
	volatile unsigned long sink = 0;

	CHECK(strcmp(ic_counters_source(), "papi") == 0, "source %s", ic_counters_source());
	CHECK(ic_counters_note()[0], "empty note");
	set = ic_ctr_set_open();
	CHECK(set, "ic_ctr_set_open failed with counters: %s", ic_ctr_set_error());
	CHECK(ic_ctr_set_start(set) == 0, "start: %s", ic_ctr_set_error());
	for (unsigned long i = 0; i < 1000000; i++)
		sink += i;
	CHECK(ic_ctr_set_stop(set, v, valid) == 0, "stop: %s", ic_ctr_set_error());
	ic_ctr_set_close(set);
	/* Valid only with an event; absent says why: not counted here, or (a
	 * counted event) a multiplexed 0 or not added on this thread. */
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		const char *ev = ic_counters_event(c);
		CHECK(!valid[c] || ev, "%s valid without an event", ic_ctr_names[c]);
		if (valid[c])
			continue;
		CHECK(ev ? v[c] == IC_CTR_ABSENT_MPX_ZERO || v[c] == IC_CTR_ABSENT_NOT_ADDED
			 : v[c] == IC_CTR_ABSENT_NOT_COUNTED,
		      "%s (%s) invalid with code %lld: %s", ic_ctr_names[c], ev ? ev : "none", v[c],
		      ic_ctr_absent_why(v[c]));
	}
	check_notice_once("hardware counters via PAPI");
	if (!valid[IC_CTR_INSTR]) {
		printf("bench_hw_nocounters: skip: counters work but no instruction event (%s)\n",
		       ic_counters_note());
		return IC_TEST_SKIP;
	}
	CHECK(v[IC_CTR_INSTR] >= 1000000, "%lld instructions for a 1e6-iteration loop",
	      v[IC_CTR_INSTR]);
	printf("bench_hw_nocounters: counters work (%s); loop: %lld instructions\n",
	       ic_counters_note(), v[IC_CTR_INSTR]);
	return 0;
}

int main(void)
{
	return ic_counters_init() ? test_with_counters() : test_without_counters();
}
