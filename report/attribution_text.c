/* summary.md's "What the difference is made of" for one series: each
 * component of attribution.h as a bullet, those whose band (per-N lines)
 * or interval (single comparisons) excludes 1 first; then where the
 * per-N lines are drawn. */
#include "report.h"

#include <math.h>
#include <stdarg.h>

#include "attribution.h"
#include "format.h"

/* The bullets: stated components and the rest, each with its length. */
struct attr_text {
	char resolved[2048], other[2048];
	size_t len[2];
};

__attribute__((format(printf, 3, 4)))
static void attr_add(struct attr_text *t, int resolved, const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	ic_fmt_add(resolved ? t->resolved : t->other, sizeof(t->resolved), &t->len[resolved], "- %s\n",
		   line);
}

static void attr_unmeasured(struct attr_text *t, const char *what, const struct ic_line *l)
{
	attr_add(t, 0, l->missing ? "%s: not measured (no %s in this series)"
		 : "%s: not measured (no N where every form of %s has a time)", what,
		 l->missing ? l->missing : l->name);
}

/* The series' own ratio at N resolved: a cause is named only there. */
static int attr_series_resolved(const struct ic_group *g, unsigned long sites)
{
	for (size_t i = 0; i < g->nratios; i++)
		if (g->ratios[i].sites == sites)
			return g->ratios[i].side != IC_SIDE_UNRESOLVED;
	return 0;
}

static void attr_say_call(struct attr_text *t, const struct ic_line *l, const struct ic_group *g)
{
	const struct ic_ratio *r = l->n ? &l->r[0] : NULL;

	if (!r || !isfinite(r->ratio))
		attr_unmeasured(t, "call overhead", l);
	else if (!isfinite(r->lo))
		attr_add(t, 0, "call overhead: no evidence (no interval: fewer than 2 processes or layouts)");
	else if (!(r->lo > 1.0 || r->hi < 1.0))
		attr_add(t, 0, "call overhead: no evidence at this resolution (interval %#.3g–%#.3g at N = %lu)",
			 r->lo, r->hi, r->sites);
	else if (!attr_series_resolved(g, r->sites))
		attr_add(t, 0, "call overhead: not named at N = %lu, where the series' own difference is "
			 "unresolved (extern/inline %#.3g [%#.3g–%#.3g])", r->sites, r->ratio, r->lo, r->hi);
	else
		attr_add(t, 1, "call overhead: extern is %#.3gx inline at N = %lu [%#.3g–%#.3g]%s", r->ratio,
			 r->sites, r->lo, r->hi, r->lo > 1.0 ? "" : ": the calls cost nothing here");
}

/* The point of l with in[i] farthest from 1. */
static const struct ic_ratio *attr_extreme(const struct ic_line *l, const unsigned char *in)
{
	const struct ic_ratio *best = NULL;

	for (size_t i = 0; i < l->n; i++)
		if (in[i] && (!best || fabs(log(l->r[i].ratio)) > fabs(log(best->ratio))))
			best = &l->r[i];
	return best;
}

/* A per-N line: stated only where its band excludes 1 and the series'
 * own difference is resolved. up/down: what a side above or below 1
 * means, e.g. "the copies cost". */
static void attr_say_per_n(struct attr_text *t, const char *what, const struct ic_line *l,
			   const struct ic_group *g, const char *up, const char *down)
{
	char above[256], below[256], off[256];
	const struct ic_ratio *hi, *lo, *r;
	double blo = INFINITY, bhi = -INFINITY;
	size_t dropped = 0;
	/* The N the line resolves above 1, below 1, where the series is
	 * resolved too; and those where the series is not. */
	unsigned char in[3][l->n ? l->n : 1];

	if (!l->n) {
		attr_unmeasured(t, what, l);
		return;
	}
	for (size_t i = 0; i < l->n; i++) {
		int own = attr_series_resolved(g, l->r[i].sites);

		in[0][i] = own && l->r[i].side == IC_SIDE_BASELINE;
		in[1][i] = own && l->r[i].side == IC_SIDE_COMPARE;
		in[2][i] = !own && l->r[i].side != IC_SIDE_UNRESOLVED;
		dropped += in[2][i];
	}
	ic_fmt_nset(above, sizeof(above), l->r, in[0], l->n, ", ");
	ic_fmt_nset(below, sizeof(below), l->r, in[1], l->n, ", ");
	hi = attr_extreme(l, in[0]);
	lo = attr_extreme(l, in[1]);
	if (dropped)
		attr_add(t, 0, "%s: %s is resolved at N = %s, where the series' own difference is "
			 "not, so it is not named as a cause there", what, l->name,
			 ic_fmt_nset(off, sizeof(off), l->r, in[2], l->n, ", "));
	if (hi && lo) {
		attr_add(t, 0, "%s: %s is resolved above 1 at N = %s and below 1 at N = %s, so no single "
			 "direction is stated", what, l->name, above, below);
	} else if ((r = hi ? hi : lo)) {
		attr_add(t, 1, "%s: %s is %#.3gx at N = %lu (band %#.3g–%#.3g), resolved %s 1 at N = %s: %s",
			 what, l->name, r->ratio, r->sites, r->band_lo, r->band_hi, hi ? "above" : "below",
			 hi ? above : below, hi ? up : down);
	} else if (!dropped) {
		for (size_t i = 0; i < l->n; i++)
			if (isfinite(l->r[i].band_lo)) {
				blo = fmin(blo, l->r[i].band_lo);
				bhi = fmax(bhi, l->r[i].band_hi);
			}
		if (isfinite(blo))
			attr_add(t, 0, "%s: no evidence at this resolution (bands %#.3g–%#.3g over N = %lu..%lu)",
				 what, blo, bhi, l->r[0].sites, l->r[l->n - 1].sites);
		else
			attr_add(t, 0, "%s: no evidence (no band: fewer than 2 processes or layouts)", what);
	}
}

/* How the parts multiply to the whole at the largest N with the copies
 * measured: inline/extern = clone/extern x inline/clone, the last the
 * inlined copies against the same copies called (the whole over the
 * copies, so the product is exact). */
static void attr_adds_up(FILE *f, const struct ic_attribution *a)
{
	const struct ic_line *cp = &a->line[IC_LINE_COPIES], *wh = &a->line[IC_LINE_INLINE_EXTERN];
	const struct ic_ratio *c = NULL, *w = NULL;
	double rest;

	for (size_t i = cp->n; i-- > 0 && !c;)
		for (size_t k = 0; k < wh->n; k++)
			if (wh->r[k].sites == cp->r[i].sites && cp->r[i].ratio > 0.0 && wh->r[k].ratio > 0.0) {
				c = &cp->r[i];
				w = &wh->r[k];
				break;
			}
	if (!c)
		return;
	rest = w->ratio / c->ratio;
	fprintf(f, "**How it adds up** at N = %lu: the whole, inline/extern %.2fx, is the copies, "
		"clone/extern %.2fx, times inlining those copies, inline/clone %.2fx", c->sites, w->ratio,
		c->ratio, rest);
	/* Words only where the whole and the copies are resolved at that N;
	 * inline/clone is their quotient, with no interval of its own. */
	if (w->side == IC_SIDE_UNRESOLVED || c->side == IC_SIDE_UNRESOLVED)
		fprintf(f, " (point estimates: %s is not resolved at this N).\n\n",
			w->side == IC_SIDE_UNRESOLVED ? "the whole" : "the copies' price");
	else if (c->ratio > 1.0 && rest < 1.0)
		fprintf(f, ": the copies cost, and inlining them saves %s than they cost, so %s.\n\n",
			w->ratio < 1.0 ? "more" : "less", w->ratio < 1.0 ? "inline is faster" : "the calls are faster");
	else
		fputs(" (point estimates).\n\n", f);
}

#define ATTR_MORE "the lock costs more inlined than called"
#define ATTR_LESS "the lock costs less inlined than called"

static void attr_statement(FILE *f, const struct ic_attribution *a, const struct ic_group *g, int moves)
{
	const char *what = "the lock, inlined vs called";
	struct attr_text t = { "", "", { 0, 0 } };

	attr_say_call(&t, &a->line[IC_LINE_CALL], g);
	attr_say_per_n(&t, "copies", &a->line[IC_LINE_COPIES], g, "the copies cost",
		       "the copies cost nothing here");
	/* Past the L1i the nolock forms' smaller code mixes capacity into the
	 * interaction: it is read where all four forms fit. */
	if (!a->fit_left_out)
		attr_say_per_n(&t, what, &a->line[IC_LINE_INTERACTION], g, ATTR_MORE, ATTR_LESS);
	else if (a->fit.n)
		attr_say_per_n(&t, what, &a->fit, g, ATTR_MORE, ATTR_LESS);
	if (a->fit_left_out)
		attr_add(&t, 0, "%s from N = %lu, where a form's code passes the L1i: the nolock "
			 "forms' smaller code mixes capacity into it", a->fit.n ? "the interaction" : what,
			 a->fit_first_out);
	/* The lock's own cost, inlined and called: the largest lines of the
	 * chart, said as sizes (they are no cause of the difference alone). */
	for (int i = 0; i < 2; i++) {
		const struct ic_line *l = &a->line[i ? IC_LINE_LOCK_EXTERN : IC_LINE_LOCK_INLINE];
		double lo = INFINITY, hi = -INFINITY;

		for (size_t k = 0; k < l->n; k++) {
			lo = fmin(lo, l->r[k].ratio);
			hi = fmax(hi, l->r[k].ratio);
		}
		if (isfinite(lo))
			attr_add(&t, 0, "%s: %s is %.2fx to %.2fx over N = %lu..%lu (the lock's own price there; "
				 "the line above is how inlined and called differ)", i ? "the lock called" :
				 "the lock inlined", l->name, lo, hi, l->r[0].sites, l->r[l->n - 1].sites);
	}
	/* A series whose every band is noisy says so once, above its table. */
	if (*t.resolved)
		fprintf(f, "**Likely cause** (at N where the series' difference and the cause's band or "
			"interval both exclude 1):\n\n%s\n", t.resolved);
	else
		fputs(moves ? "**Likely cause**: no component is resolved at a level here; what moves with "
		      "the ratio over the processes is below.\n\n"
		      : "**Likely cause**: nothing can be attributed here.\n\n", f);
	if (*t.other)
		fprintf(f, "**Not attributed:**\n\n%s\n", t.other);
	attr_adds_up(f, a);
}

/* A line's direction where it and the series are both resolved: +1 above
 * 1, -1 below, 0 nowhere, 2 both ways. */
static int attr_direction(const struct ic_line *l, const struct ic_group *g, int first_only)
{
	int up = 0, down = 0;

	for (size_t i = 0; i < l->n && (!first_only || i == 0); i++) {
		if (l->r[i].side == IC_SIDE_UNRESOLVED || !attr_series_resolved(g, l->r[i].sites))
			continue;
		up |= l->r[i].ratio > 1.0;
		down |= l->r[i].ratio < 1.0;
	}
	return up && down ? 2 : up ? 1 : down ? -1 : 0;
}

/* With two states: each state's attribution from its own processes, then
 * the components both name the same way. */
static void attr_states(FILE *f, const struct ic_analysis *an, const struct ic_series *se, int moves)
{
	static const struct {
		enum ic_line_kind k;
		const char *up, *down;
	} comp[] = {
		{ IC_LINE_CALL, "the calls cost (extern/inline above 1)", "the calls cost nothing (extern/inline below 1)" },
		{ IC_LINE_COPIES, "the copies cost (clone/extern above 1)", "the copies cost nothing (clone/extern below 1)" },
		{ IC_LINE_INTERACTION, ATTR_MORE, ATTR_LESS },
	};
	const struct ic_states *st = se->states;
	struct ic_group g[2];
	int any = 0;

	fprintf(f, "The processes ran in two states (above); each state's causes come from its own "
		"processes, the chart's from all of them.\n\n");
	for (int k = 0; k < 2; k++) {
		g[k] = se->group;
		g[k].ratios = st->st[k].ratios;
		g[k].nratios = st->st[k].nratios;
		fprintf(f, "**In state %d** (%s/%s %.2f at N = %lu, %zu processes):\n\n", k + 1,
			an->opts.compare, an->opts.baseline, st->st[k].level, st->st[k].sites,
			st->st[k].nproc);
		attr_statement(f, se->attr_state[k], &g[k], moves);
	}
	fputs("**In both states**: ", f);
	for (size_t c = 0; c < sizeof(comp) / sizeof(*comp); c++) {
		const struct ic_line *l0 = &se->attr_state[0]->line[comp[c].k];
		const struct ic_line *l1 = &se->attr_state[1]->line[comp[c].k];
		int first = comp[c].k == IC_LINE_CALL;
		int d0 = attr_direction(l0, &g[0], first), d1 = attr_direction(l1, &g[1], first);

		if (d0 == d1 && (d0 == 1 || d0 == -1)) {
			fprintf(f, "%s%s", any ? "; " : "", d0 > 0 ? comp[c].up : comp[c].down);
			any = 1;
		}
	}
	fputs(any ? ".\n\n" : "no cause is named the same way in both.\n\n", f);
}

/* "inline slowed 1.46x [1.42-1.51x]", as the watch says it. */
static void attr_moves_words(FILE *f, const struct ic_attr_moves *m, size_t i)
{
	double c = m->f[i].change, lo = m->f[i].change_lo, hi = m->f[i].change_hi;

	fprintf(f, "%s%s ", i ? ", " : "", m->f[i].form);
	if (m->f[i].verdict == IC_ATTR_UNCHANGED)
		fprintf(f, "unchanged (within ±%.0f%%)", 100.0 * IC_ATTR_MOVES_SAME);
	else if (m->f[i].verdict == IC_ATTR_UNSURE)
		fprintf(f, "not told apart (x%.2f, 95%% %.2f–%.2f)", c, lo, hi);
	else if (c >= 1.0)
		fprintf(f, "slowed %.2fx [%.2f–%.2fx]", c, lo, hi);
	else
		fprintf(f, "ran %.2fx faster [%.2f–%.2fx]", 1.0 / c, 1.0 / hi, 1.0 / lo);
}

/* Where the series' processes vary, how each form's time moves with its
 * ratio over them: measured in the same processes, the forms say which
 * side moves even where no level is resolved. */
static void attr_moves(FILE *f, const struct ic_analysis *an, const struct ic_attr_moves *m)
{
	if (!m->sites || !m->nforms)
		return;
	fprintf(f, "**What moves with the ratio**: the processes vary beyond their noise (at N = %lu "
		"their SD is %.0f%% [95%% %.0f–%.0f%%], Q = %.0f on %.0f df, p %s %.3f), so each form's "
		"time in a process is read against that process's %s/%s (the slope of log time on log "
		"ratio over the %zu processes in time order, 95%% Newey-West interval", m->sites,
		100.0 * expm1(m->h.tau), 100.0 * expm1(m->h.tau_lo), 100.0 * expm1(m->h.tau_hi), m->h.q,
		m->h.df, m->h.p < 0.001 ? "<" : "=", m->h.p < 0.001 ? 0.001 : m->h.p, an->opts.compare,
		an->opts.baseline, m->h.k);
	/* Processes of several layouts also differ by layout, not time alone. */
	if (m->nvariants > 1)
		fprintf(f, "; they ran %zu layout variants, whose own effects would move with it too",
			m->nvariants);
	fprintf(f, "). As %s/%s at N = %lu went from %.2f to %.2f (10th–90th percentile of the "
		"processes): ", an->opts.compare, an->opts.baseline, m->sites, m->p10, m->p90);
	for (size_t i = 0; i < m->nforms; i++)
		attr_moves_words(f, m, i);
	fputs(". This is how the forms move together over the processes, not a cause at one level.\n\n", f);
}

void ic_attribution_write(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	struct ic_attr_moves m = { 0 };

	if (!se->attr)
		return;
	fputs("#### What the difference is made of\n\n", f);
	ic_attribution_moves(&se->group, &se->procs, &an->opts, &m);
	if (!m.nforms)
		m.sites = 0;
	if (se->states && se->states->nstates == 2 && se->attr_state[0] && se->attr_state[1])
		attr_states(f, an, se, m.sites != 0);
	else
		attr_statement(f, se->attr, &se->group, m.sites != 0);
	attr_moves(f, an, &m);
	/* The per-N lines are drawn, not tabled: one panel per series with
	 * control forms (chart_data.c). */
	if (se->attr->has_controls)
		fputs("Per N: the attribution chart under Evidence and its data "
		      "(plots/attribution.dat).\n\n", f);
}
