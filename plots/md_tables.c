/* The markdown tables of summary.md, each from analysed results; the
 * sentences around them are in summary.c, answer.c and attribution_text.c.
 * A cell not measured is "—", never 0. */
#include "md_tables.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

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
