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

int sets_drop_evset(int *evset, char *err, size_t err_len)
{
	long long scratch[IC_CTR_COUNT + 1];
	int state = 0, rc;

	if (*evset == PAPI_NULL)
		return 0;
	if (PAPI_state(*evset, &state) == PAPI_OK && (state & PAPI_RUNNING))
		PAPI_stop(*evset, scratch);        /* once more; its answer is in rc below */
	rc = PAPI_cleanup_eventset(*evset);
	if (rc == PAPI_OK)
		rc = PAPI_destroy_eventset(evset);
	if (rc != PAPI_OK) {
		if (err && err_len)
			snprintf(err, err_len, "%s", counters_strerror(rc));
		return -1;
	}
	*evset = PAPI_NULL;
	return 0;
}

int sets_build_evset(int pass, int *evset, int slot[IC_CTR_COUNT], char *err, size_t err_len)
{
	int rc, n = 0;

	*evset = PAPI_NULL;
	rc = PAPI_create_eventset(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_create_eventset: %s", counters_strerror(rc));
		return -1;
	}
	if (counters_choice.multiplex && pass == 0) {
		/* Multiplexing needs the component bound before conversion. */
		rc = PAPI_assign_eventset_component(*evset, counters_cidx);
		if (rc == PAPI_OK)
			rc = PAPI_set_multiplex(*evset);
		if (rc != PAPI_OK) {
			snprintf(err, err_len, "PAPI_set_multiplex: %s", counters_strerror(rc));
			PAPI_destroy_eventset(evset);
			return -1;
		}
	}
	err[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		slot[c] = -1;
		if (!counters_choice.event[c] || !(counters_choice.sets[c] & (1u << pass)))
			continue;
		rc = PAPI_add_named_event(*evset, counters_choice.event[c]);
		if (rc == PAPI_OK)
			slot[c] = n++;
		else if (!err[0])
			snprintf(err, err_len, "PAPI_add_named_event(%s): %s",
				 counters_choice.event[c], counters_strerror(rc));
	}
	if (n == 0) {
		if (!err[0])
			snprintf(err, err_len, "no event could be added");
		sets_drop_evset(evset, NULL, 0);
		return -1;
	}
	return n;
}

struct ic_ctr_set {
	int evset;          /* PAPI_NULL once torn down */
	int slot[IC_CTR_COUNT];
	int n;
	int pass;           /* which of counters_choice's sets this is */
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
			 counters_strerror(rc));
		free(set);
		return NULL;
	}
	set->pass = (int)(atomic_load(&sets_pass) % (unsigned)ic_counters_passes());
	set->multiplexed = counters_choice.multiplex && set->pass == 0;
	set->n = sets_build_evset(set->pass, &set->evset, set->slot, sets_err, sizeof(sets_err));
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
		snprintf(sets_err, sizeof(sets_err), "PAPI_start: %s", counters_strerror(rc));
		return -1;
	}
	set->running = 1;
	return 0;
}

int ic_ctr_set_stop(struct ic_ctr_set *set, long long value[IC_CTR_COUNT],
		    int valid[IC_CTR_COUNT])
{
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
		int gone = sets_drop_evset(&set->evset, why, sizeof(why)) == 0;
		snprintf(sets_err, sizeof(sets_err), "PAPI_stop: %s; the event set %s%s",
			 counters_strerror(rc), gone ? "was cleaned up and destroyed"
			 : "could not be cleaned up: ", gone ? "" : why);
		return -1;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		int absent;

		if (set->slot[c] < 0) {
			value[c] = !counters_choice.event[c] ? IC_CTR_ABSENT_NOT_COUNTED
				 : !(counters_choice.sets[c] & (1u << set->pass)) ? IC_CTR_ABSENT_OTHER_PASS
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
	sets_drop_evset(&set->evset, NULL, 0);
	PAPI_unregister_thread();
	free(set);
}
