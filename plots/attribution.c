/* The attribution of a series' difference to calls, copies, the lock and
 * capacity: the numbers (see attribution.h); attribution_text.c says them. */
#include "attribution.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>


/* Each line's forms: a/a0, or (a/a0)/(b/b0) for the interaction. */
static const struct {
	const char *name, *a, *a0, *b, *b0;
} attr_def[IC_LINE_COUNT] = {
	[IC_LINE_CALL] = { "extern/inline", "extern", "inline", NULL, NULL },
	[IC_LINE_COPIES] = { "clone/extern", "clone", "extern", NULL, NULL },
	[IC_LINE_LOCK_INLINE] = { "inline/inline_nolock", "inline", "inline_nolock", NULL, NULL },
	[IC_LINE_LOCK_EXTERN] = { "extern/extern_nolock", "extern", "extern_nolock", NULL, NULL },
	[IC_LINE_INTERACTION] = { "(inline/inline_nolock)/(extern/extern_nolock)", "inline",
				  "inline_nolock", "extern", "extern_nolock" },
	[IC_LINE_INLINE_EXTERN] = { "inline/extern", "inline", "extern", NULL, NULL },
};

const enum ic_line_kind ic_attr_per_n[IC_ATTR_NPER] = {
	IC_LINE_COPIES, IC_LINE_LOCK_INLINE, IC_LINE_LOCK_EXTERN, IC_LINE_INTERACTION,
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

const struct ic_ratio *ic_attr_at(const struct ic_line *l, unsigned long sites)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].sites == sites)
			return &l->r[i];
	return NULL;
}

static int attr_capacity(struct ic_capacity *c, const struct ic_group *g,
			 const struct ic_line *ie, const char *form)
{
	const struct ic_point *pts[8];
	static const int sign[8] = { 1, -1, -1, 1, -1, 1, 1, -1 };

	memset(c, 0, sizeof(*c));
	c->form = form;
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];

		if (strcmp(p->form, form) || !isfinite(p->med[IC_F_L1I]))
			continue;
		c->measured = 1;
		if (p->sites > c->last)
			c->last = p->sites;
		if (p->med[IC_F_L1I] > IC_ATTR_L1I_PASS && (!c->pass || p->sites < c->pass))
			c->pass = p->sites;
	}
	if (!c->pass)
		return 0;
	c->at = ic_attr_at(ie, c->pass);
	for (size_t i = 0; i < ie->n; i++)
		if (ie->r[i].sites < c->pass) {
			c->before2 = c->before;
			c->before = &ie->r[i];
		}
	if (!c->at || !c->before)
		return 0;
	pts[0] = ic_group_point(g, "inline", c->pass);
	pts[1] = ic_group_point(g, "extern", c->pass);
	pts[2] = ic_group_point(g, "inline", c->before->sites);
	pts[3] = ic_group_point(g, "extern", c->before->sites);
	if (ic_results_contrast(pts, sign, 4, &c->step))
		return -1;
	c->has_step = c->step.nunits > 0;
	if (!c->before2)
		return 0;
	/* r(pass) r(before2) / r(before)^2: the before terms twice. */
	pts[4] = pts[2];
	pts[5] = pts[3];
	pts[6] = ic_group_point(g, "inline", c->before2->sites);
	pts[7] = ic_group_point(g, "extern", c->before2->sites);
	if (ic_results_contrast(pts, sign, 8, &c->excess))
		return -1;
	c->has_excess = c->excess.nunits > 0;
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

/* The interaction's N where all four forms' code fits: there the nolock
 * forms' smaller code also misses less, so beyond the L1i the ratio mixes in
 * capacity. Without L1i counts every N is kept (nothing to tell them by).
 * Returns the N left out (0: none). */
static size_t attr_fitting(const struct ic_group *g, const struct ic_line *l, struct ic_line *sub,
			   unsigned long *first_out)
{
	size_t out = 0;
	struct ic_ratio *buf = malloc((l->n ? l->n : 1) * sizeof(*buf));

	*sub = *l;
	sub->r = buf;
	sub->n = 0;
	*first_out = 0;
	if (!buf)
		return 0;
	for (size_t i = 0; i < l->n; i++) {
		int spills = 0;
		const char *forms[4] = { "inline", "inline_nolock", "extern", "extern_nolock" };

		for (int f = 0; f < 4; f++) {
			const struct ic_point *p = ic_group_point(g, forms[f], l->r[i].sites);

			if (p && isfinite(p->med[IC_F_L1I]) && p->med[IC_F_L1I] > IC_ATTR_L1I_PASS)
				spills = 1;
		}
		if (spills) {
			if (!out++)
				*first_out = l->r[i].sites;
			continue;
		}
		buf[sub->n++] = l->r[i];
	}
	return out;
}

int ic_attribution_analyse(const struct ic_results *res, struct ic_group *g)
{
	struct ic_attribution *a = calloc(1, sizeof(*a));
	const char *src = NULL;

	g->attr = a;
	if (!a)
		return -1;
	for (int k = 0; k < IC_LINE_COUNT; k++) {
		struct ic_line *l = &a->line[k];
		const char *forms[4] = { attr_def[k].a, attr_def[k].a0, attr_def[k].b, attr_def[k].b0 };
		int rc;

		l->name = attr_def[k].name;
		for (int f = 0; f < 4 && !l->missing; f++)
			if (forms[f] && !attr_has_form(g, forms[f]))
				l->missing = forms[f];
		if (attr_def[k].b)
			rc = ic_results_interaction_series(g, forms[0], forms[1], forms[2], forms[3],
							   &res->opts, &l->r, &l->n);
		else
			rc = ic_results_ratio_series(g, forms[0], forms[1], &res->opts, &l->r, &l->n);
		if (rc)
			return -1;
	}
	a->has_controls = a->line[IC_LINE_COPIES].n || a->line[IC_LINE_LOCK_INLINE].n ||
			  a->line[IC_LINE_LOCK_EXTERN].n || a->line[IC_LINE_INTERACTION].n;
	if (attr_capacity(&a->cap[0], g, &a->line[IC_LINE_INLINE_EXTERN], "inline") ||
	    attr_capacity(&a->cap[1], g, &a->line[IC_LINE_INLINE_EXTERN], "extern"))
		return -1;
	a->l1i_source = "";
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];

		if (!isfinite(p->med[IC_F_L1I]))
			continue;
		if (src && strcmp(src, ic_point_source(p)))
			src = "mixed";
		else if (!src)
			src = ic_point_source(p);
	}
	if (src)
		a->l1i_source = src;
	a->cross_together = a->cap[0].measured && a->cap[1].measured && a->cap[0].pass &&
			    a->cap[0].pass == a->cap[1].pass;
	a->all_noisy = attr_all_noisy(g, a);
	a->fit_left_out = attr_fitting(g, &a->line[IC_LINE_INTERACTION], &a->fit, &a->fit_first_out);
	return a->fit.r ? 0 : -1;
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
