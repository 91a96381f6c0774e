/* The markdown tables of summary.md, each from analysed results; the
 * sentences around them are in summary.c, answer.c and attribution_text.c.
 * A cell not measured is "—", never 0. */
#include "md_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "states.h"

/* The N of every per-N line, ascending and distinct. */
static size_t attr_all_n(const struct ic_attribution *a, unsigned long *out, size_t cap)
{
	size_t n = 0;

	for (size_t k = 0; k < IC_ATTR_NPER; k++) {
		const struct ic_line *l = &a->line[ic_attr_per_n[k]];

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

/* The per-N lines of an attribution side by side, with interval and band. */
void ic_md_attr_per_n(FILE *f, const struct ic_attribution *a)
{
	unsigned long *ns = malloc(64 * sizeof(*ns));
	size_t nn;

	if (!ns)
		return;
	nn = attr_all_n(a, ns, 64);
	fputs("| N |", f);
	for (size_t k = 0; k < IC_ATTR_NPER; k++)
		if (a->line[ic_attr_per_n[k]].n)
			fprintf(f, " %s [95%% CI] | band (all N, 95%%) |", a->line[ic_attr_per_n[k]].name);
	fputs("\n|---:|", f);
	for (size_t k = 0; k < IC_ATTR_NPER; k++)
		if (a->line[ic_attr_per_n[k]].n)
			fputs("---:|---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < nn; i++) {
		fprintf(f, "| %lu |", ns[i]);
		for (size_t k = 0; k < IC_ATTR_NPER; k++) {
			const struct ic_line *l = &a->line[ic_attr_per_n[k]];
			const struct ic_ratio *r = ic_attr_at(l, ns[i]);

			if (!l->n)
				continue;
			if (!r) {
				fputs(" — | — |", f);
				continue;
			}
			fputc(' ', f);
			ic_fmt_ratio_cell(f, 1, r);
			fputs(" | ", f);
			ic_fmt_band(f, r);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
	free(ns);
}

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
		const char *forms[4];

		ic_attr_line_forms((enum ic_line_kind)k, forms);

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


static void attr_cell(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, " %.4g |", x);
	else
		fputs(" — |", f);
}

const struct ic_md_ctr ic_md_ctr[IC_MD_NCTR] = {
	{ IC_F_CYCLES, "cycles" },
	{ IC_F_INSTR, "instructions" },
	{ IC_F_L1I, "L1i misses" },
	{ IC_F_BRANCH, "branch misses" },
	{ IC_F_ITLB, "iTLB misses" },
};

size_t ic_md_counter_rows(const struct ic_attribution *a)
{
	struct attr_pair p[256];

	return attr_pairs(a, p, 256);
}

/* The counters of the lines' forms at the lines' N, the columns in show. */
void ic_md_counters(FILE *f, const struct ic_group *g, const struct ic_attribution *a,
		    const int *show, int papi)
{
	struct attr_pair p[256];
	size_t np = attr_pairs(a, p, 256);

	fputs("| N | form |", f);
	for (size_t c = 0; c < IC_MD_NCTR; c++)
		if (show[c])
			fprintf(f, " %s/site%s |", ic_md_ctr[c].name, papi ? "" : " (simulated)");
	fputs("\n|---:|:---|", f);
	for (size_t c = 0; c < IC_MD_NCTR; c++)
		if (show[c])
			fputs("---:|", f);
	fputc('\n', f);
	for (size_t i = 0; i < np; i++) {
		const struct ic_point *pt = ic_group_point(g, p[i].form, p[i].sites);

		if (!pt)
			continue;
		fprintf(f, "| %lu | %s |", p[i].sites, p[i].form);
		for (size_t c = 0; c < IC_MD_NCTR; c++)
			if (show[c])
				attr_cell(f, pt->med[ic_md_ctr[c].field]);
		fputc('\n', f);
	}
	fputc('\n', f);
}

/* A table cell: — when not measured. */
static const char *md_val(char *buf, size_t cap, double x, const char *fmt)
{
	if (isfinite(x))
		snprintf(buf, cap, fmt, x);
	else
		snprintf(buf, cap, "—");
	return buf;
}

/* The L1i column's source, " (simulated)" or " (PAPI)", from the
 * attribution's (attribution.c); "" otherwise. *mixed when the sources
 * differ, so each cell must say; *any when any point has a count. */
static const char *md_l1i_label(const struct ic_group *gr, int *mixed, int *any)
{
	static char buf[32];
	const char *src = gr->attr ? gr->attr->l1i_source : "";

	*any = ic_md_any_l1i(gr);
	*mixed = !strcmp(src, "mixed");
	if (strcmp(src, "sim") && strcmp(src, "papi"))
		return "";
	snprintf(buf, sizeof(buf), " (%s)", ic_fmt_source_word(src));
	return buf;
}

static void md_l1i_cell(FILE *f, const struct ic_point *p, int mixed)
{
	if (!isfinite(p->med[IC_F_L1I])) {
		fputs("—", f);
		return;
	}
	fprintf(f, "%.4g", p->med[IC_F_L1I]);
	if (mixed)
		fprintf(f, " (%s)", ic_fmt_source_word(ic_point_source(p)));
}

/* Four significant digits, trailing zeros kept so columns line up. */
static void md_sig4(FILE *f, double x)
{
	if (fabs(x) >= 1000.0)
		fprintf(f, "%.0f", x);
	else
		fprintf(f, "%#.4g", x);
}

static void md_time_cell(FILE *f, const struct ic_point *p)
{
	if (!isfinite(p->med[IC_F_NS])) {
		fputs("—", f);
		return;
	}
	md_sig4(f, p->med[IC_F_NS]);
	if (isfinite(p->ci_lo)) {
		fputs(" [", f);
		md_sig4(f, p->ci_lo);
		fputs("–", f);
		md_sig4(f, p->ci_hi);
		fputc(']', f);
	}
}

/* "[95% CI]" only where the cells hold one. */
static const char *md_ci_label(const struct ic_group *gr)
{
	for (size_t i = 0; i < gr->nratios; i++)
		if (isfinite(gr->ratios[i].lo))
			return " [95% CI]";
	return " (no interval: fewer than 2 processes or layouts)";
}

/* A variance of a log ratio as the SD in percent; — when not estimable. */
static void md_sd(FILE *f, double var)
{
	if (isfinite(var))
		fprintf(f, " | %.2f%%", 100.0 * sqrt(var));
	else
		fputs(" | —", f);
}

void ic_md_evidence(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *c = res->opts.compare, *b = res->opts.baseline, *ci = md_ci_label(gr);
	int mixed, any;
	const char *l1 = md_l1i_label(gr, &mixed, &any);

	fprintf(f, "| N | %s ns/site%s | %s ns/site%s | %s/%s%s | band (all N, 95%%) "
		"| p (this N, uncorrected) | noisy | L1i miss/site %s%s | L1i miss/site %s%s |\n", c,
		ci, b, ci, c, b, ci, c, l1, b, l1);
	fputs("|---:|---:|---:|---:|---:|---:|:---:|---:|---:|\n", f);
	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_ratio *r = &gr->ratios[i];
		char p[32];

		fprintf(f, "| %lu | ", r->cmp->sites);
		md_time_cell(f, r->cmp);
		fputs(" | ", f);
		md_time_cell(f, r->base);
		fputs(" | ", f);
		ic_fmt_ratio_cell(f, 0, r);
		fputs(" | ", f);
		ic_fmt_band(f, r);
		fprintf(f, " | %s | %s | ", md_val(p, sizeof(p), r->p, "%.2g"), r->noisy ? "noisy" : "");
		md_l1i_cell(f, r->cmp, mixed);
		fputs(" | ", f);
		md_l1i_cell(f, r->base, mixed);
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

int ic_md_any_l1i(const struct ic_group *gr)
{
	for (size_t i = 0; i < gr->npoints; i++)
		if (isfinite(gr->points[i]->med[IC_F_L1I]))
			return 1;
	return 0;
}

size_t ic_md_net(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	size_t near = 0;

	fprintf(f, "| N | %s net ns [95%% CI] | %s net ns [95%% CI] |\n|---:|---:|---:|\n",
		res->opts.compare, res->opts.baseline);
	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_point *pt[2] = { gr->ratios[i].cmp, gr->ratios[i].base };

		fprintf(f, "| %lu", gr->ratios[i].sites);
		for (int k = 0; k < 2; k++) {
			const struct ic_point *p = pt[k];

			if (!isfinite(p->net)) {
				fputs(" | —", f);
				continue;
			}
			fprintf(f, " | %.3g", p->net);
			if (isfinite(p->net_lo))
				fprintf(f, " [%.3g, %.3g]", p->net_lo, p->net_hi);
			if (p->net_near_mark) {
				fputs(" *", f);
				near++;
			}
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
	return near;
}

void ic_md_states(FILE *f, const struct ic_results *res, const struct ic_states *st)
{
	fprintf(f, "| N | state 1: %zu processes, %s/%s [95%% CI] | band | faster | state 2: %zu "
		"processes [95%% CI] | band | faster |\n|---:|---:|---:|:---:|---:|---:|:---:|\n",
		st->st[0].nproc, res->opts.compare, res->opts.baseline, st->st[1].nproc);
	for (size_t i = 0; i < st->st[0].nratios || i < st->st[1].nratios; i++) {
		const struct ic_ratio *r[2] = {
			i < st->st[0].nratios ? &st->st[0].ratios[i] : NULL,
			i < st->st[1].nratios ? &st->st[1].ratios[i] : NULL,
		};

		fprintf(f, "| %lu", r[0] ? r[0]->sites : r[1]->sites);
		for (int k = 0; k < 2; k++) {
			fputs(" | ", f);
			if (!r[k]) {
				fputs("— | — | —", f);
				continue;
			}
			ic_fmt_ratio_cell(f, 0, r[k]);
			fputs(" | ", f);
			ic_fmt_band(f, r[k]);
			fprintf(f, " | %s", r[k]->side == IC_SIDE_UNRESOLVED ? "" : (r[k]->side == IC_SIDE_COMPARE ? res->opts.compare : res->opts.baseline));
		}
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

void ic_md_variance(FILE *f, const struct ic_results *res)
{
	fputs("| series | layout variant | process | process within a state | one repetition | "
	      "repetitions per process | processes | states |\n"
	      "|---|---:|---:|---:|---:|---:|---:|---:|\n", f);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_states *st = res->groups[g].states;
		char t[512];

		if (!st || !st->nproc)
			continue;
		fprintf(f, "| %s", ic_fmt_series(t, sizeof(t), res, &res->groups[g]));
		md_sd(f, st->var_variant);
		md_sd(f, st->var_process);
		md_sd(f, st->var_process_state);
		md_sd(f, st->var_rep);
		fprintf(f, " | %.0f | %zu | %zu |\n", st->reps, st->nproc, st->nstates);
	}
}

void ic_md_calibration(FILE *f, const struct ic_group *gr, double want, size_t *detected,
		       size_t *contains, double *extra, size_t *k)
{
	fprintf(f, "| N | ratio [95%% CI] | measured extra | band excludes 1 | contains %.3f | noisy |\n",
		want);
	fputs("|---:|---:|---:|:---:|:---:|:---:|\n", f);
	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_ratio *r = &gr->ratios[i];
		int ex = r->side != IC_SIDE_UNRESOLVED, in = ic_ratio_contains(r, want);

		*detected += ex;
		*contains += in;
		if (extra && isfinite(r->ratio))
			extra[(*k)++] = r->ratio - 1.0;
		fprintf(f, "| %lu | ", r->cmp->sites);
		ic_fmt_ratio_cell(f, 0, r);
		fprintf(f, " | %+.2f%% | %s | ", (r->ratio - 1.0) * 100.0, ex ? "yes" : "no");
		if (in)
			fputs("yes", f);
		else if (isfinite(r->lo))
			fprintf(f, "no (%.2f%% off)",
				100.0 * (want < r->lo ? r->lo - want : want - r->hi));
		else
			fputs("—", f);
		fprintf(f, " | %s |\n", r->noisy ? "noisy" : "");
	}
	fputc('\n', f);
}
