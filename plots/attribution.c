/* The attribution of a series' difference to calls, copies, the lock and
 * capacity; see attribution.h. */
#include "attribution.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

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

static const struct ic_ratio *attr_at(const struct ic_line *l, unsigned long sites)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->r[i].sites == sites)
			return &l->r[i];
	return NULL;
}

static const char *attr_source_word(const char *src)
{
	if (!strcmp(src, "sim"))
		return "simulated";
	if (!strcmp(src, "papi"))
		return "PAPI";
	return src;
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
	c->at = attr_at(ie, c->pass);
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
		if (src && strcmp(src, ic_fmt_counter_source(p)))
			src = "mixed";
		else if (!src)
			src = ic_fmt_counter_source(p);
	}
	if (src)
		a->l1i_source = attr_source_word(src);
	return 0;
}

void ic_attribution_free(struct ic_attribution *a)
{
	if (!a)
		return;
	for (int k = 0; k < IC_LINE_COUNT; k++)
		free(a->line[k].r);
	free(a);
}

/* ---- the table ------------------------------------------------------------ */

static void attr_ratio_ci(FILE *f, const struct ic_ratio *r)
{
	if (!isfinite(r->ratio)) {
		fputs("— (no process ran every form)", f);
		return;
	}
	ic_fmt_ratio_ci(f, r, 1);
}


/* "not measured (no clone in this series)" */
static void attr_not_measured(FILE *f, const struct ic_line *l)
{
	if (l->missing)
		fprintf(f, "not measured (no %s in this series)", l->missing);
	else
		fprintf(f, "not measured (no N where every form of %s has a time)", l->name);
}

static const int attr_per_n[] = { IC_LINE_COPIES, IC_LINE_LOCK_INLINE, IC_LINE_LOCK_EXTERN,
				  IC_LINE_INTERACTION };
#define ATTR_NPER (sizeof(attr_per_n) / sizeof(attr_per_n[0]))

/* Both forms' L1i misses pass the threshold at the same N: the one step of
 * inline/extern there is read once, not once per form with opposite
 * expectations. */
static int attr_cross_together(const struct ic_attribution *a)
{
	return a->cap[0].measured && a->cap[1].measured && a->cap[0].pass &&
	       a->cap[0].pass == a->cap[1].pass;
}

static const char *const attr_per_n_label[ATTR_NPER] = {
	"copies", "lock, inlined", "lock, called", "locked-instruction interaction",
};

static void attr_capacity_line(FILE *f, const struct ic_capacity *c, const char *who)
{
	fprintf(f, "%s: ", who);
	if (!c->measured) {
		fputs("no L1i miss counts", f);
		return;
	}
	if (!c->pass) {
		fprintf(f, "stays at or below %g per site up to N = %lu", IC_ATTR_L1I_PASS, c->last);
		return;
	}
	fprintf(f, "passes %g per site at N = %lu", IC_ATTR_L1I_PASS, c->pass);
	if (!c->at) {
		fputs("; inline/extern not measured there", f);
		return;
	}
	if (!c->before) {
		fputs(", the smallest N with inline/extern: no N before it to compare; inline/extern ", f);
		attr_ratio_ci(f, c->at);
		return;
	}
	fprintf(f, "; inline/extern at N = %lu: ", c->before->sites);
	attr_ratio_ci(f, c->before);
	fprintf(f, ", at N = %lu: ", c->pass);
	attr_ratio_ci(f, c->at);
	fputs("; step between them ", f);
	attr_ratio_ci(f, &c->step);
	if (c->has_excess) {
		fprintf(f, "; that step over the one from N = %lu to %lu ", c->before2->sites,
			c->before->sites);
		attr_ratio_ci(f, &c->excess);
	}
}

/* The N of every per-N line, ascending and distinct. */
static size_t attr_all_n(const struct ic_attribution *a, unsigned long *out, size_t cap)
{
	size_t n = 0;

	for (size_t k = 0; k < ATTR_NPER; k++) {
		const struct ic_line *l = &a->line[attr_per_n[k]];

		for (size_t i = 0; i < l->n; i++) {
			size_t j = 0;

			while (j < n && out[j] != l->r[i].sites)
				j++;
			if (j == n && n < cap)
				out[n++] = l->r[i].sites;
		}
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			unsigned long t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static void attr_lines(FILE *f, const struct ic_attribution *a)
{
	const struct ic_line *call = &a->line[IC_LINE_CALL];
	unsigned long *ns;
	size_t nn, cap = 0;

	fputs("- **call overhead** (extern/inline at the smallest N): ", f);
	if (call->n) {
		fprintf(f, "N = %lu: ", call->r[0].sites);
		attr_ratio_ci(f, &call->r[0]);
	} else {
		attr_not_measured(f, call);
	}
	fprintf(f, "\n- **capacity** (L1i misses per site%s%s, threshold %g; inline/extern with its "
		"95%% interval at each N, and the step between the two N within each process): ",
		*a->l1i_source ? ", " : "", a->l1i_source, IC_ATTR_L1I_PASS);
	if (!a->cap[0].measured && !a->cap[1].measured) {
		fputs("not measured (no L1i miss counts in this series)", f);
	} else {
		if (attr_cross_together(a)) {
			attr_capacity_line(f, &a->cap[0], "both forms");
		} else {
			attr_capacity_line(f, &a->cap[0], a->cap[0].form);
			fputs("; ", f);
			attr_capacity_line(f, &a->cap[1], a->cap[1].form);
		}
	}
	fputc('\n', f);
	for (size_t k = 0; k < ATTR_NPER; k++) {
		const struct ic_line *l = &a->line[attr_per_n[k]];

		fprintf(f, "- **%s** (%s): ", attr_per_n_label[k], l->name);
		if (l->n) {
			fputs("per N below\n", f);
			cap++;
		} else {
			attr_not_measured(f, l);
			fputc('\n', f);
		}
	}
	fputc('\n', f);
	if (!cap)
		return;
	ns = malloc(64 * sizeof(*ns));
	if (!ns)
		return;
	nn = attr_all_n(a, ns, 64);
	fputs("| N |", f);
	for (size_t k = 0; k < ATTR_NPER; k++)
		if (a->line[attr_per_n[k]].n)
			fprintf(f, " %s [95%% CI] | band (all N, 95%%) |", a->line[attr_per_n[k]].name);
	fputs("\n|---:|", f);
	for (size_t k = 0; k < ATTR_NPER; k++)
		if (a->line[attr_per_n[k]].n)
			fputs("---:|---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < nn; i++) {
		fprintf(f, "| %lu |", ns[i]);
		for (size_t k = 0; k < ATTR_NPER; k++) {
			const struct ic_line *l = &a->line[attr_per_n[k]];
			const struct ic_ratio *r = attr_at(l, ns[i]);

			if (!l->n)
				continue;
			if (!r) {
				fputs(" — | — |", f);
				continue;
			}
			fputc(' ', f);
			attr_ratio_ci(f, r);
			fputs(" | ", f);
			ic_fmt_band(f, r);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(ns);
}

/* ---- counters ------------------------------------------------------------- */

struct attr_pair {
	unsigned long sites;
	const char *form;
};

static void attr_pair_add(struct attr_pair *p, size_t *n, size_t cap, unsigned long sites,
			  const char *form)
{
	for (size_t i = 0; i < *n; i++)
		if (p[i].sites == sites && !strcmp(p[i].form, form))
			return;
	if (*n < cap)
		p[(*n)++] = (struct attr_pair){ sites, form };
}

static int attr_form_rank(const char *form)
{
	static const char *const order[] = { "inline", "extern", "clone", "inline_nolock",
					     "extern_nolock" };

	for (int i = 0; i < 5; i++)
		if (!strcmp(form, order[i]))
			return i;
	return 5;
}

static int attr_cmp_pair(const void *pa, const void *pb)
{
	const struct attr_pair *a = pa, *b = pb;

	if (a->sites != b->sites)
		return a->sites < b->sites ? -1 : 1;
	return attr_form_rank(a->form) - attr_form_rank(b->form);
}

/* The (N, form) of every line's two forms (four for the interaction). */
static size_t attr_pairs(const struct ic_attribution *a, struct attr_pair *p, size_t cap)
{
	size_t n = 0;

	for (int k = 0; k < IC_LINE_COUNT; k++) {
		const struct ic_line *l = &a->line[k];
		const char *forms[4] = { attr_def[k].a, attr_def[k].a0, attr_def[k].b, attr_def[k].b0 };

		if (k == IC_LINE_INLINE_EXTERN)
			continue;   /* only where capacity reads it, below */
		for (size_t i = 0; i < (k == IC_LINE_CALL ? (l->n ? 1 : 0) : l->n); i++)
			for (int f = 0; f < 4; f++)
				if (forms[f])
					attr_pair_add(p, &n, cap, l->r[i].sites, forms[f]);
	}
	for (int c = 0; c < 2; c++) {
		const struct ic_capacity *cp = &a->cap[c];

		if (cp->at) {
			attr_pair_add(p, &n, cap, cp->at->sites, "inline");
			attr_pair_add(p, &n, cap, cp->at->sites, "extern");
		}
		if (cp->before) {
			attr_pair_add(p, &n, cap, cp->before->sites, "inline");
			attr_pair_add(p, &n, cap, cp->before->sites, "extern");
		}
	}
	qsort(p, n, sizeof(*p), attr_cmp_pair);
	return n;
}

/* The counter source of a series and the note of the file it came from. */
static const char *attr_series_source(const struct ic_group *g, const char **note)
{
	const char *src = NULL;

	*note = NULL;
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];
		const char *s = ic_fmt_counter_source(p);

		if (!strcmp(s, "none") || !*s)
			continue;
		if (src && strcmp(src, s))
			return "mixed";
		if (!src) {
			src = s;
			*note = json_string_value(json_object_get(p->file->context, "counter_note"));
		}
	}
	if (!src && g->npoints) {
		src = ic_fmt_counter_source(g->points[0]);
		*note = json_string_value(json_object_get(g->points[0]->file->context, "counter_note"));
	}
	return src ? src : "";
}

static void attr_cell(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, " %.4g |", x);
	else
		fputs(" — |", f);
}

static const struct {
	enum ic_field field;
	const char *name;
} attr_ctr[] = {
	{ IC_F_CYCLES, "cycles" },
	{ IC_F_INSTR, "instructions" },
	{ IC_F_L1I, "L1i misses" },
	{ IC_F_BRANCH, "branch misses" },
	{ IC_F_ITLB, "iTLB misses" },
};
#define ATTR_NCTR (sizeof(attr_ctr) / sizeof(attr_ctr[0]))

static void attr_counters(FILE *f, const struct ic_group *g, const struct ic_attribution *a)
{
	const char *note, *src = attr_series_source(g, &note);
	struct attr_pair p[256];
	size_t np = attr_pairs(a, p, 256);
	int show[ATTR_NCTR] = { 0 }, nshow = 0, nabsent = 0, papi = !strcmp(src, "papi");
	const char *gross = g->filler ? "; they include the filler" : "";

	if (!np)
		return;
	/* Present: a count at any point of the series; absent ones are named once. */
	for (size_t c = 0; c < ATTR_NCTR; c++) {
		for (size_t i = 0; i < g->npoints && !show[c]; i++)
			show[c] = isfinite(g->points[i]->med[attr_ctr[c].field]);
		if (!papi && attr_ctr[c].field != IC_F_L1I && attr_ctr[c].field != IC_F_INSTR)
			show[c] = 0;   /* without PAPI only the simulation's columns can hold data */
		nshow += show[c];
	}
	if (papi) {
		fputs("Counters per site of the lines' forms (PAPI, medians of repetitions", f);
		fprintf(f, "%s).", gross);
		for (size_t c = 0; c < ATTR_NCTR; c++)
			if (!show[c])
				fprintf(f, "%s%s", nabsent++ ? ", " : " Absent in this series: ", attr_ctr[c].name);
		if (nabsent)
			fprintf(f, " (%s).", note && *note ? note : "no reason recorded");
		fputs("\n\n", f);
	} else {
		fprintf(f, "Hardware counters (cycles, instructions, L1i, branch and iTLB misses): absent in "
			"this series (counter source %s: %s).", *src ? src : "not recorded",
			note && *note ? note : "no reason recorded");
		if (nshow)
			fprintf(f, " The columns below are simulated by valgrind, not counted on this CPU%s.",
				gross);
		fputs("\n\n", f);
	}
	if (!nshow)
		return;
	fputs("| N | form |", f);
	for (size_t c = 0; c < ATTR_NCTR; c++)
		if (show[c])
			fprintf(f, " %s/site%s |", attr_ctr[c].name, papi ? "" : " (simulated)");
	fputs("\n|---:|:---|", f);
	for (size_t c = 0; c < ATTR_NCTR; c++)
		if (show[c])
			fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < np; i++) {
		const struct ic_point *pt = ic_group_point(g, p[i].form, p[i].sites);

		if (!pt)
			continue;
		fprintf(f, "| %lu | %s |", p[i].sites, p[i].form);
		for (size_t c = 0; c < ATTR_NCTR; c++)
			if (show[c])
				attr_cell(f, pt->med[attr_ctr[c].field]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* ---- the statement -------------------------------------------------------- */

/* "256..1024, 4096": the N of a line's points resolved on side s. */
static const char *attr_runs(char *buf, size_t cap, const struct ic_line *l, enum ic_point_side s)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		size_t j = i;

		if (l->r[i].side != s)
			continue;
		while (j + 1 < l->n && l->r[j + 1].side == s)
			j++;
		if (len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "%s%lu", len ? ", " : "", l->r[i].sites);
		if (j > i && len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "..%lu", l->r[j].sites);
		i = j;
	}
	return buf;
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

/* What a statement is made of: one clause per component, resolved first. */
struct attr_text {
	char resolved[2048], other[2048];
	size_t nres, noth;
};

__attribute__((format(printf, 3, 4)))
static void attr_add(struct attr_text *t, int resolved, const char *fmt, ...)
{
	char *buf = resolved ? t->resolved : t->other;
	size_t *n = resolved ? &t->nres : &t->noth, len = strlen(buf);
	va_list ap;

	if (len + 3 >= sizeof(t->resolved))
		return;
	if (*n)
		len += (size_t)snprintf(buf + len, sizeof(t->resolved) - len, "; ");
	va_start(ap, fmt);
	vsnprintf(buf + len, sizeof(t->resolved) - len, fmt, ap);
	va_end(ap);
	(*n)++;
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

	if (!r || !isfinite(r->ratio)) {
		attr_unmeasured(t, "call overhead", l);
	} else if (!isfinite(r->lo)) {
		attr_add(t, 0, "call overhead: no evidence (no interval: fewer than 2 processes or layouts)");
	} else if (r->lo > 1.0) {
		attr_add(t, 1, "calls cost: extern is %.3fx inline at N = %lu [%.3f–%.3f]", r->ratio,
			 r->sites, r->lo, r->hi);
	} else if (r->hi < 1.0) {
		attr_add(t, 1, "calls do not cost here: extern is %.3fx inline at N = %lu [%.3f–%.3f]",
			 r->ratio, r->sites, r->lo, r->hi);
	} else {
		attr_add(t, 0, "call overhead: no evidence at this resolution (interval %.3f–%.3f at N = %lu)",
			 r->lo, r->hi, r->sites);
	}
}

/* A per-N line: stated only where its band excludes 1. up/down: what a
 * resolved side above or below 1 means, e.g. "copies cost". */
static void attr_say_per_n(struct attr_text *t, const char *what, const struct ic_line *l,
			   const char *up, const char *down)
{
	char above[256], below[256];
	const struct ic_ratio *hi, *lo;
	double blo = INFINITY, bhi = -INFINITY;

	if (!l->n) {
		attr_unmeasured(t, what, l);
		return;
	}
	attr_runs(above, sizeof(above), l, IC_SIDE_BASELINE);
	attr_runs(below, sizeof(below), l, IC_SIDE_COMPARE);
	hi = attr_extreme(l, IC_SIDE_BASELINE);
	lo = attr_extreme(l, IC_SIDE_COMPARE);
	if (hi && lo) {
		attr_add(t, 0, "%s: %s is resolved above 1 at N = %s and below 1 at N = %s, so no single "
			 "direction is stated", what, l->name, above, below);
	} else if (hi || lo) {
		const struct ic_ratio *r = hi ? hi : lo;

		attr_add(t, 1, "%s: %s is %.3fx at N = %lu (band %.3f–%.3f), resolved %s 1 at N = %s",
			 hi ? up : down, l->name, r->ratio, r->sites, r->band_lo, r->band_hi,
			 hi ? "above" : "below", hi ? above : below);
	} else {
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
}

/* Capacity: the step of inline/extern at a form's L1i crossing, stated when
 * its interval excludes 1 in the direction that form's misses predict
 * (inline crossing: inline slows; extern crossing: extern slows). */
static void attr_say_capacity(struct attr_text *t, const struct ic_attribution *a)
{
	int said = 0;

	if (!a->cap[0].measured && !a->cap[1].measured) {
		attr_add(t, 0, "capacity: not measured (no L1i miss counts in this series)");
		return;
	}
	if (attr_cross_together(a) && a->cap[0].has_step) {
		const struct ic_capacity *cp = &a->cap[0];
		const struct ic_ratio *s = &cp->step;

		if (isfinite(s->lo) && (s->lo > 1.0 || s->hi < 1.0))
			attr_add(t, 1, "capacity: both forms' L1i misses pass %g per site at N = %lu; "
				 "inline/extern steps %.3fx [%.3f–%.3f] there from N = %lu, so the L1i costs "
				 "%s more", IC_ATTR_L1I_PASS, cp->pass, s->ratio, s->lo, s->hi,
				 cp->before->sites, s->lo > 1.0 ? "inline" : "extern");
		else
			attr_add(t, 0, "capacity: both forms' L1i misses pass %g per site at N = %lu; "
				 "inline/extern does not step resolvably there (%s)", IC_ATTR_L1I_PASS,
				 cp->pass, isfinite(s->lo) ? "its interval holds 1" : "no interval");
		return;
	}
	for (int c = 0; c < 2; c++) {
		const struct ic_capacity *cp = &a->cap[c];
		const struct ic_ratio *s = &cp->step;
		int want_up = c == 0;

		if (!cp->pass || !cp->has_step)
			continue;
		said = 1;
		if (!isfinite(s->lo)) {
			attr_add(t, 0, "capacity at %s's L1i crossing (N = %lu): no evidence (no interval)",
				 cp->form, cp->pass);
		} else if (((want_up && s->lo > 1.0) || (!want_up && s->hi < 1.0)) && cp->has_excess &&
			   !(want_up ? cp->excess.lo > 1.0 : cp->excess.hi < 1.0)) {
			const struct ic_ratio *e = &cp->excess;

			attr_add(t, 0, "capacity at %s's L1i crossing: inline/extern steps %.3fx [%.3f–%.3f] "
				 "from N = %lu to N = %lu, but no more than the step before it (%s %.3fx "
				 "[%.3f–%.3f]): a trend, not attributed to capacity", cp->form, s->ratio,
				 s->lo, s->hi, cp->before->sites, cp->pass, isfinite(e->lo) ? "ratio of the steps"
				 : "no interval for the ratio of the steps,", e->ratio, e->lo, e->hi);
		} else if ((want_up && s->lo > 1.0) || (!want_up && s->hi < 1.0)) {
			char beyond[160] = "";

			if (cp->has_excess)
				snprintf(beyond, sizeof(beyond), ", which is %.3fx [%.3f–%.3f] the step before it",
					 cp->excess.ratio, cp->excess.lo, cp->excess.hi);
			attr_add(t, 1, "capacity costs: inline/extern steps %s %.3fx [%.3f–%.3f] from N = %lu "
				 "to N = %lu%s, where %s's L1i misses%s%s%s pass %g per site",
				 want_up ? "up" : "down", s->ratio, s->lo, s->hi, cp->before->sites,
				 cp->pass, beyond, cp->form, *a->l1i_source ? " (" : "", a->l1i_source,
				 *a->l1i_source ? ")" : "", IC_ATTR_L1I_PASS);
		} else if (s->lo > 1.0 || s->hi < 1.0) {
			attr_add(t, 0, "capacity at %s's L1i crossing: inline/extern moves %.3fx [%.3f–%.3f] "
				 "from N = %lu to N = %lu, the wrong way for a capacity cost, so none is "
				 "attributed", cp->form, s->ratio, s->lo, s->hi, cp->before->sites, cp->pass);
		} else {
			attr_add(t, 0, "capacity at %s's L1i crossing: no evidence at this resolution (step "
				 "%.3f–%.3f from N = %lu to N = %lu)", cp->form, s->lo, s->hi,
				 cp->before->sites, cp->pass);
		}
	}
	if (said)
		return;
	if (!a->cap[0].pass && !a->cap[1].pass)
		attr_add(t, 0, "capacity: not reached (L1i misses stay at or below %g per site at every "
			 "measured N)", IC_ATTR_L1I_PASS);
	else
		attr_add(t, 0, "capacity: not measured (no inline/extern ratio on both sides of the L1i "
			 "crossing)");
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
 * sub->r points into l->r's copy in buf; returns the N left out (0: none). */
static size_t attr_fitting(const struct ic_group *g, const struct ic_line *l, struct ic_line *sub,
			   struct ic_ratio *buf, unsigned long *first_out)
{
	size_t out = 0;

	*sub = *l;
	sub->r = buf;
	sub->n = 0;
	*first_out = 0;
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

static void attr_statement(FILE *f, const struct ic_results *res, const struct ic_group *g,
			   const struct ic_attribution *a)
{
	struct attr_text t = { "", "", 0, 0 };
	const struct ic_line *il = &a->line[IC_LINE_INTERACTION];
	struct ic_ratio *buf = il->n ? malloc(il->n * sizeof(*buf)) : NULL;
	struct ic_line fit;
	unsigned long first_out = 0;
	size_t left_out = buf ? attr_fitting(g, il, &fit, buf, &first_out) : 0;

	attr_say_call(&t, &a->line[IC_LINE_CALL]);
	attr_say_per_n(&t, "copies", &a->line[IC_LINE_COPIES], "copies cost", "copies do not cost");
	if (left_out && fit.n) {
		attr_say_per_n(&t, "locked-instruction interaction", &fit,
			       "the lock costs more inlined than called", "the lock costs less inlined than called");
		attr_add(&t, 0, "the interaction from N = %lu, where a form's L1i misses pass %g per site: "
			 "the nolock forms' smaller code mixes capacity into it", first_out, IC_ATTR_L1I_PASS);
	} else if (left_out) {
		attr_add(&t, 0, "locked-instruction interaction: every N has a form past the L1i, where the "
			 "nolock forms' smaller code mixes capacity into it");
	} else {
		attr_say_per_n(&t, "locked-instruction interaction", il,
			       "the lock costs more inlined than called", "the lock costs less inlined than called");
	}
	free(buf);
	attr_say_capacity(&t, a);
	fputs("**Likely cause.** ", f);
	if (attr_all_noisy(g, a))
		fprintf(f, "Every point of this series is noisy (band wider than ±%g%%): only effects "
			"larger than that can show here. ", 100.0 * res->opts.noise_ci);
	if (t.nres) {
		fprintf(f, "%c%s.", toupper((unsigned char)t.resolved[0]), t.resolved + 1);
		if (t.noth)
			fprintf(f, " Not attributed: %s.", t.other);
	} else {
		fprintf(f, "Nothing can be attributed here: %s.", t.other);
	}
	fputs("\n\n", f);
}

void ic_attribution_write(FILE *f, const struct ic_results *res, const struct ic_group *g)
{
	const struct ic_attribution *a = g->attr;

	if (!a)
		return;
	fputs("#### What the difference is made of\n\n", f);
	fputs("Each line is a ratio of times per site formed within each process, with its 95% "
	      "interval; a per-N line also has its band (all N of that line at once, 95%), and only "
	      "the band decides a per-N line.", f);
	if (g->filler)
		fputs(" Times include the filler (whole-program times, see Method).", f);
	fputs("\n\n", f);
	attr_lines(f, a);
	attr_counters(f, g, a);
	attr_statement(f, res, g, a);
}
