/* summary.md: the answer, a line per series, then the machine, the build and
 * the design in a line each; per series the evidence, its states and what the
 * difference is made of; then the machine, the counters and the method. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agreement.h"
#include "attribution.h"
#include "format.h"
#include "load.h"
#include "machine_state_read.h"
#include "run_history.h"
#include "series.h"

#define SUMMARY_FORM(e, name, solo, what) { #name, what },
static const struct {
	const char *name, *what;
} summary_forms[] = {
#include "point_names.def"
	IC_FORMS(SUMMARY_FORM)
};

static const char *plural(size_t n)
{
	return n == 1 ? "" : "s";
}

static const char *source_word(const char *src)
{
	return !strcmp(src, "sim") ? "simulated" : !strcmp(src, "papi") ? "PAPI" : src;
}

/* A ratio's verdict cell: "extern 1.70x faster [1.62-1.79x]" where the deciding range resolves a
 * side, "unresolved (inline 1.02x [0.97-1.08x])" where it does not, "too variable to size" where
 * that range is wider than IC_VERDICT_SIZE_MAX each way, "—" without a ratio. */
static const char *fmt_faster(char *buf, size_t cap, const struct ic_analysis *an,
			      const struct ic_ratio *r)
{
	int cmp = r->ratio < 1.0;
	const char *form = cmp ? an->opts.compare : an->opts.baseline;
	double fac = cmp ? 1.0 / r->ratio : r->ratio;
	/* The deciding (Holm) range, in the same unit: times faster. */
	double lo = cmp ? 1.0 / r->holm_hi : r->holm_lo, hi = cmp ? 1.0 / r->holm_lo : r->holm_hi;
	char f3[32], range[64] = "";

	if (!isfinite(r->ratio) || r->ratio <= 0.0) {
		snprintf(buf, cap, "—");
		return buf;
	}
	ic_fmt_sig3(f3, sizeof(f3), fac);
	if (isfinite(lo) && isfinite(hi) && lo > 0.0) {
		if (sqrt(hi / lo) > 1.0 + IC_VERDICT_SIZE_MAX) {
			snprintf(buf, cap, r->side == IC_SIDE_UNRESOLVED ? "unresolved (too variable to size)"
									: "%s faster, too variable to size", form);
			return buf;
		}
		snprintf(range, sizeof(range), " [%.3g-%.3gx]", lo, hi);
	}
	snprintf(buf, cap, r->side == IC_SIDE_UNRESOLVED ? "unresolved (%s %sx%s)" : "%s %sx faster%s",
		 form, f3, range);
	return buf;
}

/* Both forms' L1i misses per site in a cell, "0.579 / <0.001"; each names its source when mixed. */
static void l1i_cell(FILE *f, const struct ic_ratio *r, int mixed)
{
	const struct ic_point *p[2] = { r->cmp, r->base };

	fputs(" |", f);
	for (int k = 0; k < 2; k++) {
		fputs(k ? " /" : "", f);
		if (!isfinite(p[k]->med[IC_F_L1I]))
			fputs(" —", f);
		else if (p[k]->med[IC_F_L1I] > 0 && p[k]->med[IC_F_L1I] < 0.001)
			fputs(" <0.001", f);   /* the loop's own few misses spread over N: no 9.8e-05 */
		else
			fprintf(f, " %.3g", p[k]->med[IC_F_L1I]);
		if (mixed && isfinite(p[k]->med[IC_F_L1I]))
			fprintf(f, " (%s)", source_word(ic_point_source(p[k])));
	}
}

/* Where the engine read the series' L1i counts from; "" for nowhere. */
static const char *l1i_source(const struct ic_series *se)
{
	return se->attr ? se->attr->l1i_source : "";
}

/* Per N both times, which form is faster by how much, and L1i misses where they were counted. */
static void evidence_table(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_group *gr = &se->group;
	const char *c = an->opts.compare, *b = an->opts.baseline;
	const char *src = l1i_source(se);
	int l1i = *src != '\0';
	char l1[32] = "", cell[96], tc[32], tb[32];

	if (!strcmp(src, "sim") || !strcmp(src, "papi"))
		snprintf(l1, sizeof(l1), ", %s", source_word(src));
	fprintf(f, "| N | %s ns | %s ns | faster |", c, b);
	if (l1i)
		fprintf(f, " L1i misses/site, %s / %s%s |", c, b, l1);
	fprintf(f, "\n|---:|---:|---:|:---|%s\n", l1i ? "---:|" : "");
	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_ratio *r = &gr->ratios[i];

		/* times to 3 significant digits; their 95% intervals are in points.csv */
		fprintf(f, "| %lu | %s | %s | %s", r->sites, ic_fmt_sig3(tc, sizeof(tc), r->cmp->med[IC_F_NS]),
			ic_fmt_sig3(tb, sizeof(tb), r->base->med[IC_F_NS]), fmt_faster(cell, sizeof(cell), an, r));
		if (l1i)
			l1i_cell(f, r, !strcmp(src, "mixed"));
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

/* Code per call site without the filler (stated apart) and how much the band can resolve. */
static void code_and_noise(FILE *f, const struct ic_analysis *an, const struct ic_group *gr)
{
	const char *form[2] = { an->opts.compare, an->opts.baseline };
	const char *as[2] = { "inlined", "out of line" };
	int classic = !strcmp(form[0], "inline") && !strncmp(form[1], "extern", 6);
	double code[2] = { gr->code_cmp, gr->code_base };
	size_t noisy = 0;
	char fb[32];

	fputs("Code per call site: ", f);
	for (int k = 0; k < 2; k++)
		if (isfinite(code[k]))
			fprintf(f, "%s%.0f B %s", k ? ", " : "", code[k] - (double)gr->filler,
				classic ? as[k] : form[k]);
		else
			fprintf(f, "%s%s not measured", k ? ", " : "", form[k]);
	if (gr->filler)
		fprintf(f, "; each site also runs %s of filler, and every time here includes it",
			ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	fputc('.', f);
	if (gr->threads > 1)
		fprintf(f, " Each time is wall time over the sites of all %lu threads together (they run at "
			"once: about 1/%lu of a thread's own time per site).", gr->threads, gr->threads);
	for (size_t i = 0; i < gr->nratios; i++)
		noisy += gr->ratios[i].noisy;
	if (noisy && noisy == gr->nratios)
		fprintf(f, " Every point's band is wider than ±%g%%: only larger differences can be "
			"resolved here.", 100.0 * an->opts.noise_ci);
	else if (noisy)
		fprintf(f, " At %zu of %zu points the band (all N at once, plots/ratio.png) is wider than "
			"±%g%%; the table's range is each point's deciding one.", noisy, gr->nratios,
			100.0 * an->opts.noise_ci);
	fputs("\n\n", f);
}

/* A state's time and spell: "42% of the time [30-55%], mean spell 12 s [8-20 s]". */
static void state_time(FILE *f, const struct ic_state *st)
{
	fprintf(f, "%.0f%% of the time [%.0f–%.0f%%]", 100.0 * st->share, 100.0 * st->share_lo,
		100.0 * st->share_hi);
	if (isfinite(st->spell_s) && !isfinite(st->spell_hi) && st->spell_s > 1e6) {
		/* Never left while the run watched: only a lower bound. */
		fprintf(f, ", not seen to end: mean spell at least %.3g s", st->spell_lo);
	} else if (isfinite(st->spell_s)) {
		fprintf(f, ", mean spell %.3g s [%.3g–", st->spell_s, st->spell_lo);
		fprintf(f, isfinite(st->spell_hi) ? "%.3g s]" : "unbounded]", st->spell_hi);
	}
}

/* What the processes' level did without a model: steady, or how far it moved and how (states.h). */
static void level_text(FILE *f, const struct ic_analysis *an, const struct ic_states *st)
{
	static const char *const steady[] = {
		[IC_LEVEL_STEADY] = " The processes ran at one level: at every N, 90% of them within ±5% "
				    "of their mean.",
		[IC_LEVEL_UNBOUNDED] = " No variation beyond the repetitions' noise was shown, but none "
				       "within ±5% is ruled out.",
		[IC_LEVEL_LAYOUT] = " The processes differ beyond their noise, but the processes of each "
				    "layout variant agree: the layouts, which the 95% ranges hold, not the "
				    "machine.",
	};

	if (st->level == IC_LEVEL_WANDERS || st->level == IC_LEVEL_DRIFTS)
		fprintf(f, " The machine's level moved: at N = %lu the processes ran %s/%s %.2f to %.2f "
			"(10th-90th percentile), and those of one layout differ beyond their noise "
			"(p %s). It %s; the answer above is the time average, and each side's spread "
			"says how far a moment strays.", st->steady_sites, an->opts.compare,
			an->opts.baseline, st->spread_lo, st->spread_hi,
			st->time_p < 0.001 ? "< 0.001" : st->time_p < 0.01 ? "< 0.01" : "< 0.05",
			st->level == IC_LEVEL_DRIFTS ? "drifts: a line in time takes away half of it or more"
						     : "wanders: no two clean states, no line in time");
	else if ((size_t)st->level < sizeof(steady) / sizeof(*steady) && steady[st->level])
		fputs(steady[st->level], f);
}

/* One state: why not two. Two: each with its level, time and spell, and
 * per N its ratio, band and faster form from its own processes. */
static void states_text(FILE *f, const struct ic_analysis *an, const struct ic_states *st)
{
	const struct ic_sm *m = &st->model;

	if (!st->nproc)
		return;
	if (st->nstates == 1) {
		/* Too few processes for a verdict: said once, above the series. */
		if (st->nproc < IC_STATES_MIN_PROC)
			return;
		fprintf(f, "States: one%s, tested on %zu repetitions of %zu processes in time order (%s",
			st->brief ? " read, a second not ruled out" : "", m->n, st->nproc, st->why);
		if (m->mu)
			fprintf(f, "; the best two-state fit's levels are %.1f noise scales apart where they "
				"part most", m->sep);
		fputs(").", f);
		level_text(f, an, st);
		fputs("\n\n", f);
		return;
	}
	fprintf(f, "**Two states**: %s/%s at N = %lu is ", an->opts.compare, an->opts.baseline,
		st->st[0].sites);
	for (int k = 0; k < 2; k++) {
		fprintf(f, "%.2f", st->st[k].level);
		if (isfinite(st->st[k].lo))
			fprintf(f, " [%.2f–%.2f]", st->st[k].lo, st->st[k].hi);
		fputs(k ? " in the other (" : " in one (", f);
		state_time(f, &st->st[k]);
		fputs(k ? ")" : ") and ", f);
	}
	fprintf(f, "; %.1f noise scales apart, read from %zu repetitions in time order. %zu of %zu "
		"processes stayed in the first state throughout, %zu in the second", m->sep, m->n, st->st[0].nproc,
		st->nproc, st->st[1].nproc);
	if (st->nunsteady)
		fprintf(f, "; %zu switched while they ran", st->nunsteady);
	if (st->follows == IC_FOLLOWS_TIME)
		fputs("; all of one state ran, then all of the other", f);
	fputs(". Each state's ratios below come from every repetition firmly in it, each process "
	      "one draw; they describe the levels, and the answer above is the time average's.\n\n", f);
	fprintf(f, "| N | in state 1 | in state 2 |\n|---:|:---|:---|\n");
	for (size_t i = 0; i < st->st[0].nratios || i < st->st[1].nratios; i++) {
		char cell[96];

		for (int k = 0; k < 2; k++) {
			const struct ic_ratio *r = i < st->st[k].nratios ? &st->st[k].ratios[i] : NULL;

			if (!k)
				fprintf(f, "| %lu", r ? r->sites : st->st[1].ratios[i].sites);
			fprintf(f, " | %s", r ? fmt_faster(cell, sizeof(cell), an, r) : "—");
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

/* Processes in two clusters at one N with one state in time: said, so
 * that an interval holding both clusters is read as that, not as noise. */
static void split_text(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	struct ic_split sp;

	if ((se->states && se->states->nstates == 2) || !ic_process_split(&se->procs, &sp))
		return;
	fprintf(f, "**Processes split** at N = %lu: %zu near %s/%s %.2f and %zu near %.2f, %.1f "
		"within-cluster SDs apart, while the states model, reading them in time, finds one "
		"state: a layout's or a process's own level, not the machine's. That N's ratio and "
		"interval pool both clusters; plots/ratio.png shows each process.\n\n", sp.sites, sp.n[0],
		an->opts.compare, an->opts.baseline, sp.level[0], sp.n[1], sp.level[1], sp.gap_sd);
}

/* What the sites' own mark and calls cost (form mark: sites that only
 * mark), beside the baseline at the same N. */
static void mark_text(FILE *f, const struct ic_analysis *an, const struct ic_group *gr)
{
	const struct ic_point *first = NULL, *last = NULL, *base;

	for (size_t i = 0; i < gr->npoints; i++) {
		const struct ic_point *p = gr->points[i];

		if (strcmp(p->form, "mark") || !isfinite(p->med[IC_F_NS]))
			continue;
		if (!first || p->sites < first->sites)
			first = p;
		if (!last || p->sites > last->sites)
			last = p;
	}
	if (!first)
		return;
	fprintf(f, "Sites that only mark (form `mark`: each site's add and the calls every form "
		"makes%s) took %.3g ns per site at N = %lu", gr->filler ? ", and the filler" : "",
		first->med[IC_F_NS], first->sites);
	if (last != first)
		fprintf(f, " and %.3g ns at N = %lu", last->med[IC_F_NS], last->sites);
	base = ic_group_point(gr, an->opts.baseline, first->sites);
	if (base && isfinite(base->med[IC_F_NS]))
		fprintf(f, "; at N = %lu that is %.1f%% of %s's time", first->sites,
			100.0 * first->med[IC_F_NS] / base->med[IC_F_NS], an->opts.baseline);
	fputs(". Both compared forms carry the same mark and calls.\n\n", f);
}

/* ---- what the difference is made of --------------------------------------- */

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

/* A per-N line, stated where its band excludes 1 and the series' own
 * difference is resolved; up/down: what above or below 1 means ("the copies cost"). */
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
 * measured: inline/extern = clone/extern x inline/clone, the last the inlined
 * copies against them called (the whole over the copies, so it is exact). */
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

/* Where the processes vary, how each form's time moves with their ratio: in
 * the same processes, the forms say which side moves even where no level is resolved. */
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

/* Each component of attribution.h as a bullet, first those whose band (per-N
 * lines) or interval (single comparisons) excludes 1; then where they are drawn. */
static void attribution_write(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
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

static void series_text(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_group *gr = &se->group;
	char t[512];

	fprintf(f, "### %s\n\n", ic_fmt_series(t, sizeof(t), an, gr));
	code_and_noise(f, an, gr);
	if (gr->nratios == 0) {
		fprintf(f, "No N with both %s and %s measured; see points.csv.\n\n", an->opts.compare,
			an->opts.baseline);
		return;
	}
	if (se->states && se->states->nstates == 2)
		fputs("This table pools the two states below, the time average over the run, as the answer does.\n\n",
		      f);
	evidence_table(f, an, se);
	if (!*l1i_source(se))
		fputs("L1i misses were not measured for this series (not zero: not counted).\n\n", f);
	if (se->states)
		states_text(f, an, se->states);
	if (se->timeline) {
		char line[256];

		ic_timeline_line(line, sizeof(line), se->timeline);
		fprintf(f, "%s (plots/timeline.png).\n\n", line);
	}
	split_text(f, an, se);
	mark_text(f, an, gr);
	attribution_write(f, an, se);
}

/* ---- the machine ------------------------------------------------------------ */

/* A context value by its name (ic_ctx_name, or a machine_* key of
 * common/machine_state_read.h), "" when absent; good until the next call. */
static const char *ctx(const struct ic_results *res, const char *name)
{
	static char buf[IC_RESULTS_CONTEXT_MAX];

	return ic_results_context_named(res, name, buf, sizeof(buf));
}

/* What moves results, when it is bad and the command that fixes it (words if
 * capitalised). bad: '!' unless the value is val, '=' if it is, '^' if it
 * starts with val, '>' if a number of at least val. The load: load_text. */
static const struct {
	const char *key, *name, *fine;   /* fine: the word in "Fine as they are" */
	char bad;
	const char *val, *effect, *fix;
} machine_rule[] = {
	{ "machine_governor", "Frequency governor", "governor", '!', "performance",
	  "the clock follows the load, so a time depends on what ran just before it",
	  "sudo cpupower frequency-set -g performance" },
	{ "machine_epp", "Energy-performance preference", NULL, '!', "performance",
	  "the frequency driver trades speed for energy", "echo performance | sudo tee "
	  "/sys/devices/system/cpu/cpu*/cpufreq/energy_performance_preference" },
	{ "machine_boost", "Boost (turbo)", "boost", '^', "on",
	  "the clock depends on temperature and on how many cores are busy", NULL },
	{ "machine_smt", "SMT", "SMT", '=', "on", "work on a sibling thread shares the core's "
	  "caches and decoders (threads are placed one per core first)",
	  "echo off | sudo tee /sys/devices/system/cpu/smt/control" },
	/* ASLR is part of the randomised design, as the layout variants and the
	 * stack pad are: only its absence is a fault. */
	{ "machine_aslr", "ASLR (randomize_va_space)", "ASLR", '=', "0", "every process gets the "
	  "same stack, heap and library addresses, so the run samples fewer layouts than the "
	  "design means to (ASLR is part of it, beside the layout variants and the stack pad)",
	  "sudo sysctl -w kernel.randomize_va_space=2" },
	{ "machine_nmi_watchdog", "NMI watchdog", "NMI watchdog", '!', "0",
	  "it holds a hardware counter, one fewer for PAPI", "sudo sysctl -w kernel.nmi_watchdog=0" },
	{ "machine_perf_event_paranoid", "perf_event_paranoid", "perf_event_paranoid", '>', "3",
	  "counters cannot be read as a user", "sudo sysctl -w kernel.perf_event_paranoid=2" },
	{ "machine_thp", "Transparent huge pages", "THP", '=', "always", "khugepaged may merge "
	  "pages during a run, which moves TLB misses",
	  "echo madvise | sudo tee /sys/kernel/mm/transparent_hugepage/enabled" },
	{ "machine_load", "Load average", "load", '>', "0.5", NULL, NULL },
	{ "machine_busy", "Other busy processes", "other processes:", '^', "pid ",
	  "they take CPU time and caches from the run",
	  "Stop them (`kill PID`) or wait for them to finish." },
};

/* Boost's switch depends on the frequency driver. */
static const char *boost_fix(const char *v)
{
	if (strstr(v, "intel_pstate"))
		return "echo 1 | sudo tee /sys/devices/system/cpu/intel_pstate/no_turbo";
	if (strstr(v, "policy"))
		return "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/policy*/boost";
	return "echo 0 | sudo tee /sys/devices/system/cpu/cpufreq/boost";
}

/* A high load v by when it was sampled: before the run started anything, it
 * is other work, to stop only if some still ran as the measurement started
 * (busy names it); sampled later, it holds the run's own build: not judged. */
static void load_text(FILE *f, const char *name, const char *v, const char *busy)
{
	int others = !strncmp(busy, "pid ", 4);

	if (!strstr(v, IC_MSTATE_LOAD_BEFORE))
		fprintf(f, "  - %s: %s: not judged: it may hold this run's own build (a run that "
			"samples it before it starts anything says so)\n", name, v);
	else if (others)
		fprintf(f, "  - %s: **%s**: other work ran on this machine in the minute before the "
			"run started, and some of it still ran as the measurement started. Fix: "
			"stop the processes named under Other busy processes, or measure when the "
			"machine is idle (`uptime` shows the load).\n", name, v);
	else
		fprintf(f, "  - %s: %s: other work ran on this machine in the minute before the run "
			"started; none was busy as the measurement started, so there is nothing to "
			"stop.\n", name, v);
}

/* The machine_* keys of common/machine_state_read.h; nothing was changed. */
static void machine_state(FILE *f, const struct ic_results *res)
{
	char fine[1024] = "", busy[IC_RESULTS_CONTEXT_MAX];
	size_t nfine = 0, any = 0, n = sizeof(machine_rule) / sizeof(machine_rule[0]);

	for (size_t i = 0; i < n; i++)
		any += *ctx(res, machine_rule[i].key) != '\0';
	if (!any) {
		fputs("- Machine state: not recorded (a run from before the suite recorded it)\n", f);
		return;
	}
	snprintf(busy, sizeof(busy), "%s", ctx(res, "machine_busy"));
	fputs("- Machine state at the start of the run (what moves results, with the command "
	      "that fixes it; nothing was changed):\n", f);
	for (size_t i = 0; i < n; i++) {
		const char *v = ctx(res, machine_rule[i].key), *val = machine_rule[i].val, *fix, *q;
		int bad;

		if (!*v) {
			if (i == 0)
				fprintf(f, "  - %s: not recorded\n", machine_rule[i].name);
			continue;
		}
		if (!strncmp(v, IC_MSTATE_UNREADABLE, strlen(IC_MSTATE_UNREADABLE)) ||
		    !strcmp(v, "not sampled")) {
			fprintf(f, "  - %s: %s\n", machine_rule[i].name, v);   /* never said to be fine */
			continue;
		}
		switch (machine_rule[i].bad) {
		case '!': bad = strcmp(v, val) != 0; break;
		case '=': bad = !strcmp(v, val); break;
		case '^': bad = !strncmp(v, val, strlen(val)); break;
		default: bad = atof(v) >= atof(val);
		}
		if (bad && !machine_rule[i].effect) {
			load_text(f, machine_rule[i].name, v, busy);
		} else if (bad) {
			fix = machine_rule[i].fix ? machine_rule[i].fix : boost_fix(v);
			q = *fix >= 'A' && *fix <= 'Z' ? "" : "`";
			fprintf(f, "  - %s: **%s**: %s. Fix: %s%s%s\n", machine_rule[i].name,
				!strcmp(machine_rule[i].key, "machine_nmi_watchdog") ? "on" :
				!strcmp(machine_rule[i].key, "machine_aslr") ? "off" : v,
				machine_rule[i].effect, q, fix, q);
		} else if (!strcmp(machine_rule[i].key, "machine_aslr")) {
			ic_fmt_add(fine, sizeof(fine), &nfine, "%sASLR on (%s: part of the randomised design, "
				   "leave it on)", nfine ? "; " : "", v);
		} else if (machine_rule[i].fine) {
			ic_fmt_add(fine, sizeof(fine), &nfine, "%s%s %s", nfine ? "; " : "", machine_rule[i].fine,
				   !strcmp(val, "0") ? "off" : v);
		}
	}
	if (nfine)
		fprintf(f, "  - Fine as they are: %s\n", fine);
}

/* Several builds: each with its label, keys and processes. One build is
 * said on the first screen (answer_write). */
static void builds_text(FILE *f, const struct ic_results *res)
{
	char keys[512], label[256];

	if (res->nbuilds < 2)
		return;
	fprintf(f, "- Builds: %zu, each run in its own processes and reported as its own series "
		"(never pooled):\n", res->nbuilds);
	for (size_t i = 0; i < res->nbuilds; i++) {
		const struct ic_build *b = &res->builds[i];

		ic_fmt_build_keys(keys, sizeof(keys), b);
		ic_fmt_build(label, sizeof(label), res, i);
		fprintf(f, "  - %s%s%s; %zu process%s\n", label, *label ? ": " : "",
			*keys ? keys : "no build keys in the context (an older run)", b->nfiles,
			b->nfiles == 1 ? "" : "es");
	}
}

/* before, the context value and after; missing in its place when absent,
 * nothing when missing is NULL. Printed at once: ctx()'s buffer is reused. */
static void ctx_put(FILE *f, const struct ic_results *res, const char *before, enum ic_ctx key,
		    const char *after, const char *missing)
{
	const char *v = ctx(res, ic_ctx_name(key));

	if (*v || missing)
		fprintf(f, "%s%s%s", before, *v ? v : missing, *v ? after : "");
}

static void machine_text(FILE *f, const struct ic_results *res)
{
	int lock_differs = 0;
	char a[32];

	fputs("## Machine\n\n", f);
	ctx_put(f, res, "- CPU: ", IC_CTX_CPU_MODEL, "", "not recorded");
	ctx_put(f, res, "; cores: ", *ctx(res, ic_ctx_name(IC_CTX_CORES)) ? IC_CTX_CORES :
		IC_CTX_NUM_CPUS, "", "not recorded");
	ctx_put(f, res, "; SMT: ", IC_CTX_SMT, "", "not recorded");
	ctx_put(f, res, "; ", IC_CTX_MHZ_PER_CPU, " MHz", NULL);
	/* The L1i's and L2's sizes are on the answer's Machine line, once. */
	fputs("\n- Caches: L1i", f);
	ctx_put(f, res, " ", IC_CTX_L1I_ASSOC, "-way", NULL);
	ctx_put(f, res, ", ", IC_CTX_L1I_LINE, " B lines", NULL);
	fprintf(f, "; L3 %s\n", ic_fmt_bytes(a, sizeof(a), ic_results_context_num(res, IC_CTX_L3_SIZE)));
	for (size_t i = 1; i < res->nbuilds; i++)
		lock_differs |= strcmp(res->builds[i].v[IC_B_LOCK], res->builds[0].v[IC_B_LOCK]) != 0;
	if (lock_differs)
		fputs("- Lock: per build (see Builds)", f);
	else
		ctx_put(f, res, "- Lock: ", IC_CTX_LOCK, "", "not recorded");
	ctx_put(f, res, "; threads pinned: ", IC_CTX_PINNED, "", "not recorded");
	if (!strcmp(ctx(res, ic_ctx_name(IC_CTX_OVERSUBSCRIBED)), "true"))
		fputs(" (more threads than PUs: the extra threads share PUs, see each label)", f);
	fputc('\n', f);
	builds_text(f, res);
	ctx_put(f, res, "- Sites per chain caller: ", IC_CTX_PER_CALLER, "\n", "not recorded\n");
	ctx_put(f, res, "- Host: ", IC_CTX_HOST_NAME, "\n", NULL);
	ctx_put(f, res, "- Date: ", IC_CTX_DATE, "\n", NULL);
	ctx_put(f, res, "- Executable: ", IC_CTX_EXECUTABLE, "\n", NULL);
	machine_state(f, res);
	fputc('\n', f);
}

/* Each distinct counter source with its note; processes that counted
 * nothing beside others that did are said once. */
static void counters_text(FILE *f, const struct ic_results *res)
{
	size_t none = 0;

	for (size_t i = 0; i < res->nfiles; i++)
		none += !strcmp(res->files[i]->counter_source, "none");
	fputs("## Counters\n\n", f);
	for (size_t i = 0; i < res->nfiles; i++) {
		const char *src = res->files[i]->counter_source;
		const char *note = ic_file_context_string(res->files[i], IC_CTX_COUNTER_NOTE);
		int seen = none < res->nfiles && !strcmp(src, "none");

		for (size_t j = 0; j < i && !seen; j++) {
			const char *n2 = ic_file_context_string(res->files[j], IC_CTX_COUNTER_NOTE);

			seen = !strcmp(res->files[j]->counter_source, src) &&
			       !strcmp(n2 ? n2 : "", note ? note : "");
		}
		if (seen)
			continue;
		if (!strcmp(src, "papi"))
			fputs("- Source: hardware counters read with PAPI.", f);
		else if (!strcmp(src, "sim"))
			fputs("- Source: simulated: valgrind's cache simulation of the timed loop (L1i "
			      "misses and instructions are simulated, not measured on this CPU; every "
			      "form's are in points.csv).", f);
		else if (!strcmp(src, "none"))
			fputs("- Source: none: no counters were read; counter columns are empty "
			      "(not zero).", f);
		else
			fprintf(f, "- Source: %s.", *src ? src : "not recorded");
		if (note && *note)
			fprintf(f, " Note: %s", note);
		fputc('\n', f);
	}
	if (none && none < res->nfiles)
		fprintf(f, "- %zu of %zu processes counted nothing (run.sh simulates the ordinary link, "
			"layout variant 0, only); the counter columns come from the other %zu.\n", none,
			res->nfiles, res->nfiles - none);
	fputc('\n', f);
}

static void sd_cell(FILE *f, double sd, size_t df)
{
	fprintf(f, isfinite(sd) ? " | %.1f%% (%zu)" : " | —", 100.0 * sd, df);
}

/* The Method section's table of the spread at each level of the design, one row per series. */
static void repeats_method(FILE *f, const struct ic_analysis *an)
{
	int any = 0;
	char t[512];

	for (size_t s = 0; s < an->nseries; s++)
		any |= an->series[s].repeats && an->series[s].group.nratios;
	if (!any)
		return;
	fprintf(f, "- Spread at each level: the SD of the log ratio %s/%s (about a %% of the "
		"ratio), pooled over each series' N, with its degrees of freedom; — where a level "
		"has none (one run, one process, one repetition). The runs are the sweep's repeats; "
		"a process's ratio is the ratio of its medians, a repetition's is paired with the "
		"other form's repetition of the same round.\n\n", an->opts.compare, an->opts.baseline);
	fputs("| series | runs | between runs | between processes in a run | between repetitions "
	      "in a process |\n|:---|---:|---:|---:|---:|\n", f);
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_series *se = &an->series[s];

		if (!se->repeats || !se->group.nratios)
			continue;
		fprintf(f, "| %s | %zu", ic_fmt_series(t, sizeof(t), an, &se->group),
			se->repeats->nrepeats);
		sd_cell(f, se->repeats->lv.sd_run, se->repeats->lv.df_run);
		sd_cell(f, se->repeats->lv.sd_proc, se->repeats->lv.df_proc);
		sd_cell(f, se->repeats->lv.sd_rep, se->repeats->lv.df_rep);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

static void method_text(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	size_t vmax = 0, nerr_pts = 0;

	for (size_t i = 0; i < res->npoints; i++) {
		vmax = res->points[i]->nvariants > vmax ? res->points[i]->nvariants : vmax;
		nerr_pts += res->points[i]->nerrors > 0;
	}
	fputs("## Method and noise\n\n"
	      "- Terms: an N is **resolved** when Holm's step-down (below) puts it on one side of 1: "
	      "its **deciding interval**, the **95% range** of the text and tables (in times faster; the chart's dark bar), excludes 1. The "
	      "**band** of a ratio is its simultaneous 95% interval over every N of its series "
	      "(Bonferroni, below), drawn as the chart's light area; it shows where the ratios lie "
	      "and decides nothing. "
	      "The **bracket** (A, B) holds the crossover: the last N resolved for one form and the "
	      "first resolved for the other, with no estimate inside; where the resolved N switch "
	      "side more than once, nothing is claimed. A **state** is one of two speeds the machine "
	      "ran the same code at, read from every repetition in time (rule below).",
	      f);
	/* The forms as gen's table says them, so that a new form is named here too. */
	fputs(" The **forms** of a call site:", f);
	for (size_t i = 0; i < sizeof(summary_forms) / sizeof(summary_forms[0]); i++)
		fprintf(f, "%s `%s` %s", i ? ";" : "", summary_forms[i].name, summary_forms[i].what);
	fputs(".\n"
	      "- Time per call site: Google Benchmark's real_time per iteration (one call site): per "
	      "process the median of its repetitions, then the geometric mean over layout variants.\n",
	      f);
	if (res->nrepeats >= IC_REPEATS_TOP)
		fprintf(f, "- Intervals: Student's t over the sweep's %d repeats, the top level (each a "
			"whole run with layouts of its own, its processes averaged), so they hold the "
			"spread between runs as well as within one; a verdict is stated only where every "
			"repeat alone gives it.\n", res->nrepeats);
	else if (res->nrepeats >= 2)
		fprintf(f, "- Intervals: Student's t over the layout variants of the sweep's %d repeats "
			"(each repeat draws layouts of its own); with fewer than %d repeats the run is not "
			"the top level, as one degree of freedom would resolve nothing. Each repeat's own "
			"verdict is below.\n", res->nrepeats, IC_REPEATS_TOP);
	else if (vmax >= 2)
		fputs("- Intervals: Student's t over the layout variants, so they hold the spread between "
		      "layouts, processes and repetitions within this run. A ratio is formed within each "
		      "process.\n", f);
	else
		fputs("- Intervals: Student's t over the processes of **one** layout: they speak for this "
		      "build's code placement only.\n", f);
	fprintf(f, "- Band: Bonferroni over the series' m N: each N's t interval at %g / m, so all "
		"m bands hold their true ratios together with chance at least %g%%. Decisions: Holm's "
		"step-down over the same N: the j-th smallest of m p-values is resolved while it is at "
		"most %g / (m - j + 1) and every smaller one was, so a series wrongly resolves any N "
		"with chance at most %g%%; ratios.csv's p_holm is the adjusted p-value.\n",
		an->opts.family, 100.0 * (1.0 - an->opts.family), an->opts.family,
		100.0 * an->opts.family);
	for (size_t s = 0; s < an->nseries; s++)
		if (an->series[s].group.filler) {
			fputs("- Filler: a series with filler (F bytes of other straight-line code at every "
			      "site) is read as a whole program: every figure is of the gross time per site, "
			      "filler included.\n", f);
			break;
		}
	if (res->nbuilds > 1)
		fprintf(f, "- Builds: %zu (compiler, flags, LTO, body and lock, from each process's "
			"context). A process ran one build, so every figure is within one build; builds "
			"are set side by side, never pooled.\n", res->nbuilds);
	fprintf(f, "- States: every repetition of %s, paired with the %s repetition of its "
		"process and N nearest in time, in the run's time order, is one path of a two-state "
		"Markov chain in continuous time, with a level per state and N and t-distributed noise "
		"(engine/state_model.h). Two states when each holds %.0f+ repetitions, their levels "
		"are %.0f+ scales of the t noise apart at some N (one SD is 1.41 scales), a spell lasts %.0f+ repetitions on average, and "
		"BIC prefers two; a split that follows the layout variants (by process, or by "
		"repetition at the N where the levels part most, each level's variant run on both "
		"sides of the other's) is a layout's effect and "
		"stays one state, and so does a second level in spells so brief that fewer than two "
		"processes ran two repetitions in it at the N where the levels part most (too little "
		"to read as a state; said so). A state's level has the process as its draw (t interval); its share "
		"of time and mean spell come from the switches counted (Garwood's interval, spells cut "
		"by the run's ends censored). A process is of a state with %.0f%% of its repetitions "
		"firmly (posterior %.0f%%+) in it; one with firm runs of both switched inside and "
		"counts for neither state's ratios. The same data chose the states and measures them: "
		"nothing is cross-fitted.\n", an->opts.compare, an->opts.baseline, IC_SM_MIN_OCC,
		IC_SM_SEPARATION, IC_SM_MIN_RUN, 100.0 * IC_STATES_MEMBER, 100.0 * IC_SM_FIRM);
	if (res->n_errors)
		fprintf(f, "- Skipped: %zu repetition%s at %zu point%s reported an error and %s not "
			"counted.\n", res->n_errors, plural(res->n_errors), nerr_pts, plural(nerr_pts),
			res->n_errors == 1 ? "is" : "are");
	for (size_t i = 0, shown = 0; i < res->npoints && shown < 5; i++)
		if (res->points[i]->nerrors) {
			fprintf(f, "  - %s: %s\n", res->points[i]->key,
				res->points[i]->error ? res->points[i]->error : "(no message)");
			shown++;
		}
	fprintf(f, "- Input: %zu file%s (one per process)", res->nfiles, plural(res->nfiles));
	if (res->nbuilds > 1)
		fprintf(f, " of %zu builds", res->nbuilds);
	fputs(".\n", f);
	repeats_method(f, an);
}

/* ---- the answer: the first screen ------------------------------------------ */

/* " Inlined code outgrows the L1i at N ≈ 176, extern code at N ≈ 1155."; both
 * forms once when they pass at the same measured N; the L1i's size is on the Machine line. */
static void answer_l1i(FILE *f, const struct ic_analysis *an, const struct ic_group *gr,
		       const struct ic_attribution *attr)
{
	double size = ic_results_context_num(an->res, IC_CTX_L1I_SIZE), ac, ab;
	const char *c = an->opts.compare, *b = an->opts.baseline;
	int classic = ic_verdict_classic(an);
	unsigned long pc, pb;

	if (!isfinite(size) || size <= 0 || !gr->nratios)
		return;
	pc = ic_group_cache_pass(gr, c, size, &ac);
	pb = ic_group_cache_pass(gr, b, size, &ab);
	/* Capacity explains a crossover near where the inlined code fills the
	 * L1i, not one far below it: there, say so, and what the copies cost. */
	if (pc && isfinite(ac) && gr->xo.verdict == IC_VERDICT_CROSSOVER &&
	    4.0 * gr->xo.bracket_hi <= ac) {
		const struct ic_line *cp = attr ? &attr->line[IC_LINE_COPIES] : NULL;
		const struct ic_ratio *top = NULL;

		fprintf(f, " The L1i does not explain the crossover: %s code fills it only at N ≈ %.0f",
			classic ? "inlined" : c, ac);
		for (size_t i = 0; cp && i < cp->n; i++)
			if (cp->r[i].side == IC_SIDE_BASELINE)
				top = &cp->r[i];
		if (top)
			fprintf(f, "; the copies do (%s %.3gx at N = %lu)", cp->name, top->ratio, top->sites);
		fputc('.', f);
		return;
	}
	if (pc && pb && pc == pb)
		fprintf(f, " Both forms' code outgrows the L1i by N = %lu.", pc);
	else if (pc && pb)
		fprintf(f, " %s code outgrows the L1i at N ≈ %.0f, %s code at N ≈ %.0f.",
			classic ? "Inlined" : c, ac, b, ab);
	else if (pc || pb)
		fprintf(f, " %s code outgrows the L1i at N ≈ %.0f.", !pc ? b : classic ? "Inlined" : c,
			pc ? ac : ab);
	else
		fprintf(f, " The code stays within the L1i up to N = %lu.",
			gr->ratios[gr->nratios - 1].sites);
}

/* A verdict only where every repeat holds it: where not, 1 after "the 3 repeats
 * disagree, so no verdict is stated: repeat 1 ..., repeat 2 ..."; else 0, silent. */
static int answer_repeats_disagree(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	static const char *const words[] = { "no N resolved", "crossover in (%.0f, %.0f)",
		"%s faster wherever resolved", "%s faster wherever resolved", "sides switching, no crossover" };
	const struct ic_repeats *rp = se->repeats;
	char w[160];

	if (!rp || rp->nrepeats < 2 || rp->agree || !se->group.nratios)
		return 0;
	fprintf(f, "the %zu repeats disagree, so no verdict is stated:", rp->nrepeats);
	for (size_t k = 0; k < rp->nrepeats; k++)
		fprintf(f, "%s repeat %d %s", k ? ";" : "", rp->repeat[k],
			ic_fmt_crossover(w, sizeof(w), &rp->xo[k], &an->opts, words));
	return 1;
}

/* A line per series: its verdict (verdict.c), else the repeats' disagreement;
 * that no repeat alone says otherwise where the verdict resolves some N (else
 * that adds nothing); then where its code outgrows the L1i. */
static void answer_series(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_repeats *rp = se->repeats;
	char t[512], v[IC_VERDICT_MAX];

	fprintf(f, "- **%s**: ", ic_fmt_series(t, sizeof(t), an, &se->group));
	if (!answer_repeats_disagree(f, an, se)) {
		fputs(ic_verdict_series(v, sizeof(v), an, se), f);
		if (rp && rp->nrepeats >= 2 && rp->agree && se->group.nratios &&
		    se->group.xo.n_compare + se->group.xo.n_baseline > 0)
			fprintf(f, " None of the %zu repeats alone puts an N on the other side.", rp->nrepeats);
	}
	answer_l1i(f, an, &se->group, se->attr);
	fputc('\n', f);
}

/* How long a run would resolve the 2004 effect where this one's range is
 * narrowest, if the machine varies as it did: a log half-width shrinks as
 * 1/sqrt(processes), so the run grows by the square of the half-widths' ratio. */
static void answer_run_length(FILE *f, const struct ic_analysis *an, double half)
{
	const struct ic_results *res = an->res;
	double t0 = INFINITY, t1 = -INFINITY, grow, min;

	for (size_t i = 0; i < res->nfiles; i++) {
		t0 = fmin(t0, res->files[i]->start);
		t1 = fmax(t1, res->files[i]->end);
	}
	if (!isfinite(t0) || !isfinite(t1) || t1 <= t0)
		return;
	grow = pow(log1p(half) / log1p(an->opts.noise_ci), 2.0);
	min = grow * (t1 - t0) / 60.0;
	fprintf(f, " There, about %.0f %s of processes (%.0fx this run's) would, if the machine varies "
		"as it did.", min < 120.0 ? min : min / 60.0, min < 120.0 ? "min" : "h", grow);
}

/* The smallest difference the run resolves: the narrowest deciding interval's half-width over every
 * series and N, against the 2004 effect's 3% (the noise flag's). Nothing without intervals. */
static void answer_resolution(FILE *f, const struct ic_analysis *an)
{
	const struct ic_ratio *best = NULL;
	const struct ic_series *bs = NULL;
	double half = INFINITY;
	char t[512];

	for (size_t s = 0; s < an->nseries; s++)
		for (size_t i = 0; i < an->series[s].group.nratios; i++) {
			const struct ic_ratio *r = &an->series[s].group.ratios[i];
			double h = sqrt(r->holm_hi / r->holm_lo) - 1.0;

			if (r->holm_lo > 0.0 && isfinite(h) && h < half) {
				half = h;
				best = r;
				bs = &an->series[s];
			}
		}
	if (!best)
		return;
	if (ic_analysis_smoke(an, t, sizeof(t))) {
		fprintf(f, "Resolution: none: a smoke test resolves no N (%s); its narrowest 95%% range, "
			"about %.1f%% either side, speaks for its one layout only.\n", t, 100.0 * half);
		return;
	}
	fprintf(f, "Resolution: this run resolves differences of about %.1f%% at best (%s, N = %lu).",
		100.0 * half, ic_fmt_series(t, sizeof(t), an, &bs->group), best->sites);
	if (half > an->opts.noise_ci) {
		fprintf(f, " No difference of %g%% (the 2004 kernel's gain) can be resolved here.",
			100.0 * an->opts.noise_ci);
		answer_run_length(f, an, half);
		fputc('\n', f);
	} else {
		fprintf(f, " Differences of %g%% (the 2004 kernel's gain) can be resolved where the "
			"95%% range is that narrow.\n", 100.0 * an->opts.noise_ci);
	}
}

static void answer_design(FILE *f, const struct ic_results *res)
{
	struct ic_design d = ic_results_design(res);

	fputs("Design: ", f);
	if (res->nrepeats >= 2)   /* each repeat has layouts of its own */
		fprintf(f, "%d repeats; ", res->nrepeats);
	fprintf(f, "%zu layout variant%s%s; %zu", d.variants_max, d.variants_max == 1 ? "" : "s",
		res->nrepeats >= 2 ? " in all" : "", d.units_min);
	if (d.units_max != d.units_min)
		fprintf(f, " to %zu", d.units_max);
	fprintf(f, " processes per point; %zu", d.reps_min);
	if (d.reps_max != d.reps_min)
		fprintf(f, " to %zu", d.reps_max);
	fputs(" repetitions per point in all, the forms interleaved at random within each process.", f);
}

static void answer_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	char a[32], b[32], bl[512];

	fputs("## The answer\n\nUp to how many call sites does inlining pay, and by how much? Per "
	      "series: what to do, then each side with its size. Sizes are in times faster, with "
	      "95% ranges in brackets. An N is on a side only where its range excludes 1, over "
	      "the whole run (see Method).\n\n", f);
	for (size_t s = 0; s < an->nseries; s++)
		answer_series(f, an, &an->series[s]);
	fputc('\n', f);
	answer_resolution(f, an);
	ctx_put(f, res, "Machine: ", IC_CTX_CPU_MODEL, "", "CPU not recorded");
	ctx_put(f, res, ", ", *ctx(res, ic_ctx_name(IC_CTX_CORES)) ? IC_CTX_CORES : IC_CTX_NUM_CPUS,
		" cores", NULL);
	fprintf(f, "; L1i %s, L2 %s.\n",
		ic_fmt_bytes(a, sizeof(a), ic_results_context_num(res, IC_CTX_L1I_SIZE)),
		ic_fmt_bytes(b, sizeof(b), ic_results_context_num(res, IC_CTX_L2_SIZE)));
	if (res->nbuilds > 1)
		fprintf(f, "Builds: %zu, each its own series (see Machine).\n", res->nbuilds);
	else if (*ic_fmt_build_keys(bl, sizeof(bl), &res->builds[0]))
		fprintf(f, "Build: %s.\n", bl);
	answer_design(f, res);
	fputs("\n\n", f);
}

/* What the tables hold, the charts, and what every series shares, said once. */
static void evidence_intro(FILE *f, const struct ic_analysis *an)
{
	size_t unsplit = 0, l1i = 0, attr = 0;

	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_states *st = an->series[s].states;

		unsplit += st && st->nstates == 1 && st->nproc < IC_STATES_MIN_PROC;
		l1i += *l1i_source(&an->series[s]) != '\0';
		attr += an->series[s].attr && an->series[s].attr->has_controls;
	}
	fprintf(f, "## Evidence\n\nEach table gives per N the median time per call site in ns (95%% intervals in "
		"points.csv) and the faster form: by how much (slower time over faster), with the 95%% range "
		"that decides it in brackets (Holm's, see Method); *unresolved* where that range "
		"holds 1 (%s/%s per N with its intervals and band in ratios.csv).\n\n", an->opts.compare, an->opts.baseline);
	fputs("![Time per call site](plots/time.png)\n\n![The ratio per N, each process a dot "
	      "(process_ratios.csv)](plots/ratio.png)\n\n", f);
	if (l1i)
		fputs("![L1i misses per call site](plots/l1i.png)\n\n", f);
	if (attr)
		fputs("![What the difference is made of](plots/attribution.png)\n\n", f);
	if (unsplit)
		fprintf(f, "States: not tested in %s (fewer than %d processes).\n\n", unsplit == an->nseries ? "every series" : "the series that do not "
			"say otherwise", IC_STATES_MIN_PROC);
}

/* The run's directory: its processes are DIR/raw/NAME.json beside
 * DIR/run.conf. 0 when the run is not laid out so (tests, loose files). */
static int history_run_dir(const struct ic_analysis *an, char *dir, size_t cap)
{
	const char *path, *slash;
	char conf[4200];
	struct stat st;
	size_t len;

	if (!an->res->nfiles || !(path = an->res->files[0]->path) || !(slash = strrchr(path, '/')))
		return 0;
	len = (size_t)(slash - path);
	if (len < 4 || strncmp(slash - 4, "/raw", 4) || len - 4 >= cap)
		return 0;
	memcpy(dir, path, len - 4);
	dir[len - 4] = '\0';
	snprintf(conf, sizeof(conf), "%s/run.conf", dir);
	return stat(conf, &st) == 0;
}

/* results/NAME for a run in a results/ directory, else the path. */
static const char *history_short(const char *dir)
{
	const char *r = strstr(dir, "/results/");

	return r ? r + 1 : dir;
}

static void history_name(FILE *f, const struct ic_group *g)
{
	fprintf(f, "%s %s/%s, %lu thread%s, %s", g->op, g->layout, g->order, g->threads,
		g->threads == 1 ? "" : "s", g->mode);
	if (g->filler)
		fprintf(f, ", %lu B filler", g->filler);
}

/* The series d's name, then mid, its answer then and now, its states if two. */
static void history_detail(FILE *f, const struct ic_history_series *d, const struct ic_analysis *then,
			   const struct ic_analysis *now, const char *mid)
{
	char bt[96], bn[96], st[160], sn[160];

	history_name(f, &d->now->group);
	fprintf(f, ": %s%s then, %s now", mid, ic_history_bracket(bt, sizeof(bt), &d->then->group.xo, &then->opts),
		ic_history_bracket(bn, sizeof(bn), &d->now->group.xo, &now->opts));
	ic_history_states(st, sizeof(st), d->then);
	if (*ic_history_states(sn, sizeof(sn), d->now) || *st)
		fprintf(f, "; states then %s, now %s", *st ? st : "one", *sn ? sn : "one");
}

/* summary.md's line on the run's history (engine/run_history.h): "Agrees
 * with the run of ...", "Differs from ...", or why it cannot tell; nothing
 * for a calibration trial or a run not laid out as a run's directory. */
static void history_line(FILE *f, const struct ic_analysis *an)
{
	char dir[4096], then_dir[4096], when[64], why[96], mid[64];
	struct ic_history_series *h;
	struct ic_run then;
	size_t m, ndiff, u;
	double t;

	if (isfinite(an->opts.planted) || !history_run_dir(an, dir, sizeof(dir)))
		return;
	if (ic_analysis_smoke(an, why, sizeof(why))) {
		fprintf(f, "History: a quick run (%s) cannot tell whether it agrees with earlier runs.\n\n", why);
		return;
	}
	if (ic_history_earlier(an, dir, &then, then_dir, sizeof(then_dir), &t)) {
		fputs("History: no earlier run of this machine and build in its results directory to "
		      "compare with (./run.sh history lists them).\n\n", f);
		return;
	}
	ic_history_when(when, sizeof(when), t);
	m = ic_history_against(an, &then.an, &h, &ndiff);
	/* Else the first series that cannot tell. */
	for (u = ndiff; u < m && h[u].equivalent; u++)
		;
	if (!m) {
		fprintf(f, "History: the run of %s (%s) shares no series and N with this one.\n\n",
			when, history_short(then_dir));
	} else if (ndiff) {
		fprintf(f, "Differs from the run of %s (%s) in %zu of %zu series (Holm over the series): ",
			when, history_short(then_dir), ndiff, m);
		history_detail(f, &h[0], &then.an, an, "");
		for (size_t i = 1; i < ndiff; i++) {
			fputs(i == 1 ? "; also " : "; ", f);
			history_name(f, &h[i].now->group);
		}
		fputs("; run ./run.sh watch.\n\n", f);
	} else if (u < m) {
		fprintf(f, "Cannot tell whether it agrees with the run of %s (%s): ", when, history_short(then_dir));
		snprintf(mid, sizeof(mid), "too noisy to hold within %.0f%% (", 100.0 * IC_AGREE_MARGIN);
		history_detail(f, &h[u], &then.an, an, mid);
		fputs(").\n\n", f);
	} else {
		fprintf(f, "Agrees with the run of %s (%s): within %.0f%% at every shared N of %zu "
			"series.\n\n", when, history_short(then_dir), 100.0 * IC_AGREE_MARGIN, m);
	}
	free(h);
	ic_run_free(&then);
}

int ic_summary_write(FILE *f, const struct ic_analysis *an)
{
	char mark[320];
	int smoke = ic_verdict_smoke(mark, sizeof(mark), an);

	/* The smoke mark on the first line, where no reader misses it. */
	fprintf(f, "# inlinecost: %s vs %s%s%s\n\n", an->opts.compare, an->opts.baseline,
		smoke ? " — " : "", mark);
	answer_write(f, an);
	history_line(f, an);
	/* What to do with it, last on the first screen (and the terminal's). */
	if (!smoke)
		fputs("Your own program: `./run.sh inlines BINARY --function NAME --results DIR`, with DIR "
		      "this results directory, finds that function's inlined copies in BINARY's DWARF and "
		      "prices them on this run's curve (docs/inlines.md).\n\n", f);
	evidence_intro(f, an);
	for (size_t s = 0; s < an->nseries; s++)
		series_text(f, an, &an->series[s]);
	machine_text(f, an->res);
	counters_text(f, an->res);
	method_text(f, an);
	return ferror(f) ? -1 : 0;
}
