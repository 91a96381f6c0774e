#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* ---- small formatting helpers ------------------------------------------ */

/* A CSV number: empty when not measured (NAN), never 0. */
/* A number field (empty when not measured), then sep unless sep is 0. */
static void rep_num(FILE *f, double x, const char *fmt, char sep)
{
	if (isfinite(x))
		fprintf(f, fmt, x);
	if (sep)
		fputc(sep, f);
}

/* A CSV field that came from input (names are tokens; context strings may
 * hold anything). */
static void rep_csv_text(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* A gnuplot single-quoted string: no escapes except '' for '. */
static void rep_gp_text(FILE *f, const char *s)
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

/* 1 B, 32 KiB, 1 MiB, 1.5 MiB */
static const char *rep_bytes(char *buf, size_t cap, double b)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;

	if (!isfinite(b)) {
		snprintf(buf, cap, "unknown");
		return buf;
	}
	while (b >= 1024.0 && u < 4) {
		b /= 1024.0;
		u++;
	}
	snprintf(buf, cap, b == floor(b) ? "%.0f %s" : "%.1f %s", b, unit[u]);
	return buf;
}

/* About-values for prose: two significant digits (523 -> 520). */
static const char *rep_about(char *buf, size_t cap, double x)
{
	double mag, r;

	if (!isfinite(x)) {
		snprintf(buf, cap, "?");
		return buf;
	}
	mag = pow(10.0, floor(log10(fabs(x))) - 1.0);
	r = round(x / mag) * mag;
	snprintf(buf, cap, r >= 10.0 ? "%.0f" : "%.1f", r);
	return buf;
}

static const char *rep_val(char *buf, size_t cap, double x, const char *fmt)
{
	if (isfinite(x))
		snprintf(buf, cap, fmt, x);
	else
		snprintf(buf, cap, "—");
	return buf;
}

static const char *rep_side_form(const struct ic_results *res, enum ic_point_side s)
{
	if (s == IC_SIDE_COMPARE)
		return res->opts.compare;
	if (s == IC_SIDE_BASELINE)
		return res->opts.baseline;
	return "unresolved";
}

static const char *rep_source(const struct ic_point *p)
{
	return p->source_mixed ? "mixed" : p->file->counter_source;
}

/* ---- CSV tables ---------------------------------------------------------- */

int ic_report_points_csv(FILE *f, const struct ic_results *res)
{
	fputs("form,op,layout,order,sites,threads,mode,ns_per_op,ns_ci_lo,ns_ci_hi,cv,ops_per_s,"
	      "cycles_per_op,l1i_miss_per_op,counter_source,code_bytes_per_site,footprint_bytes\n", f);
	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		fprintf(f, "%s,%s,%s,%s,%lu,%lu,%s,", p->form, p->op, p->layout, p->order,
			p->sites, p->threads, p->mode);
		rep_num(f, p->med[IC_F_NS], "%.10g", ',');
		rep_num(f, p->ci_lo, "%.10g", ',');
		rep_num(f, p->ci_hi, "%.10g", ',');
		rep_num(f, p->cv, "%.6g", ',');
		rep_num(f, p->med[IC_F_IPS], "%.10g", ',');
		rep_num(f, p->med[IC_F_CYCLES], "%.10g", ',');
		rep_num(f, p->med[IC_F_L1I], "%.10g", ',');
		rep_csv_text(f, rep_source(p));
		fputc(',', f);
		rep_num(f, p->med[IC_F_CODE], "%.10g", ',');
		rep_num(f, p->med[IC_F_FOOT], "%.10g", 0);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

int ic_report_ratios_csv(FILE *f, const struct ic_results *res)
{
	fputs("op,layout,order,sites,threads,mode,compare,baseline,ns_compare,ns_baseline,ratio,"
	      "ratio_ci_lo,ratio_ci_hi,p_value,cv_compare,cv_baseline,reps_compare,reps_baseline,"
	      "noisy,faster\n", f);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(f, "%s,%s,%s,%lu,%lu,%s,%s,%s,", gr->op, gr->layout, gr->order,
				r->cmp->sites, gr->threads, gr->mode, r->cmp->form, r->base->form);
			rep_num(f, r->cmp->med[IC_F_NS], "%.10g", ',');
			rep_num(f, r->base->med[IC_F_NS], "%.10g", ',');
			rep_num(f, r->ratio, "%.6f", ',');
			rep_num(f, r->lo, "%.6f", ',');
			rep_num(f, r->hi, "%.6f", ',');
			rep_num(f, r->p, "%.4g", ',');
			rep_num(f, r->cmp->cv, "%.6g", ',');
			rep_num(f, r->base->cv, "%.6g", 0);
			fprintf(f, ",%zu,%zu,%d,%s\n", r->cmp->nreps, r->base->nreps, r->noisy,
				rep_side_form(res, r->side));
		}
	}
	return ferror(f) ? -1 : 0;
}

int ic_report_crossover_csv(FILE *f, const struct ic_results *res)
{
	fputs("op,layout,order,threads,mode,compare,baseline,verdict,small_n_winner,"
	      "crossover_sites,crossover_ci_lo,crossover_ci_hi,bracket_lo,bracket_hi,"
	      "points,compare_faster,baseline_faster,unresolved,sites_min,sites_max\n", f);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];
		const struct ic_crossover *xo = &gr->xo;
		const char *first = xo->direction > 0 ? res->opts.compare
				    : xo->direction < 0 ? res->opts.baseline : "";

		fprintf(f, "%s,%s,%s,%lu,%s,%s,%s,%s,%s,", gr->op, gr->layout, gr->order, gr->threads,
			gr->mode, res->opts.compare, res->opts.baseline, ic_verdict_name(xo->verdict),
			first);
		rep_num(f, xo->sites, "%.1f", ',');
		rep_num(f, xo->sites_lo, "%.1f", ',');
		rep_num(f, xo->sites_hi, "%.1f", ',');
		rep_num(f, xo->bracket_lo, "%.0f", ',');
		rep_num(f, xo->bracket_hi, "%.0f", 0);
		fprintf(f, ",%zu,%zu,%zu,%zu,", gr->nratios, xo->n_compare, xo->n_baseline,
			xo->n_unresolved);
		if (gr->nratios)
			fprintf(f, "%lu,%lu", gr->ratios[0].cmp->sites,
				gr->ratios[gr->nratios - 1].cmp->sites);
		else
			fputc(',', f);
		fputc('\n', f);
	}
	return ferror(f) ? -1 : 0;
}

static int rep_excludes_1(const struct ic_ratio *r)
{
	return r->lo > 1.0 || r->hi < 1.0;
}

static int rep_contains(const struct ic_ratio *r, double x)
{
	return r->lo <= x && x <= r->hi;
}

int ic_report_calibration_csv(FILE *f, const struct ic_results *res)
{
	double want = 1.0 + res->opts.planted;

	fputs("op,layout,order,sites,threads,mode,compare,baseline,planted,ratio,ratio_ci_lo,"
	      "ratio_ci_hi,measured_extra,excludes_1,contains_planted,noisy\n", f);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(f, "%s,%s,%s,%lu,%lu,%s,%s,%s,%g,", gr->op, gr->layout, gr->order,
				r->cmp->sites, gr->threads, gr->mode, r->cmp->form, r->base->form,
				res->opts.planted);
			rep_num(f, r->ratio, "%.6f", ',');
			rep_num(f, r->lo, "%.6f", ',');
			rep_num(f, r->hi, "%.6f", ',');
			rep_num(f, r->ratio - 1.0, "%.6f", 0);
			fprintf(f, ",%d,%d,%d\n", rep_excludes_1(r), rep_contains(r, want), r->noisy);
		}
	}
	return ferror(f) ? -1 : 0;
}

/* ---- summary.md ---------------------------------------------------------- */

static int rep_is_inline_form(const char *form)
{
	return !strcmp(form, "inline") || !strcmp(form, "hint");
}

static int rep_is_extern_form(const char *form)
{
	return !strncmp(form, "extern", 6);
}

/* More than one op/layout/order in the run: series labels must say which. */
static int rep_many_bodies(const struct ic_results *res)
{
	for (size_t g = 1; g < res->ngroups; g++)
		if (strcmp(res->groups[g].op, res->groups[0].op) ||
		    strcmp(res->groups[g].layout, res->groups[0].layout) ||
		    strcmp(res->groups[g].order, res->groups[0].order))
			return 1;
	return 0;
}

static const char *rep_threads_mode(char *buf, size_t cap, const struct ic_group *gr)
{
	if (gr->threads == 1)
		snprintf(buf, cap, "1 thread, %s queue", gr->mode);
	else
		snprintf(buf, cap, "%lu threads, %s queue", gr->threads, gr->mode);
	return buf;
}

/* "1..256, 1024, 4096..16384": the N of one side's points, runs joined. */
static const char *rep_runs(char *buf, size_t cap, const struct ic_group *gr, enum ic_point_side side)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < gr->nratios; i++) {
		size_t j = i;

		if (gr->ratios[i].side != side)
			continue;
		while (j + 1 < gr->nratios && gr->ratios[j + 1].side == side)
			j++;
		if (len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "%s%lu", len ? ", " : "",
						gr->ratios[i].cmp->sites);
		if (j > i && len < cap)
			len += (size_t)snprintf(buf + len, cap - len, "..%lu", gr->ratios[j].cmp->sites);
		i = j;
	}
	return buf;
}

/* The points of `side` form one run starting at the first point. */
static int rep_prefix_run(const struct ic_group *gr, enum ic_point_side side)
{
	size_t i = 0;

	while (i < gr->nratios && gr->ratios[i].side == side)
		i++;
	if (i == 0)
		return 0;
	for (; i < gr->nratios; i++)
		if (gr->ratios[i].side == side)
			return 0;
	return 1;
}

static const char *rep_range(char *buf, size_t cap, unsigned long lo, unsigned long hi)
{
	if (lo == hi)
		snprintf(buf, cap, "%lu", lo);
	else
		snprintf(buf, cap, "%lu..%lu", lo, hi);
	return buf;
}

static const char *rep_s(size_t n)
{
	return n == 1 ? "" : "s";
}

static const char *rep_interval(char *buf, size_t cap, double lo, double hi)
{
	char a[32], b[32];

	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, cap, "95%% interval %s–%s", rep_about(a, sizeof(a), lo),
			 rep_about(b, sizeof(b), hi));
	else if (isfinite(lo))
		snprintf(buf, cap, "95%% interval from %s, upper end not resolved",
			 rep_about(a, sizeof(a), lo));
	else if (isfinite(hi))
		snprintf(buf, cap, "95%% interval up to %s, lower end not resolved",
			 rep_about(b, sizeof(b), hi));
	else
		snprintf(buf, cap, "95%% interval not resolved");
	return buf;
}

static void rep_code_phrase(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *c = res->opts.compare, *b = res->opts.baseline;
	int classic = rep_is_inline_form(c) && rep_is_extern_form(b);

	if (!isfinite(gr->code_cmp) && !isfinite(gr->code_base)) {
		fputs("code size per call site not measured", f);
		return;
	}
	if (isfinite(gr->code_cmp))
		fprintf(f, "%.0f bytes per call site %s%s", gr->code_cmp, classic ? "when " : "as ",
			classic ? "inlined" : c);
	else
		fprintf(f, "%s size per call site not measured", c);
	fputs(", ", f);
	if (isfinite(gr->code_base))
		fprintf(f, "%.0f bytes per call site %s%s", gr->code_base, classic ? "" : "as ",
			classic ? "out of line" : b);
	else
		fprintf(f, "%s size per call site not measured", b);
}

static void rep_statement(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;
	const char *c = res->opts.compare, *b = res->opts.baseline;
	char pays[96], x[32], iv[96], runs[512], uruns[512];
	unsigned long nmin = gr->nratios ? gr->ratios[0].cmp->sites : 0;
	unsigned long nmax = gr->nratios ? gr->ratios[gr->nratios - 1].cmp->sites : 0;

	if (rep_is_inline_form(c))
		snprintf(pays, sizeof(pays), "inlining pays");
	else
		snprintf(pays, sizeof(pays), "%s is faster than %s", c, b);
	rep_runs(uruns, sizeof(uruns), gr, IC_SIDE_UNRESOLVED);
	switch (xo->verdict) {
	case IC_VERDICT_CROSSOVER:
		fprintf(f, "%s %s about %s call sites (%s)", pays, xo->direction > 0 ? "below" : "above",
			rep_about(x, sizeof(x), xo->sites),
			rep_interval(iv, sizeof(iv), xo->sites_lo, xo->sites_hi));
		if (xo->direction < 0)
			fprintf(f, "; below that %s is faster", b);
		break;
	case IC_VERDICT_COMPARE_WINS:
	case IC_VERDICT_BASELINE_WINS: {
		int cmp = xo->verdict == IC_VERDICT_COMPARE_WINS;
		enum ic_point_side side = cmp ? IC_SIDE_COMPARE : IC_SIDE_BASELINE;
		const char *winner = cmp ? c : b;
		size_t nwin = cmp ? xo->n_compare : xo->n_baseline;

		if (!cmp && rep_is_inline_form(c) && nwin == gr->nratios)
			fputs("inlining does not pay: ", f);
		if (nwin == gr->nratios)
			fprintf(f, "%s is faster over the whole range N = %s", winner,
				rep_range(runs, sizeof(runs), nmin, nmax));
		else if (rep_prefix_run(gr, side) && isfinite(xo->sites_lo))
			fprintf(f, "%s%s up to about %s call sites (where the ratio's 95%% interval "
				"reaches 1); no resolvable difference at N = %s",
				cmp && rep_is_inline_form(c) ? "inlining pays" : winner,
				cmp && rep_is_inline_form(c) ? "" : " is faster",
				rep_about(x, sizeof(x), xo->sites_lo), uruns);
		else
			fprintf(f, "%s is faster at N = %s; no resolvable difference at N = %s", winner,
				rep_runs(runs, sizeof(runs), gr, side), uruns);
		break;
	}
	default:
		if (gr->nratios == 0)
			fprintf(f, "no comparison (%s and %s were not both measured)", c, b);
		else
			fprintf(f, "no resolvable difference between %s and %s over N = %s "
				"(every 95%% interval contains 1)", c, b, rep_range(runs, sizeof(runs), nmin, nmax));
	}
}

static size_t rep_noisy_count(const struct ic_group *gr)
{
	size_t n = 0;

	for (size_t i = 0; i < gr->nratios; i++)
		n += gr->ratios[i].noisy;
	return n;
}

static void rep_series_title(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	char tm[96];

	if (rep_many_bodies(res))
		fprintf(f, "%s, %s layout, %s order; ", gr->op, gr->layout, gr->order);
	fputs(rep_threads_mode(tm, sizeof(tm), gr), f);
}

static void rep_recommendation(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *cpu = ic_results_context(res, "cpu_model");
	char tm[96];
	size_t noisy = rep_noisy_count(gr);

	fputs("- For this body (", f);
	if (rep_many_bodies(res))
		fprintf(f, "%s, %s layout, %s order; ", gr->op, gr->layout, gr->order);
	rep_code_phrase(f, res, gr);
	fprintf(f, ") on %s: ", *cpu ? cpu : "this CPU (model not recorded)");
	rep_statement(f, res, gr);
	fprintf(f, ", %s.", rep_threads_mode(tm, sizeof(tm), gr));
	if (gr->xo.multiple)
		fputs(" The ratio crosses 1 more than once, so the crossover is rough.", f);
	if (noisy)
		fprintf(f, " %zu of %zu point%s noisy.", noisy, gr->nratios, rep_s(gr->nratios));
	fputc('\n', f);
}

/* " (simulated)", " (PAPI)", "" for the L1i column of one series; *mixed
 * when the sources differ so each cell must say. */
static const char *rep_l1i_label(const struct ic_group *gr, int *mixed, int *any)
{
	const char *src = NULL;

	*mixed = 0;
	*any = 0;
	for (size_t i = 0; i < gr->npoints; i++) {
		const struct ic_point *p = gr->points[i];

		if (!isfinite(p->med[IC_F_L1I]))
			continue;
		*any = 1;
		if (src && strcmp(src, rep_source(p)))
			*mixed = 1;
		src = rep_source(p);
	}
	if (*mixed || !src)
		return "";
	if (!strcmp(src, "sim"))
		return " (simulated)";
	if (!strcmp(src, "papi"))
		return " (PAPI)";
	return "";
}

static void rep_l1i_cell(FILE *f, const struct ic_point *p, int mixed)
{
	if (!isfinite(p->med[IC_F_L1I])) {
		fputs("—", f);
		return;
	}
	fprintf(f, "%.4g", p->med[IC_F_L1I]);
	if (mixed)
		fprintf(f, " (%s)", !strcmp(rep_source(p), "sim") ? "simulated" : rep_source(p));
}

/* Four significant digits, trailing zeros kept so columns line up. */
static void rep_sig4(FILE *f, double x)
{
	if (fabs(x) >= 1000.0)
		fprintf(f, "%.0f", x);
	else
		fprintf(f, "%#.4g", x);
}

static void rep_time_cell(FILE *f, const struct ic_point *p)
{
	rep_sig4(f, p->med[IC_F_NS]);
	if (isfinite(p->ci_lo)) {
		fputs(" [", f);
		rep_sig4(f, p->ci_lo);
		fputs("–", f);
		rep_sig4(f, p->ci_hi);
		fputc(']', f);
	}
}

static void rep_ratio_cell(FILE *f, const struct ic_ratio *r)
{
	fprintf(f, "%.4f", r->ratio);
	if (isfinite(r->lo))
		fprintf(f, " [%.4f–%.4f]", r->lo, r->hi);
}

static void rep_verdict_line(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;
	char x[32], iv[96];

	fprintf(f, "Verdict: **%s**", ic_verdict_name(xo->verdict));
	if (xo->verdict == IC_VERDICT_CROSSOVER)
		fprintf(f, ", the ratio crosses 1 at about %s call sites (%s)",
			rep_about(x, sizeof(x), xo->sites),
			rep_interval(iv, sizeof(iv), xo->sites_lo, xo->sites_hi));
	else if (isfinite(xo->sites_lo))
		fprintf(f, ", the winner's 95%% interval reaches 1 at about %s call sites",
			rep_about(x, sizeof(x), xo->sites_lo));
	if (isfinite(xo->bracket_lo))
		fprintf(f, "; sweep points around it: N = %.0f and %.0f", xo->bracket_lo, xo->bracket_hi);
	fprintf(f, ". %s faster at %zu, %s faster at %zu, unresolved at %zu of %zu points.\n\n",
		res->opts.compare, xo->n_compare, res->opts.baseline, xo->n_baseline,
		xo->n_unresolved, gr->nratios);
}

static void rep_evidence(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *c = res->opts.compare, *b = res->opts.baseline;
	int mixed, any;
	const char *l1 = rep_l1i_label(gr, &mixed, &any);

	fputs("### ", f);
	rep_series_title(f, res, gr);
	fputs("\n\n", f);
	rep_verdict_line(f, res, gr);
	if (gr->nratios == 0) {
		fprintf(f, "No N with both %s and %s measured; see points.csv.\n\n", c, b);
		return;
	}
	fprintf(f, "| N | %s ns/site [95%% CI] | %s ns/site [95%% CI] | %s/%s [95%% CI] | p | noisy "
		"| L1i miss/site %s%s | L1i miss/site %s%s |\n", c, b, c, b, c, l1, b, l1);
	fputs("|---:|---:|---:|---:|---:|:---:|---:|---:|\n", f);
	for (size_t i = 0; i < gr->nratios; i++) {
		const struct ic_ratio *r = &gr->ratios[i];
		char p[32];

		fprintf(f, "| %lu | ", r->cmp->sites);
		rep_time_cell(f, r->cmp);
		fputs(" | ", f);
		rep_time_cell(f, r->base);
		fputs(" | ", f);
		rep_ratio_cell(f, r);
		fprintf(f, " | %s | %s | ", rep_val(p, sizeof(p), r->p, "%.2g"), r->noisy ? "noisy" : "");
		rep_l1i_cell(f, r->cmp, mixed);
		fputs(" | ", f);
		rep_l1i_cell(f, r->base, mixed);
		fputs(" |\n", f);
	}
	fputc('\n', f);
	if (!any)
		fputs("L1i misses were not measured for this series (— = not measured, not zero).\n\n", f);
}

static void rep_calibration(FILE *f, const struct ic_results *res)
{
	double want = 1.0 + res->opts.planted;
	size_t total = 0, detected = 0, contains = 0, k = 0;
	double *extra;

	for (size_t g = 0; g < res->ngroups; g++)
		total += res->groups[g].nratios;
	extra = malloc((total ? total : 1) * sizeof(*extra));
	fprintf(f, "## Calibration: planted extra cost %.1f%% in %s\n\n", res->opts.planted * 100.0,
		res->opts.compare);
	fprintf(f, "%s carries a planted extra cost of %g (expected ratio %s/%s = %.3f). "
		"The suite resolves it where the ratio's 95%% interval excludes 1; it measures it "
		"right where the interval also contains %.3f.\n\n", res->opts.compare, res->opts.planted,
		res->opts.compare, res->opts.baseline, want, want);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		if (!gr->nratios)
			continue;
		fputs("### ", f);
		rep_series_title(f, res, gr);
		fprintf(f, "\n\n| N | ratio [95%% CI] | measured extra | excludes 1 | contains %.3f | noisy |\n",
			want);
		fputs("|---:|---:|---:|:---:|:---:|:---:|\n", f);
		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];
			int ex = rep_excludes_1(r), in = rep_contains(r, want);

			detected += ex;
			contains += in;
			if (extra && isfinite(r->ratio))
				extra[k++] = r->ratio - 1.0;
			fprintf(f, "| %lu | ", r->cmp->sites);
			rep_ratio_cell(f, r);
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
	fprintf(f, "Overall: the interval excludes 1 at %zu of %zu points and contains %.3f at %zu of "
		"%zu points", detected, total, want, contains, total);
	if (extra && k)
		fprintf(f, "; median measured extra cost %.2f%%", 100.0 * ic_stats_median(extra, k));
	fputs(".\n\n", f);
	free(extra);
}

static void rep_machine(FILE *f, const struct ic_results *res)
{
	char a[32], b[32], c[32];
	const char *v;
	double l1 = ic_results_context_num(res, "l1i_size");

	fputs("## Machine\n\n", f);
	v = ic_results_context(res, "cpu_model");
	fprintf(f, "- CPU: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "cores");
	if (!*v)
		v = ic_results_context(res, "num_cpus");
	fprintf(f, "; cores: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "smt");
	fprintf(f, "; SMT: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "mhz_per_cpu");
	if (*v)
		fprintf(f, "; %s MHz", v);
	fputc('\n', f);
	fprintf(f, "- Caches: L1i %s", isfinite(l1) ? rep_bytes(a, sizeof(a), l1) : "not recorded");
	v = ic_results_context(res, "l1i_assoc");
	if (*v)
		fprintf(f, ", %s-way", v);
	v = ic_results_context(res, "l1i_line");
	if (*v)
		fprintf(f, ", %s B lines", v);
	fprintf(f, "; L2 %s; L3 %s\n", rep_bytes(b, sizeof(b), ic_results_context_num(res, "l2_size")),
		rep_bytes(c, sizeof(c), ic_results_context_num(res, "l3_size")));
	v = ic_results_context(res, "lock");
	fprintf(f, "- Lock: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "pinned");
	fprintf(f, "; threads pinned: %s\n", *v ? v : "not recorded");
	v = ic_results_context(res, "host_name");
	if (*v)
		fprintf(f, "- Host: %s\n", v);
	v = ic_results_context(res, "date");
	if (*v)
		fprintf(f, "- Date: %s\n", v);
	v = ic_results_context(res, "executable");
	if (*v)
		fprintf(f, "- Executable: %s\n", v);
	fputc('\n', f);
}

static void rep_counters(FILE *f, const struct ic_results *res)
{
	fputs("## Counters\n\n", f);
	for (size_t i = 0; i < res->nfiles; i++) {
		const struct ic_file *fi = res->files[i];
		const char *src = fi->counter_source;
		const char *note = json_string_value(json_object_get(fi->context, "counter_note"));
		int seen = 0;

		for (size_t j = 0; j < i && !seen; j++) {
			const char *n2 = json_string_value(json_object_get(res->files[j]->context,
									   "counter_note"));

			seen = !strcmp(res->files[j]->counter_source, src) &&
			       !strcmp(n2 ? n2 : "", note ? note : "");
		}
		if (seen)
			continue;
		if (!strcmp(src, "papi"))
			fputs("- Source: hardware counters read with PAPI.", f);
		else if (!strcmp(src, "sim"))
			fputs("- Source: simulated: valgrind's cache simulation of the timed loop "
			      "(L1i misses are simulated, not measured on this CPU).", f);
		else if (!strcmp(src, "none"))
			fputs("- Source: none: no counters were read; counter columns are empty "
			      "(not zero).", f);
		else
			fprintf(f, "- Source: %s.", *src ? src : "not recorded");
		if (note && *note)
			fprintf(f, " Note: %s", note);
		fputc('\n', f);
	}
	fputc('\n', f);
}

static void rep_method(FILE *f, const struct ic_results *res)
{
	size_t rmin = (size_t)-1, rmax = 0, nratios = 0, noisy = 0, low_cover = 0, nerr_pts = 0;

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		if (p->nreps < rmin)
			rmin = p->nreps;
		if (p->nreps > rmax)
			rmax = p->nreps;
		low_cover += p->nreps > 0 && p->nreps < 6;
		nerr_pts += p->nerrors > 0;
	}
	for (size_t g = 0; g < res->ngroups; g++) {
		nratios += res->groups[g].nratios;
		noisy += rep_noisy_count(&res->groups[g]);
	}
	fputs("## Method and noise\n\n", f);
	if (rmin == rmax)
		fprintf(f, "- Repetitions: %zu per point.\n", rmax);
	else
		fprintf(f, "- Repetitions: %zu to %zu per point.\n", rmin, rmax);
	fputs("- Time per call site: Google Benchmark's real_time per iteration (one iteration runs "
	      "one call site). Per point: the median over repetitions with a distribution-free 95% "
	      "interval (order statistics), and cv = standard deviation / mean.\n", f);
	if (low_cover)
		fprintf(f, "- %zu points have fewer than 6 repetitions: their interval is min–max and "
			"covers the median with less than 95%%.\n", low_cover);
	fprintf(f, "- Ratio %s/%s: ratio of medians; 95%% interval from a percentile bootstrap "
		"(%u resamples of the repetitions of each form, seed %llu, so the output is "
		"reproducible); p from a two-sided Mann-Whitney U test. Fewer than 3 repetitions on a "
		"side: no interval.\n", res->opts.compare, res->opts.baseline, res->opts.resamples,
		(unsigned long long)res->opts.seed);
	fprintf(f, "- Noisy: %zu of %zu ratio points. A point is noisy when either form's cv "
		"exceeds %g%% or the ratio's 95%% interval is wider than ±%g%% of the ratio: at that "
		"width a %g%% difference (the size of the 2004 effect) cannot be resolved.\n", noisy,
		nratios, 100.0 * res->opts.noise_cv, 100.0 * res->opts.noise_ci,
		100.0 * res->opts.noise_ci);
	fputs("- Crossover: where the ratio of medians crosses 1, interpolated on log N; its interval "
	      "is where the edges of the 95% band cross 1. A form counts as faster at N only when "
	      "the whole interval is on its side of 1.\n", f);
	if (res->n_errors)
		fprintf(f, "- Skipped: %zu repetition%s at %zu point%s reported an error and %s not "
			"counted.\n", res->n_errors, rep_s(res->n_errors), nerr_pts, rep_s(nerr_pts),
			res->n_errors == 1 ? "is" : "are");
	for (size_t i = 0, shown = 0; i < res->npoints && shown < 5; i++)
		if (res->points[i]->nerrors) {
			fprintf(f, "  - %s: %s\n", res->points[i]->key,
				res->points[i]->error ? res->points[i]->error : "(no message)");
			shown++;
		}
	if (res->n_aggregates || res->n_other)
		fprintf(f, "- Ignored: %zu aggregate entr%s (statistics above are recomputed from "
			"the repetitions) and %zu entr%s not named sites/...\n", res->n_aggregates,
			res->n_aggregates == 1 ? "y" : "ies", res->n_other, res->n_other == 1 ? "y" : "ies");
	fprintf(f, "- Input: %zu file%s:", res->nfiles, res->nfiles == 1 ? "" : "s");
	for (size_t i = 0; i < res->nfiles; i++) {
		const char *slash = strrchr(res->files[i]->path, '/');

		fprintf(f, " %s", slash ? slash + 1 : res->files[i]->path);
	}
	fputs(".\n", f);
}

int ic_report_summary_md(FILE *f, const struct ic_results *res)
{
	fprintf(f, "# inlinecost: %s vs %s\n\n", res->opts.compare, res->opts.baseline);
	fputs("## Recommendation\n\n", f);
	for (size_t g = 0; g < res->ngroups; g++)
		rep_recommendation(f, res, &res->groups[g]);
	fputc('\n', f);
	if (isfinite(res->opts.planted))
		rep_calibration(f, res);
	fputs("## Evidence\n\n", f);
	fprintf(f, "Medians per call site in ns with 95%% intervals; ratio %s/%s below 1 means %s "
		"is faster. Files: points.csv, ratios.csv, crossover.csv; plots in plots/.\n\n",
		res->opts.compare, res->opts.baseline, res->opts.compare);
	for (size_t g = 0; g < res->ngroups; g++)
		rep_evidence(f, res, &res->groups[g]);
	rep_machine(f, res);
	rep_counters(f, res);
	rep_method(f, res);
	return ferror(f) ? -1 : 0;
}

/* ---- data for the gnuplot scripts ------------------------------------- */

static void rep_dat(FILE *f, double x)
{
	if (isfinite(x))
		fprintf(f, " %.10g", x);
	else
		fputs(" NaN", f);
}

/* Forms in point order: compare, baseline, then the rest by name. Returns
 * the count; forms[] holds pointers into the points. */
static size_t rep_forms(const struct ic_results *res, const char **forms, size_t cap)
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
static int rep_form_blocks(FILE *f, const struct ic_results *res, const char **forms, size_t nforms,
			   enum ic_field field, int with_ci, int *has)
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
				rep_dat(f, y);
				if (with_ci) {
					rep_dat(f, p->ci_lo);
					rep_dat(f, p->ci_hi);
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

static const char *rep_l1i_plot_title(char *buf, size_t cap, const struct ic_results *res)
{
	int sim = 0, papi = 0, other = 0;
	char size[32];
	const char *assoc = ic_results_context(res, "l1i_assoc");
	const char *line;

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		if (!isfinite(p->med[IC_F_L1I]))
			continue;
		if (!strcmp(rep_source(p), "sim"))
			sim = 1;
		else if (!strcmp(rep_source(p), "papi"))
			papi = 1;
		else
			other = 1;
	}
	rep_bytes(size, sizeof(size), ic_results_context_num(res, "l1i_size"));
	if (sim && !papi && !other) {
		int len = snprintf(buf, cap, "simulated (valgrind, L1i %s", size);

		if (*assoc && len > 0 && (size_t)len < cap)
			len += snprintf(buf + len, cap - (size_t)len, "/%s-way", assoc);
		line = ic_results_context(res, "l1i_line");
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

static void rep_gp_array_num(FILE *gp, const char *name, const double *v, size_t n)
{
	fprintf(gp, "array %s[%zu]\n", name, n);
	for (size_t i = 0; i < n; i++) {
		fprintf(gp, "%s[%zu] =", name, i + 1);
		rep_dat(gp, v[i]);
		fputc('\n', gp);
	}
}

static void rep_gp_array_flag(FILE *gp, const char *name, const int *v, size_t n)
{
	fprintf(gp, "array %s[%zu]\n", name, n);
	for (size_t i = 0; i < n; i++)
		fprintf(gp, "%s[%zu] = %d\n", name, i + 1, v[i]);
}

static int rep_any(const int *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (v[i])
			return 1;
	return 0;
}

static void rep_plot_verdict(char *buf, size_t cap, const struct ic_results *res,
			     const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;
	char x[32], iv[96];

	switch (xo->verdict) {
	case IC_VERDICT_CROSSOVER:
		snprintf(buf, cap, "crossover at about %s call sites (%s)",
			 rep_about(x, sizeof(x), xo->sites),
			 rep_interval(iv, sizeof(iv), xo->sites_lo, xo->sites_hi));
		break;
	case IC_VERDICT_COMPARE_WINS:
		snprintf(buf, cap, "%s faster wherever resolved (%zu of %zu points)", res->opts.compare,
			 xo->n_compare, gr->nratios);
		break;
	case IC_VERDICT_BASELINE_WINS:
		snprintf(buf, cap, "%s faster wherever resolved (%zu of %zu points)", res->opts.baseline,
			 xo->n_baseline, gr->nratios);
		break;
	default:
		snprintf(buf, cap, gr->nratios ? "no resolvable difference" : "no comparison");
	}
}

int ic_report_plot_data(const struct ic_plot_files *pf, const struct ic_results *res)
{
	size_t ng = res->ngroups, nforms, cols = 1;
	const char **forms = calloc(res->npoints, sizeof(*forms));
	int *has_time = calloc(ng, sizeof(int)), *has_l1i = calloc(ng, sizeof(int));
	int *has_foot = calloc(ng, sizeof(int)), *has_ratio = calloc(ng, sizeof(int));
	double *xo = calloc(ng, sizeof(double)), *xo_lo = calloc(ng, sizeof(double));
	double *xo_hi = calloc(ng, sizeof(double)), *edge = calloc(ng, sizeof(double));
	FILE *gp = pf->gp;
	char buf[256], sz[32];
	const char *v;
	int rc = -1;

	if (!forms || !has_time || !has_l1i || !has_foot || !has_ratio || !xo || !xo_lo || !xo_hi ||
	    !edge)
		goto out;
	nforms = rep_forms(res, forms, res->npoints);
	if (rep_form_blocks(pf->time, res, forms, nforms, IC_F_NS, 1, has_time) ||
	    rep_form_blocks(pf->l1i, res, forms, nforms, IC_F_L1I, 0, has_l1i) ||
	    rep_form_blocks(pf->foot, res, forms, nforms, IC_F_FOOT, 0, has_foot))
		goto out;
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];

		fprintf(pf->ratio, "# %s %s %lu %s: sites ratio lo hi noisy\n", gr->op, gr->layout,
			gr->threads, gr->mode);
		for (size_t i = 0; i < gr->nratios; i++) {
			const struct ic_ratio *r = &gr->ratios[i];

			fprintf(pf->ratio, "%lu", r->cmp->sites);
			rep_dat(pf->ratio, r->ratio);
			rep_dat(pf->ratio, r->lo);
			rep_dat(pf->ratio, r->hi);
			fprintf(pf->ratio, " %d\n", r->noisy);
		}
		if (!gr->nratios)
			fputs("NaN NaN NaN NaN 0\n", pf->ratio);
		fputs("\n\n", pf->ratio);
		has_ratio[g] = gr->nratios > 0;
		edge[g] = gr->xo.verdict == IC_VERDICT_COMPARE_WINS ||
			  gr->xo.verdict == IC_VERDICT_BASELINE_WINS ? gr->xo.sites_lo : NAN;
		xo[g] = gr->xo.verdict == IC_VERDICT_CROSSOVER ? gr->xo.sites : NAN;
		xo_lo[g] = gr->xo.verdict == IC_VERDICT_CROSSOVER ? gr->xo.sites_lo : NAN;
		xo_hi[g] = gr->xo.verdict == IC_VERDICT_CROSSOVER ? gr->xo.sites_hi : NAN;
	}

	fputs("# Written by summarize for the gnuplot scripts in plots/; loaded by them.\n", gp);
	{
		const char *cpu = ic_results_context(res, "cpu_model");
		char cores[64], cap[512];

		v = ic_results_context(res, "cores");
		snprintf(cores, sizeof(cores), "%s", *v ? v : ic_results_context(res, "num_cpus"));
		v = ic_results_context(res, "date");
		snprintf(cap, sizeof(cap), "%s, %s cores, %s", *cpu ? cpu : "CPU not recorded",
			 *cores ? cores : "?", *v ? v : "date not recorded");
		fputs("ic_caption = ", gp);
		rep_gp_text(gp, cap);
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
	rep_gp_text(gp, res->opts.compare);
	fputs("\nic_baseline = ", gp);
	rep_gp_text(gp, res->opts.baseline);
	fputs("\nic_l1i_title = ", gp);
	rep_gp_text(gp, rep_l1i_plot_title(buf, sizeof(buf), res));
	fprintf(gp, "\nic_time_any = %d\nic_l1i_any = %d\nic_foot_any = %d\nic_ratio_any = %d\n",
		rep_any(has_time, ng), rep_any(has_l1i, ng), rep_any(has_foot, ng), rep_any(has_ratio, ng));
	fputs("ic_l1_bytes =", gp);
	rep_dat(gp, ic_results_context_num(res, "l1i_size"));
	fputs("\nic_l2_bytes =", gp);
	rep_dat(gp, ic_results_context_num(res, "l2_size"));
	snprintf(buf, sizeof(buf), "L1i %s", rep_bytes(sz, sizeof(sz), ic_results_context_num(res, "l1i_size")));
	fputs("\nic_l1_label = ", gp);
	rep_gp_text(gp, buf);
	snprintf(buf, sizeof(buf), "L2 %s", rep_bytes(sz, sizeof(sz), ic_results_context_num(res, "l2_size")));
	fputs("\nic_l2_label = ", gp);
	rep_gp_text(gp, buf);
	fprintf(gp, "\narray ic_form[%zu]\n", nforms);
	for (size_t k = 0; k < nforms; k++) {
		fprintf(gp, "ic_form[%zu] = ", k + 1);
		rep_gp_text(gp, forms[k]);
		fputc('\n', gp);
	}
	fprintf(gp, "array ic_title[%zu]\narray ic_verdict[%zu]\n", ng, ng);
	for (size_t g = 0; g < ng; g++) {
		const struct ic_group *gr = &res->groups[g];
		char tm[96], title[256];

		rep_threads_mode(tm, sizeof(tm), gr);
		if (rep_many_bodies(res))
			snprintf(title, sizeof(title), "%s/%s/%s: %s", gr->op, gr->layout, gr->order, tm);
		else
			snprintf(title, sizeof(title), "%s", tm);
		fprintf(gp, "ic_title[%zu] = ", g + 1);
		rep_gp_text(gp, title);
		rep_plot_verdict(buf, sizeof(buf), res, gr);
		fprintf(gp, "\nic_verdict[%zu] = ", g + 1);
		rep_gp_text(gp, buf);
		fputc('\n', gp);
	}
	rep_gp_array_flag(gp, "ic_has_time", has_time, ng);
	rep_gp_array_flag(gp, "ic_has_l1i", has_l1i, ng);
	rep_gp_array_flag(gp, "ic_has_foot", has_foot, ng);
	rep_gp_array_flag(gp, "ic_has_ratio", has_ratio, ng);
	rep_gp_array_num(gp, "ic_xo", xo, ng);
	rep_gp_array_num(gp, "ic_xo_lo", xo_lo, ng);
	rep_gp_array_num(gp, "ic_xo_hi", xo_hi, ng);
	rep_gp_array_num(gp, "ic_edge", edge, ng);
	rc = ferror(gp) || ferror(pf->time) || ferror(pf->l1i) || ferror(pf->foot) ||
	     ferror(pf->ratio) ? -1 : 0;
out:
	free(forms);
	free(has_time);
	free(has_l1i);
	free(has_foot);
	free(has_ratio);
	free(xo);
	free(xo_lo);
	free(xo_hi);
	free(edge);
	return rc;
}
