/* PAPI event sets: built from the choice, torn down even when PAPI still
 * counts them as running, and per thread opened, started and stopped
 * outside the timed loop, in turn when the choice has two sets.
 */
#include "counters_internal.h"

#include <papi.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs so far; a thread's set is sets_pass % the number of sets. */
static atomic_uint sets_pass;
/* This thread's last error: PAPI's reason, or the note of counters.c. */
static _Thread_local char sets_err[COUNTERS_NOTE_LEN + 64];

struct ic_ctr_set {
	int evset;          /* PAPI_NULL once torn down */
	int slot[IC_CTR_COUNT];
	int n;
	int pass;           /* which of the choice's sets this is */
	int running;
	int multiplexed;    /* built as a multiplexed set */
};

void ic_counters_next_pass(void)
{
	atomic_fetch_add(&sets_pass, 1u);
}

const char *ic_ctr_set_error(void)
{
	return sets_err;
}

struct ic_ctr_set *ic_ctr_set_open(void)
{
	struct ic_ctr_set *set;
	int rc;

	sets_err[0] = '\0';
	if (!ic_counters_init()) {
		snprintf(sets_err, sizeof(sets_err), "no hardware counters: %s", ic_counters_note());
		return NULL;
	}
	set = calloc(1, sizeof(*set));
	if (!set) {
		snprintf(sets_err, sizeof(sets_err), "out of memory");
		return NULL;
	}
	rc = PAPI_register_thread();
	if (rc != PAPI_OK) {
		snprintf(sets_err, sizeof(sets_err), "PAPI_register_thread: %s",
			 evset_strerror(rc));
		free(set);
		return NULL;
	}
	set->pass = (int)(atomic_load(&sets_pass) % (unsigned)ic_counters_passes());
	set->multiplexed = counters_chosen()->multiplex && set->pass == 0;
	set->n = evset_build(counters_chosen(), counters_component(), set->pass, &set->evset,
			     set->slot, sets_err, sizeof(sets_err));
	if (set->n < 0) {
		PAPI_unregister_thread();
		free(set);
		return NULL;
	}
	return set;
}

int ic_ctr_set_start(struct ic_ctr_set *set)
{
	int rc;

	if (!set || set->running || set->evset == PAPI_NULL)
		return -1;
	rc = PAPI_start(set->evset);
	if (rc != PAPI_OK) {
		snprintf(sets_err, sizeof(sets_err), "PAPI_start: %s", evset_strerror(rc));
		return -1;
	}
	set->running = 1;
	return 0;
}

int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT])
{
	const struct ic_event_choice *ch = counters_chosen();
	long long raw[IC_CTR_COUNT + 1];
	char why[128];
	int rc;

	for (int c = 0; c < IC_CTR_COUNT; c++) {
		value[c] = IC_CTR_ABSENT_NO_SET;
		valid[c] = 0;
	}
	if (!set || !set->running)
		return -1;
	set->running = 0;
	rc = PAPI_stop(set->evset, raw);
	if (rc != PAPI_OK) {
		/* Still running in PAPI's view: tear it down now, or its
		 * descriptors stay open and this thread can start no other set. */
		int gone = evset_drop(&set->evset, why, sizeof(why)) == 0;
		snprintf(sets_err, sizeof(sets_err), "PAPI_stop: %s; the event set %s%s",
			 evset_strerror(rc), gone ? "was cleaned up and destroyed"
			 : "could not be cleaned up: ", gone ? "" : why);
		return -1;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		int absent;

		if (set->slot[c] < 0) {
			value[c] = !ch->event[c] ? IC_CTR_ABSENT_NOT_COUNTED
				 : !(ch->sets[c] & (1u << set->pass)) ? IC_CTR_ABSENT_OTHER_PASS
				 : IC_CTR_ABSENT_NOT_ADDED;
			continue;
		}
		absent = ic_ctr_count_absent(raw[set->slot[c]], set->multiplexed);
		value[c] = absent ? absent : raw[set->slot[c]];
		valid[c] = !absent;
	}
	return 0;
}

void ic_ctr_set_close(struct ic_ctr_set *set)
{
	if (!set)
		return;
	evset_drop(&set->evset, NULL, 0);
	PAPI_unregister_thread();
	free(set);
}
