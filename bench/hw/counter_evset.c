/* PAPI event sets built from a choice and torn down, and PAPI's error
 * text: what the start-up trial (counter_papi.c) and the threads' sets
 * (counter_sets.c) both need. The choice comes in as a parameter, so this
 * file uses neither of them and they do not use each other both ways.
 */
#include "counters_internal.h"

#include <papi.h>
#include <stdio.h>

const char *evset_strerror(int rc)
{
	static _Thread_local char buf[32];
	const char *t = PAPI_strerror(rc);

	if (t && *t)
		return t;
	snprintf(buf, sizeof(buf), "PAPI error %d", rc);
	return buf;
}

int evset_drop(int *evset, char *err, size_t err_len)
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
			snprintf(err, err_len, "%s", evset_strerror(rc));
		return -1;
	}
	*evset = PAPI_NULL;
	return 0;
}

int evset_build(const struct ic_event_choice *ch, int cidx, int pass, int *evset,
		int slot[IC_CTR_COUNT], char *err, size_t err_len)
{
	int rc, n = 0;

	*evset = PAPI_NULL;
	rc = PAPI_create_eventset(evset);
	if (rc != PAPI_OK) {
		snprintf(err, err_len, "PAPI_create_eventset: %s", evset_strerror(rc));
		return -1;
	}
	if (ch->multiplex && pass == 0) {
		/* Multiplexing needs the component bound before conversion. */
		rc = PAPI_assign_eventset_component(*evset, cidx);
		if (rc == PAPI_OK)
			rc = PAPI_set_multiplex(*evset);
		if (rc != PAPI_OK) {
			snprintf(err, err_len, "PAPI_set_multiplex: %s", evset_strerror(rc));
			PAPI_destroy_eventset(evset);
			return -1;
		}
	}
	err[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		slot[c] = -1;
		if (!ch->event[c] || !(ch->sets[c] & (1u << pass)))
			continue;
		rc = PAPI_add_named_event(*evset, ch->event[c]);
		if (rc == PAPI_OK)
			slot[c] = n++;
		else if (!err[0])
			snprintf(err, err_len, "PAPI_add_named_event(%s): %s",
				 ch->event[c], evset_strerror(rc));
	}
	if (n == 0) {
		if (!err[0])
			snprintf(err, err_len, "no event could be added");
		evset_drop(evset, NULL, 0);
		return -1;
	}
	return n;
}
