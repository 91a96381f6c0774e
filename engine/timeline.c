/* A series' ratio along the run's time; see timeline.h. */
#include "timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static double timeline_minutes(double t, double t0)
{
	return isfinite(t) && isfinite(t0) ? (t - t0) / 60.0 : NAN;
}

struct ic_timeline *ic_timeline_analyse(const struct ic_results *res,
					const struct ic_process_ratios *pr,
					const struct ic_states *st)
{
	struct ic_timeline *tl = calloc(1, sizeof(*tl));
	const struct ic_sm *m = st && st->model.mu ? &st->model : NULL;
	size_t np = pr->nproc, j = m ? m->sep_site : 0;
	/* One block: each process's sum of log ratios there, then its count. */
	double *sum = ic_stats_alloc(2 * np, sizeof(*sum)), *cnt;

	if (!tl || !sum || !(tl->proc = ic_stats_alloc(np, sizeof(*tl->proc))) ||
	    !(tl->reps = ic_stats_alloc(m ? m->n : 0, sizeof(*tl->reps)))) {
		free(sum);
		ic_timeline_free(tl);
		return NULL;
	}
	cnt = sum + np;
	/* The run's start: the earliest file time (NAN when none has one). */
	tl->t0 = NAN;
	for (size_t i = 0; i < res->nfiles; i++)
		if (isfinite(ic_file_time(res->files[i])))
			tl->t0 = fmin(tl->t0, ic_file_time(res->files[i]));
	tl->level[0] = tl->level[1] = NAN;
	tl->nlevels = 1;
	tl->nproc = np;
	tl->sites = j < pr->nsites ? pr->sites[j] : 0;
	/* The repetitions at that N, in the model's time order. */
	for (size_t i = 0; m && i < m->n; i++) {
		const struct ic_sm_obs *o = &m->obs[i];

		if (o->site != j)
			continue;
		sum[o->proc] += o->y;
		cnt[o->proc] += 1.0;
		if (st->nuntimed)
			continue;
		tl->reps[tl->nreps++] = (struct ic_timeline_rep){
			.proc = o->proc, .index = o->index, .t = timeline_minutes(o->t, tl->t0),
			.ratio = exp(o->y), .state = st->nstates == 2 ? ic_sm_state(m, i) : 0 };
		tl->timed = 1;
	}
	for (size_t p = 0; p < np; p++) {
		const struct ic_file *f = pr->unit[p] < res->nfiles ? res->files[pr->unit[p]] : NULL;
		struct ic_timeline_proc *tp = &tl->proc[p];

		tp->unit = pr->unit[p];
		tp->start = f ? timeline_minutes(f->start, tl->t0) : NAN;
		tp->end = f ? timeline_minutes(f->end, tl->t0) : NAN;
		tp->state = st && p < st->nproc ? st->state[p] : 0;
		tp->ratio = cnt[p] > 0.0 ? exp(sum[p] / cnt[p]) : j < pr->nsites ? exp(pr->logr[j * np + p]) : NAN;
		if (st && st->nstates == 2 && st->unsteady[p]) {
			tp->switches = 1;
			tl->nswitching++;
		}
	}
	if (st && st->nstates == 1 && (st->level == IC_LEVEL_WANDERS || st->level == IC_LEVEL_DRIFTS))
		tl->moved = ic_states_level_name(st->level);
	if (st && st->nstates == 2) {
		tl->nlevels = 2;
		tl->level[0] = st->st[0].level;
		tl->level[1] = st->st[1].level;
	}
	free(sum);
	return tl;
}

void ic_timeline_free(struct ic_timeline *tl)
{
	if (!tl)
		return;
	free(tl->proc);
	free(tl->reps);
	free(tl);
}

void ic_timeline_line(char *buf, size_t cap, const struct ic_timeline *tl)
{
	if (!tl->nproc)
		snprintf(buf, cap, "In time: no process with both forms");
	else if (!tl->nreps)
		snprintf(buf, cap, "In time: no repetition recorded with its index; switches inside a "
			 "process not checked");
	else if (tl->nswitching)
		snprintf(buf, cap, "In time: %zu of %zu process%s switch state inside the process "
			 "(%.2f and %.2f at N = %lu)", tl->nswitching, tl->nproc, tl->nproc == 1 ? "" : "es",
			 tl->level[0], tl->level[1], tl->sites);
	else if (tl->nlevels == 2)
		snprintf(buf, cap, "In time: no process switches inside; each ran in one state");
	else if (tl->moved)
		snprintf(buf, cap, "In time: no two states, but the level %s (States, above)", tl->moved);
	else
		snprintf(buf, cap, "In time: one state throughout");
}
