/* The section "What the difference is made of" of summary.md: each line
 * of attribution.h in words, the counters' source, and the statement that
 * names a component only where its band or interval excludes 1. */
#include "attribution.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "md_tables.h"



/* "not measured (no clone in this series)" */
static void attr_not_measured(FILE *f, const struct ic_line *l)
{
	if (l->missing)
		fprintf(f, "not measured (no %s in this series)", l->missing);
	else
		fprintf(f, "not measured (no N where every form of %s has a time)", l->name);
}



static const char *const attr_per_n_label[IC_ATTR_NPER] = {
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
		ic_fmt_ratio_cell(f, 1, c->at);
		return;
	}
	fprintf(f, "; inline/extern at N = %lu: ", c->before->sites);
	ic_fmt_ratio_cell(f, 1, c->before);
	fprintf(f, ", at N = %lu: ", c->pass);
	ic_fmt_ratio_cell(f, 1, c->at);
	fputs("; step between them ", f);
	ic_fmt_ratio_cell(f, 1, &c->step);
	if (c->has_excess) {
		fprintf(f, "; that step over the one from N = %lu to %lu ", c->before2->sites,
			c->before->sites);
		ic_fmt_ratio_cell(f, 1, &c->excess);
	}
}



static void attr_lines(FILE *f, const struct ic_attribution *a)
{
	const struct ic_line *call = &a->line[IC_LINE_CALL];
	size_t cap = 0;

	fputs("- **call overhead** (extern/inline at the smallest N): ", f);
	if (call->n) {
		fprintf(f, "N = %lu: ", call->r[0].sites);
		ic_fmt_ratio_cell(f, 1, &call->r[0]);
	} else {
		attr_not_measured(f, call);
	}
	fprintf(f, "\n- **capacity** (L1i misses per site%s%s, threshold %g; inline/extern with its "
		"95%% interval at each N, and the step between the two N within each process): ",
		*a->l1i_source ? ", " : "", ic_fmt_source_word(a->l1i_source), IC_ATTR_L1I_PASS);
	if (!a->cap[0].measured && !a->cap[1].measured) {
		fputs("not measured (no L1i miss counts in this series)", f);
	} else {
		if (a->cross_together) {
			attr_capacity_line(f, &a->cap[0], "both forms");
		} else {
			attr_capacity_line(f, &a->cap[0], a->cap[0].form);
			fputs("; ", f);
			attr_capacity_line(f, &a->cap[1], a->cap[1].form);
		}
	}
	fputc('\n', f);
	for (size_t k = 0; k < IC_ATTR_NPER; k++) {
		const struct ic_line *l = &a->line[ic_attr_per_n[k]];

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
	if (cap)
		ic_md_attr_per_n(f, a);
}

/* The counter source of a series and the note of the file it came from. */
static const char *attr_series_source(const struct ic_group *g, const char **note)
{
	const char *src = NULL;

	*note = NULL;
	for (size_t i = 0; i < g->npoints; i++) {
		const struct ic_point *p = g->points[i];
		const char *s = ic_point_source(p);

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
		src = ic_point_source(g->points[0]);
		*note = json_string_value(json_object_get(g->points[0]->file->context, "counter_note"));
	}
	return src ? src : "";
}

static void attr_counters(FILE *f, const struct ic_group *g, const struct ic_attribution *a)
{
	const char *note, *src = attr_series_source(g, &note);
	int show[IC_MD_NCTR] = { 0 }, nshow = 0, nabsent = 0, papi = !strcmp(src, "papi");
	const char *gross = g->filler ? "; they include the filler" : "";

	if (!ic_md_counter_rows(a))
		return;
	/* Present: a count at any point of the series; absent ones are named once. */
	for (size_t c = 0; c < IC_MD_NCTR; c++) {
		for (size_t i = 0; i < g->npoints && !show[c]; i++)
			show[c] = isfinite(g->points[i]->med[ic_md_ctr[c].field]);
		if (!papi && ic_md_ctr[c].field != IC_F_L1I && ic_md_ctr[c].field != IC_F_INSTR)
			show[c] = 0;   /* without PAPI only the simulation's columns can hold data */
		nshow += show[c];
	}
	if (papi) {
		fputs("Counters per site of the lines' forms (PAPI, medians of repetitions", f);
		fprintf(f, "%s).", gross);
		for (size_t c = 0; c < IC_MD_NCTR; c++)
			if (!show[c])
				fprintf(f, "%s%s", nabsent++ ? ", " : " Absent in this series: ", ic_md_ctr[c].name);
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
	if (nshow)
		ic_md_counters(f, g, a, show, papi);
}

/* ---- the statement -------------------------------------------------------- */

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
	ic_fmt_runs(above, sizeof(above), l->r, l->n, IC_SIDE_BASELINE);
	ic_fmt_runs(below, sizeof(below), l->r, l->n, IC_SIDE_COMPARE);
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
	if (a->cross_together && a->cap[0].has_step) {
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
				 cp->pass, beyond, cp->form, *a->l1i_source ? " (" : "", ic_fmt_source_word(a->l1i_source),
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

static void attr_statement(FILE *f, const struct ic_results *res, const struct ic_attribution *a)
{
	struct attr_text t = { "", "", 0, 0 };
	const struct ic_line *il = &a->line[IC_LINE_INTERACTION];

	attr_say_call(&t, &a->line[IC_LINE_CALL]);
	attr_say_per_n(&t, "copies", &a->line[IC_LINE_COPIES], "copies cost", "copies do not cost");
	if (a->fit_left_out && a->fit.n) {
		attr_say_per_n(&t, "locked-instruction interaction", &a->fit,
			       "the lock costs more inlined than called", "the lock costs less inlined than called");
		attr_add(&t, 0, "the interaction from N = %lu, where a form's L1i misses pass %g per site: "
			 "the nolock forms' smaller code mixes capacity into it", a->fit_first_out, IC_ATTR_L1I_PASS);
	} else if (a->fit_left_out) {
		attr_add(&t, 0, "locked-instruction interaction: every N has a form past the L1i, where the "
			 "nolock forms' smaller code mixes capacity into it");
	} else {
		attr_say_per_n(&t, "locked-instruction interaction", il,
			       "the lock costs more inlined than called", "the lock costs less inlined than called");
	}
	attr_say_capacity(&t, a);
	fputs("**Likely cause.** ", f);
	if (a->all_noisy)
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
	if (g->filler)
		fputs("Times include the filler (whole-program times, see Method).\n\n", f);
	attr_lines(f, a);
	attr_counters(f, g, a);
	attr_statement(f, res, a);
}
