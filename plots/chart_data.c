/* The charts' .dat files and data.gp: the sweep's, the watch's, compare's and agree's (chart_data.h). */
#define _GNU_SOURCE
#include "chart_data.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "load.h"
#include "gnuplot_run.h"
#include "series.h"

/* The height of one cache label's line, a fraction of a time panel. */
#define IC_MARK_H 0.06

/* name = 'text' or name[i] = 'text' (i > 0), gnuplot-quoted. */
static void gp_str(FILE *gp, const char *name, size_t i, const char *s)
{
	fprintf(gp, i ? "%s[%zu] = " : "%s = ", name, i);
	ic_gnuplot_quote(gp, s);
	fputc('\n', gp);
}

/* x to prec significant digits after a space, NaN when not measured. */
static void dat(FILE *f, int prec, double x)
{
	fprintf(f, isfinite(x) ? " %.*g" : " NaN", prec, x);
}

static void dat_head(FILE *f, const struct ic_group *gr, const char *title, const char *what)
{
	fprintf(f, "# build %zu: %s: %s\n", gr->build, title, what);
}

static int form_rank(const struct ic_analysis *an, const char *f)
{
	return !strcmp(f, an->opts.compare) ? 0 : !strcmp(f, an->opts.baseline) ? 1 : 2;
}

static int form_cmp(const void *a, const void *b, void *an)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int d = form_rank(an, x) - form_rank(an, y);

	return d ? d : strcmp(x, y);
}

/* The forms in drawing order (and colour): compare, baseline, then the rest by name; each once. */
static size_t chart_forms(const struct ic_analysis *an, const char **forms)
{
	size_t n = 0;

	for (size_t i = 0; i < an->res->npoints; i++)
		forms[i] = an->res->points[i]->form;
	qsort_r(forms, an->res->npoints, sizeof(*forms), form_cmp, (void *)an);
	for (size_t i = 0; i < an->res->npoints; i++)
		if (!n || strcmp(forms[n - 1], forms[i]))
			forms[n++] = forms[i];
	return n;
}

/* One block per form (a NaN row when empty): block k of series g is index
 * g * nforms + k; drawn lists the k + 1 (k < ndraw) with data: " 1 2". */
static void form_blocks(FILE *f, const struct ic_group *gr, const char *title, const char **forms,
			size_t nforms, enum ic_field field, size_t ndraw, char drawn[static 256])
{
	drawn[0] = '\0';
	for (size_t k = 0; k < nforms; k++) {
		int rows = 0;

		dat_head(f, gr, title, forms[k]);
		for (size_t i = 0; i < gr->npoints; i++) {
			const struct ic_point *p = gr->points[i];

			if (strcmp(p->form, forms[k]) || !isfinite(p->med[field]))
				continue;
			fprintf(f, "%lu", p->sites);
			dat(f, 10, p->med[field]);
			if (field == IC_F_NS) {
				dat(f, 10, p->ci_lo);
				dat(f, 10, p->ci_hi);
			}
			fputc('\n', f);
			rows = 1;
		}
		fputs(rows ? "\n\n" : "NaN NaN NaN NaN\n\n\n", f);
		if (rows && k < ndraw && strlen(drawn) < 240)
			sprintf(drawn + strlen(drawn), " %zu", k + 1);
	}
}

/* state1, state2: each state's own ratio where the processes split in two;
 * holm_lo, holm_hi: the interval that decides the side (decision.h). */
static const char ratio_cols[] = "sites ratio lo hi noisy band_lo band_hi state1 state2 holm_lo holm_hi";

/* A block of ratio_cols rows (a NaN row when there is none). */
static void ratio_rows(FILE *f, const struct ic_ratio *r, size_t n, const struct ic_states *st)
{
	for (size_t i = 0; i < n; i++) {
		int two = st && st->nstates == 2;
		double col[] = { r[i].ratio, r[i].lo, r[i].hi, r[i].noisy, r[i].band_lo, r[i].band_hi,
				 two && i < st->st[0].nratios ? st->st[0].ratios[i].ratio : NAN,
				 two && i < st->st[1].nratios ? st->st[1].ratios[i].ratio : NAN,
				 r[i].holm_lo, r[i].holm_hi };

		fprintf(f, "%lu", r[i].sites);
		for (size_t k = 0; k < sizeof(col) / sizeof(*col); k++)
			dat(f, 10, col[k]);
		fputc('\n', f);
	}
	fputs(n ? "\n\n" : "NaN NaN NaN NaN 0 NaN NaN NaN NaN\n\n\n", f);
}

/* The ratio panel's log y axis from the data's bulk, not its outliers: 1, each
 * N's and each state's ratio, the intervals no wider than 3x (a wider one would
 * flatten the rest; the frame clips it). A process's dot is in view within that
 * bulk widened by half its log span (at least 10%), else at the edge, counted. */
struct ratio_axis {
	double lo, hi;
	size_t above, below;
};

static void ratio_axis(const struct ic_series *se, struct ratio_axis *ax)
{
	const struct ic_group *gr = &se->group;
	const struct ic_process_ratios *pr = &se->procs;
	const struct ic_states *st = se->states;
	double lo = 1, hi = 1, w, elo, ehi, pad;

	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_ratio *r = &gr->ratios[i];

		if (!isfinite(r->ratio))
			continue;
		lo = fmin(lo, r->ratio);
		hi = fmax(hi, r->ratio);
		if (isfinite(r->lo) && isfinite(r->hi) && r->lo > 0 && r->hi / r->lo <= 3) {
			lo = fmin(lo, r->lo);
			hi = fmax(hi, r->hi);
		}
	}
	for (size_t k = 0; st && st->nstates == 2 && k < 2; k++)
		for (size_t i = 0; i < st->st[k].nratios; i++)
			if (isfinite(st->st[k].ratios[i].ratio)) {
				lo = fmin(lo, st->st[k].ratios[i].ratio);
				hi = fmax(hi, st->st[k].ratios[i].ratio);
			}
	w = fmax(sqrt(hi / lo), 1.1);
	elo = lo / w;
	ehi = hi * w;
	ax->above = ax->below = 0;
	for (size_t i = 0; st && i < pr->nsites * pr->nproc; i++) {
		double y = exp(pr->logr[i]);

		if (!isfinite(y))
			continue;
		if (y < elo)
			ax->below++;
		else if (y > ehi)
			ax->above++;
		else {
			lo = fmin(lo, y);
			hi = fmax(hi, y);
		}
	}
	pad = fmax(pow(hi / lo, 0.05), 1.02);
	ax->lo = lo / pad;
	ax->hi = hi * pad;
}

/* name[i] = 'set ytics ("t" t, ...)' for t[0..n-1]. */
static void ytics(FILE *gp, const char *name, size_t i, const double *t, size_t n)
{
	fprintf(gp, "%s[%zu] = 'set ytics (", name, i);
	for (size_t k = 0; k < n; k++)
		fprintf(gp, "%s\"%.3g\" %.6g", k ? ", " : "", t[k], t[k]);
	fputs(")'\n", gp);
}

/* gnuplot's ytics for a log axis over [lo, hi]: the coarsest of a few
 * ladders of round ratios that puts at least 4 tics in view. */
static void ratio_tics(FILE *gp, size_t p, double lo, double hi)
{
	static const double ladder[][20] = {
		{ 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100 },
		{ 0.1, 0.2, 0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16, 25, 50, 100 },
	};
	static const double step[] = { 0.1, 0.05, 0.02, 0.01, 0.005 };
	double t[64];
	size_t n = 0;

	for (size_t l = 0; l < 2 && n < 4; l++) {
		n = 0;
		for (size_t i = 0; i < 20 && ladder[l][i] > 0; i++)
			if (ladder[l][i] >= lo && ladder[l][i] <= hi)
				t[n++] = ladder[l][i];
	}
	for (size_t l = 0; l < sizeof(step) / sizeof(step[0]) && n < 4; l++) {
		n = 0;
		for (double x = ceil(lo / step[l]) * step[l]; x <= hi && n < 64; x += step[l])
			t[n++] = x;
	}
	ytics(gp, "ic_ytics", p + 1, t, n);
}

/* process.dat: each process's ratio as a dot just right of N, spread so
 * that equal ratios stay apart, with its state (1 or 2), the y drawn at (ax's
 * edge when beyond it) and 1 / -1 when clipped above / below. */
static void process_dots(FILE *f, const struct ic_series *se, const char *title,
			 const struct ratio_axis *ax)
{
	const struct ic_process_ratios *pr = &se->procs;
	const struct ic_states *st = se->states;

	dat_head(f, &se->group, title, "x ratio state y_drawn clipped");
	for (size_t i = 0; st && i < pr->nsites; i++)
		for (size_t p = 0; p < pr->nproc; p++) {
			double y = exp(pr->logr[i * pr->nproc + p]);
			double x = (double)pr->sites[i] *
				   exp(0.08 + 0.12 * (double)p / (double)(pr->nproc > 1 ? pr->nproc - 1 : 1));
			int clip = y > ax->hi ? 1 : y < ax->lo ? -1 : 0;

			if (isfinite(y))
				fprintf(f, "%.6g %.6g %d %.6g %d\n", x, y, st->state[p] + 1,
					clip > 0 ? ax->hi : clip < 0 ? ax->lo : y, clip);
		}
	fputs("NaN NaN 0 NaN 0\n\n\n", f);
}

/* Where the L1i counts come from, for the chart's title: the series'
 * sources as the engine read them, joined. */
static const char *l1i_source(char *buf, size_t cap, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	const char *src = NULL;
	char size[32];

	for (size_t g = 0; g < an->nseries; g++) {
		const char *s = an->series[g].attr ? an->series[g].attr->l1i_source : "";

		if (*s)
			src = !src || !strcmp(src, s) ? s : "mixed";
	}
	if (!src)
		return "not measured";
	if (strcmp(src, "sim"))
		return strcmp(src, "papi") ? "mixed sources (see counter_source in points.csv)" :
					     "hardware counters (PAPI)";
	snprintf(buf, cap, "simulated by valgrind for a %s L1i",
		 ic_fmt_bytes(size, sizeof(size), ic_results_context_num(res, IC_CTX_L1I_SIZE)));
	return buf;
}

/* The panel's verdict line from the words' decision (the time average over
 * every process, whatever the machine's states): "crossover in (4, 64)",
 * "extern faster where resolved", "no N resolved"; summary.md says more. */
static void verdict(char *buf, size_t cap, const struct ic_analysis *an, const struct ic_group *gr)
{
	const char *const words[] = { gr->nratios ? "no N resolved" : "no comparison",
		"crossover in (%.0f, %.0f)", "%s faster where resolved", "%s faster where resolved",
		"resolved N disagree" };

	if (ic_analysis_smoke(an, buf, cap))
		snprintf(buf, cap, "no side decided: a smoke test");
	else
		ic_fmt_crossover(buf, cap, &gr->xo, &an->opts, words);
}

/* gnuplot commands for a time (or L1i) panel: a dashed line where each compared form's code reaches
 * the L1i (dt 2) and the L2 (dt 4), at the N summary.md states (N ≈ 176: the cache size over the
 * bytes per site where the footprint first passes it, not the next measured N), labelled in the
 * form's colour in a strip above the data (ic_time_nmarks[p] labels: the .gp leaves that headroom),
 * left of the line in the right half: none clipped. */
static void time_marks(FILE *gp, size_t g, const struct ic_results *res, const struct ic_group *gr,
		       const char **forms, size_t nforms)
{
	static const enum ic_ctx key[2] = { IC_CTX_L1I_SIZE, IC_CTX_L2_SIZE };
	static const char *const name[2] = { "L1i", "L2" };
	unsigned long lo = ULONG_MAX, hi = 0;
	int n = 0;

	for (size_t i = 0; i < gr->npoints; i++) {
		lo = gr->points[i]->sites < lo ? gr->points[i]->sites : lo;
		hi = gr->points[i]->sites > hi ? gr->points[i]->sites : hi;
	}
	fprintf(gp, "ic_time_marks[%zu] = '", g + 1);
	for (int c = 0; c < 2; c++) {
		double size = ic_results_context_num(res, key[c]);

		for (size_t k = 0; k < nforms && size > 0; k++) {
			double at = NAN;
			int right;

			/* Past the panel's x range (the first N already past it,
			 * from a large per-site size) the line would be clipped. */
			if (!ic_group_cache_pass(gr, forms[k], size, &at) || !isfinite(at) ||
			    at < lo / 1.4 || at > hi * 1.4)
				continue;
			right = 2 * log(at) > log((double)lo) + log((double)hi);
			fprintf(gp, "set arrow %d from first %.6g, graph 0 to first %.6g, graph 1 nohead dt %d "
				"lw 1.2 lc rgb ic_form_color(\"%s\") back; set label %d \"%s%s passes %s, "
				"N ≈ %.0f%s\" at first %.6g, graph %.3f %s font \",8\" "
				"tc rgb ic_form_color(\"%s\") front; ", 100 + n, at, at, c ? 4 : 2, forms[k],
				150 + n, right ? "" : " ", forms[k], name[c], at, right ? " " : "", at,
				1 - IC_MARK_H * (n + 0.6), right ? "right" : "left", forms[k]);
			n++;
		}
	}
	fprintf(gp, "'\nic_time_nmarks[%zu] = %d\n", g + 1, n);
}

/* A time panel's y axis: linear, or log where its forms' times span more
 * than 4x (a filler series' gross times), tics 1.33x to 1.67x apart (1, 1.5,
 * 2, 3, 5, 7, 10), so the N where the forms part are not pressed flat. */
static void time_axis(FILE *gp, size_t g, const struct ic_group *gr, const char **forms, size_t nforms)
{
	static const double ladder[] = { 1, 1.5, 2, 3, 5, 7 };
	double lo = INFINITY, hi = 0;
	int n = 0;

	for (size_t i = 0; i < gr->npoints; i++) {
		const struct ic_point *p = gr->points[i];

		for (size_t k = 0; k < nforms; k++)
			if (!strcmp(p->form, forms[k]) && isfinite(p->med[IC_F_NS]) && p->med[IC_F_NS] > 0) {
				lo = fmin(lo, p->med[IC_F_NS]);
				hi = fmax(hi, p->med[IC_F_NS]);
			}
	}
	if (!(hi > 4 * lo)) {
		fprintf(gp, "ic_time_axis[%zu] = 'unset logscale y; set autoscale y; set ytics autofreq; "
			"set ylabel \"time per call site (ns)\"'\n", g + 1);
		return;
	}
	fprintf(gp, "ic_time_axis[%zu] = 'set logscale y 10; set autoscale yfix; "
		"set ylabel \"time per call site (ns, log scale)\"; set ytics (", g + 1);
	for (double d = pow(10, floor(log10(lo / 1.5))); d <= hi * 1.5; d *= 10)
		for (size_t i = 0; i < sizeof(ladder) / sizeof(ladder[0]); i++)
			if (ladder[i] * d >= lo / 1.5 && ladder[i] * d <= hi * 1.5)
				fprintf(gp, "%s%.6g", n++ ? ", " : "", ladder[i] * d);
	fputs(")'\n", gp);
}

/* The attribution chart's lines, named plainly for its key (summary.md and
 * attribution.dat keep the formulas), each in the colour of the control form
 * it brings in (palette.gp); the interaction (a ratio of ratios) its own. */
static const struct {
	enum ic_line_kind kind;
	const char *name, *color;
} attr_line[] = {
	{ IC_LINE_COPIES, "copies: clone/extern", "ic_form_color('clone')" },
	{ IC_LINE_LOCK_INLINE, "the lock inlined: inline/inline_nolock", "ic_form_color('inline_nolock')" },
	{ IC_LINE_LOCK_EXTERN, "the lock called: extern/extern_nolock", "ic_form_color('extern_nolock')" },
	{ IC_LINE_INTERACTION, "the lock, inlined vs called", "ic_interaction_color" },
	{ IC_LINE_INLINE_EXTERN, "the whole: inline/extern", "ic_form_color('inline')" },
};
#define NATTR (sizeof(attr_line) / sizeof(attr_line[0]))

/* The attribution panel's ytics: round ratios over the lines' bands (1 always
 * in view, within the chart's 0.25..16), no two closer than a twelfth of the
 * log axis: 0.5 to 8 shows 0.5, 0.67, 1, 1.5, 2, 3, 4, 6, 8, not 1.25 beside 1. */
static void attr_tics(FILE *gp, size_t s, const struct ic_attribution *a)
{
	static const double ladder[] = { 0.25, 0.33, 0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4, 6, 8, 12, 16 };
	double lo = 0.95, hi = 1.05, last = 0.0, gap, t[sizeof(ladder) / sizeof(*ladder)];
	size_t n = 0;

	for (size_t k = 0; k < NATTR; k++) {
		const struct ic_line *l = &a->line[attr_line[k].kind];

		for (size_t i = 0; i < l->n; i++) {
			if (l->r[i].band_lo > 0.0 && isfinite(l->r[i].band_lo))
				lo = fmin(lo, l->r[i].band_lo);
			if (isfinite(l->r[i].band_hi))
				hi = fmax(hi, l->r[i].band_hi);
		}
	}
	lo = fmax(lo, 0.25);
	hi = fmin(hi, 16.0);
	gap = log(hi / lo) / 12.0;
	/* Up from 1, then down from 1, each tic far enough from the last kept. */
	for (int dir = 1; dir >= -1; dir -= 2) {
		last = 1.0;
		for (size_t i = 0; i < sizeof(ladder) / sizeof(*ladder); i++) {
			double x = ladder[dir > 0 ? i : sizeof(ladder) / sizeof(*ladder) - 1 - i];

			if ((dir > 0 && x < 1.0) || (dir < 0 && x >= 1.0) || x < lo / 1.05 || x > hi * 1.05)
				continue;
			if (x != 1.0 && fabs(log(x / last)) < gap)
				continue;
			t[n++] = last = x;
		}
	}
	ytics(gp, "ic_attr_ytics", s, t, n);
}

/* Per series with control forms (panel s from 1), a block per attr_line (a NaN row when empty):
 * line k is index (s - 1) * NATTR + k - 1, and ic_attr_kinds[s] lists the k with data ("1 2 5").
 * Without such series the file stays empty: attribution.gp says so. */
static void attribution(FILE *gp, FILE *f, const struct ic_analysis *an)
{
	size_t ns = 0;

	for (size_t g = 0; g < an->nseries; g++)
		ns += an->series[g].attr && an->series[g].attr->has_controls;
	fprintf(gp, "ic_attr_nseries = %zu\narray ic_attr_title[%zu]\narray ic_attr_kinds[%zu]\n"
		"array ic_attr_ytics[%zu]\narray ic_attr_name[%zu]\narray ic_attr_color[%zu]\n", ns,
		ns ? ns : 1, ns ? ns : 1, ns ? ns : 1, NATTR, NATTR);
	for (size_t k = 0; k < NATTR; k++) {
		gp_str(gp, "ic_attr_name", k + 1, attr_line[k].name);
		fprintf(gp, "ic_attr_color[%zu] = %s\n", k + 1, attr_line[k].color);
	}
	ns = 0;
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_group *gr = &an->series[g].group;
		const struct ic_attribution *a = an->series[g].attr;
		char title[512], what[160], kinds[3 * NATTR + 1] = "";

		if (!a || !a->has_controls)
			continue;
		gp_str(gp, "ic_attr_title", ++ns, ic_fmt_series(title, sizeof(title), an, gr));
		for (size_t k = 0; k < NATTR; k++) {
			const struct ic_line *l = &a->line[attr_line[k].kind];

			snprintf(what, sizeof(what), "%s: %s", l->name, ratio_cols);
			dat_head(f, gr, title, what);
			ratio_rows(f, l->r, l->n, NULL);
			if (l->n)
				snprintf(kinds + strlen(kinds), sizeof(kinds) - strlen(kinds), " %zu", k + 1);
		}
		gp_str(gp, "ic_attr_kinds", ns, kinds);
		attr_tics(gp, ns, a);
	}
}

/* Block 2g: "start end ratio state switches" per process, start its end where the run has none
 * (older runs: the file's mtime); block 2g + 1: "t ratio state switches" per repetition, state 0 in
 * neither; a NaN row when empty. Every ratio at the timeline's one N (analysis.h). */
static void timeline_blocks(FILE *f, const struct ic_timeline *tl, const char *title)
{
	size_t n = 0;

	fprintf(f, "# %s: processes: start end ratio state switches (minutes from the run's start)\n",
		title);
	for (size_t p = 0; p < tl->nproc; p++) {
		const struct ic_timeline_proc *tp = &tl->proc[p];

		if (!isfinite(tp->ratio) || !isfinite(tp->end))
			continue;
		fprintf(f, " %.6g %.6g %.6g %d %d\n", isfinite(tp->start) ? tp->start : tp->end, tp->end, tp->ratio,
			tp->state + 1, tp->switches);
		n++;
	}
	fputs(n ? "\n\n" : "NaN NaN NaN 0 0\n\n\n", f);
	fprintf(f, "# %s: repetitions: t ratio state switches\n", title);
	n = 0;
	for (size_t i = 0; i < tl->nreps; i++) {
		const struct ic_timeline_rep *r = &tl->reps[i];

		if (!isfinite(r->t))
			continue;
		dat(f, 6, r->t);
		dat(f, 6, r->ratio);
		fprintf(f, " %d %d\n", r->state + 1, tl->proc[r->proc].switches);
		n++;
	}
	fputs(n ? "\n\n" : "NaN NaN 0 0\n\n\n", f);
}

/* timeline.dat, two blocks per series, and the timeline's lines of data.gp. */
static void timeline(FILE *gp, FILE *f, const struct ic_analysis *an)
{
	char title[512], line[256];
	int timed = 0;
	double tmax = 0.0;
	size_t ng = an->nseries ? an->nseries : 1;

	fprintf(gp, "array ic_in_time[%zu]\narray ic_level_lo[%zu]\narray ic_level_hi[%zu]\n"
		"array ic_nswitching[%zu]\narray ic_tl_sites[%zu]\n", ng, ng, ng, ng, ng);
	for (size_t g = 0; g < an->nseries; g++) {
		const struct ic_timeline *tl = an->series[g].timeline;

		ic_fmt_series(title, sizeof(title), an, &an->series[g].group);
		timeline_blocks(f, tl, title);
		ic_timeline_line(line, sizeof(line), tl);
		fprintf(gp, "ic_in_time[%zu] = ", g + 1);
		ic_gnuplot_quote(gp, line);
		for (int s = 0; s < 2; s++) {
			fprintf(gp, "; ic_level_%s[%zu] =", s ? "hi" : "lo", g + 1);
			dat(gp, 6, tl->nlevels == 2 ? tl->level[s] : NAN);
		}
		fprintf(gp, "; ic_nswitching[%zu] = %zu; ic_tl_sites[%zu] = %lu\n", g + 1, tl->nswitching, g + 1, tl->sites);
		timed |= tl->timed;
		for (size_t k = 0; k < tl->nproc; k++)
			if (isfinite(tl->proc[k].end))
				tmax = fmax(tmax, tl->proc[k].end);
	}
	fprintf(gp, "ic_timeline_timed = %d\n", timed);
	/* The axis's end: processes whose files share one time (a fresh
	 * clone's) would leave gnuplot an empty range. */
	fprintf(gp, "ic_tl_tmax = %.6g\n", tmax > 0.0 ? tmax * 1.02 : 0.1);
}

/* Columns: a row per build (a column compares builds) where every build has
 * the same k series, 2 <= k <= 6 (groups sort by build); else a square grid. */
static size_t panel_cols(const struct ic_analysis *an)
{
	const struct ic_series *se = an->series;
	size_t k = 1, square = (size_t)fmax(1.0, ceil(sqrt((double)an->nseries)));

	if (an->res->nbuilds < 2)
		return square;
	while (k < an->nseries && se[k].group.build == se[0].group.build)
		k++;
	for (size_t g = 1; g < an->nseries; g++)
		if ((g % k == 0) != (se[g].group.build != se[g - 1].group.build))
			return square;
	return k >= 2 && k <= 6 && an->nseries % k == 0 ? k : square;
}

int ic_chart_data_write(FILE *const cf[IC_CHART_COUNT], const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	static const char *const panel_arrays[] = { "ic_title", "ic_verdict", "ic_states",
		"ic_time_forms", "ic_l1i_forms", "ic_has_ratio", "ic_xo_lo", "ic_xo_hi", "ic_time_marks",
		"ic_time_nmarks", "ic_time_axis", "ic_ylo", "ic_yhi", "ic_ytics", "ic_clip_above",
		"ic_clip_below" };
	size_t ng = an->nseries, nforms, ntime = 0, cols = panel_cols(an);
	const char *forms[res->npoints + 1];
	char buf[3 * IC_RESULTS_CONTEXT_MAX + 64], b1[IC_RESULTS_CONTEXT_MAX], b2[IC_RESULTS_CONTEXT_MAX],
		b3[IC_RESULTS_CONTEXT_MAX];
	const char *cpu = ic_results_context(res, IC_CTX_CPU_MODEL, b1, sizeof(b1));
	const char *cores = ic_results_context(res, IC_CTX_CORES, b2, sizeof(b2));
	const char *date = ic_results_context(res, IC_CTX_DATE, b3, sizeof(b3));
	FILE *gp = cf[IC_CHART_GP];
	unsigned long lo = ULONG_MAX, hi = 0;
	/* The L1i chart draws the series with counts; the rest are named in
	 * its title, not drawn as panels that only say "not measured". */
	char l1i_panels[ng * 24 + 1], l1i_none[ng * 24 + 1];
	int rc = 0;

	*l1i_panels = *l1i_none = '\0';
	nforms = chart_forms(an, forms);
	/* The time chart draws the compared forms alone: they come first. */
	while (ntime < nforms && form_rank(an, forms[ntime]) < 2)
		ntime++;
	if (!*cores)
		cores = ic_results_context(res, IC_CTX_NUM_CPUS, b2, sizeof(b2));
	snprintf(buf, sizeof(buf), "%s, %s cores, %s", *cpu ? cpu : "CPU not recorded",
		 *cores ? cores : "?", *date ? date : "date not recorded");
	gp_str(gp, "ic_caption", 0, buf);
	gp_str(gp, "ic_compare", 0, an->opts.compare);
	gp_str(gp, "ic_baseline", 0, an->opts.baseline);
	gp_str(gp, "ic_l1i_title", 0, l1i_source(buf, sizeof(buf), an));
	/* A smoke run's charts say so in their titles (style.gp). */
	fprintf(gp, "ic_smoke = %d\n", ic_analysis_smoke(an, buf, sizeof(buf)));
	gp_str(gp, "ic_smoke_why", 0, buf);
	fprintf(gp, "ic_mark_h = %g\n", IC_MARK_H);
	for (size_t i = 0; i < res->npoints; i++) {
		lo = res->points[i]->sites < lo ? res->points[i]->sites : lo;
		hi = res->points[i]->sites > hi ? res->points[i]->sites : hi;
	}
	fprintf(gp, "ic_sites_min = %lu\nic_sites_max = %lu\n", lo, hi);
	fprintf(gp, "ic_npanels = %zu\nic_cols = %zu\nic_rows = %zu\nic_nforms = %zu\n"
		"ic_time_nforms = %zu\narray ic_form[%zu]\n", ng, cols, (ng + cols - 1) / cols, nforms,
		ntime, nforms);
	for (size_t k = 0; k < nforms; k++)
		gp_str(gp, "ic_form", k + 1, forms[k]);
	for (size_t i = 0; i < sizeof(panel_arrays) / sizeof(panel_arrays[0]); i++)
		fprintf(gp, "array %s[%zu]\n", panel_arrays[i], ng);
	for (size_t g = 0; g < ng; g++) {
		const struct ic_series *se = &an->series[g];
		const struct ic_group *gr = &se->group;
		const struct ic_states *st = se->states;
		char title[512], time_forms[256], l1i_forms[256];
		struct ratio_axis ax;

		ic_fmt_series(title, sizeof(title), an, gr);
		form_blocks(cf[IC_CHART_TIME], gr, title, forms, nforms, IC_F_NS, ntime, time_forms);
		form_blocks(cf[IC_CHART_L1I], gr, title, forms, nforms, IC_F_L1I, nforms, l1i_forms);
		sprintf(*l1i_forms ? l1i_panels + strlen(l1i_panels) : l1i_none + strlen(l1i_none), " %zu",
			g + 1);
		dat_head(cf[IC_CHART_RATIO], gr, title, ratio_cols);
		ratio_rows(cf[IC_CHART_RATIO], gr->ratios, gr->nratios, st);
		ratio_axis(se, &ax);
		process_dots(cf[IC_CHART_PROCESS], se, title, &ax);
		fprintf(gp, "ic_ylo[%zu] = %.6g; ic_yhi[%zu] = %.6g; ic_clip_above[%zu] = %zu; "
			"ic_clip_below[%zu] = %zu\n", g + 1, ax.lo, g + 1, ax.hi, g + 1, ax.above, g + 1,
			ax.below);
		ratio_tics(gp, g, ax.lo, ax.hi);
		gp_str(gp, "ic_title", g + 1, title);
		verdict(buf, sizeof(buf), an, gr);
		gp_str(gp, "ic_verdict", g + 1, buf);
		buf[0] = '\0';
		if (st && st->nstates == 2)
			snprintf(buf, sizeof(buf), "two states: %.2f (%.0f%% of the time), %.2f (%.0f%%)",
				 st->st[0].level, 100.0 * st->st[0].share, st->st[1].level,
				 100.0 * st->st[1].share);
		gp_str(gp, "ic_states", g + 1, buf);
		gp_str(gp, "ic_time_forms", g + 1, time_forms);
		gp_str(gp, "ic_l1i_forms", g + 1, l1i_forms);
		fprintf(gp, "ic_has_ratio[%zu] = %d; ic_xo_lo[%zu] =", g + 1, gr->nratios > 0, g + 1);
		dat(gp, 10, gr->xo.bracket_lo);
		fprintf(gp, "; ic_xo_hi[%zu] =", g + 1);
		dat(gp, 10, gr->xo.bracket_hi);
		fputc('\n', gp);
		time_marks(gp, g, res, gr, forms, ntime);
		time_axis(gp, g, gr, forms, ntime);
	}
	gp_str(gp, "ic_l1i_panels", 0, l1i_panels);
	gp_str(gp, "ic_l1i_none", 0, l1i_none);
	attribution(gp, cf[IC_CHART_ATTR], an);
	timeline(gp, cf[IC_CHART_TIMELINE], an);
	for (size_t k = 0; k < IC_CHART_COUNT; k++)
		rc |= ferror(cf[k]) ? -1 : 0;
	return rc;
}

/* ---- the watch's ---------------------------------------------------------- */

void ic_watch_data_write(FILE *dat, FILE *gp, const struct ic_watch *w)
{
	char cpu[IC_RESULTS_CONTEXT_MAX], title[512];
	const char *model = ic_results_context(&w->res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu));

	fputs("# t_s kind(0 process, 1 window) state", dat);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(dat, " ratio_N%lu", w->sites[j]);
	fputc('\n', dat);
	for (size_t i = 0; i < w->nsamples; i++) {
		const struct ic_watch_sample *s = &w->samples[i];

		fprintf(dat, "%.3f %d %d", 0.5 * (s->start + s->end) - w->t0, s->in_long,
			s->state >= 0 ? s->state + 1 : 0);
		for (size_t j = 0; j < w->nsites; j++)
			fprintf(dat, isfinite(s->ratio[j]) ? " %.5f" : " NaN", s->ratio[j]);
		fputc('\n', dat);
	}
	snprintf(title, sizeof(title), "watch: %s/%s over time, %s", w->an.opts.compare,
		 w->an.opts.baseline, w->series);
	/* The panels side by side: the title and caption need the width. */
	fprintf(gp, "ic_rows = 1\nic_cols = %zu\nic_sites_min = 1\nic_sites_max = 2\nic_nsites = %zu\n",
		w->nsites > 2 ? w->nsites : 2, w->nsites);
	gp_str(gp, "ic_chart_title", 0, title);
	snprintf(title, sizeof(title), "%s; %zu short processes (dots), one long process in %zu "
		 "windows (line); colour: state; %s", *model ? model : "CPU not recorded", w->nshort,
		 w->nwindows, ic_watch_where_name(w->where));
	gp_str(gp, "ic_caption", 0, title);
	fputs("ic_sites = '", gp);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(gp, "%s%lu", j ? " " : "", w->sites[j]);
	fprintf(gp, "'\nic_nstates = %zu\n", w->nstates);
	/* Each state's level per N, and where the long process begins: its
	 * first window (they come last, in time order). */
	for (int s = 0; s < 2; s++) {
		fprintf(gp, "ic_level%d = '", s + 1);
		for (size_t j = 0; j < w->nsites; j++)
			fprintf(gp, "%s%.5f", j ? " " : "", s < (int)w->nstates ? w->st[s].ratio[j] : NAN);
		fputs("'\n", gp);
	}
	if (w->nwindows)
		fprintf(gp, "ic_long_start = %.3f\n", w->samples[w->nsamples - w->nwindows].start - w->t0);
	else
		fputs("ic_long_start = NaN\n", gp);
}

/* x as fmt, else none (NaN with fmt's separator). */
static void dat_or_nan(FILE *f, const char *fmt, const char *none, double x)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	else
		fputs(none, f);
}

void ic_compare_data_write(FILE *dat, FILE *gp, const struct ic_runs_series *s, size_t ns, size_t k,
			   const char *const *label, unsigned long nmin, unsigned long nmax)
{
	char text[2 * PATH_MAX];
	size_t np = 0, p = 0, cols;

	for (size_t j = 0; j < ns; j++)
		np += s[j].compared;
	cols = np > 1 ? 2 : 1;
	fprintf(gp, "# Written by ./run.sh compare for plots/compare.gp.\nic_k = %zu\nic_npanels = %zu\n"
		"ic_cols = %zu\nic_rows = %zu\nic_sites_min = %lu\nic_sites_max = %lu\n", k, np, cols,
		(np + cols - 1) / cols, nmin, nmax);
	gp_str(gp, "ic_caption", 0, "error bars: each run's own 95% interval at N; bars at the foot: each run's crossover bracket; tables in compare.md");
	fprintf(gp, "array ic_label[%zu]\narray ic_title[%zu]\narray ic_xo_lo[%zu]\n"
		"array ic_xo_hi[%zu]\narray ic_letter[%zu]\n", k, np, np * k, np * k, k);
	for (size_t r = 0; r < k; r++) {
		snprintf(text, sizeof(text), "%c: %s", 'A' + (int)r, label[r]);
		gp_str(gp, "ic_label", r + 1, text);
		fprintf(gp, "ic_letter[%zu] = '%c'\n", r + 1, 'A' + (int)r);
	}
	/* Every N of each run, one block per (series, run). */
	for (size_t j = 0; j < ns; j++) {
		unsigned long *n;
		size_t nn;

		if (!s[j].compared)
			continue;
		nn = ic_runs_sites(&s[j], k, 1, &n);
		snprintf(text, sizeof(text), "%s: %s", s[j].id, s[j].pair);
		gp_str(gp, "ic_title", ++p, text);
		for (size_t r = 0; r < k; r++) {
			const struct ic_crossover *xo = &s[j].se[r]->group.xo;
			size_t i = (p - 1) * k + r + 1;

			fprintf(gp, "ic_xo_lo[%zu] = ", i);
			dat_or_nan(gp, "%.0f\n", "NaN\n", xo->bracket_lo);
			fprintf(gp, "ic_xo_hi[%zu] = ", i);
			dat_or_nan(gp, "%.0f\n", "NaN\n", xo->bracket_hi);
			fprintf(dat, "# %s %s, input %c: sites ratio lo hi\n", s[j].id, s[j].pair, 'A' + (int)r);
			for (size_t a = 0; a < nn; a++) {
				const struct ic_ratio *ra = ic_runs_ratio_at(&s[j], r, n[a]);

				if (!ra)
					continue;
				fprintf(dat, "%lu %.6f ", n[a], ra->ratio);
				dat_or_nan(dat, "%.6f ", "NaN ", ra->lo);
				dat_or_nan(dat, "%.6f\n", "NaN\n", ra->hi);
			}
			fputs("\n\n", dat);
		}
		free(n);
	}
}

void ic_agree_data_write(FILE *dat, FILE *gp, const struct ic_runs_series *s, size_t ns, size_t k)
{
	fprintf(gp, "ic_k = %zu\narray ic_series[%zu]\n", k, ns);
	for (size_t j = 0; j < ns; j++) {
		unsigned long *n;
		size_t nn = ic_runs_sites(&s[j], k, 0, &n);

		/* Double quotes: the build goes on a line of its own. */
		fprintf(gp, "ic_series[%zu] = \"", j + 1);
		for (const char *c = s[j].id; *c; c++)
			fprintf(gp, c[0] == ' ' && c[1] == '[' ? "\\n" : c[0] == '"' || c[0] == '\\' ? "'" : "%c", *c);
		fputs("\"\n", gp);
		for (size_t i = 0; i < nn; i++) {
			double r[IC_RUNS_MAX], mn = INFINITY, mx = -INFINITY;

			for (size_t a = 0; a < k; a++) {
				const struct ic_ratio *ra = ic_runs_ratio_at(&s[j], a, n[i]);

				r[a] = ra ? ra->ratio : NAN;
				mn = ra ? fmin(mn, r[a]) : mn;
				mx = ra ? fmax(mx, r[a]) : mx;
			}
			fprintf(dat, "%lu ", n[i]);
			dat_or_nan(dat, "%.6g ", "NaN ", mn > 0.0 && isfinite(mx) ? mx / mn : NAN);
			fprintf(dat, "%zu", j + 1);
			for (size_t a = 0; a < k; a++)
				fprintf(dat, isfinite(r[a]) ? " %.6f" : " NaN", r[a]);
			fputc('\n', dat);
		}
		fputs("\n\n", dat);
		free(n);
	}
}
