/* The verdict of each series in the question's words: up to how many call
 * sites does inlining pay, and by how much? Every measured N is on a side
 * or named unresolved; a series in two states says what holds in both and
 * where they differ, with each state's share of the time. summary.md's
 * first screen (answer.c), verdict.txt (the console's last lines) and
 * verdict.json (verdict_json.c) say the same. */
#include "report.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

struct vbuf {
	char *s;
	size_t cap, len;
};

__attribute__((format(printf, 2, 3)))
static void vb_add(struct vbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->len >= b->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		b->len = b->len + (size_t)n < b->cap ? b->len + (size_t)n : b->cap - 1;
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

/* The N of one verdict: the series' N, their sides, their ratios (two sets
 * when the factors of both states are spanned), and which N to speak of. */
struct vset {
	const unsigned long *sites;
	const enum ic_point_side *side;
	const double *ratio, *ratio2;   /* ratio2 may be NULL */
	const unsigned char *in;
	size_t n;
	int whole;   /* in holds every N of the series: "pays at no N" can be said */
};

enum vrange { V_UPTO, V_FROM, V_AT };

/* The factor (slower over faster) span of side s in v. */
static void vset_span(const struct vset *v, enum ic_point_side s, char *fac, size_t cap)
{
	double lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < v->n; i++)
		for (int k = 0; k < 2; k++) {
			const double *r = k ? v->ratio2 : v->ratio;
			double x;

			if (!v->in[i] || v->side[i] != s || !r || !isfinite(r[i]) || r[i] <= 0.0)
				continue;
			x = s == IC_SIDE_COMPARE ? 1.0 / r[i] : r[i];
			lo = fmin(lo, x);
			hi = fmax(hi, x);
		}
	if (isfinite(lo))
		ic_fmt_factor(fac, cap, lo, hi);
	else
		snprintf(fac, cap, "some");
}

/* One side's clause: [from N = B ]head[ up to N = A| at N = set]tail. */
static void verdict_clause(struct vbuf *b, const struct vwords *w, const struct vset *v,
			   enum ic_point_side s, enum vrange range, unsigned long at)
{
	const char *c = w->an->opts.compare, *base = w->an->opts.baseline;
	char fac[48], head[160], tail[96] = "", set[512] = "";
	unsigned char *mask = calloc(v->n ? v->n : 1, 1);

	vset_span(v, s, fac, sizeof(fac));
	if (s == IC_SIDE_COMPARE) {
		if (w->classic && !w->program) {
			snprintf(head, sizeof(head), "%s pays", c);
			snprintf(tail, sizeof(tail), " (faster by %s)", fac);
		} else if (w->classic) {
			snprintf(head, sizeof(head), "inlining pays");
			snprintf(tail, sizeof(tail), " (the program runs faster by %s)", fac);
		} else if (w->program) {
			snprintf(head, sizeof(head), "the program with %s runs faster by %s", c, fac);
		} else {
			snprintf(head, sizeof(head), "%s is faster by %s", c, fac);
		}
	} else if (w->classic && w->program) {
		snprintf(head, sizeof(head), "the program with the calls out of line runs faster by %s", fac);
	} else if (w->classic) {
		snprintf(head, sizeof(head), "%s calls are faster by %s", base, fac);
	} else if (w->program) {
		snprintf(head, sizeof(head), "the program with %s runs faster by %s", base, fac);
	} else {
		snprintf(head, sizeof(head), "%s is faster by %s", base, fac);
	}
	/* From the series' first N is at its every N: said by its N. */
	if (range == V_FROM && v->n && v->sites[0] == at)
		range = V_AT;
	if (range == V_AT && mask) {
		for (size_t i = 0; i < v->n; i++)
			mask[i] = v->in[i] && v->side[i] == s;
		ic_fmt_nset(set, sizeof(set), v->sites, mask, v->n);
	}
	free(mask);
	if (range == V_FROM)
		vb_add(b, "from N = %lu %s%s", at, head, tail);
	else if (range == V_UPTO)
		vb_add(b, "%s up to N = %lu%s", head, at, tail);
	else
		vb_add(b, "%s at N = %s%s", head, set, tail);
}

/* The sides of v: anchored, a single switch reads "up to A ... from B";
 * else each side at its N. Then the unresolved N, or "unresolved: none"
 * when anchored. */
static void verdict_sides(struct vbuf *b, const struct vwords *w, const struct vset *v,
			  int anchored)
{
	size_t nc = 0, nb = 0, nu = 0, switches = 0;
	unsigned long minc = 0, maxc = 0, minb = 0, maxb = 0;
	enum ic_point_side last = IC_SIDE_UNRESOLVED;
	unsigned char *mask = calloc(v->n ? v->n : 1, 1);
	char set[512] = "";

	if (!mask)
		return;
	for (size_t i = 0; i < v->n; i++) {
		enum ic_point_side s = v->side[i];

		mask[i] = v->in[i] && s == IC_SIDE_UNRESOLVED;
		if (!v->in[i])
			continue;
		if (s == IC_SIDE_COMPARE) {
			minc = nc++ ? minc : v->sites[i];
			maxc = v->sites[i];
		} else if (s == IC_SIDE_BASELINE) {
			minb = nb++ ? minb : v->sites[i];
			maxb = v->sites[i];
		} else {
			nu++;
		}
		if (s != IC_SIDE_UNRESOLVED) {
			switches += last != IC_SIDE_UNRESOLVED && s != last;
			last = s;
		}
	}
	ic_fmt_nset(set, sizeof(set), v->sites, mask, v->n);
	free(mask);
	if (!nc && !nb) {
		vb_add(b, "%s at N = %s", anchored ? "neither form is resolved faster" : "unresolved", set);
		return;
	}
	if (!anchored || switches > 1) {
		int cfirst = nc && (!nb || minc < minb);

		if (switches > 1 && anchored)
			vb_add(b, "the faster form switches %zu times, so no crossover is stated: ", switches);
		verdict_clause(b, w, v, cfirst ? IC_SIDE_COMPARE : IC_SIDE_BASELINE, V_AT, 0);
		if (nc && nb) {
			vb_add(b, "; ");
			verdict_clause(b, w, v, cfirst ? IC_SIDE_BASELINE : IC_SIDE_COMPARE, V_AT, 0);
		}
	} else if (nc && nb && maxb < minc) {   /* the baseline wins at small N */
		verdict_clause(b, w, v, IC_SIDE_BASELINE, V_UPTO, maxb);
		vb_add(b, "; ");
		verdict_clause(b, w, v, IC_SIDE_COMPARE, V_FROM, minc);
	} else {
		if (nc)
			verdict_clause(b, w, v, IC_SIDE_COMPARE, V_UPTO, maxc);
		else if (v->whole && w->classic)
			vb_add(b, "%s pays at no N; ", w->program ? "inlining" : w->an->opts.compare);
		else if (v->whole)
			vb_add(b, "%s is faster at no N; ", w->an->opts.compare);
		if (nb) {
			vb_add(b, nc ? "; " : "");
			verdict_clause(b, w, v, IC_SIDE_BASELINE, V_FROM, minb);
		}
	}
	if (nu)
		vb_add(b, "; unresolved at N = %s", set);
	else if (anchored)
		vb_add(b, "; unresolved: none");
}

/* Capitalises the clause that starts at b->s + from. */
static void vb_capital(struct vbuf *b, size_t from)
{
	if (from < b->len)
		b->s[from] = (char)toupper((unsigned char)b->s[from]);
}

/* A state's side and ratio at each of the series' N (unresolved where
 * the state has no ratio). */
static void verdict_state_sides(const struct ic_group *gr, const struct ic_state *st,
				enum ic_point_side *side, double *ratio)
{
	for (size_t i = 0; i < gr->nratios; i++) {
		side[i] = IC_SIDE_UNRESOLVED;
		ratio[i] = NAN;
		for (size_t j = 0; j < st->nratios; j++)
			if (st->ratios[j].sites == gr->ratios[i].sites) {
				side[i] = st->ratios[j].side;
				ratio[i] = st->ratios[j].ratio;
			}
	}
}

/* Two states: each with its share, what holds in both, where they differ. */
static void verdict_two(struct vbuf *b, const struct vwords *w, const struct ic_series *se,
			unsigned long *sites, enum ic_point_side *side, double *ratio,
			unsigned char *in)
{
	const struct ic_group *gr = &se->group;
	const struct ic_states *st = se->states;
	size_t n = gr->nratios, ncommon = 0, ndiff = 0;
	enum ic_point_side *s2 = side + n;
	double *r2 = ratio + n;
	unsigned char *diff = in + n;
	char share[160], set[512];
	struct vset v;

	/* Numbered as the Evidence numbers them: state 1 the lower ratio. */
	verdict_state_sides(gr, &st->st[0], side, ratio);
	verdict_state_sides(gr, &st->st[1], s2, r2);
	vb_add(b, "the machine ran in two states: inline/extern %.2f (state 1, %s) and %.2f "
	       "(state 2, %s) at N = %lu", st->st[0].level, ic_fmt_share(share, sizeof(share), st, 0),
	       st->st[1].level, ic_fmt_share(set, sizeof(set), st, 1), st->st[0].sites);
	/* A state of one process has no interval: it decides nothing, and the
	 * other state's verdict is the run's. */
	for (int k = 0; k < 2; k++)
		if (st->st[k].nproc < 2 && st->st[!k].nproc >= 2) {
			for (size_t i = 0; i < n; i++)
				in[i] = 1;
			v = (struct vset){ sites, k ? side : s2, k ? ratio : r2, NULL, in, n, 1 };
			vb_add(b, ". State %d, with %zu process%s wholly in it, decides no N; in state %d: ",
			       k + 1, st->st[k].nproc, st->st[k].nproc == 1 ? "" : "es", !k + 1);
			verdict_sides(b, w, &v, 0);
			return;
		}
	for (size_t i = 0; i < n; i++) {
		in[i] = side[i] == s2[i];
		diff[i] = !in[i];
		ncommon += in[i];
		ndiff += diff[i];
	}
	v = (struct vset){ sites, side, ratio, r2, in, n, !ndiff };
	if (!ncommon) {
		vb_add(b, ". They differ at every N");
	} else {
		vb_add(b, ". In both: ");
		verdict_sides(b, w, &v, 1);
		if (!ndiff) {
			vb_add(b, ". They differ in level only");
			return;
		}
		vb_add(b, ". They differ at N = %s", ic_fmt_nset(set, sizeof(set), sites, diff, n));
	}
	for (int k = 0; k < 2; k++) {
		v = (struct vset){ sites, k ? s2 : side, k ? r2 : ratio, NULL, diff, n, 0 };
		vb_add(b, ". In state %d: ", k + 1);
		verdict_sides(b, w, &v, 0);
	}
}

const char *ic_verdict_series(char *buf, size_t cap, const struct ic_analysis *an,
			      const struct ic_series *se)
{
	const struct ic_group *gr = &se->group;
	struct vwords w = { an, ic_verdict_classic(an), gr->filler != 0 };
	struct vbuf b = { buf, cap, 0 };
	size_t n = gr->nratios, at;
	/* Room for two states' sides and ratios, and two masks. */
	unsigned long *sites = calloc(n ? n : 1, sizeof(*sites));
	enum ic_point_side *side = calloc(2 * n + 1, sizeof(*side));
	double *ratio = calloc(2 * n + 1, sizeof(*ratio));
	unsigned char *in = calloc(2 * n + 1, 1);
	char fb[32], why[256];

	buf[0] = '\0';
	if (!sites || !side || !ratio || !in) {
		snprintf(buf, cap, "no verdict (out of memory)");
		goto out;
	}
	if (!n) {
		vb_add(&b, "Not compared: %s and %s are not both measured at any N", an->opts.compare,
		       an->opts.baseline);
		goto out;
	}
	/* A smoke test states no side as a finding. */
	if (ic_analysis_smoke(an, why, sizeof(why))) {
		vb_add(&b, "No verdict: a smoke test's design decides no side (its ratios per N are in "
		       "ratios.csv).");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		sites[i] = gr->ratios[i].sites;
		side[i] = gr->ratios[i].side;
		ratio[i] = gr->ratios[i].ratio;
		in[i] = 1;
	}
	if (w.program)
		vb_add(&b, "As a whole program with %s of other code per call site, ",
		       ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	at = b.len;
	if (se->states && se->states->nstates == 2) {
		verdict_two(&b, &w, se, sites, side, ratio, in);
	} else {
		struct vset v = { sites, side, ratio, NULL, in, n, 1 };

		verdict_sides(&b, &w, &v, 1);
		if (gr->xo.n_unresolved)
			vb_add(&b, " (%s)", gr->xo.n_unresolved == 1 ? "its deciding interval holds 1"
								: "their deciding intervals hold 1");
	}
	if (!w.program)
		vb_capital(&b, at);
	vb_add(&b, ".");
out:
	free(sites);
	free(side);
	free(ratio);
	free(in);
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
	char mark[320], t[512], *v = malloc(IC_VERDICT_MAX);

	if (!v)
		return -1;
	fprintf(f, "verdict: %s vs %s, time per call site\n", an->opts.compare, an->opts.baseline);
	if (ic_verdict_smoke(mark, sizeof(mark), an))
		fprintf(f, "%s\n", mark);
	for (size_t s = 0; s < an->nseries; s++)
		fprintf(f, "- %s: %s\n", ic_fmt_series(t, sizeof(t), an, &an->series[s].group),
			ic_verdict_series(v, IC_VERDICT_MAX, an, &an->series[s]));
	free(v);
	return ferror(f) ? -1 : 0;
}
