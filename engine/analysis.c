/* The run's analysis, series by series, its timeline and its repeats; see analysis.h. */
#define _GNU_SOURCE   /* qsort_r */
#include "analysis.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort_int.h>
#include <gsl/gsl_sort_ulong.h>
#include <gsl/gsl_statistics_double.h>

#include "kit.h"
#include "load.h"
#include "stats.h"

const struct ic_analysis_opts ic_analysis_defaults = {
	.compare = "inline", .baseline = "extern", .noise_ci = 0.03, .family = 0.05, .planted = NAN,
};

/* ---- the points' order and statistics -------------------------------- */

#define POINTS_CMP(x, y) (((x) > (y)) - ((x) < (y)))

/* 0 when a and b are of one series; else their order. */
static int points_cmp_series(const struct ic_point *a, const struct ic_point *b)
{
	int c = POINTS_CMP(a->build, b->build);

	if (c || (c = strcmp(a->op, b->op)) || (c = strcmp(a->layout, b->layout)) ||
	    (c = strcmp(a->order, b->order)) || (c = POINTS_CMP(a->filler, b->filler)) ||
	    (c = POINTS_CMP(a->threads, b->threads)))
		return c;
	return strcmp(a->mode, b->mode);
}

/* compare 0, baseline 1, any other form 2. */
static int points_form_rank(const char *form, const struct ic_analysis_opts *opts)
{
	return strcmp(form, opts->compare) ? strcmp(form, opts->baseline) ? 2 : 1 : 0;
}

/* qsort_r order of points; opts says which forms come first. */
static int points_cmp(const void *pa, const void *pb, void *opts)
{
	const struct ic_point *a = *(struct ic_point *const *)pa, *b = *(struct ic_point *const *)pb;
	int c = points_cmp_series(a, b);

	if (c || (c = points_form_rank(a->form, opts) - points_form_rank(b->form, opts)) ||
	    (c = strcmp(a->form, b->form)))
		return c;
	return POINTS_CMP(a->sites, b->sites);
}

/* A point's statistics: fields' medians; per process (repetitions adjacent, in load order)
 * median time and cv; the median cv; the time's nested estimate. */
static void points_stats(const struct ic_results *res, struct ic_point *p)
{
	size_t cap = p->nreps ? p->nreps : 1, ncv = 0;
	/* One block: buf, then the clusters of the time's estimate and the repeats. */
	double *buf = ic_stats_alloc(cap, sizeof(*buf) + 2 * sizeof(int));
	struct ic_unit *u = p->units = ic_stats_alloc(cap, sizeof(*u));
	int *cl = (int *)(buf + cap), *rp = cl + cap;
	struct ic_ratio t;

	for (int f = 0; f < IC_F_COUNT; f++) {
		size_t n = 0;

		for (size_t i = 0; i < p->nreps; i++)
			if (isfinite(p->reps[i].v[f]))
				buf[n++] = p->reps[i].v[f];
		p->med[f] = ic_stats_median(buf, n);
	}
	for (size_t i = 0, j; i < p->nreps; i = j) {
		const struct ic_rep *rep = &p->reps[i];
		size_t k = 0;

		for (j = i; j < p->nreps && p->reps[j].unit == rep->unit; j++)
			if (isfinite(p->reps[j].v[IC_F_NS]))
				buf[k++] = p->reps[j].v[IC_F_NS];
		if (k) {
			u[p->nunits] = (struct ic_unit){ rep->unit, rep->variant, 0, ic_stats_cv(buf, k),
							 res->files[rep->unit]->repeat };
			u[p->nunits++].med = ic_stats_median(buf, k);
		}
	}
	for (size_t i = 0; i < p->nunits; i++)
		if (isfinite(u[i].cv))
			buf[ncv++] = u[i].cv;
	p->cv = ic_stats_median(buf, ncv);
	for (size_t i = 0; i < p->nunits; i++) {
		buf[i] = log(u[i].med);
		cl[i] = u[i].variant;
		rp[i] = u[i].repeat;
	}
	p->nvariants = ic_stats_distinct(cl, p->nunits);
	/* Layouts, not repeats, below IC_REPEATS_TOP: each repeat has variants of its own. */
	if (ic_stats_distinct(rp, p->nunits) >= IC_REPEATS_TOP)
		memcpy(cl, rp, p->nunits * sizeof(*cl));
	ic_ratio_estimate(&t, p, p, buf, cl, p->nunits);
	p->med[IC_F_NS] = t.ratio;
	p->ci_lo = t.lo;
	p->ci_hi = t.hi;
	free(buf);
}

/* ---- a series' ratio along the run's time ------------------------------ */

static double timeline_minutes(double t, double t0)
{
	return isfinite(t) && isfinite(t0) ? (t - t0) / 60.0 : NAN;
}

/* A series' timeline in res from its process ratios pr and states st (whose model holds
 * the repetitions; ic_analyse made both): one block, the timeline, processes, repetitions. */
static struct ic_timeline *timeline_analyse(const struct ic_results *res,
					    const struct ic_process_ratios *pr,
					    const struct ic_states *st)
{
	const struct ic_sm *m = st->model.mu ? &st->model : NULL;
	size_t np = pr->nproc, j = m ? m->sep_site : 0;
	struct ic_timeline *tl = ic_stats_alloc(1, sizeof(*tl) + np * sizeof(*tl->proc) +
						(m ? m->n : 0) * sizeof(*tl->reps));
	/* One block: each process's sum of log ratios there, then its count. */
	double *sum = ic_stats_alloc(2 * np, sizeof(*sum)), *cnt = sum + np;

	tl->proc = (struct ic_timeline_proc *)(tl + 1);
	tl->reps = (struct ic_timeline_rep *)(tl->proc + np);
	/* The run's start: the earliest file time (fmin passes over NAN, unknown). */
	tl->t0 = NAN;
	for (size_t i = 0; i < res->nfiles; i++)
		tl->t0 = fmin(tl->t0, ic_file_time(res->files[i]));
	tl->nlevels = st->nstates == 2 ? 2 : 1;
	tl->level[0] = st->nstates == 2 ? st->st[0].level : NAN;
	tl->level[1] = st->nstates == 2 ? st->st[1].level : NAN;
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
	/* pr's processes are files of res: its points' units. */
	for (size_t p = 0; p < np; p++) {
		const struct ic_file *f = res->files[pr->unit[p]];
		int sw = st->nstates == 2 && st->unsteady[p];

		tl->proc[p] = (struct ic_timeline_proc){ pr->unit[p], timeline_minutes(f->start, tl->t0),
			timeline_minutes(f->end, tl->t0), cnt[p] > 0.0 ? exp(sum[p] / cnt[p])
			: j < pr->nsites ? exp(pr->logr[j * np + p]) : NAN, p < st->nproc ? st->state[p] : 0, sw };
		tl->nswitching += (size_t)sw;
	}
	if (st->nstates == 1 && (st->level == IC_LEVEL_WANDERS || st->level == IC_LEVEL_DRIFTS))
		tl->moved = ic_states_level_name(st->level);
	free(sum);
	return tl;
}

/* ---- a series across the sweep's repeats ------------------------------- */

/* x's sum of squares about its mean and degrees of freedom, added to a pool. */
static void repeats_pool_add(double *ss, size_t *df, const double *x, size_t n)
{
	if (n < 2)
		return;
	*ss += gsl_stats_tss(x, 1, n);
	*df += n - 1;
}

/* The time of process unit's repetition k at point p; NAN if none. */
static double repeats_rep_ns(const struct ic_point *p, unsigned unit, int k)
{
	for (size_t i = 0; i < p->nreps; i++)
		if (p->reps[i].unit == unit && p->reps[i].index == k)
			return p->reps[i].v[IC_F_NS];
	return NAN;
}

/* Series g's repeats (process ratios pr) in res: one block, repeats, verdicts, numbers. */
static struct ic_repeats *repeats_analyse(const struct ic_results *res, const struct ic_group *g,
					  const struct ic_process_ratios *pr,
					  const struct ic_analysis_opts *opts)
{
	size_t np = pr->nproc, maxreps = 1;
	struct ic_repeats *rp = ic_stats_alloc(1, sizeof(*rp) + (np + 1) * sizeof(*rp->xo) +
					       np * sizeof(*rp->repeat));
	struct ic_levels *lv = &rp->lv;   /* its sd_ members hold the sums of squares at first */
	unsigned char *keep = ic_stats_alloc(res->nfiles, 1);
	double *buf, *means;
	/* IC_SIDE_UNRESOLVED at every N: calloc's 0. */
	enum ic_point_side *side = ic_stats_alloc(g->nratios, sizeof(*side));
	int contradict = 0;

	rp->xo = (struct ic_crossover *)(rp + 1);
	rp->repeat = (int *)(rp->xo + np + 1);
	for (size_t p = 0; p < np; p++)
		rp->repeat[p] = res->files[pr->unit[p]]->repeat;
	gsl_sort_int(rp->repeat, 1, np);
	for (size_t p = 0; p < np; p++)
		if (!rp->nrepeats || rp->repeat[p] != rp->repeat[rp->nrepeats - 1])
			rp->repeat[rp->nrepeats++] = rp->repeat[p];
	for (size_t i = 0; i < g->nratios; i++)
		maxreps = g->ratios[i].cmp->nreps > maxreps ? g->ratios[i].cmp->nreps : maxreps;
	buf = ic_stats_alloc(np + maxreps + rp->nrepeats + 1, sizeof(*buf));
	means = buf + np + maxreps;
	/* Between processes within a run, and between the runs' means. */
	for (size_t i = 0; i < pr->nsites; i++) {
		size_t nm = 0;

		for (size_t k = 0; k < rp->nrepeats; k++) {
			size_t n = 0;

			for (size_t p = 0; p < np; p++)
				if (res->files[pr->unit[p]]->repeat == rp->repeat[k] &&
				    isfinite(pr->logr[i * np + p]))
					buf[n++] = pr->logr[i * np + p];
			repeats_pool_add(&lv->sd_proc, &lv->df_proc, buf, n);
			if (n)
				means[nm++] = gsl_stats_mean(buf, 1, n);
		}
		repeats_pool_add(&lv->sd_run, &lv->df_run, means, nm);
	}
	/* Between repetitions: per process and N, log ratios of repetitions paired by index (round). */
	for (size_t i = 0; i < g->nratios; i++)
		for (size_t p = 0; p < np; p++) {
			size_t n = 0;

			for (int k = 0; (size_t)k < maxreps; k++) {
				double c = repeats_rep_ns(g->ratios[i].cmp, pr->unit[p], k);
				double b = repeats_rep_ns(g->ratios[i].base, pr->unit[p], k);

				if (c > 0.0 && b > 0.0)
					buf[n++] = log(c / b);
			}
			repeats_pool_add(&lv->sd_rep, &lv->df_rep, buf, n);
		}
	lv->sd_run = lv->df_run ? sqrt(lv->sd_run / (double)lv->df_run) : NAN;
	lv->sd_proc = lv->df_proc ? sqrt(lv->sd_proc / (double)lv->df_proc) : NAN;
	lv->sd_rep = lv->df_rep ? sqrt(lv->sd_rep / (double)lv->df_rep) : NAN;
	/* Each repeat's own verdict, from its processes alone. */
	for (size_t k = 0; rp->nrepeats >= 2 && k < rp->nrepeats; k++) {
		struct ic_ratio *r = NULL;
		size_t n = 0;

		for (size_t u = 0; u < res->nfiles; u++)
			keep[u] = res->files[u]->repeat == rp->repeat[k];
		ic_ratio_contrast(g, (const char *[]){ opts->compare, opts->baseline }, 2, keep,
				  res->nfiles, opts, &r, &n);
		ic_ratio_crossover(r, n, &rp->xo[k]);
		/* A contradiction: an N resolved opposite side[] (the first side seen there);
		 * resolving less (less power) is none. */
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < g->nratios; j++) {
				if (g->ratios[j].sites != r[i].sites || r[i].side == IC_SIDE_UNRESOLVED)
					continue;
				if (side[j] == IC_SIDE_UNRESOLVED)
					side[j] = r[i].side;
				else if (side[j] != r[i].side)
					contradict = 1;
			}
		free(r);
	}
	rp->agree = rp->nrepeats >= 2 && !contradict;
	free(side);
	free(keep);
	free(buf);
	return rp;
}

int ic_analyse(struct ic_analysis *an, struct ic_results *res, const struct ic_analysis_opts *opts,
	       char *err, size_t errlen)
{
	double l1i = ic_results_context_num(res, IC_CTX_L1I_SIZE);

	*an = (struct ic_analysis){ .res = res, .opts = *opts };
	if (res->npoints == 0)
		return ic_fail(err, errlen, "no sites/<form>/... benchmarks in the input (%zu aggregate, %zu other entries)",
			       res->n_aggregates, res->n_other);
	/* By series (build, op, layout, order, filler, threads, mode), form (compare, baseline
	 * first), N. qsort_r hands opts on as void *: the order only reads it. */
	qsort_r(res->points, res->npoints, sizeof(*res->points), points_cmp, (void *)&an->opts);
	for (size_t i = 0; i < res->npoints; i++)
		points_stats(res, res->points[i]);
	an->series = ic_stats_alloc(res->npoints, sizeof(*an->series));   /* at most one a point */
	/* Each series: ratios, crossover, states, attribution (each state's too), timeline, repeats. */
	for (size_t i = 0, j; i < res->npoints; i = j) {
		struct ic_series *se = &an->series[an->nseries++];

		for (j = i + 1; j < res->npoints && !points_cmp_series(res->points[i], res->points[j]); j++)
			;
		ic_group_make(&se->group, res->points + i, j - i, &an->opts);
		ic_group_decide(&se->group, &an->opts);
		ic_process_ratios_collect(res, &se->group, &se->procs);
		se->states = ic_states_analyse(&se->procs, &se->group, &an->opts);
		ic_states_moments(se->states, -1, se->group.ratios, se->group.nratios);
		se->attr = ic_attribution_analyse_keep(&se->group, &an->opts, l1i, NULL, 0);
		for (int k = 0; k < 2 && se->states->nstates == 2; k++) {
			ic_states_moments(se->states, k, se->states->st[k].ratios, se->states->st[k].nratios);
			se->attr_state[k] = ic_attribution_analyse_keep(&se->group, &an->opts, l1i,
									se->states->member[k],
									se->states->nmember);
		}
		se->timeline = timeline_analyse(res, &se->procs, se->states);
		se->repeats = repeats_analyse(res, &se->group, &se->procs, &an->opts);
	}
	return 0;
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
		free(an->series[i].timeline);
		free(an->series[i].repeats);
	}
	free(an->series);
	memset(an, 0, sizeof(*an));
}

int ic_analysis_refine_next(const struct ic_analysis *an, unsigned long **out, size_t *n)
{
	size_t cap = 1, k = 0;
	unsigned long *mid, *sites;

	for (size_t s = 0; s < an->nseries; s++)
		cap += an->series[s].group.nratios;
	/* One block: mid, then sites (the series' N, in turn). */
	mid = ic_stats_alloc(2 * cap, sizeof(*mid));
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
	*n = 0;
	for (size_t i = 0; i < k; i++)
		if (!*n || mid[i] != mid[*n - 1])
			mid[(*n)++] = mid[i];
	*out = *n ? mid : NULL;
	if (!*n)
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
