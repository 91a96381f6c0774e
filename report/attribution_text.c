/* summary.md's "What the difference is made of" for one series: each
 * component of attribution.h as a bullet, those whose band (per-N lines)
 * or interval (single comparisons) excludes 1 first; then where the
 * per-N lines are drawn. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "attribution.h"
#include "format.h"

/* The bullets: stated components and the rest. */
struct attr_text {
	char resolved[2048], other[2048];
};

__attribute__((format(printf, 3, 4)))
static void attr_add(struct attr_text *t, int resolved, const char *fmt, ...)
{
	char *buf = resolved ? t->resolved : t->other;
	size_t len = strlen(buf), cap = sizeof(t->resolved);
	va_list ap;

	if (len + 8 >= cap)
		return;
	len += (size_t)snprintf(buf + len, cap - len, "- ");
	va_start(ap, fmt);
	vsnprintf(buf + len, cap - len, fmt, ap);
	va_end(ap);
	len = strlen(buf);
	if (len + 1 < cap)
		strcpy(buf + len, "\n");
}

static void attr_unmeasured(struct attr_text *t, const char *what, const struct ic_line *l)
{
	if (l->missing)
		attr_add(t, 0, "%s: not measured (no %s in this series)", what, l->missing);
	else
		attr_add(t, 0, "%s: not measured (no N where every form of %s has a time)", what, l->name);
}

static void attr_say_call(struct attr_text *t, const struct ic_line *l)
{
	const struct ic_ratio *r = l->n ? &l->r[0] : NULL;

	if (!r || !isfinite(r->ratio))
		attr_unmeasured(t, "call overhead", l);
	else if (!isfinite(r->lo))
		attr_add(t, 0, "call overhead: no evidence (no interval: fewer than 2 processes or layouts)");
	else if (r->lo > 1.0 || r->hi < 1.0)
		attr_add(t, 1, "calls %s: extern is %.3fx inline at N = %lu [%.3f–%.3f]",
			 r->lo > 1.0 ? "cost" : "do not cost here", r->ratio, r->sites, r->lo, r->hi);
	else
		attr_add(t, 0, "call overhead: no evidence at this resolution (interval %.3f–%.3f at N = %lu)",
			 r->lo, r->hi, r->sites);
}

/* The resolved point of side s farthest from 1. */
static const struct ic_ratio *attr_extreme(const struct ic_line *l, enum ic_point_side s)
{
	const struct ic_ratio *best = NULL;

	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].side == s && (!best || fabs(log(l->r[i].ratio)) > fabs(log(best->ratio))))
			best = &l->r[i];
	return best;
}

/* A per-N line: stated only where its band excludes 1. up/down: what a
 * resolved side above or below 1 means, e.g. "copies cost". */
static void attr_say_per_n(struct attr_text *t, const char *what, const struct ic_line *l,
			   const char *up, const char *down)
{
	char above[256], below[256];
	const struct ic_ratio *hi, *lo, *r;
	double blo = INFINITY, bhi = -INFINITY;

	if (!l->n) {
		attr_unmeasured(t, what, l);
		return;
	}
	ic_fmt_runs(above, sizeof(above), l->r, l->n, IC_SIDE_BASELINE);
	ic_fmt_runs(below, sizeof(below), l->r, l->n, IC_SIDE_COMPARE);
	hi = attr_extreme(l, IC_SIDE_BASELINE);
	lo = attr_extreme(l, IC_SIDE_COMPARE);
	if (hi && lo) {
		attr_add(t, 0, "%s: %s is resolved above 1 at N = %s and below 1 at N = %s, so no single "
			 "direction is stated", what, l->name, above, below);
		return;
	}
	if ((r = hi ? hi : lo)) {
		attr_add(t, 1, "%s: %s is %.3fx at N = %lu (band %.3f–%.3f), resolved %s 1 at N = %s",
			 hi ? up : down, l->name, r->ratio, r->sites, r->band_lo, r->band_hi,
			 hi ? "above" : "below", hi ? above : below);
		return;
	}
	for (size_t i = 0; i < l->n; i++)
		if (isfinite(l->r[i].band_lo)) {
			blo = fmin(blo, l->r[i].band_lo);
			bhi = fmax(bhi, l->r[i].band_hi);
		}
	if (isfinite(blo))
		attr_add(t, 0, "%s: no evidence at this resolution (bands %.3f–%.3f over N = %lu..%lu)",
			 what, blo, bhi, l->r[0].sites, l->r[l->n - 1].sites);
	else
		attr_add(t, 0, "%s: no evidence (no band: fewer than 2 processes or layouts)", what);
}

static void attr_statement(FILE *f, const struct ic_analysis *an, const struct ic_attribution *a)
{
	static const char *const more = "the lock costs more inlined than called";
	static const char *const less = "the lock costs less inlined than called";
	const char *what = "locked-instruction interaction";
	struct attr_text t = { "", "" };

	attr_say_call(&t, &a->line[IC_LINE_CALL]);
	attr_say_per_n(&t, "copies", &a->line[IC_LINE_COPIES], "copies cost", "copies do not cost");
	/* Past the L1i the nolock forms' smaller code mixes capacity into the
	 * interaction: it is read where all four forms fit. */
	if (!a->fit_left_out)
		attr_say_per_n(&t, what, &a->line[IC_LINE_INTERACTION], more, less);
	else if (a->fit.n)
		attr_say_per_n(&t, what, &a->fit, more, less);
	if (a->fit_left_out)
		attr_add(&t, 0, "%s from N = %lu, where a form's code passes the L1i: the nolock "
			 "forms' smaller code mixes capacity into it", a->fit.n ? "the interaction" : what,
			 a->fit_first_out);
	if (a->all_noisy)
		fprintf(f, "Every point of this series is noisy (band wider than ±%g%%): only effects "
			"larger than that can show here.\n\n", 100.0 * an->opts.noise_ci);
	if (*t.resolved)
		fprintf(f, "**Likely cause** (a band or interval excludes 1):\n\n%s\n", t.resolved);
	else
		fputs("**Likely cause**: nothing can be attributed here.\n\n", f);
	if (*t.other)
		fprintf(f, "**Not attributed:**\n\n%s\n", t.other);
}

void ic_attribution_write(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	if (!se->attr)
		return;
	fputs("#### What the difference is made of\n\n", f);
	attr_statement(f, an, se->attr);
	/* The per-N lines are drawn, not tabled: one panel per series with
	 * control forms (chart_data.c). */
	if (se->attr->has_controls)
		fputs("Per N: the attribution chart (plots/attribution.png) and its data "
		      "(plots/attribution.dat).\n\n", f);
}
