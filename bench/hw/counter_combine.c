/* Counts before they are trusted (pure): the canary, why a count is absent, and
 * one figure per counter for a run from every thread's counts.
 */
#include "counters.h"

#include <math.h>
#include <stdio.h>

int ic_ctr_canary(const long long value[IC_CTR_COUNT], const int valid[IC_CTR_COUNT],
		  double ops, double min_instr_per_op, char *why, size_t why_len)
{
	int n_valid = 0, n_zero = 0;

	if (why && why_len)
		why[0] = '\0';
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		if (!valid[c])
			continue;
		n_valid++;
		n_zero += value[c] == 0;
	}
	if (n_valid == 0)
		return 0;
	if (n_zero == n_valid) {
		snprintf(why, why_len, "canary failed: all %d counts read 0 (the kernel accepted the "
			 "event group but never scheduled it)", n_valid);
		return -1;
	}
	if (valid[IC_CTR_INSTR] && ops > 0 && min_instr_per_op > 0 &&
	    (double)value[IC_CTR_INSTR] < min_instr_per_op * ops) {
		snprintf(why, why_len, "canary failed: %.3g instructions per operation, fewer than the "
			 "%.3g the work takes (the counts are not trusted)",
			 (double)value[IC_CTR_INSTR] / ops, min_instr_per_op);
		return -1;
	}
	return 0;
}

const char *ic_ctr_absent_why(long long code)
{
	static const char *const why[] = {
		[-IC_CTR_ABSENT_NO_SET] = "no running event set on this thread (open, start or stop failed)",
		[-IC_CTR_ABSENT_NOT_COUNTED] = "this CPU counts no event for it",
		[-IC_CTR_ABSENT_NOT_ADDED] = "its event would not go into this thread's event set",
		[-IC_CTR_ABSENT_MPX_ZERO] = "0 under multiplexing: the event may never have been scheduled",
		[-IC_CTR_ABSENT_BAD_COUNT] = "PAPI returned a negative count",
		[-IC_CTR_ABSENT_OTHER_PASS] = "counted by the other event set, on alternate runs",
		[-IC_CTR_ABSENT_CANARY] = "the event set failed its canary",
	};

	return code < 0 && code > -(long long)(sizeof(why) / sizeof(why[0])) ? why[-code] : "count invalid";
}

int ic_ctr_count_absent(long long count, int multiplexed)
{
	if (count < 0)
		return IC_CTR_ABSENT_BAD_COUNT;
	if (count == 0 && multiplexed)
		return IC_CTR_ABSENT_MPX_ZERO;
	return 0;
}

int ic_ctr_combine(int n_threads, const long long value[][IC_CTR_COUNT],
		   const int valid[][IC_CTR_COUNT], const double ops[],
		   const char *const thread_why[], double min_instr_per_op,
		   double per_op[IC_CTR_COUNT], int ok[IC_CTR_COUNT], char *why, size_t why_len)
{
	double ops_sum = 0;
	int n_ok = 0, named = 0, canary_bad = -1;
	char canary_why[200] = "";

	if (why && why_len)
		why[0] = '\0';
	for (int t = 0; t < n_threads; t++) {
		ops_sum += ops[t];
		/* Before any count is trusted: the first thread that fails the
		 * canary takes every count of the run with it. */
		if (canary_bad < 0 &&
		    ic_ctr_canary(value[t], valid[t], ops[t], min_instr_per_op, canary_why,
				  sizeof(canary_why)) != 0)
			canary_bad = t;
	}
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		double sum = 0;
		int lacking = -1, not_counted = 0;

		ok[c] = 0;
		per_op[c] = NAN;
		for (int t = 0; t < n_threads; t++) {
			if (valid[t][c] && canary_bad < 0) {
				sum += (double)value[t][c];
				continue;
			}
			if (lacking < 0)
				lacking = t;
			/* A thread with no set cannot tell; one that has says so. */
			if (value[t][c] == IC_CTR_ABSENT_NOT_COUNTED ||
			    value[t][c] == IC_CTR_ABSENT_OTHER_PASS)
				not_counted = 1;
		}
		if (n_threads > 0 && lacking < 0 && ops_sum > 0) {
			ok[c] = 1;
			per_op[c] = sum / ops_sum;
			n_ok++;
			continue;
		}
		if (named || !why || !why_len)
			continue;
		if (canary_bad >= 0) {
			named = 1;
			snprintf(why, why_len, "counts absent: thread %d of %d: %s", canary_bad, n_threads,
				 canary_why);
			continue;
		}
		if (not_counted)
			continue;
		named = 1;
		if (n_threads <= 0) {
			snprintf(why, why_len, "%s absent: no threads", ic_ctr_names[c]);
		} else if (lacking < 0) {
			snprintf(why, why_len, "%s absent: the %d thread%s ran no operations while counting",
				 ic_ctr_names[c], n_threads, n_threads == 1 ? "" : "s");
		} else {
			const char *tw = thread_why ? thread_why[lacking] : NULL;

			snprintf(why, why_len, "%s absent: thread %d of %d: %s%s%s%s",
				 ic_ctr_names[c], lacking, n_threads,
				 ic_ctr_absent_why(value[lacking][c]),
				 tw && tw[0] ? " (" : "", tw && tw[0] ? tw : "",
				 tw && tw[0] ? ")" : "");
		}
	}
	return n_ok;
}
