/* The points' order and statistics (see results.h); load.c fills them. */
#define _GNU_SOURCE   /* qsort_r */
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* compare 0, baseline 1, any other form 2. */
static int results_form_rank(const char *form, const struct ic_analysis_opts *opts)
{
	return strcmp(form, opts->compare) ? strcmp(form, opts->baseline) ? 2 : 1 : 0;
}

int ic_point_cmp_series(const struct ic_point *a, const struct ic_point *b)
{
	int c;

	if (a->build != b->build)
		return a->build < b->build ? -1 : 1;
	if ((c = strcmp(a->op, b->op)) || (c = strcmp(a->layout, b->layout)) ||
	    (c = strcmp(a->order, b->order)))
		return c;
	if (a->filler != b->filler)
		return a->filler < b->filler ? -1 : 1;
	if (a->threads != b->threads)
		return a->threads < b->threads ? -1 : 1;
	return strcmp(a->mode, b->mode);
}

/* qsort_r order of points; opts says which forms come first. */
static int results_cmp_point(const void *pa, const void *pb, void *opts)
{
	const struct ic_point *a = *(struct ic_point *const *)pa, *b = *(struct ic_point *const *)pb;
	int c = ic_point_cmp_series(a, b);

	if (c || (c = results_form_rank(a->form, opts) - results_form_rank(b->form, opts)) ||
	    (c = strcmp(a->form, b->form)))
		return c;
	return (a->sites > b->sites) - (a->sites < b->sites);
}

const char *ic_point_source(const struct ic_point *p)
{
	return p->source_mixed ? "mixed" : p->file->counter_source;
}

struct ic_design ic_results_design(const struct ic_results *res)
{
	struct ic_design d = { .reps_min = (size_t)-1, .units_min = (size_t)-1 };

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		d.reps_min = p->nreps < d.reps_min ? p->nreps : d.reps_min;
		d.reps_max = p->nreps > d.reps_max ? p->nreps : d.reps_max;
		d.units_min = p->nunits < d.units_min ? p->nunits : d.units_min;
		d.units_max = p->nunits > d.units_max ? p->nunits : d.units_max;
		d.variants_max = p->nvariants > d.variants_max ? p->nvariants : d.variants_max;
	}
	if (!res->npoints)
		d.reps_min = d.units_min = 0;
	return d;
}

/* The time's estimate: the nested estimate of the processes' log medians
 * (into y and their clusters into cl, room for nunits), back on the time
 * scale, with its 95% interval where there is one. */
static void results_point_time(struct ic_point *p, double *y, int *cl)
{
	size_t n = p->nunits;
	struct ic_stats_nested s;

	p->med[IC_F_NS] = p->ci_lo = p->ci_hi = NAN;
	for (size_t i = 0; i < n; i++) {
		y[i] = log(p->units[i].med);
		cl[i] = p->units[i].variant;
	}
	p->nvariants = ic_stats_distinct(cl, n);
	for (size_t i = 0; i < n; i++)
		cl[i] = p->units[i].repeat;
	/* Layouts, not repeats, below IC_REPEATS_TOP: each repeat has variants of its own. */
	if (ic_stats_distinct(cl, n) < IC_REPEATS_TOP)
		for (size_t i = 0; i < n; i++)
			cl[i] = p->units[i].variant;
	if (n) {
		int ok = ic_stats_nested(y, cl, n, &s) == 0;

		p->med[IC_F_NS] = exp(s.mean);
		if (ok) {
			ic_stats_nested_interval(&s, 0.05, &p->ci_lo, &p->ci_hi);
			p->ci_lo = exp(p->ci_lo);
			p->ci_hi = exp(p->ci_hi);
		}
	}
}

/* A point's statistics: every field's median; per process (its repetitions
 * are adjacent, in load order) the median time and cv; the median cv; and
 * the time's estimate. */
static int results_point_stats(const struct ic_results *res, struct ic_point *p)
{
	size_t cap = p->nreps ? p->nreps : 1, ncv = 0;
	/* One block: buf, then the clusters of the time's estimate. */
	double *buf = malloc(cap * (sizeof(*buf) + sizeof(int)));
	struct ic_unit *u = p->units = malloc(cap * sizeof(*u));

	if (!buf || !u) {
		free(buf);
		return -1;
	}
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
	results_point_time(p, buf, (int *)(buf + cap));
	free(buf);
	return 0;
}

int ic_results_points_analyse(struct ic_results *res, const struct ic_analysis_opts *opts,
			      char *err, size_t errlen)
{
	if (res->npoints == 0)
		return snprintf(err, errlen,
				"no sites/<form>/... benchmarks in the input (%zu aggregate, %zu other entries)",
				res->n_aggregates, res->n_other), -1;
	/* qsort_r hands opts on as void *: the order reads it only. */
	qsort_r(res->points, res->npoints, sizeof(*res->points), results_cmp_point, (void *)opts);
	for (size_t i = 0; i < res->npoints; i++)
		if (results_point_stats(res, res->points[i]))
			return snprintf(err, errlen, "out of memory"), -1;
	return 0;
}

const struct ic_unit *ic_point_unit(const struct ic_point *p, unsigned unit)
{
	for (size_t i = 0; i < p->nunits; i++)
		if (p->units[i].unit == unit)
			return &p->units[i];
	return NULL;
}

double ic_file_time(const struct ic_file *file)
{
	return isfinite(file->start) ? file->start : file->end;
}

void ic_results_init(struct ic_results *res)
{
	memset(res, 0, sizeof(*res));
}

void ic_results_free(struct ic_results *res)
{
	for (size_t i = 0; i < res->npoints; i++) {
		free(res->points[i]->reps);
		free(res->points[i]->units);
		free(res->points[i]);
	}
	for (size_t i = 0; i < res->nfiles; i++) {
		free(res->files[i]->path);
		json_decref(res->files[i]->doc);
		free(res->files[i]);
	}
	for (size_t i = 0; i < res->nbuilds; i++)
		for (int k = 0; k < IC_B_COUNT; k++)
			free(res->builds[i].v[k]);
	for (size_t i = 0; i < res->nprobes; i++)
		free(res->probes[i].reps);
	free(res->probes);
	json_decref(res->index);
	free(res->points);
	free(res->files);
	free(res->builds);
	memset(res, 0, sizeof(*res));
}
