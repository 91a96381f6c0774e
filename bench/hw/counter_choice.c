/* The choice of one event per counter for this CPU from what PAPI knows
 * (pure): which go on Intel's fixed counters, and which event set each is
 * counted in, so that nothing is multiplexed for an attribution event.
 */
#include "counters_internal.h"

#include <string.h>
#include <strings.h>

static const char *choice_avail_find(const char *name, const char *const *available,
				     size_t n_available)
{
	for (size_t i = 0; i < n_available; i++)
		if (available[i] && strcasecmp(available[i], name) == 0)
			return available[i];
	return NULL;
}

static void choice_place(struct ic_event_choice *out);

void ic_events_choose(const struct ic_cpu_ident *cpu,
		      const char *const *available, size_t n_available,
		      int n_hw_counters, int n_fixed_counters,
		      struct ic_event_choice *out)
{
	const struct events_cpu *ev = events_for_cpu(cpu);
	unsigned fixed_used = 0;

	if (n_fixed_counters < 0)
		n_fixed_counters = 0;
	if (n_fixed_counters > n_hw_counters)
		n_fixed_counters = n_hw_counters > 0 ? n_hw_counters : 0;
	memset(out, 0, sizeof(*out));
	for (int c = 0; c < IC_CTR_COUNT; c++) {
		const struct events_cand *k = ev->cand[c];

		for (; k->name; k++) {
			const char *hit = choice_avail_find(k->name, available, n_available);
			if (!hit)
				continue;
			out->event[c] = hit;
			out->why[c] = k->why;
			out->n_events++;
			/* On a fixed counter only if this CPU has it and no
			 * other chosen event took it. */
			if (k->fixed != EVENTS_GP && k->fixed <= n_fixed_counters &&
			    !(fixed_used & (1u << k->fixed))) {
				fixed_used |= 1u << k->fixed;
				out->fixed[c] = 1;
				out->n_fixed_events++;
			}
			break;
		}
		if (!k->name)
			out->why[c] = k->why ? k->why
				    : "no event for this counter is available on this CPU";
	}
	out->n_gp_events = out->n_events - out->n_fixed_events;
	out->n_gp_counters = n_hw_counters - n_fixed_counters;
	if (out->n_gp_counters < 0)
		out->n_gp_counters = 0;
	choice_place(out);
}

/* Attribution groups in the order they get room: a pair (hit and miss,
 * op cache and decoder) is placed whole or not at all. */
static const int choice_groups[][2] = {
	{ IC_CTR_OPCACHE_HIT, IC_CTR_OPCACHE_MISS },
	{ IC_CTR_DSB_UOPS, IC_CTR_MITE_UOPS },
	{ IC_CTR_FETCH_STALL, -1 },
	{ IC_CTR_FE_STALL, -1 },
	{ IC_CTR_MACHINE_CLEAR, -1 },
};

/* Put the core counters in set 0 and each attribution group where it
 * fits: beside them in set 0, else in set 1 with the instruction event
 * again (its canary), else nowhere, with why. Multiplexing would make every
 * count a scaled estimate and every true 0 absent (ic_ctr_count_absent),
 * the small-N side of an L1i step included, so no set is multiplexed for
 * an attribution event; set 0 is multiplexed only when the core counters
 * alone do not fit. */
static void choice_place(struct ic_event_choice *out)
{
	int gp = out->n_gp_counters, gp0 = 0, gp1 = 0, in1 = 0;
	int instr = out->event[IC_CTR_INSTR] != NULL;
	int instr_gp = instr && !out->fixed[IC_CTR_INSTR];

	for (int c = 0; c < IC_CTR_ATTRIBUTION_FIRST; c++) {
		if (!out->event[c])
			continue;
		out->sets[c] = 1u;
		gp0 += !out->fixed[c];
	}
	if (gp0 > gp) {
		/* The core alone needs multiplexing: no room for anything else. */
		ic_drop_attribution(out, "left out: the core counters alone need every "
				    "general-purpose counter, multiplexed");
	}
	for (size_t g = 0; g < sizeof(choice_groups) / sizeof(choice_groups[0]) && gp0 <= gp; g++) {
		int cost = 0, n = 0;

		for (int k = 0; k < 2; k++) {
			int c = choice_groups[g][k];
			if (c < 0 || !out->event[c])
				continue;
			n++;
			cost += !out->fixed[c];
		}
		if (!n)
			continue;
		int extra1 = in1 ? 0 : instr_gp;    /* the canary, once */
		unsigned bit;
		if (gp0 + cost <= gp) {
			bit = 1u;
			gp0 += cost;
		} else if (gp1 + extra1 + cost <= gp) {
			bit = 2u;
			if (!in1 && instr) {
				out->sets[IC_CTR_INSTR] |= 2u;
				gp1 += instr_gp;
			}
			in1 = 1;
			gp1 += cost;
		} else {
			for (int k = 0; k < 2; k++)
				if (choice_groups[g][k] >= 0)
					choice_remove(out, choice_groups[g][k], "left out: no room in "
							 "either event set without multiplexing");
			continue;
		}
		for (int k = 0; k < 2; k++) {
			int c = choice_groups[g][k];
			if (c >= 0 && out->event[c])
				out->sets[c] = bit;
		}
	}
	choice_recount(out);
	out->multiplex = out->set_gp[0] > gp;
}

void choice_recount(struct ic_event_choice *ch)
{
	int any1 = 0;

	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		any1 |= ch->event[c] && (ch->sets[c] & 2u);
	if (!any1)
		ch->sets[IC_CTR_INSTR] &= ~2u;
	ch->set_gp[0] = ch->set_gp[1] = ch->set_fixed[0] = ch->set_fixed[1] = 0;
	for (int c = 0; c < IC_CTR_COUNT; c++)
		for (int k = 0; k < 2; k++)
			if (ch->event[c] && (ch->sets[c] & (1u << k))) {
				if (ch->fixed[c])
					ch->set_fixed[k]++;
				else
					ch->set_gp[k]++;
			}
	ch->n_sets = ch->n_events ? (any1 ? 2 : 1) : 0;
}

void choice_remove(struct ic_event_choice *ch, int c, const char *why)
{
	if (!ch->event[c])
		return;
	ch->event[c] = NULL;
	ch->why[c] = why;
	ch->n_events--;
	ch->sets[c] = 0;
	if (ch->fixed[c]) {
		ch->fixed[c] = 0;
		ch->n_fixed_events--;
	} else {
		ch->n_gp_events--;
	}
}

void ic_drop_attribution(struct ic_event_choice *ch, const char *why)
{
	for (int c = IC_CTR_ATTRIBUTION_FIRST; c < IC_CTR_COUNT; c++)
		choice_remove(ch, c, why);
	choice_recount(ch);
}

size_t ic_events_candidates(const struct ic_cpu_ident *cpu,
			    const char **names, size_t max)
{
	const struct events_cpu *ev = events_for_cpu(cpu);
	size_t n = 0;

	for (int c = 0; c < IC_CTR_COUNT; c++)
		for (const struct events_cand *k = ev->cand[c]; k->name; k++)
			if (n < max && !choice_avail_find(k->name, names, n))
				names[n++] = k->name;
	return n;
}
