/* The .dat files and data.gp of DIR/plots/ from the analysed results; see
 * chart_data.h. */
#include "chart_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"

/* A gnuplot single-quoted string: no escapes except '' for '. */
static void chart_gp_text(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		if (*s != '\n' && *s != '\r')
			fputc(*s, f);
	}
	fputc('\'', f);
}

static void chart_dat(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, " %.10g", x);
	else
		fputs(" NaN", f);
}

/* Forms in point order: compare, baseline, then the rest by name. Returns
 * the count; forms[] holds pointers into the points. */
static size_t chart_forms(const struct ic_results *res, const char **forms, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < res->npoints; i++) {
		size_t j = 0;

		while (j < n && strcmp(forms[j], res->points[i]->form))
			j++;
		if (j == n && n < cap)
			forms[n++] = res->points[i]->form;
	}
	/* Points are sorted per series; a later series can bring a form that
	 * sorts earlier, so order again by the same rule. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0; j--) {
			const char *a = forms[j - 1], *b = forms[j];
			int ra = !strcmp(a, res->opts.compare) ? 0 : !strcmp(a, res->opts.baseline) ? 1 : 2;
			int rb = !strcmp(b, res->opts.compare) ? 0 : !strcmp(b, res->opts.baseline) ? 1 : 2;

			if (ra < rb || (ra == rb && strcmp(a, b) <= 0))
				break;
			forms[j - 1] = b;
			forms[j] = a;
		}
	return n;
}

/* One block per (panel, form) in ic_form order; an empty block holds one
 * NaN row so that gnuplot's index numbering stays aligned. */
static int chart_form_blocks(FILE *f, const struct ic_results *res, const char **forms,
			     size_t nforms, enum ic_field field, int with_ci, int *has)
{
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		has[g] = 0;
		for (size_t k = 0; k < nforms; k++) {
			size_t rows = 0;

			fprintf(f, "# %s %s %lu %s %s\n", gr->op, gr->layout, gr->threads, gr->mode, forms[k]);
			for (size_t i = 0; i < gr->npoints; i++) {
				const struct ic_point *p = gr->points[i];
				double y = p->med[field];

				if (strcmp(p->form, forms[k]))
					continue;
				if (!isfinite(y))
					continue;
				fprintf(f, "%lu", p->sites);
				chart_dat(f, y);
				if (with_ci) {
					chart_dat(f, p->ci_lo);
					chart_dat(f, p->ci_hi);
				}
				fputc('\n', f);
				rows++;
			}
			if (!rows)
				fputs(with_ci ? "NaN NaN NaN NaN\n" : "NaN NaN\n", f);
			has[g] |= rows > 0;
			fputs("\n\n", f);
		}
	}
	return ferror(f) ? -1 : 0;
}

static const char *chart_l1i_plot_title(char *buf, size_t cap, const struct ic_results *res)
{
	int sim = 0, papi = 0, other = 0;
	char size[32], assoc_buf[IC_RESULTS_CONTEXT_MAX], line_buf[IC_RESULTS_CONTEXT_MAX];
	const char *assoc = ic_results_context(res, "l1i_assoc", assoc_buf, sizeof(assoc_buf));
	const char *line = ic_results_context(res, "l1i_line", line_buf, sizeof(line_buf));

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		if (!isfinite(p->med[IC_F_L1I]))
			continue;
		if (!strcmp(ic_fmt_counter_source(p), "sim"))
			sim = 1;
		else if (!strcmp(ic_fmt_counter_source(p), "papi"))
			papi = 1;
		else
			other = 1;
	}
	ic_fmt_bytes(size, sizeof(size), ic_results_context_num(res, "l1i_size"));
	if (sim && !papi && !other) {
		int len = snprintf(buf, cap, "simulated (valgrind, L1i %s", size);

		if (*assoc && len > 0 && (size_t)len < cap)
			len += snprintf(buf + len, cap - (size_t)len, "/%s-way", assoc);
		if (*line && len > 0 && (size_t)len < cap)
			len += snprintf(buf + len, cap - (size_t)len, "/%s B", line);
		if (len > 0 && (size_t)len < cap)
			snprintf(buf + len, cap - (size_t)len, ")");
	} else if (papi && !sim && !other) {
		snprintf(buf, cap, "hardware (PAPI)");
	} else if (sim || papi || other) {
		snprintf(buf, cap, "mixed sources (%s%s%s)", papi ? "PAPI " : "", sim ? "simulated " : "",
			 other ? "other" : "");
	} else {
		snprintf(buf, cap, "not measured");
	}
	return buf;
}

static void chart_gp_array_num(FILE *gp, const char *name, const double *v, size_t n)
{
	fprintf(gp, "array %s[%zu]\n", name, n);
	for (size_t i = 0; i < n; i++) {
		fprintf(gp, "%s[%zu] =", name, i + 1);
		chart_dat(gp, v[i]);
		fputc('\n', gp);
	}
}

static void chart_gp_array_flag(FILE *gp, const char *name, const int *v, size_t n)
{
	fprintf(gp, "array %s[%zu]\n", name, n);
	for (size_t i = 0; i < n; i++)
		fprintf(gp, "%s[%zu] = %d\n", name, i + 1, v[i]);
}

static int chart_any(const int *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return 1;
	return 0;
}

static void chart_plot_verdict(char *buf, size_t cap, const struct ic_results *res,
			       const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;

	switch (xo->verdict) {
	case IC_VERDICT_CROSSOVER:
		snprintf(buf, cap, "crossover between N = %.0f and %.0f (%s faster below)", xo->bracket_lo,
			 xo->bracket_hi, xo->direction > 0 ? res->opts.compare : res->opts.baseline);
		break;
	case IC_VERDICT_COMPARE_WINS:
		snprintf(buf, cap, "%s faster where resolved (%zu of %zu points), no crossover",
			 res->opts.compare, xo->n_compare, gr->nratios);
		break;
	case IC_VERDICT_BASELINE_WINS:
		snprintf(buf, cap, "%s faster where resolved (%zu of %zu points), no crossover",
			 res->opts.baseline, xo->n_baseline, gr->nratios);
		break;
	case IC_VERDICT_CONFLICT:
		snprintf(buf, cap, "not resolved: resolved points disagree");
		break;
	default:
		snprintf(buf, cap, gr->nratios ? "not resolved" : "no comparison");
	}
}

int ic_chart_data_write(const struct ic_chart_files *cf, const struct ic_results *res)
{
	size_t ng = res->ngroups, nforms, cols = 1;
	const char **forms = calloc(res->npoints, sizeof(*forms));
	int *has_time = calloc(ng, sizeof(int)), *has_l1i = calloc(ng, sizeof(int));
	int *has_foot = calloc(ng, sizeof(int)), *has_ratio = calloc(ng, sizeof(int));
	double *xo_lo = calloc(ng, sizeof(double)), *xo_hi = calloc(ng, sizeof(double));
	FILE *gp = cf->gp;
	char buf[256], sz[32];
	const char *v;
	int rc = -1;

	if (!forms || !has_time || !has_l1i || !has_foot || !has_ratio || !xo_lo || !xo_hi)
		goto out;
	nforms = chart_forms(res, forms, res->npoints);
	if (chart_form_blocks(cf->time, res, forms, nforms, IC_F_NS, 1, has_time) ||
	    chart_form_blocks(cf->l1i, res, forms, nforms, IC_F_L1I, 0, has_l1i) ||
	    chart_form_blocks(cf->foot, res, forms, nforms, IC_F_FOOT, 0, has_foot))
		goto out;
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];

		fprintf(cf->ratio, "# %s %s %lu %s: sites ratio lo hi noisy band_lo band_hi\n", gr->op, gr->layout,
			gr->threads, gr->mode);
		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(cf->ratio, "%lu", r->cmp->sites);
			chart_dat(cf->ratio, r->ratio);
			chart_dat(cf->ratio, r->lo);
			chart_dat(cf->ratio, r->hi);
			fprintf(cf->ratio, " %d", r->noisy);
			chart_dat(cf->ratio, r->band_lo);
			chart_dat(cf->ratio, r->band_hi);
			fputc('\n', cf->ratio);
		}
		if (!gr->nratios)
			fputs("NaN NaN NaN NaN 0 NaN NaN\n", cf->ratio);
		fputs("\n\n", cf->ratio);
		has_ratio[g] = gr->nratios > 0;
		xo_lo[g] = gr->xo.bracket_lo;
		xo_hi[g] = gr->xo.bracket_hi;
	}

	fputs("# Written by summarize for the gnuplot scripts in plots/; loaded by them.\n", gp);
	{
		char cpu_buf[IC_RESULTS_CONTEXT_MAX], num[IC_RESULTS_CONTEXT_MAX], cores[64], cap[512];
		const char *cpu = ic_results_context(res, "cpu_model", cpu_buf, sizeof(cpu_buf));

		v = ic_results_context(res, "cores", num, sizeof(num));
		snprintf(cores, sizeof(cores), "%s",
			 *v ? v : ic_results_context(res, "num_cpus", num, sizeof(num)));
		v = ic_results_context(res, "date", num, sizeof(num));
		snprintf(cap, sizeof(cap), "%s, %s cores, %s", *cpu ? cpu : "CPU not recorded",
			 *cores ? cores : "?", *v ? v : "date not recorded");
		fputs("ic_caption = ", gp);
		chart_gp_text(gp, cap);
		fputc('\n', gp);
	}
	{
		unsigned long nlo = res->points[0]->sites, nhi = nlo;

		for (size_t i = 1; i < res->npoints; i++) {
			if (res->points[i]->sites < nlo)
				nlo = res->points[i]->sites;
			if (res->points[i]->sites > nhi)
				nhi = res->points[i]->sites;
		}
		fprintf(gp, "ic_sites_min = %lu\nic_sites_max = %lu\n", nlo, nhi);
	}
	fprintf(gp, "ic_npanels = %zu\nic_nforms = %zu\n", ng, nforms);
	while (cols * cols < ng)
		cols++;
	fprintf(gp, "ic_cols = %zu\nic_rows = %zu\n", cols, (ng + cols - 1) / cols);
	fputs("ic_compare = ", gp);
	chart_gp_text(gp, res->opts.compare);
	fputs("\nic_baseline = ", gp);
	chart_gp_text(gp, res->opts.baseline);
	fputs("\nic_l1i_title = ", gp);
	chart_gp_text(gp, chart_l1i_plot_title(buf, sizeof(buf), res));
	fprintf(gp, "\nic_time_any = %d\nic_l1i_any = %d\nic_foot_any = %d\nic_ratio_any = %d\n",
		chart_any(has_time, ng), chart_any(has_l1i, ng), chart_any(has_foot, ng),
		chart_any(has_ratio, ng));
	fputs("ic_l1_bytes =", gp);
	chart_dat(gp, ic_results_context_num(res, "l1i_size"));
	fputs("\nic_l2_bytes =", gp);
	chart_dat(gp, ic_results_context_num(res, "l2_size"));
	snprintf(buf, sizeof(buf), "L1i %s",
		 ic_fmt_bytes(sz, sizeof(sz), ic_results_context_num(res, "l1i_size")));
	fputs("\nic_l1_label = ", gp);
	chart_gp_text(gp, buf);
	snprintf(buf, sizeof(buf), "L2 %s",
		 ic_fmt_bytes(sz, sizeof(sz), ic_results_context_num(res, "l2_size")));
	fputs("\nic_l2_label = ", gp);
	chart_gp_text(gp, buf);
	fprintf(gp, "\narray ic_form[%zu]\n", nforms);
	for (size_t k = 0; k < nforms; k++) {
		fprintf(gp, "ic_form[%zu] = ", k + 1);
		chart_gp_text(gp, forms[k]);
		fputc('\n', gp);
	}
	fprintf(gp, "array ic_title[%zu]\narray ic_verdict[%zu]\n", ng, ng);
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];
		char tm[96], title[256];

		ic_fmt_threads_mode(tm, sizeof(tm), gr);
		if (ic_fmt_many_bodies(res))
			snprintf(title, sizeof(title), "%s/%s/%s: %s", gr->op, gr->layout, gr->order, tm);
		else
			snprintf(title, sizeof(title), "%s", tm);
		fprintf(gp, "ic_title[%zu] = ", g + 1);
		chart_gp_text(gp, title);
		chart_plot_verdict(buf, sizeof(buf), res, gr);
		fprintf(gp, "\nic_verdict[%zu] = ", g + 1);
		chart_gp_text(gp, buf);
		fputc('\n', gp);
	}
	chart_gp_array_flag(gp, "ic_has_time", has_time, ng);
	chart_gp_array_flag(gp, "ic_has_l1i", has_l1i, ng);
	chart_gp_array_flag(gp, "ic_has_foot", has_foot, ng);
	chart_gp_array_flag(gp, "ic_has_ratio", has_ratio, ng);
	chart_gp_array_num(gp, "ic_xo_lo", xo_lo, ng);
	chart_gp_array_num(gp, "ic_xo_hi", xo_hi, ng);
	rc = ferror(gp) || ferror(cf->time) || ferror(cf->l1i) || ferror(cf->foot) ||
	     ferror(cf->ratio) ? -1 : 0;
out:
	free(forms);
	free(has_time);
	free(has_l1i);
	free(has_foot);
	free(has_ratio);
	free(xo_lo);
	free(xo_hi);
	return rc;
}
