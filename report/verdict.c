/* The verdict of each series in the question's words: up to how many call sites does inlining pay,
 * and by how much? Every measured N is on a side or named unresolved; a series in two states says
 * what holds in both and where they differ, with each state's share of the time. summary.md's first
 * screen, verdict.txt (the console's) and verdict.json say the same. */
#define _GNU_SOURCE
#include "report.h"

#include <ctype.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "kit.h"
#include "load.h"

struct vbuf {
	char *s;
	size_t cap, len;
};

#define VB_ADD(b, ...) ic_fmt_add((b)->s, (b)->cap, &(b)->len, __VA_ARGS__)

/* Capitalises the clause that starts at b->s + from. */
static void vb_capital(struct vbuf *b, size_t from)
{
	if (from < b->len)
		b->s[from] = (char)toupper((unsigned char)b->s[from]);
}

/* The words: inline vs extern ("inline pays", "extern calls"), any other
 * pair by the forms' names; a series with filler is a whole program. */
struct vwords {
	const struct ic_analysis *an;
	int classic, program;
};

int ic_verdict_classic(const struct ic_analysis *an)
{
	const char *c = an->opts.compare, *b = an->opts.baseline;

	return (!strcmp(c, "inline") || !strcmp(c, "hint")) && !strncmp(b, "extern", 6);
}

/* The slower over the faster of side s at ratio x (compare/baseline). */
static double vfactor(enum ic_point_side s, double x)
{
	return s == IC_SIDE_COMPARE ? 1.0 / x : x;
}

static int vfactor_cmp(const void *a, const void *b, void *side)
{
	const struct ic_ratio *x = *(const struct ic_ratio *const *)a;
	const struct ic_ratio *y = *(const struct ic_ratio *const *)b;
	enum ic_point_side s = *(enum ic_point_side *)side;
	double fx = vfactor(s, x->ratio), fy = vfactor(s, y->ratio);

	/* ties in N order, as the side lists them */
	return fx < fy ? -1 : fx > fy ? 1 : (x > y) - (x < y);
}

/* The N of side s that speaks for it: the median of its factors. */
static const struct ic_ratio *vset_typical(const struct ic_group *g, enum ic_point_side s)
{
	const struct ic_ratio *pick[g->nratios + 1];
	size_t k = 0;

	for (size_t i = 0; i < g->nratios; i++)
		if (g->ratios[i].side == s && isfinite(g->ratios[i].ratio) && g->ratios[i].ratio > 0.0)
			pick[k++] = &g->ratios[i];
	qsort_r(pick, k, sizeof(*pick), vfactor_cmp, &s);
	return k ? pick[(k - 1) / 2] : NULL;
}

/* Side s's factors (slower over faster) over the N of g with in[i]:
 * "1.49x to 1.92x" (a spread of estimates, not an interval), "1.12x" where
 * both ends read the same, "" when none has a ratio; 1 when it names two. */
static int vset_span(const struct ic_group *g, const unsigned char *in, enum ic_point_side s,
		     char *fac, size_t cap)
{
	double lo = INFINITY, hi = -INFINITY;
	char a[16], z[16];
	/* two decimals below 2x so a 3% effect reads 1.03x */
	const char *fmt;
	int two;

	for (size_t i = 0; i < g->nratios; i++) {
		double x;

		if (!in[i] || !isfinite(g->ratios[i].ratio) || g->ratios[i].ratio <= 0.0)
			continue;
		x = vfactor(s, g->ratios[i].ratio);
		lo = fmin(lo, x);
		hi = fmax(hi, x);
	}
	*fac = '\0';
	if (!isfinite(lo))
		return 0;
	fmt = hi < 2.0 ? "%.2f" : "%.1f";
	snprintf(a, sizeof(a), fmt, lo);
	snprintf(z, sizeof(z), fmt, hi);
	two = strcmp(a, z) != 0;
	snprintf(fac, cap, two ? "%sx to %sx" : "%sx", two ? a : z, z);
	return two;
}

/* in[i] for the N of g whose side is s, and their set as ic_fmt_nset says it. */
static const char *vset_nset(char *buf, size_t cap, const struct ic_group *g, enum ic_point_side s,
			     unsigned char *in)
{
	for (size_t i = 0; i < g->nratios; i++)
		in[i] = g->ratios[i].side == s;
	return ic_fmt_nset(buf, cap, g->ratios, in, g->nratios, " and ");
}

enum vrange { V_UPTO, V_FROM, V_AT };

/* One side's clause: [from N = B ]head[ up to N = A| at N = set] by span. */
static void verdict_clause(struct vbuf *b, const struct vwords *w, const struct ic_group *g,
			   enum ic_point_side s, enum vrange range, unsigned long at)
{
	char fac[48], head[160], set[512];
	unsigned char in[g->nratios + 1];

	vset_nset(set, sizeof(set), g, s, in);
	if (w->classic && w->program)
		snprintf(head, sizeof(head), s == IC_SIDE_COMPARE ? "inlining makes the program faster"
				 : "the program with the calls out of line is faster");
	else if (w->program)
		snprintf(head, sizeof(head), "the program with %s is faster", ic_fmt_side(w->an, s, NULL));
	else
		snprintf(head, sizeof(head), w->classic && s == IC_SIDE_BASELINE ? "%s calls are faster"
				 : "%s is faster", ic_fmt_side(w->an, s, NULL));
	/* From the series' first N is at its every N: said by its N. */
	if (range == V_FROM && g->nratios && g->ratios[0].sites == at)
		range = V_AT;
	if (range == V_FROM)
		VB_ADD(b, "from N = %lu %s", at, head);
	else if (range == V_UPTO)
		VB_ADD(b, "%s up to N = %lu", head, at);
	else
		VB_ADD(b, "%s at N = %s", head, set);
	/* One N: its size follows; several: the span of their estimates (the
	 * clause has just named those N). */
	if (vset_span(g, in, s, fac, sizeof(fac)))
		VB_ADD(b, ", by %s", fac);
}

/* Side s's size at its typical N: the time average with its deciding 95%
 * range (none wider than +-IC_VERDICT_SIZE_MAX), the spread of its paired
 * repetitions in time, and how often each put that side ahead over its N. */
static void verdict_size(struct vbuf *b, const struct vwords *w, const struct ic_group *g,
			 enum ic_point_side s)
{
	const struct ic_ratio *t = vset_typical(g, s);
	size_t won = 0, all = 0, nside = 0;
	double lo, hi;

	if (!t)
		return;
	lo = vfactor(s, s == IC_SIDE_COMPARE ? t->holm_hi : t->holm_lo);
	hi = vfactor(s, s == IC_SIDE_COMPARE ? t->holm_lo : t->holm_hi);
	for (size_t i = 0; i < g->nratios; i++)
		if (g->ratios[i].side == s) {
			nside++;
			all += g->ratios[i].nrep;
			won += s == IC_SIDE_COMPARE ? g->ratios[i].nrep_cmp : g->ratios[i].nrep_base;
		}
	/* With one N the clause named it already. */
	if (nside > 1)
		VB_ADD(b, "; at N = %lu", t->sites);
	if (isfinite(lo) && isfinite(hi) && sqrt(hi / lo) <= 1.0 + IC_VERDICT_SIZE_MAX)
		VB_ADD(b, "%s %.3gx on average [%.3g-%.3gx]", nside > 1 ? ":" : ",", vfactor(s, t->ratio),
		       lo, hi);
	else
		VB_ADD(b, "%s too variable to size here (%.2gx on average, its 95%% range over %.2gx "
		       "either way)", nside > 1 ? ":" : ",", vfactor(s, t->ratio), 1.0 + IC_VERDICT_SIZE_MAX);
	if (t->nrep >= 5 && isfinite(t->spread_lo)) {
		double a = vfactor(s, s == IC_SIDE_COMPARE ? t->spread_hi : t->spread_lo);
		double z = vfactor(s, s == IC_SIDE_COMPARE ? t->spread_lo : t->spread_hi);

		VB_ADD(b, ", %.3gx to %.3gx as the machine varied", a, z);
	}
	VB_ADD(b, ".");
	if (all) {
		size_t from = b->len + 1;

		VB_ADD(b, " %s was the faster in %zu of %zu paired repetitions there.",
		       ic_fmt_side(w->an, s, NULL), won, all);
		vb_capital(b, from);
	}
}

/* Per side (enum ic_point_side): how many N, the first and the last; how often
 * the resolved side switches. From each N's side: the crossover's counts come
 * from its intervals, which agree with the sides only to Holm-level rounding. */
struct vcount {
	size_t n[3], switches;
	unsigned long min[3], max[3];
};
enum { VU = IC_SIDE_UNRESOLVED, VC = IC_SIDE_COMPARE, VB = IC_SIDE_BASELINE };

static struct vcount vset_count(const struct ic_group *g)
{
	struct vcount k = { 0 };
	enum ic_point_side last = IC_SIDE_UNRESOLVED;

	for (size_t i = 0; i < g->nratios; i++) {
		enum ic_point_side s = g->ratios[i].side;

		k.min[s] = k.n[s]++ ? k.min[s] : g->ratios[i].sites;
		k.max[s] = g->ratios[i].sites;
		if (s != IC_SIDE_UNRESOLVED) {
			k.switches += last != IC_SIDE_UNRESOLVED && s != last;
			last = s;
		}
	}
	return k;
}

/* Side s's size at its typical ratio t for what to do: "about 1.04x" (three digits below 2x, so
 * it does not read 1x); no size where its 95% range is wider than IC_VERDICT_SIZE_MAX each way. */
static const char *vabout(char *buf, size_t cap, enum ic_point_side s, const struct ic_ratio *t)
{
	double x = vfactor(s, t->ratio);

	if (!(t->holm_lo > 0.0) || !(sqrt(t->holm_hi / t->holm_lo) <= 1.0 + IC_VERDICT_SIZE_MAX))
		snprintf(buf, cap, "by a margin too variable to size");
	else
		snprintf(buf, cap, x < 2.0 ? "about %.3gx" : "about %.2gx", x);
	return buf;
}

/* " (N = 16: 5.7 against 13.4 ns a site)" at ratio t. */
static void verdict_times(struct vbuf *b, const struct ic_ratio *t)
{
	char x[32], y[32];

	if (!t || !t->cmp || !t->base)
		return;
	VB_ADD(b, " (N = %lu: %s against %s ns a site)", t->sites,
	       ic_fmt_sig3(x, sizeof(x), t->ratio < 1.0 ? t->cmp->med[IC_F_NS] : t->base->med[IC_F_NS]),
	       ic_fmt_sig3(y, sizeof(y), t->ratio < 1.0 ? t->base->med[IC_F_NS] : t->cmp->med[IC_F_NS]));
}

/* The unresolved N that lean toward side s: " (N = 1..16 lean inline by
 * 1.2x to 1.3x, within the noise)". */
static void verdict_lean(struct vbuf *b, const struct vwords *w, const struct ic_group *g,
			 enum ic_point_side s)
{
	size_t n = g->nratios, k = 0;
	unsigned char lean[n + 1];
	char set[512], fac[48];

	for (size_t i = 0; i < n; i++) {
		double x = g->ratios[i].ratio;

		lean[i] = g->ratios[i].side == IC_SIDE_UNRESOLVED && isfinite(x) && x > 0.0 &&
			  (s == IC_SIDE_COMPARE) == (x < 1.0);
		k += lean[i];
	}
	if (!k)
		return;
	vset_span(g, lean, s, fac, sizeof(fac));
	VB_ADD(b, " (N = %s lean%s %s by %s, within the noise)",
	       ic_fmt_nset(set, sizeof(set), g->ratios, lean, n, " and "), k == 1 ? "s" : "",
	       ic_fmt_side(w->an, s, NULL), fac);
}

/* What to do, in one sentence from the sides: the rule a person tuning
 * call sites acts on, in the run's own numbers. */
static void verdict_todo(struct vbuf *b, const struct vwords *w, const struct ic_group *g)
{
	struct vcount k = vset_count(g);
	const char *c = w->an->opts.compare, *base = w->an->opts.baseline;
	unsigned long last = g->nratios ? g->ratios[g->nratios - 1].sites : 0;
	const struct ic_ratio *tb = vset_typical(g, IC_SIDE_BASELINE), *tc = vset_typical(g, IC_SIDE_COMPARE);
	char ab[48] = "", ac[48] = "";

	if (tb)
		vabout(ab, sizeof(ab), IC_SIDE_BASELINE, tb);
	if (tc)
		vabout(ac, sizeof(ac), IC_SIDE_COMPARE, tc);
	if (!k.n[VC] && !k.n[VB]) {
		VB_ADD(b, "This run cannot tell which form is faster at any N");
		verdict_lean(b, w, g, IC_SIDE_COMPARE);
		verdict_lean(b, w, g, IC_SIDE_BASELINE);
		VB_ADD(b, "; a longer run could (see Resolution).");
		return;
	}
	if (k.switches > 1) {
		VB_ADD(b, "No one rule: the faster form switches %zu times over N (the table below).",
		       k.switches);
		return;
	}
	if (k.n[VC] && (!k.n[VB] || k.max[VC] < k.min[VB])) {
		if (!k.n[VB] && !k.n[VU]) {
			VB_ADD(b, "%s%s: it is faster at every N measured, up to N = %lu, %s",
			       w->classic ? "Inline it" : "Prefer ", w->classic ? "" : c, last, ac);
			verdict_times(b, tc);
			VB_ADD(b, ".");
			return;
		}
		if (w->classic)
			VB_ADD(b, "Inline it only where it has at most %lu call site%s", k.max[VC],
			       k.max[VC] == 1 ? "" : "s");
		else
			VB_ADD(b, "Prefer %s up to N = %lu", c, k.max[VC]);
		if (k.n[VB]) {
			VB_ADD(b, "; from %lu, %s is faster, %s", k.min[VB],
			       w->classic ? "calling it" : base, ab);
			verdict_times(b, tb);
		} else if (k.max[VC] == last) {
			VB_ADD(b, ": it is faster there, up to %lu, the last N measured, %s", last, ac);
			verdict_times(b, tc);
		} else {
			VB_ADD(b, ": it is faster there, %s", ac);
			verdict_times(b, tc);
			VB_ADD(b, "; beyond, this run cannot tell");
		}
		VB_ADD(b, ".");
		return;
	}
	if (k.n[VB] && (!k.n[VC] || k.max[VB] < k.min[VC])) {
		if (w->classic && !k.n[VC] && !k.n[VU])
			VB_ADD(b, "Keep it out of line: the calls are faster at every N, %s", ab);
		else if (w->classic && !k.n[VC])
			VB_ADD(b, "Call it out of line from %lu call sites%s: the calls are faster there, %s", k.min[VB],
			       k.min[VB] == last ? ", the last N measured" : "", ab);
		else if (w->classic)
			VB_ADD(b, "Keep it out of line up to %lu call sites: the calls are faster there, %s",
			       k.max[VB], ab);
		else
			VB_ADD(b, "Prefer %s %s N = %lu: it is faster there, %s", base, k.n[VC] ? "up to" : "from",
			       k.n[VC] ? k.max[VB] : k.min[VB], ab);
		verdict_times(b, tb);
		if (k.n[VC]) {
			VB_ADD(b, "; from %lu %s is faster", k.min[VC], w->classic ? "inlining" : c);
		} else {
			size_t from;

			VB_ADD(b, ". ");
			from = b->len;
			VB_ADD(b, "%s was not shown faster at any N", w->classic ? "Inlining" : c);
			vb_capital(b, from);
			verdict_lean(b, w, g, IC_SIDE_COMPARE);
		}
		VB_ADD(b, ".");
		return;
	}
	VB_ADD(b, "No one rule over N (the table below).");
}

/* The sides of g, a sentence each: anchored, a single switch reads "up
 * to A ... from B"; else each side at its N. Then the unresolved N. */
static void verdict_sides(struct vbuf *b, const struct vwords *w, const struct ic_group *g)
{
	struct vcount k = vset_count(g);
	size_t from;
	unsigned char in[g->nratios + 1];
	char set[512];

	vset_nset(set, sizeof(set), g, IC_SIDE_UNRESOLVED, in);
	if (!k.n[VC] && !k.n[VB]) {
		VB_ADD(b, " No N is resolved: at N = %s the 95%% range holds 1.", set);
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		/* The side at small N first. */
		int cfirst = k.n[VC] && (!k.n[VB] || k.min[VC] < k.min[VB]);
		enum ic_point_side s = (pass == 0) == cfirst ? IC_SIDE_COMPARE : IC_SIDE_BASELINE;
		if (!k.n[s])
			continue;
		VB_ADD(b, " ");
		from = b->len;
		if (k.switches > 1)
			verdict_clause(b, w, g, s, V_AT, 0);
		else if (pass == 0)
			verdict_clause(b, w, g, s, (k.n[VC] && k.n[VB]) ? V_UPTO : V_AT, k.max[s]);
		else
			verdict_clause(b, w, g, s, V_FROM, k.min[s]);
		vb_capital(b, from);
		verdict_size(b, w, g, s);
	}
	if (k.n[VU])
		VB_ADD(b, " Unresolved at N = %s, where the 95%% range holds 1.", set);
	else
		VB_ADD(b, " Unresolved: none.");
	if (g->xo.verdict == IC_VERDICT_CROSSOVER)
		VB_ADD(b, " The crossover lies between N = %.0f and %.0f.", g->xo.bracket_lo, g->xo.bracket_hi);
}

/* How many N the two states put on opposite sides (each state's ratios from
 * every repetition firmly in it, the process the unit): set, *first the first. */
static size_t verdict_state_diff(const struct ic_states *st, char *set, size_t cap, size_t *first)
{
	const struct ic_state *s0 = &st->st[0], *s1 = &st->st[1];
	size_t n = s0->nratios < s1->nratios ? s0->nratios : s1->nratios, nd = 0;
	unsigned char diff[n + 1];

	for (size_t i = n; i-- > 0;) {
		enum ic_point_side a = s0->ratios[i].side, z = s1->ratios[i].side;

		diff[i] = a != IC_SIDE_UNRESOLVED && z != IC_SIDE_UNRESOLVED && a != z;
		*first = diff[i] ? i : *first;
		nd += diff[i];
	}
	ic_fmt_nset(set, cap, s0->ratios, diff, n, " and ");
	return nd;
}

/* Two states of the machine: each with its share, and the nd N (set, the
 * first at first) where the faster form changed with the state. */
static void verdict_levels(struct vbuf *b, const struct vwords *w, const struct ic_states *st,
			   const char *set, size_t nd, size_t first)
{
	const struct ic_state *s0 = &st->st[0], *s1 = &st->st[1];

	VB_ADD(b, " The machine ran in two states: inline/extern %.2f (state 1, %.0f%% of the time) and "
	       "%.2f (state 2, %.0f%%) at N = %lu.", s0->level, 100.0 * s0->share, s1->level,
	       100.0 * s1->share, s0->sites);
	if (nd)
		VB_ADD(b, " At N = %s the faster form changed with the state: %s in state 1, %s in "
		       "state 2.", set, ic_fmt_side(w->an, s0->ratios[first].side, NULL),
		       ic_fmt_side(w->an, s1->ratios[first].side, NULL));
	else
		VB_ADD(b, " Neither state put any N on the other side.");
}

const char *ic_verdict_series(char *buf, size_t cap, const struct ic_analysis *an,
			      const struct ic_series *se)
{
	const struct ic_group *gr = &se->group;
	struct vwords w = { an, ic_verdict_classic(an), gr->filler != 0 };
	struct vbuf b = { buf, cap, 0 };
	int two = se->states && se->states->nstates == 2;
	size_t n = gr->nratios, at, first = 0, nd = 0;
	char fb[32], why[256], set[512];

	buf[0] = '\0';
	if (!n) {
		VB_ADD(&b, "Not compared: %s and %s are not both measured at any N", an->opts.compare,
		       an->opts.baseline);
		return buf;
	}
	/* A smoke test states no side as a finding, but shows its numbers. */
	if (ic_analysis_smoke(an, why, sizeof(why))) {
		VB_ADD(&b, "Smoke test, no verdict (%s): %s/%s", why, an->opts.compare, an->opts.baseline);
		for (size_t i = 0; i < n; i++)
			VB_ADD(&b, "%s %.3g at N = %lu", i ? "," : "", gr->ratios[i].ratio, gr->ratios[i].sites);
		VB_ADD(&b, ".");
		return buf;
	}
	if (w.program)
		VB_ADD(&b, "A whole program, with %s of other code per call site. ",
		       ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	at = b.len;
	if (two)
		nd = verdict_state_diff(se->states, set, sizeof(set), &first);
	if (nd)
		VB_ADD(&b, "No one rule: the faster form changed with the machine's state (below).");
	else
		verdict_todo(&b, &w, gr);
	vb_capital(&b, at);
	verdict_sides(&b, &w, gr);
	if (two)
		verdict_levels(&b, &w, se->states, set, nd, first);
	return buf;
}

int ic_verdict_smoke(char *buf, size_t cap, const struct ic_analysis *an)
{
	char why[256];

	buf[0] = '\0';
	if (!ic_analysis_smoke(an, why, sizeof(why)))
		return 0;
	snprintf(buf, cap, "smoke test: too small a design for a verdict (%s)", why);
	return 1;
}

int ic_verdict_text_write(FILE *f, const struct ic_analysis *an)
{
	char mark[320], t[512], v[IC_VERDICT_MAX];

	fprintf(f, "verdict: %s vs %s, time per call site\n", an->opts.compare, an->opts.baseline);
	if (ic_verdict_smoke(mark, sizeof(mark), an))
		fprintf(f, "%s\n", mark);
	for (size_t s = 0; s < an->nseries; s++)
		fprintf(f, "- %s: %s\n", ic_fmt_series(t, sizeof(t), an, &an->series[s].group),
			ic_verdict_series(v, sizeof(v), an, &an->series[s]));
	return ferror(f) ? -1 : 0;
}

/* ---- verdict.json ------------------------------------------------------------ */

/* The verdict of every series as data, for compare and for scripts, shaped
 * as docs/verdict-json.md's table (tests/test_report_verdict_json.c checks
 * the file against it). A figure not measured is null, never 0. */

/* The version of the shape: bumped when a field changes meaning. */
#define IC_VERDICT_FORMAT "inlinecost-verdict 1"

static json_t *vj_num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* A count or a size in bytes. */
static json_t *vj_int(double x)
{
	return isfinite(x) ? json_integer((json_int_t)x) : json_null();
}

static json_t *vj_pair(double lo, double hi)
{
	return isfinite(lo) && isfinite(hi) ? json_pack("[o,o]", json_real(lo), json_real(hi))
					    : json_null();
}

static json_t *vj_str(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *vj_crossover(const struct ic_crossover *xo)
{
	return json_pack("{s:s,s:i,s:o,s:I}", "verdict", ic_verdict_name(xo->verdict), "direction",
			 xo->direction, "bracket",
			 xo->verdict == IC_VERDICT_CROSSOVER ? vj_pair(xo->bracket_lo, xo->bracket_hi)
							     : json_null(),
			 "switches", (json_int_t)xo->switches);
}

/* a with x appended; NULL (a released) when x is NULL or will not go in. */
static json_t *vj_append(json_t *a, json_t *x)
{
	if (!json_array_append_new(a, x))
		return a;
	json_decref(a);
	return NULL;
}

/* Per N: its side, the faster form, the ratio with interval and band. */
static json_t *vj_points(const struct ic_analysis *an, const struct ic_ratio *r, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < n; i++) {
		const char *side = r[i].side == IC_SIDE_COMPARE ? "compare"
				   : r[i].side == IC_SIDE_BASELINE ? "baseline" : "unresolved";

		a = vj_append(a, json_pack("{s:I,s:s,s:o,s:o,s:o,s:o,s:b}", "sites", (json_int_t)r[i].sites,
					   "side", side, "faster", vj_str(ic_fmt_side(an, r[i].side, NULL)),
					   "ratio", vj_num(r[i].ratio), "ci", vj_pair(r[i].lo, r[i].hi), "band",
					   vj_pair(r[i].band_lo, r[i].band_hi), "noisy", r[i].noisy));
	}
	return a;
}

static json_t *vj_states(const struct ic_analysis *an, const struct ic_states *st)
{
	static const char *const follows[] = { "neither", "variant", "time" };
	int two = st && st->nstates == 2;
	json_t *a;

	if (!st)
		return json_null();
	a = json_array();
	for (size_t k = 0; a && k < st->nstates; k++) {
		const struct ic_state *s = &st->st[k];

		a = vj_append(a, json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o}", "processes", (json_int_t)s->nproc,
					   "share", vj_num(s->share), "share_ci", vj_pair(s->share_lo, s->share_hi),
					   "level", vj_num(s->level), "level_ci", vj_pair(s->lo, s->hi),
					   "crossover", two ? vj_crossover(&s->xo) : json_null(), "points",
					   two ? vj_points(an, s->ratios, s->nratios) : json_null()));
	}
	return json_pack("{s:I,s:I,s:o,s:o}", "count", (json_int_t)st->nstates, "processes",
			 (json_int_t)st->nproc, "follows", two ? json_string(follows[st->follows]) : json_null(),
			 "states", a);
}

static json_t *vj_series(const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_group *g = &se->group;
	char label[512], build[256], v[IC_VERDICT_MAX];

	ic_fmt_series(label, sizeof(label), an, g);
	ic_fmt_build(build, sizeof(build), an->res, g->build);
	return json_pack("{s:s,s:o,s:s,s:s,s:s,s:s,s:I,s:I,s:s,s:o,s:o,s:o}", "label", label, "build",
			 vj_str(build), "op", g->op, "layout", g->layout, "order", g->order, "mode", g->mode,
			 "threads", (json_int_t)g->threads, "filler_bytes", (json_int_t)g->filler,
			 "verdict", ic_verdict_series(v, sizeof(v), an, se), "crossover",
			 vj_crossover(&g->xo), "points", vj_points(an, g->ratios, g->nratios), "states",
			 vj_states(an, se->states));
}

static json_t *vj_machine(const struct ic_results *res)
{
	char buf[IC_RESULTS_CONTEXT_MAX];
	double cores = ic_results_context_num(res, IC_CTX_CORES);

	if (!isfinite(cores))
		cores = ic_results_context_num(res, IC_CTX_NUM_CPUS);
	return json_pack("{s:o,s:o,s:o,s:o,s:o}", "cpu_model",
			 vj_str(ic_results_context(res, IC_CTX_CPU_MODEL, buf, sizeof(buf))), "cores",
			 vj_int(cores), "l1i_bytes", vj_int(ic_results_context_num(res, IC_CTX_L1I_SIZE)),
			 "l2_bytes", vj_int(ic_results_context_num(res, IC_CTX_L2_SIZE)), "l3_bytes",
			 vj_int(ic_results_context_num(res, IC_CTX_L3_SIZE)));
}

static json_t *vj_design(const struct ic_results *res)
{
	struct ic_design d = ic_results_design(res);

	return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "layout_variants", (json_int_t)d.variants_max,
			 "processes_min", (json_int_t)d.units_min, "processes_max", (json_int_t)d.units_max,
			 "repetitions_min", (json_int_t)d.reps_min, "repetitions_max", (json_int_t)d.reps_max,
			 "files", (json_int_t)res->nfiles, "builds", (json_int_t)res->nbuilds);
}

int ic_verdict_json_write(FILE *f, const struct ic_analysis *an)
{
	char why[256], mark[320];
	int smoke = ic_analysis_smoke(an, why, sizeof(why)), rc;
	json_t *series = json_array(), *doc;

	ic_verdict_smoke(mark, sizeof(mark), an);
	for (size_t s = 0; series && s < an->nseries; s++)
		series = vj_append(series, vj_series(an, &an->series[s]));
	doc = json_pack("{s:s,s:s,s:s,s:b,s:o,s:o,s:o,s:o,s:o}", "format", IC_VERDICT_FORMAT,
			"compare", an->opts.compare, "baseline", an->opts.baseline, "smoke", smoke,
			"smoke_reason", smoke ? json_string(why) : json_null(), "smoke_mark",
			smoke ? json_string(mark) : json_null(), "machine", vj_machine(an->res),
			"design", vj_design(an->res), "series", series);
	rc = !doc || json_dumpf(doc, f, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) ||
	     fputc('\n', f) == EOF;
	json_decref(doc);
	return rc || ferror(f) ? -1 : 0;
}
