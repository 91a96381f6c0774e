/* The .dat files and data.gp of DIR/plots/ from the analysed results; see
 * chart_data.h. */
#include "chart_data.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attribution.h"
#include "format.h"
#include "states.h"

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

			fprintf(f, "# build %zu: %s %s %lu %s %s\n", gr->build, gr->op, gr->layout,
				gr->threads, gr->mode, forms[k]);
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
		if (!strcmp(ic_point_source(p), "sim"))
			sim = 1;
		else if (!strcmp(ic_point_source(p), "papi"))
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

/* The ratio panel's verdict line, short: the table and summary.md say more. */
static void chart_verdict(char *buf, size_t cap, const struct ic_results *res,
			  const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;
	const char *pooled = gr->states && gr->states->nstates == 2 ? " (pooled over two states)" : "";

	if (xo->verdict == IC_VERDICT_CROSSOVER)
		snprintf(buf, cap, "crossover in (%.0f, %.0f)%s", xo->bracket_lo, xo->bracket_hi, pooled);
	else if (xo->verdict == IC_VERDICT_COMPARE_WINS || xo->verdict == IC_VERDICT_BASELINE_WINS)
		snprintf(buf, cap, "%s faster where resolved%s", xo->verdict == IC_VERDICT_COMPARE_WINS ?
			 res->opts.compare : res->opts.baseline, pooled);
	else if (xo->verdict == IC_VERDICT_CONFLICT)
		snprintf(buf, cap, "resolved N disagree%s", pooled);
	else
		snprintf(buf, cap, "%s%s", gr->nratios ? "no N resolved" : "no comparison", pooled);
}

/* "two states: 1.00 in 7, 1.65 in 5 of 12 processes", or "". */
static void chart_states(char *buf, size_t cap, const struct ic_group *gr)
{
	const struct ic_states *st = gr->states;

	buf[0] = '\0';
	if (st && st->nstates == 2)
		snprintf(buf, cap, "two states: %.2f in %zu, %.2f in %zu of %zu processes", st->st[0].level,
			 st->st[0].nproc, st->st[1].level, st->st[1].nproc, st->nproc);
}

/* Per panel, gnuplot commands that mark where the compared forms'
 * footprints first pass the L1i and the L2: a dashed line at that N with a
 * level label beside it ("inline L1i"; "inline, extern L1i" once where
 * both pass at the same N), each label on its own row so none overlap.
 * None when a size is unknown. */
static void chart_time_marks(FILE *gp, const struct ic_results *res, const char **forms,
			     size_t nforms)
{
	const struct {
		const char *key, *name;
		int dt;
	} cache[2] = { { "l1i_size", "L1i", 2 }, { "l2_size", "L2", 4 } };

	fprintf(gp, "array ic_time_marks[%zu]\n", res->ngroups ? res->ngroups : 1);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];
		char cmd[4096];
		size_t len = 0;
		int id = 100, row = 0;

		cmd[0] = '\0';
		for (int c = 0; c < 2; c++) {
			double size = ic_results_context_num(res, cache[c].key);
			unsigned long pass[2] = { 0, 0 };

			if (!isfinite(size) || size <= 0)
				continue;
			for (size_t k = 0; k < nforms && k < 2; k++)
				pass[k] = ic_group_cache_pass(gr, forms[k], size, NULL);
			for (size_t k = 0; k < nforms && k < 2; k++) {
				int both = k == 0 && nforms > 1 && pass[0] && pass[0] == pass[1];
				char who[128];

				if (!pass[k] || (k == 1 && pass[1] == pass[0]) || len + 512 > sizeof(cmd))
					continue;
				if (both)
					snprintf(who, sizeof(who), "%s, %s", forms[0], forms[1]);
				else
					snprintf(who, sizeof(who), "%s", forms[k]);
				len += (size_t)snprintf(cmd + len, sizeof(cmd) - len,
					"set arrow %d from first %lu, graph 0 to first %lu, graph 1 nohead dt %d "
					"lw 1.2 lc rgb %s back; set label %d \" %s %s\" at first %lu, graph %.2f "
					"left font \",8\" tc rgb %s front; ", id, pass[k], pass[k], cache[c].dt,
					both ? "'#404040'" : k ? "ic_color(2)" : "ic_color(1)", id + 50, who,
					cache[c].name, pass[k], 0.06 + 0.07 * row,
					both ? "'#404040'" : k ? "ic_color(2)" : "ic_color(1)");
				id++;
				row++;
			}
		}
		fprintf(gp, "ic_time_marks[%zu] = ", g + 1);
		chart_gp_text(gp, cmd);
		fputc('\n', gp);
	}
}

/* The control ratios of every series that has control forms, one block per
 * (series, ratio) in ic_attr_kind order; the error bars are the band. */
static const int chart_attr_kind[] = { IC_LINE_COPIES, IC_LINE_LOCK_INLINE, IC_LINE_LOCK_EXTERN,
				       IC_LINE_INTERACTION, IC_LINE_INLINE_EXTERN };
#define CHART_NATTR (sizeof(chart_attr_kind) / sizeof(chart_attr_kind[0]))

/* Whether block b (series b / kinds, kind b % kinds, counting only series
 * with control forms) has a ratio. */
static int chart_attr_has(const struct ic_results *res, size_t b)
{
	size_t s = 0;

	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		if (!gr->attr || !gr->attr->has_controls)
			continue;
		if (s++ == b / CHART_NATTR)
			return gr->attr->line[chart_attr_kind[b % CHART_NATTR]].n > 0;
	}
	return 0;
}

static void chart_attribution(FILE *gp, FILE *dat, const struct ic_results *res)
{
	size_t ns = 0, k;

	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		if (!gr->attr || !gr->attr->has_controls)
			continue;
		ns++;
		for (k = 0; k < CHART_NATTR; k++) {
			const struct ic_line *l = &gr->attr->line[chart_attr_kind[k]];

			fprintf(dat, "# build %zu: %s %s %s %lu %lu %s %s: sites ratio band_lo band_hi lo hi\n",
				gr->build, gr->op, gr->layout, gr->order, gr->filler, gr->threads, gr->mode,
				l->name);
			for (size_t i = 0; i < l->n; i++) {
				fprintf(dat, "%lu", l->r[i].sites);
				chart_dat(dat, l->r[i].ratio);
				chart_dat(dat, l->r[i].band_lo);
				chart_dat(dat, l->r[i].band_hi);
				chart_dat(dat, l->r[i].lo);
				chart_dat(dat, l->r[i].hi);
				fputc('\n', dat);
			}
			if (!l->n)
				fputs("NaN NaN NaN NaN NaN NaN\n", dat);
			fputs("\n\n", dat);
		}
	}
	if (!ns)
		fputs("# no series with control forms\nNaN NaN NaN NaN NaN NaN\n", dat);
	fprintf(gp, "ic_attr_nseries = %zu\nic_attr_nkinds = %zu\narray ic_attr_kind[%zu]\n", ns,
		CHART_NATTR, CHART_NATTR);
	for (k = 0; k < CHART_NATTR; k++) {
		fprintf(gp, "ic_attr_kind[%zu] = ", k + 1);
		chart_gp_text(gp, ic_attr_line_name(chart_attr_kind[k]));
		fputc('\n', gp);
	}
	fprintf(gp, "array ic_attr_title[%zu]\narray ic_attr_has[%zu]\n", ns ? ns : 1,
		ns ? ns * CHART_NATTR : 1);
	ns = 0;
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];
		char title[512];

		if (!gr->attr || !gr->attr->has_controls)
			continue;
		fprintf(gp, "ic_attr_title[%zu] = ", ns + 1);
		chart_gp_text(gp, ic_fmt_series(title, sizeof(title), res, gr));
		fputc('\n', gp);
		for (k = 0; k < CHART_NATTR; k++)
			fprintf(gp, "ic_attr_has[%zu] = %d\n", ns * CHART_NATTR + k + 1,
				gr->attr->line[chart_attr_kind[k]].n > 0);
		ns++;
	}
	if (!ns)
		fputs("ic_attr_title[1] = ''\nic_attr_has[1] = 0\n", gp);
	/* The blocks that hold data, so that the key lists only what is drawn. */
	{
		size_t nb = 0, j = 0;

		for (size_t b = 0; b < ns * CHART_NATTR; b++)
			nb += chart_attr_has(res, b);
		fprintf(gp, "ic_attr_nblocks = %zu\narray ic_attr_bi[%zu]\narray ic_attr_bk[%zu]\n"
			"array ic_attr_bs[%zu]\n", nb, nb ? nb : 1, nb ? nb : 1, nb ? nb : 1);
		for (size_t b = 0; b < ns * CHART_NATTR; b++)
			if (chart_attr_has(res, b)) {
				j++;
				fprintf(gp, "ic_attr_bi[%zu] = %zu\nic_attr_bk[%zu] = %zu\nic_attr_bs[%zu] = %zu\n",
					j, b, j, b % CHART_NATTR + 1, j, b / CHART_NATTR + 1);
			}
	}
}

/* With several builds that each have the same k series (2 <= k <= 6), one
 * row of panels per build, series in the same columns, so a column
 * compares the builds; else 0 (a square grid). Groups sort by build. */
static size_t chart_cols_per_build(const struct ic_results *res)
{
	size_t k = 0, n = 0;

	if (!ic_fmt_many_builds(res))
		return 0;
	for (size_t g = 0; g <= res->ngroups; g++) {
		if (g < res->ngroups && (g == 0 || res->groups[g].build == res->groups[g - 1].build)) {
			n++;
			continue;
		}
		if (k && n != k)
			return 0;
		k = n;
		n = 1;
	}
	return k >= 2 && k <= 6 ? k : 0;
}

int ic_chart_data_write(const struct ic_chart_files *cf, const struct ic_results *res)
{
	size_t ng = res->ngroups, nforms, cols;
	const char **forms = calloc(res->npoints, sizeof(*forms));
	int *has_time = calloc(ng, sizeof(int)), *has_l1i = calloc(ng, sizeof(int));
	int *has_ratio = calloc(ng, sizeof(int));
	double *xo_lo = calloc(ng, sizeof(double)), *xo_hi = calloc(ng, sizeof(double));
	FILE *gp = cf->gp;
	char buf[256];
	const char *v;
	int rc = -1;

	if (!forms || !has_time || !has_l1i || !has_ratio || !xo_lo || !xo_hi)
		goto out;
	nforms = chart_forms(res, forms, res->npoints);
	if (chart_form_blocks(cf->time, res, forms, nforms, IC_F_NS, 1, has_time) ||
	    chart_form_blocks(cf->l1i, res, forms, nforms, IC_F_L1I, 0, has_l1i))
		goto out;
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];

		const struct ic_states *st = gr->states;

		fprintf(cf->ratio, "# build %zu: %s %s %lu %s: sites ratio lo hi noisy band_lo band_hi "
			"state1 state2\n", gr->build, gr->op, gr->layout, gr->threads, gr->mode);
		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(cf->ratio, "%lu", r->cmp->sites);
			chart_dat(cf->ratio, r->ratio);
			chart_dat(cf->ratio, r->lo);
			chart_dat(cf->ratio, r->hi);
			fprintf(cf->ratio, " %d", r->noisy);
			chart_dat(cf->ratio, r->band_lo);
			chart_dat(cf->ratio, r->band_hi);
			/* Each state's own ratio at N, where the processes split. */
			for (int k = 0; k < 2; k++)
				chart_dat(cf->ratio, st && st->nstates == 2 && i < st->st[k].nratios
						     ? st->st[k].ratios[i].ratio : NAN);
			fputc('\n', cf->ratio);
		}
		if (!gr->nratios)
			fputs("NaN NaN NaN NaN 0 NaN NaN NaN NaN\n", cf->ratio);
		fputs("\n\n", cf->ratio);
		/* Each process's ratio as a dot just right of N, spread a little so
		 * that equal ratios stay apart; state 1 or 2. */
		fprintf(cf->process, "# build %zu: %s %s %lu %s: x ratio state\n", gr->build, gr->op,
			gr->layout, gr->threads, gr->mode);
		for (size_t i = 0; st && i < st->nsites; i++)
			for (size_t p = 0; p < st->nproc; p++) {
				double y = st->logr[i * st->nproc + p];
				double x = (double)st->sites[i] *
					   exp(0.08 + 0.12 * (double)p / (double)(st->nproc > 1 ? st->nproc - 1 : 1));

				if (isfinite(y))
					fprintf(cf->process, "%.6g %.6g %d\n", x, exp(y), st->state[p] + 1);
			}
		fputs("NaN NaN 0\n\n\n", cf->process);
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
	cols = chart_cols_per_build(res);
	if (!cols)
		for (cols = 1; cols * cols < ng; cols++)
			;
	fprintf(gp, "ic_cols = %zu\nic_rows = %zu\n", cols, (ng + cols - 1) / cols);
	fputs("ic_compare = ", gp);
	chart_gp_text(gp, res->opts.compare);
	fputs("\nic_baseline = ", gp);
	chart_gp_text(gp, res->opts.baseline);
	fputs("\nic_l1i_title = ", gp);
	chart_gp_text(gp, chart_l1i_plot_title(buf, sizeof(buf), res));
	fprintf(gp, "\nic_l1i_any = %d\n", chart_any(has_l1i, ng));
	fprintf(gp, "array ic_form[%zu]\n", nforms);
	for (size_t k = 0; k < nforms; k++) {
		fprintf(gp, "ic_form[%zu] = ", k + 1);
		chart_gp_text(gp, forms[k]);
		fputc('\n', gp);
	}
	fprintf(gp, "array ic_title[%zu]\narray ic_verdict[%zu]\narray ic_states[%zu]\n", ng, ng, ng);
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];
		char title[512];

		ic_fmt_series(title, sizeof(title), res, gr);
		fprintf(gp, "ic_title[%zu] = ", g + 1);
		chart_gp_text(gp, title);
		chart_verdict(buf, sizeof(buf), res, gr);
		fprintf(gp, "\nic_verdict[%zu] = ", g + 1);
		chart_gp_text(gp, buf);
		chart_states(buf, sizeof(buf), gr);
		fprintf(gp, "\nic_states[%zu] = ", g + 1);
		chart_gp_text(gp, buf);
		fputc('\n', gp);
	}
	chart_gp_array_flag(gp, "ic_has_time", has_time, ng);
	chart_gp_array_flag(gp, "ic_has_l1i", has_l1i, ng);
	chart_gp_array_flag(gp, "ic_has_ratio", has_ratio, ng);
	chart_gp_array_num(gp, "ic_xo_lo", xo_lo, ng);
	chart_gp_array_num(gp, "ic_xo_hi", xo_hi, ng);
	/* The time chart draws the compared forms alone (chart_forms puts them first). */
	{
		size_t ntime = 0;

		while (ntime < nforms && ntime < 2 && (!strcmp(forms[ntime], res->opts.compare) ||
						      !strcmp(forms[ntime], res->opts.baseline)))
			ntime++;
		fprintf(gp, "ic_time_nforms = %zu\n", ntime);
		chart_time_marks(gp, res, forms, ntime);
	}
	chart_attribution(gp, cf->attr, res);
	rc = ferror(gp) || ferror(cf->time) || ferror(cf->l1i) ||
	     ferror(cf->ratio) || ferror(cf->attr) || ferror(cf->process) ? -1 : 0;
out:
	free(forms);
	free(has_time);
	free(has_l1i);
	free(has_ratio);
	free(xo_lo);
	free(xo_hi);
	return rc;
}
