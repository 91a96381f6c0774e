/* A series' ratio along the run's time; see timeline.h. */
#include "timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double ic_timeline_t0(const struct ic_results *res)
{
	double t0 = NAN;

	for (size_t i = 0; i < res->nfiles; i++) {
		double t = ic_file_time(res->files[i]);

		if (isfinite(t) && !(t >= t0))
			t0 = t;
	}
	return t0;
}

static double timeline_minutes(double t, double t0)
{
	return isfinite(t) && isfinite(t0) ? (t - t0) / 60.0 : NAN;
}

/* The repetition of process unit with index k at point p, NULL if none. */
static const struct ic_rep *timeline_rep(const struct ic_point *p, unsigned unit, int k)
{
	for (size_t i = 0; i < p->nreps; i++)
		if (p->reps[i].unit == unit && p->reps[i].index == k)
			return &p->reps[i];
	return NULL;
}

/* The repetition of c's process at point base nearest in time to c (of
 * the same index when untimed): Google Benchmark shuffles every
 * (benchmark, repetition) pair, so one index is no round in time. */
static const struct ic_rep *timeline_partner(const struct ic_point *base, const struct ic_rep *c)
{
	const struct ic_rep *best = NULL;
	double d = INFINITY;

	if (!isfinite(c->start))
		return timeline_rep(base, c->unit, c->index);
	for (size_t i = 0; i < base->nreps; i++)
		if (base->reps[i].unit == c->unit && fabs(base->reps[i].start - c->start) < d) {
			d = fabs(base->reps[i].start - c->start);
			best = &base->reps[i];
		}
	return best;
}

/* The highest repetition index of process unit in the series' ratios. */
static int timeline_max_index(const struct ic_group *g, unsigned unit)
{
	int m = -1;

	for (size_t i = 0; i < g->nratios; i++)
		for (size_t r = 0; r < g->ratios[i].cmp->nreps; r++)
			if (g->ratios[i].cmp->reps[r].unit == unit && g->ratios[i].cmp->reps[r].index > m)
				m = g->ratios[i].cmp->reps[r].index;
	return m;
}

/* Round k of process p: its ratio (centred per N, see timeline.h) and its
 * start, the earliest of its repetitions'. 0 when it has no N with both. */
static int timeline_round(const struct ic_group *g, const struct ic_process_ratios *pr,
			  const double *centre, double mean_centre, size_t p, int k,
			  struct ic_timeline_rep *out)
{
	double sum = 0.0, t = NAN;
	size_t n = 0;

	for (size_t i = 0; i < pr->nsites && i < g->nratios; i++) {
		const struct ic_rep *c = timeline_rep(g->ratios[i].cmp, pr->unit[p], k);
		const struct ic_rep *b = c ? timeline_partner(g->ratios[i].base, c) : NULL;

		if (!c || !b || !isfinite(centre[i]))
			continue;
		sum += log(c->v[IC_F_NS] / b->v[IC_F_NS]) - centre[i];
		n++;
		if (isfinite(c->start) && !(c->start >= t))
			t = c->start;
		if (isfinite(b->start) && !(b->start >= t))
			t = b->start;
	}
	if (!n)
		return 0;
	*out = (struct ic_timeline_rep){ .proc = p, .index = k, .t = t,
					 .ratio = exp(sum / (double)n + mean_centre), .state = -1 };
	return 1;
}

/* Each round's state, from the states' model: the firm state of most of
 * its repetitions (over the N), -1 when they are not firm or split evenly;
 * and which processes switch (states.h). */
static void timeline_classify(struct ic_timeline *tl, const struct ic_states *st,
			      const struct ic_process_ratios *pr)
{
	for (size_t r = 0; r < tl->nreps; r++) {
		struct ic_timeline_rep *rep = &tl->reps[r];
		int votes[2] = { 0, 0 };

		for (size_t i = 0; i < pr->nsites; i++) {
			int s = ic_states_rep_state(st, rep->proc, i, rep->index);

			if (s >= 0)
				votes[s]++;
		}
		rep->state = votes[1] > votes[0] ? 1 : votes[0] > votes[1] ? 0 : -1;
	}
	for (size_t p = 0; p < tl->nproc; p++)
		if (p < st->nproc && st->unsteady[p]) {
			tl->proc[p].switches = 1;
			tl->nswitching++;
		}
}

struct ic_timeline *ic_timeline_analyse(const struct ic_results *res, const struct ic_group *g,
					const struct ic_process_ratios *pr,
					const struct ic_states *st,
					const struct ic_analysis_opts *opts)
{
	struct ic_timeline *tl = calloc(1, sizeof(*tl));
	size_t np = pr->nproc, ns = pr->nsites, capreps = 0;
	double *centre = malloc((ns ? ns : 1) * sizeof(*centre));
	double *buf = malloc((np ? np : 1) * sizeof(*buf)), mean_centre = 0.0;
	size_t ncentre = 0;

	(void)opts;   /* g's ratios are already compare/baseline */
	if (!tl || !centre || !buf)
		goto oom;
	tl->t0 = ic_timeline_t0(res);
	tl->level[0] = tl->level[1] = NAN;
	tl->nlevels = 1;
	tl->nproc = np;
	tl->proc = calloc(np ? np : 1, sizeof(*tl->proc));
	if (!tl->proc)
		goto oom;
	for (size_t i = 0; i < ns; i++) {
		size_t m = 0;

		for (size_t p = 0; p < np; p++)
			if (isfinite(pr->logr[i * np + p]))
				buf[m++] = pr->logr[i * np + p];
		centre[i] = ic_stats_median(buf, m);
		if (isfinite(centre[i])) {
			mean_centre += centre[i];
			ncentre++;
		}
	}
	mean_centre = ncentre ? mean_centre / (double)ncentre : NAN;
	for (size_t p = 0; p < np; p++) {
		const struct ic_file *f = pr->unit[p] < res->nfiles ? res->files[pr->unit[p]] : NULL;
		struct ic_timeline_proc *tp = &tl->proc[p];
		double sum = 0.0;
		size_t n = 0;

		tp->unit = pr->unit[p];
		tp->start = f ? timeline_minutes(f->start, tl->t0) : NAN;
		tp->end = f ? timeline_minutes(f->end, tl->t0) : NAN;
		tp->state = st && p < st->nproc ? st->state[p] : 0;
		for (size_t i = 0; i < ns; i++)
			if (isfinite(pr->logr[i * np + p]) && isfinite(centre[i])) {
				sum += pr->logr[i * np + p] - centre[i];
				n++;
			}
		tp->ratio = n ? exp(sum / (double)n + mean_centre) : NAN;
		for (int k = 0, top = timeline_max_index(g, pr->unit[p]); k <= top; k++) {
			struct ic_timeline_rep r;

			if (!timeline_round(g, pr, centre, mean_centre, p, k, &r))
				continue;
			if (tl->nreps == capreps) {
				struct ic_timeline_rep *nr;

				capreps = capreps ? 2 * capreps : 64;
				if (!(nr = realloc(tl->reps, capreps * sizeof(*nr))))
					goto oom;
				tl->reps = nr;
			}
			r.t = timeline_minutes(r.t, tl->t0);
			tl->timed |= isfinite(r.t);
			tl->reps[tl->nreps++] = r;
		}
	}
	if (st && st->nstates == 2) {
		tl->nlevels = 2;
		tl->level[0] = st->st[0].level;
		tl->level[1] = st->st[1].level;
		tl->level_sites = st->st[0].sites;
		timeline_classify(tl, st, pr);
	}
	free(centre);
	free(buf);
	return tl;
oom:
	free(centre);
	free(buf);
	ic_timeline_free(tl);
	return NULL;
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
			 tl->level[0], tl->level[1], tl->level_sites);
	else if (tl->nlevels == 2)
		snprintf(buf, cap, "In time: no process switches inside; each ran in one state");
	else
		snprintf(buf, cap, "In time: one state throughout");
}
