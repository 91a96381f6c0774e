/* The run's analysis, series by series; see analysis.h. */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_ulong.h>

#include "load.h"

const struct ic_analysis_opts ic_analysis_defaults = {
	.compare = "inline",
	.baseline = "extern",
	.noise_ci = 0.03,
	.family = 0.05,
	.planted = NAN,
};

/* Ratios and crossover, then the states, the attribution (with two states,
 * each state's too), the timeline and the repeats. */
static int analysis_series(struct ic_series *se, const struct ic_analysis *an,
			   struct ic_point *const *pts, size_t n)
{
	double l1i = ic_results_context_num(an->res, IC_CTX_L1I_SIZE);

	if (ic_group_make(&se->group, pts, n, &an->opts) ||
	    ic_group_decide(&se->group, &an->opts) ||
	    ic_process_ratios_collect(an->res, &se->group, &se->procs) ||
	    !(se->states = ic_states_analyse(&se->procs, &se->group, &an->opts)) ||
	    ic_states_moments(se->states, -1, se->group.ratios, se->group.nratios) ||
	    !(se->attr = ic_attribution_analyse_keep(&se->group, &an->opts, l1i, NULL, 0)))
		return -1;
	for (int k = 0; k < 2 && se->states->nstates == 2; k++)
		if (ic_states_moments(se->states, k, se->states->st[k].ratios,
				      se->states->st[k].nratios) ||
		    !(se->attr_state[k] = ic_attribution_analyse_keep(&se->group, &an->opts, l1i,
								      se->states->member[k],
								      se->states->nmember)))
			return -1;
	if (!(se->timeline = ic_timeline_analyse(an->res, &se->procs, se->states)) ||
	    !(se->repeats = ic_repeats_analyse(an->res, &se->group, &se->procs, &an->opts)))
		return -1;
	return 0;
}

int ic_analyse(struct ic_analysis *an, struct ic_results *res, const struct ic_analysis_opts *opts,
	       char *err, size_t errlen)
{
	*an = (struct ic_analysis){ .res = res, .opts = *opts };
	if (ic_results_points_analyse(res, &an->opts, err, errlen))
		return -1;
	for (size_t i = 0, j; i < res->npoints; i = j) {
		struct ic_series *ns = realloc(an->series, (an->nseries + 1) * sizeof(*ns));

		if (!ns)
			goto oom;
		an->series = ns;
		ns[an->nseries] = (struct ic_series){ 0 };
		for (j = i + 1; j < res->npoints && !ic_point_cmp_series(res->points[i], res->points[j]); j++)
			;
		if (analysis_series(&ns[an->nseries++], an, res->points + i, j - i))
			goto oom;
	}
	return 0;
oom:
	snprintf(err, errlen, "out of memory");
	return -1;
}

void ic_analysis_free(struct ic_analysis *an)
{
	for (size_t i = 0; i < an->nseries; i++) {
		ic_group_free(&an->series[i].group);
		ic_process_ratios_free(&an->series[i].procs);
		ic_states_free(an->series[i].states);
		ic_attribution_free(an->series[i].attr);
		ic_attribution_free(an->series[i].attr_state[0]);
		ic_attribution_free(an->series[i].attr_state[1]);
		ic_timeline_free(an->series[i].timeline);
		ic_repeats_free(an->series[i].repeats);
	}
	free(an->series);
	memset(an, 0, sizeof(*an));
}

int ic_analysis_refine_next(const struct ic_analysis *an, unsigned long **out, size_t *n)
{
	size_t cap = 1, k = 0;
	unsigned long *mid, *sites;

	*out = NULL;
	*n = 0;
	for (size_t s = 0; s < an->nseries; s++)
		cap += an->series[s].group.nratios;
	/* One block: mid, then sites (the series' N, in turn). */
	if (!(mid = malloc(2 * cap * sizeof(*mid))))
		return -1;
	sites = mid + cap;
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;

		if (g->xo.verdict != IC_VERDICT_CROSSOVER)
			continue;
		for (size_t i = 0; i < g->nratios; i++)
			sites[i] = g->ratios[i].sites;
		k += ic_crossover_midpoints(sites, g->nratios, g->xo.bracket_lo, g->xo.bracket_hi,
					    mid + k);
	}
	gsl_sort_ulong(mid, 1, k);
	for (size_t i = 0; i < k; i++)
		if (!*n || mid[i] != mid[*n - 1])
			mid[(*n)++] = mid[i];
	if (*n)
		*out = mid;
	else
		free(mid);
	return 0;
}

int ic_analysis_smoke(const struct ic_analysis *an, char *why, size_t cap)
{
	size_t variants = (size_t)-1, procs = (size_t)-1, draws;

	why[0] = '\0';
	for (size_t i = 0; i < an->nseries; i++)
		for (size_t k = 0; k < an->series[i].group.nratios; k++) {
			const struct ic_ratio *r = &an->series[i].group.ratios[k];

			if (r->nvariants < variants || (r->nvariants == variants && r->nunits < procs)) {
				variants = r->nvariants;
				procs = r->nunits;
			}
		}
	if (variants == (size_t)-1)
		return 0;
	draws = variants >= 2 ? variants : procs;
	if (draws >= IC_ANALYSIS_MIN_DRAWS && procs >= IC_STATES_MIN_PROC)
		return 0;
	if (variants >= 2)
		snprintf(why, cap, "%zu layout variants of %zu processes in all", variants, procs);
	else
		snprintf(why, cap, "one layout variant of %zu process%s", procs, procs == 1 ? "" : "es");
	return 1;
}
