/* The attribution of a series' difference to calls, copies and the lock:
 * the numbers (see attribution.h); attribution_text.c says them. */
#include "attribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "decision.h"

/* Each line's forms: a/a0, or (a/a0)/(b/b0) for the interaction. */
static const struct {
	const char *name, *form[4];   /* a, a0, b, b0 */
} attr_def[IC_LINE_COUNT] = {
	[IC_LINE_CALL] = { "extern/inline", { "extern", "inline" } },
	[IC_LINE_COPIES] = { "clone/extern", { "clone", "extern" } },
	[IC_LINE_LOCK_INLINE] = { "inline/inline_nolock", { "inline", "inline_nolock" } },
	[IC_LINE_LOCK_EXTERN] = { "extern/extern_nolock", { "extern", "extern_nolock" } },
	[IC_LINE_INTERACTION] = { "(inline/inline_nolock)/(extern/extern_nolock)",
				  { "inline", "inline_nolock", "extern", "extern_nolock" } },
	[IC_LINE_INLINE_EXTERN] = { "inline/extern", { "inline", "extern" } },
};

const char *ic_attr_line_name(enum ic_line_kind k)
{
	return attr_def[k].name;
}

static int attr_has_form(const struct ic_group *g, const char *form)
{
	for (size_t i = 0; i < g->npoints; i++)
		if (!strcmp(g->points[i]->form, form))
			return 1;
	return 0;
}

static int attr_all_noisy(const struct ic_group *g, const struct ic_attribution *a)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nratios; i++, n++)
		if (!g->ratios[i].noisy)
			return 0;
	for (int k = 0; k < IC_LINE_COUNT; k++)
		for (size_t i = 0; i < a->line[k].n; i++, n++)
			if (!a->line[k].r[i].noisy)
				return 0;
	return n > 0;
}

/* The interaction at the N where all four forms' code fits the L1i: past
 * it the nolock forms' smaller code also misses less, so the ratio mixes
 * in capacity. Told by each form's footprint, which every run measures;
 * L1i misses cannot tell it (the loop's own, 0.2 per site at N = 1 in
 * valgrind's simulation, pass any fixed threshold at small N). Without
 * the L1i's size every N is kept. */
static int attr_fitting(const struct ic_group *g, double size, struct ic_attribution *a)
{
	const struct ic_line *l = &a->line[IC_LINE_INTERACTION];
	const char *const *forms = attr_def[IC_LINE_INTERACTION].form;

	a->fit = *l;
	a->fit.n = 0;
	a->fit.r = malloc((l->n ? l->n : 1) * sizeof(*a->fit.r));
	if (!a->fit.r)
		return -1;
	for (size_t i = 0; i < l->n; i++) {
		int spills = 0;

		for (int f = 0; f < 4 && size > 0; f++) {
			const struct ic_point *p = ic_group_point(g, forms[f], l->r[i].sites);

			spills |= p && p->med[IC_F_FOOT] > size;
		}
		if (!spills)
			a->fit.r[a->fit.n++] = l->r[i];
		else if (!a->fit_left_out++)
			a->fit_first_out = l->r[i].sites;
	}
	return 0;
}

struct ic_attribution *ic_attribution_analyse(const struct ic_group *g,
					      const struct ic_analysis_opts *opts, double l1i_size)
{
	return ic_attribution_analyse_keep(g, opts, l1i_size, NULL, 0);
}

struct ic_attribution *ic_attribution_analyse_keep(const struct ic_group *g,
						   const struct ic_analysis_opts *opts,
						   double l1i_size, const unsigned char *keep,
						   size_t nkeep)
{
	struct ic_attribution *a = calloc(1, sizeof(*a));
	const char *src = NULL;

	if (!a)
		return NULL;
	for (int k = 0; k < IC_LINE_COUNT; k++) {
		struct ic_line *l = &a->line[k];
		const char *const *f = attr_def[k].form;

		l->name = attr_def[k].name;
		for (int i = 0; i < 4 && !l->missing; i++)
			if (f[i] && !attr_has_form(g, f[i]))
				l->missing = f[i];
		if (f[2] ? ic_ratio_interaction_keep(g, f[0], f[1], f[2], f[3], keep, nkeep, opts, &l->r,
						     &l->n)
			 : ic_ratio_series_keep(g, f[0], f[1], keep, nkeep, opts, &l->r, &l->n))
			goto fail;
	}
	a->has_controls = a->line[IC_LINE_COPIES].n || a->line[IC_LINE_LOCK_INLINE].n ||
			  a->line[IC_LINE_LOCK_EXTERN].n || a->line[IC_LINE_INTERACTION].n;
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];

		if (isfinite(p->med[IC_F_L1I]))
			src = !src || !strcmp(src, ic_point_source(p)) ? ic_point_source(p) : "mixed";
	}
	a->l1i_source = src ? src : "";
	a->all_noisy = attr_all_noisy(g, a);
	if (attr_fitting(g, l1i_size, a))
		goto fail;
	return a;
fail:
	ic_attribution_free(a);
	return NULL;
}

void ic_attribution_free(struct ic_attribution *a)
{
	if (!a)
		return;
	for (int k = 0; k < IC_LINE_COUNT; k++)
		free(a->line[k].r);
	free(a->fit.r);
	free(a);
}
