/* summary.md from the analysed results; see summary.h. */
#include "summary.h"
#include "machine_lines.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "answer.h"
#include "attribution.h"
#include "format.h"
#include "md_tables.h"
#include "states.h"
#include "stats.h"

static int summary_is_inline_form(const char *form)
{
	return !strcmp(form, "inline") || !strcmp(form, "hint");
}

static int summary_is_extern_form(const char *form)
{
	return !strncmp(form, "extern", 6);
}

static const char *summary_range(char *buf, size_t cap, unsigned long lo, unsigned long hi)
{
	if (lo == hi)
		snprintf(buf, cap, "%lu", lo);
	else
		snprintf(buf, cap, "%lu..%lu", lo, hi);
	return buf;
}

static const char *summary_s(size_t n)
{
	return n == 1 ? "" : "s";
}

/* Code per call site without the filler, which is stated apart. */
static void summary_code_phrase(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *c = res->opts.compare, *b = res->opts.baseline;
	int classic = summary_is_inline_form(c) && summary_is_extern_form(b);
	double fill = (double)gr->filler;
	char fb[32];

	fputs("Code per call site: ", f);
	if (isfinite(gr->code_cmp))
		fprintf(f, "%.0f B %s", gr->code_cmp - fill, classic ? "inlined" : c);
	else
		fprintf(f, "%s not measured", c);
	if (isfinite(gr->code_base))
		fprintf(f, ", %.0f B %s", gr->code_base - fill, classic ? "out of line" : b);
	else
		fprintf(f, ", %s not measured", b);
	if (gr->filler)
		fprintf(f, "; each site also has %s of filler", ic_fmt_bytes(fb, sizeof(fb), fill));
	fputs(". ", f);
}

/* "1..256, 1024" for the N of `side`, or "none". */
static const char *summary_side_runs(char *buf, size_t cap, const struct ic_group *gr,
				     enum ic_point_side side)
{
	ic_fmt_runs(buf, cap, gr->ratios, gr->nratios, side);
	if (!buf[0])
		snprintf(buf, cap, "none");
	return buf;
}

static const char *summary_form_of(const struct ic_results *res, enum ic_point_side s)
{
	return s == IC_SIDE_COMPARE ? res->opts.compare : res->opts.baseline;
}

/* The claim, only as strong as the bands allow (crossover.h states the rule). */
static void summary_statement(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;
	const char *c = res->opts.compare, *b = res->opts.baseline;
	char runs[512], uruns[512];
	unsigned long nmin = gr->nratios ? gr->ratios[0].cmp->sites : 0;
	unsigned long nmax = gr->nratios ? gr->ratios[gr->nratios - 1].cmp->sites : 0;
	int inl = summary_is_inline_form(c);

	summary_side_runs(uruns, sizeof(uruns), gr, IC_SIDE_UNRESOLVED);
	switch (xo->verdict) {
	case IC_VERDICT_CROSSOVER: {
		const char *first = xo->direction > 0 ? c : b, *second = xo->direction > 0 ? b : c;

		if (inl && xo->direction > 0)
			fprintf(f, "inlining pays up to N = %.0f call sites and costs from N = %.0f on; the "
				"crossover lies between them", xo->bracket_lo, xo->bracket_hi);
		else
			fprintf(f, "%s is faster up to N = %.0f and %s from N = %.0f on; the crossover "
				"lies between them", first, xo->bracket_lo, second, xo->bracket_hi);
		break;
	}
	case IC_VERDICT_COMPARE_WINS:
	case IC_VERDICT_BASELINE_WINS: {
		enum ic_point_side side = xo->verdict == IC_VERDICT_COMPARE_WINS ? IC_SIDE_COMPARE
										   : IC_SIDE_BASELINE;
		size_t nwin = side == IC_SIDE_COMPARE ? xo->n_compare : xo->n_baseline;

		if (nwin == gr->nratios)
			fprintf(f, "%s is faster over the whole range N = %s; no crossover",
				summary_form_of(res, side), summary_range(runs, sizeof(runs), nmin, nmax));
		else
			fprintf(f, "%s is faster at N = %s and no N is resolved the other way, so no "
				"crossover is shown; not resolved at N = %s", summary_form_of(res, side),
				summary_side_runs(runs, sizeof(runs), gr, side), uruns);
		break;
	}
	case IC_VERDICT_CONFLICT:
		fprintf(f, "not resolved: the resolved points disagree (%s faster at N = %s, %s at "
			"N = %s, switching %zu times), so no crossover is stated", c,
			summary_side_runs(runs, sizeof(runs), gr, IC_SIDE_COMPARE), b,
			summary_side_runs(uruns, sizeof(uruns), gr, IC_SIDE_BASELINE), xo->switches);
		break;
	default:
		if (gr->nratios == 0)
			fprintf(f, "no comparison (%s and %s were not both measured)", c, b);
		else
			fprintf(f, "not resolved: no difference between %s and %s is resolved over "
				"N = %s at family-wise 95%%", c, b,
				summary_range(runs, sizeof(runs), nmin, nmax));
	}
}

static const char *summary_follows(const struct ic_states *st)
{
	switch (st->follows) {
	case IC_FOLLOWS_TIME:
		return "the time order of the processes (all of one state ran, then all of the other)";
	case IC_FOLLOWS_VARIANT:
		return "the layout variant (each variant's processes share one state)";
	case IC_FOLLOWS_TIME_RUNS:
		return "the time order in part (the states come in runs, fewer than by chance)";
	default:
		return "neither the layout variant nor the time order of the processes";
	}
}

static void summary_state_level(FILE *f, const struct ic_state *st)
{
	fprintf(f, "%.2f", st->level);
	if (isfinite(st->lo))
		fprintf(f, " [%.2f–%.2f]", st->lo, st->hi);
}

/* With two states: each with its ratio, share and verdict. */
static void summary_states_verdict(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_states *st = gr->states;

	if (!st || st->nstates != 2)
		return;
	fprintf(f, " **Two states**: %s/%s ", res->opts.compare, res->opts.baseline);
	summary_state_level(f, &st->st[0]);
	fprintf(f, " in %zu of %zu processes, ", st->st[0].nproc, st->nproc);
	summary_state_level(f, &st->st[1]);
	fprintf(f, " in %zu; the split follows %s.", st->st[1].nproc, summary_follows(st));
	for (int k = 0; k < 2; k++) {
		struct ic_group v = *gr;

		v.ratios = st->st[k].ratios;
		v.nratios = st->st[k].nratios;
		v.xo = st->st[k].xo;
		fprintf(f, " In the %.2f state: ", st->st[k].level);
		summary_statement(f, res, &v);
		fputc('.', f);
	}
}

static size_t summary_noisy_count(const struct ic_group *gr)
{
	size_t n = 0;

	for (size_t i = 0; i < gr->nratios; i++)
		n += gr->ratios[i].noisy;
	return n;
}

static void summary_series_title(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	char t[512];

	fputs(ic_fmt_series(t, sizeof(t), res, gr), f);
}

/* The verdict in words under the series' heading, a sentence per claim;
 * the answer at the top says it in one line. */
static void summary_reading(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	size_t noisy = summary_noisy_count(gr);

	summary_code_phrase(f, res, gr);
	fputs("In words: ", f);
	if (gr->states && gr->states->nstates == 2)
		fputs("pooled over two states, ", f);
	summary_statement(f, res, gr);
	fputc('.', f);
	summary_states_verdict(f, res, gr);
	if (noisy == gr->nratios && noisy)
		fprintf(f, " Every point's band is wider than ±%g%%: only differences larger than "
			"that can be resolved here.", 100.0 * res->opts.noise_ci);
	else if (noisy)
		fprintf(f, " %zu of %zu point%s cannot resolve ±%g%% (band too wide).", noisy,
			gr->nratios, summary_s(gr->nratios), 100.0 * res->opts.noise_ci);
	fputs("\n\n", f);
}

static void summary_verdict_line(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_crossover *xo = &gr->xo;

	fprintf(f, "Verdict: **%s**. By the band: %s faster at %zu, %s faster at %zu, unresolved at %zu of %zu points.\n\n",
		ic_verdict_name(xo->verdict), res->opts.compare, xo->n_compare, res->opts.baseline, xo->n_baseline,
		xo->n_unresolved, gr->nratios);
}

/* A filler series' per-site net times: form - mark per process, linear,
 * negatives kept; flagged where the mark is within IC_NET_NEAR standard
 * errors of the gross time. */
static void summary_net(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	size_t near, shown = 0;

	if (!gr->filler)
		return;
	for (size_t i = 0; i < gr->nratios; i++)
		shown += isfinite(gr->ratios[i].cmp->net) || isfinite(gr->ratios[i].base->net);
	if (!shown) {
		fputs("Net time per site: not measured (no process ran the `mark` form at these N, "
		      "so the filler's own time cannot be taken out).\n\n", f);
		return;
	}
	fprintf(f, "Net time per site, for reading only (each process's time less its own `mark` "
		"time at the same N, in ns on the linear scale; negatives kept; * = the mark lies "
		"within %g standard errors of the gross time, so the net figure is not resolved from 0 "
		"and nothing is read from it):\n\n", IC_NET_NEAR);
	near = ic_md_net(f, res, gr);
	if (near)
		fprintf(f, "%zu net figure%s flagged *: there the filler's time swamps the call's.\n\n",
			near, summary_s(near));
}

/* The states rule's figures, and with two states each state's ratios. */
static void summary_states(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_states *st = gr->states;

	if (!st || !st->nproc)
		return;
	if (st->nstates == 1) {
		double sep = st->gap / st->within, need = fmax(st->critical, IC_STATES_SEPARATION);

		fprintf(f, "States: one (%zu processes", st->nproc);
		if (isfinite(sep) && !(sep > need))
			fprintf(f, "; their best split is %.1f within-group SDs apart, under the %.1f that "
				"marks two states", sep, need);
		else if (isfinite(sep))
			fprintf(f, "; their best split is %.1f within-group SDs apart (over %.1f), but only "
				"%.1fx a process's own spread across N (%.3f), under the %.0fx that marks two "
				"states: a process's ratio moves too much between N to hold one state", sep, need,
				st->gap / st->own_median, st->own_median, IC_STATES_OWN);
		else if (st->nproc < IC_STATES_MIN_PROC)
			fprintf(f, "; fewer than %d: no split tried", IC_STATES_MIN_PROC);
		fputs("). Each process's ratio is a dot on the ratio chart (process_ratios.csv).\n\n", f);
		return;
	}
	fprintf(f, "States: **two**. The processes' levels split %.1f within-group SDs apart (over "
		"the %.1f that marks two states) and %.2f in log ratio, %.0fx a process's own spread "
		"across N (%.3f). The split follows %s (in time order: %zu runs", st->gap / st->within,
		fmax(st->critical, IC_STATES_SEPARATION), st->gap,
		st->own_median > 0.0 ? st->gap / st->own_median : INFINITY, st->own_median,
		summary_follows(st), st->time_runs);
	if (isfinite(st->time_p))
		fprintf(f, ", p = %.2g", st->time_p);
	fprintf(f, "; %zu of %zu layout variants with 2+ processes hold both states). Each state "
		"from its own processes:\n\n", st->variants_both, st->variants_multi);
	ic_md_states(f, res, st);
}

static void summary_evidence(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const char *c = res->opts.compare, *b = res->opts.baseline;

	fputs("### ", f);
	summary_series_title(f, res, gr);
	fputs("\n\n", f);
	summary_verdict_line(f, res, gr);
	summary_reading(f, res, gr);
	if (gr->filler)
		fputs("Times per site in this series include the filler (the whole program's time per "
		      "site); every ratio, band and verdict is of these gross times.\n\n", f);
	if (gr->nratios == 0) {
		fprintf(f, "No N with both %s and %s measured; see points.csv.\n\n", c, b);
		return;
	}
	ic_md_evidence(f, res, gr);
	if (!ic_md_any_l1i(gr))
		fputs("L1i misses were not measured for this series (— = not measured, not zero).\n\n", f);
	summary_net(f, res, gr);
	summary_states(f, res, gr);
}

/* What the sites' own mark costs (form mark: sites that do only the mark),
 * beside the baseline at the same N. Both compared forms carry the mark. */
static void summary_mark(FILE *f, const struct ic_results *res, const struct ic_group *gr)
{
	const struct ic_point *first = NULL, *last = NULL;
	double share = NAN;

	for (size_t i = 0; i < gr->npoints; i++) {
		const struct ic_point *p = gr->points[i];
		if (strcmp(p->form, "mark") || !isfinite(p->med[IC_F_NS]))
			continue;
		if (!first || p->sites < first->sites)
			first = p;
		if (!last || p->sites > last->sites)
			last = p;
	}
	if (!first)
		return;
	if (gr->filler) {
		char fb[32];

		fprintf(f, "Sites that only mark and run the %s filler (form `mark`) took %.3g ns per site "
			"at N = %lu", ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler), first->med[IC_F_NS],
			first->sites);
		if (last != first)
			fprintf(f, " and %.3g ns at N = %lu", last->med[IC_F_NS], last->sites);
		fputs(": the filler's own time and the mark, for reading the net times below.\n\n", f);
		return;
	}
	for (size_t i = 0; i < gr->nratios && isnan(share); i++)
		if (gr->ratios[i].base->sites == first->sites && isfinite(gr->ratios[i].base->med[IC_F_NS]))
			share = first->med[IC_F_NS] / gr->ratios[i].base->med[IC_F_NS];
	fprintf(f, "Sites that only mark (form `mark`: each site's 32-bit add, and the calls of the "
		"pass and its callers that every form makes, no queue operation) took %.3g ns per site "
		"at N = %lu", first->med[IC_F_NS], first->sites);
	if (last != first)
		fprintf(f, " and %.3g ns at N = %lu", last->med[IC_F_NS], last->sites);
	if (isfinite(share))
		fprintf(f, "; at N = %lu that is %.1f%% of %s's time per site", first->sites, 100.0 * share,
			res->opts.baseline);
	fputs(". Both compared forms carry the same mark and calls.\n\n", f);
}

static void summary_calibration(FILE *f, const struct ic_results *res)
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
		"The suite resolves it where the series' band (Holm, as the verdict) excludes 1; it "
		"measures it right where the ratio's 95%% interval contains %.3f.\n\n", res->opts.compare, res->opts.planted,
		res->opts.compare, res->opts.baseline, want, want);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_group *gr = &res->groups[g];

		if (!gr->nratios)
			continue;
		fputs("### ", f);
		summary_series_title(f, res, gr);
		fputs("\n\n", f);
		ic_md_calibration(f, gr, want, &detected, &contains, extra, &k);
	}
	fprintf(f, "Overall: the band excludes 1 at %zu of %zu points and contains %.3f at %zu of "
		"%zu points", detected, total, want, contains, total);
	if (extra && k)
		fprintf(f, "; median measured extra cost %.2f%%", 100.0 * ic_stats_median(extra, k));
	fputs(".\n\n", f);
	free(extra);
}

/* One build: its keys once (the lock has its own line). Several: each
 * with its series label, every key and its processes. An older run's
 * context has none of the keys and gets no line. */
static void summary_builds(FILE *f, const struct ic_results *res)
{
	char keys[512], label[256];

	if (!res->nbuilds)
		return;
	if (!ic_fmt_many_builds(res)) {
		if (*ic_fmt_build_keys(keys, sizeof(keys), &res->builds[0], 0))
			fprintf(f, "- Build: %s\n", keys);
		return;
	}
	fprintf(f, "- Builds: %zu, each run in its own processes and reported as its own series "
		"(never pooled):\n", res->nbuilds);
	for (size_t i = 0; i < res->nbuilds; i++) {
		const struct ic_build *b = &res->builds[i];

		ic_fmt_build_keys(keys, sizeof(keys), b, 1);
		ic_fmt_build(label, sizeof(label), res, i);
		/* A label is empty only where an older run's context lacks every
		 * key that differs. */
		fprintf(f, "  - %s%s%s; %zu process%s\n", label, *label ? ": " : "",
			*keys ? keys : "no build keys in the context (an older run)", b->nfiles,
			b->nfiles == 1 ? "" : "es");
	}
}

static void summary_machine(FILE *f, const struct ic_results *res)
{
	char a[32], b[32], c[32], ctx[IC_RESULTS_CONTEXT_MAX];
	const char *v;
	double l1 = ic_results_context_num(res, "l1i_size");

	fputs("## Machine\n\n", f);
	v = ic_results_context(res, "cpu_model", ctx, sizeof(ctx));
	fprintf(f, "- CPU: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "cores", ctx, sizeof(ctx));
	if (!*v)
		v = ic_results_context(res, "num_cpus", ctx, sizeof(ctx));
	fprintf(f, "; cores: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "smt", ctx, sizeof(ctx));
	fprintf(f, "; SMT: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "mhz_per_cpu", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, "; %s MHz", v);
	fputc('\n', f);
	fprintf(f, "- Caches: L1i %s", isfinite(l1) ? ic_fmt_bytes(a, sizeof(a), l1) : "not recorded");
	v = ic_results_context(res, "l1i_assoc", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, ", %s-way", v);
	v = ic_results_context(res, "l1i_line", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, ", %s B lines", v);
	fprintf(f, "; L2 %s; L3 %s\n", ic_fmt_bytes(b, sizeof(b), ic_results_context_num(res, "l2_size")),
		ic_fmt_bytes(c, sizeof(c), ic_results_context_num(res, "l3_size")));
	v = ic_results_context(res, "lock", ctx, sizeof(ctx));
	for (size_t i = 1; i < res->nbuilds; i++)
		if (strcmp(res->builds[i].v[IC_B_LOCK], res->builds[0].v[IC_B_LOCK]))
			v = "per build (see Builds)";
	fprintf(f, "- Lock: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "pinned", ctx, sizeof(ctx));
	fprintf(f, "; threads pinned: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "oversubscribed", ctx, sizeof(ctx));
	if (!strcmp(v, "true"))
		fputs(" (more threads than PUs: the extra threads share PUs, see each label)", f);
	fputc('\n', f);
	summary_builds(f, res);
	v = ic_results_context(res, "codegen", ctx, sizeof(ctx));
	fprintf(f, "- Code generation of sites and queue: %s", *v ? v : "not recorded");
	v = ic_results_context(res, "per_caller", ctx, sizeof(ctx));
	fprintf(f, "; sites per chain caller: %s\n", *v ? v : "not recorded");
	v = ic_results_context(res, "host_name", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, "- Host: %s\n", v);
	v = ic_results_context(res, "date", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, "- Date: %s\n", v);
	v = ic_results_context(res, "executable", ctx, sizeof(ctx));
	if (*v)
		fprintf(f, "- Executable: %s\n", v);
	ic_machine_lines_write(f, res);
	fputc('\n', f);
}

static void summary_counters(FILE *f, const struct ic_results *res)
{
	size_t none = 0, counted = 0;

	for (size_t i = 0; i < res->nfiles; i++) {
		none += !strcmp(res->files[i]->counter_source, "none");
		counted += strcmp(res->files[i]->counter_source, "none") != 0;
	}
	fputs("## Counters\n\n", f);
	for (size_t i = 0; i < res->nfiles; i++) {
		const struct ic_file *fi = res->files[i];
		const char *src = fi->counter_source;
		const char *note = json_string_value(json_object_get(fi->context, "counter_note"));
		int seen = 0;

		if (counted && !strcmp(src, "none"))
			continue;   /* said below */

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
	if (counted && none)
		fprintf(f, "- %zu of %zu processes counted nothing (run.sh simulates the ordinary link, "
			"layout variant 0, only); the counter columns come from the other %zu.\n", none,
			res->nfiles, counted);
	fputc('\n', f);
}

static void summary_method(FILE *f, const struct ic_results *res)
{
	size_t vmax = 0, nerr_pts = 0;

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		vmax = p->nvariants > vmax ? p->nvariants : vmax;
		nerr_pts += p->nerrors > 0;
	}
	fputs("## Method and noise\n\n", f);
	fputs("- Terms: the **band** of a ratio is its family-wise 95% interval over every N of its "
	      "series (Holm, below). An N is **resolved** when its band lies wholly on one side of 1. "
	      "The **bracket** (A, B) holds the crossover: the last N resolved for one form and the "
	      "first resolved for the other, with no point estimate inside; every resolved N counts, "
	      "the ends included, and where the resolved N switch side more than once it is a "
	      "conflict and nothing is claimed. A **state** is a group of processes whose ratios sit at "
	      "one level (rule below).\n", f);

	fputs("- Time per call site: Google Benchmark's real_time per iteration (one iteration runs "
	      "one call site). Each process contributes the median of its repetitions; the estimate "
	      "is the geometric mean over layout variants of those medians, and cv the median "
	      "within-process coefficient of variation.\n", f);
	if (vmax >= 2)
		fputs("- Intervals: Student's t over the layout variants (each variant the mean of its "
		      "processes' log values), so they hold the spread between layouts, between processes "
		      "and between repetitions. The ratio is formed within each process (both forms ran "
		      "interleaved in it). An interval holds what moved within this run; the machine also "
		      "moves between runs, which one run cannot see. Times move most, so compare absolute "
		      "times within a run only. Ratios move less, but a separate run's ratio can fall "
		      "outside this run's interval more often than 95% suggests: `./run.sh agree` on two "
		      "runs measures how often on this machine.\n", f);
	else
		fputs("- Intervals: Student's t over processes of **one** layout: they do not hold the "
		      "spread between layouts, so they speak for this build's code placement only.\n", f);
	fprintf(f, "- Band: each series' points are judged together by Holm's step-down: with the m "
		"points' p-values in ascending order, the j-th is resolved while it is at most %g / "
		"(m - j + 1) and every smaller one was resolved. The band at a resolved N is its t "
		"interval at that level; elsewhere at the level of the step that failed. The chance of "
		"any wrongly resolved N in a series stays at most %g%% (as with Bonferroni), but only "
		"the strongest point pays the full m. A form is faster at N only when the whole band is "
		"on its side of 1. The p column is this N's alone (uncorrected); ratios.csv also has "
		"p_holm.\n", res->opts.family, 100.0 * res->opts.family);
	for (size_t g = 0; g < res->ngroups; g++)
		if (res->groups[g].filler) {
			fputs("- Filler: a series with filler (F bytes of other straight-line code at every "
			      "site) is read as a whole program: every estimate, interval, ratio, band and "
			      "verdict is of the gross time per site, filler included. A per-site net time "
			      "(each process's time less its own `mark` time at the same N, a difference in "
			      "ns, negatives kept, nested over variants) is shown beside it for reading "
			      "only, flagged where the mark is within a few standard errors of the gross "
			      "time; nothing is attributed from it.\n", f);
			break;
		}
	if (ic_fmt_many_builds(res))
		fprintf(f, "- Builds: %zu (compiler, flags, LTO, body and lock, from each process's "
			"context). Every point, interval, ratio, band and crossover is within one build: a "
			"ratio is formed within a process, and a process ran one build. Builds are set side "
			"by side, never pooled.\n", res->nbuilds);
	fputs("- Attribution: each line of \"What the difference is made of\" is a ratio formed "
	      "within each process, with the interval and band above; a per-N line's band holds "
	      "over that line's N, not over all lines at once. A component is stated only where its "
	      "band (per-N lines) or interval (single comparisons) excludes 1.\n", f);
	fprintf(f, "- States: each process's level is the median over N of its log ratio less the "
		"median of all processes at that N, and its own spread the larger of how that moves "
		"across N (1.4826 MAD) and its repetitions' standard error. The levels split into two "
		"states when the best two-group split (least within-group sum of squares, 2+ processes "
		"each) is more than %.0f within-group SDs apart and more than the 99th percentile of "
		"that statistic in one normal sample of the same size, and the gap is more than %.0fx "
		"the median own spread. Each state then gets its own ratios, band and verdict; the "
		"split is said to follow the time order (file times) when the states switch once in "
		"it, the layout variant when no variant holds both.\n", IC_STATES_SEPARATION,
		IC_STATES_OWN);
	fputs("- Layouts:", f);
	for (size_t i = 0; i < res->nlayouts; i++) {
		const char *k = res->layouts[i], *slash = strrchr(k, '/');

		if (slash == k)
			fprintf(f, "%s variant %s (the ordinary link)", i ? ";" : "", slash + 1);
		else
			fprintf(f, "%s seed %.*s variant %s", i ? ";" : "", (int)(slash - k), k, slash + 1);
	}
	fputs(".\n", f);
	if (res->n_errors)
		fprintf(f, "- Skipped: %zu repetition%s at %zu point%s reported an error and %s not "
			"counted.\n", res->n_errors, summary_s(res->n_errors), nerr_pts, summary_s(nerr_pts),
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
	fprintf(f, "- Input: %zu file%s (one per process)", res->nfiles, res->nfiles == 1 ? "" : "s");
	if (ic_fmt_many_builds(res))
		fprintf(f, " of %zu builds", res->nbuilds);
	fputs(".\n", f);
}

/* The spread of the ratio at each level of the design, per series, and
 * what it says about spending the time (Kalibera and Jones 2013). */
static void summary_variance(FILE *f, const struct ic_results *res)
{
	double worst = NAN;

	fputs("## Where the variance is\n\n", f);
	fprintf(f, "SD of the log ratio %s/%s at each level of the design, measured in this run "
		"(the median over N of a one-way analysis at each N): between layout variants; between "
		"processes of one variant beyond what their repetitions explain (all processes, and "
		"within a state); and of one repetition.\n\n", res->opts.compare, res->opts.baseline);
	ic_md_variance(f, res);
	for (size_t g = 0; g < res->ngroups; g++) {
		const struct ic_states *st = res->groups[g].states;

		if (st && st->nproc && isfinite(st->var_process) && isfinite(st->var_rep) &&
		    st->var_rep > 0.0) {
			double r = st->var_process / (st->var_rep / st->reps);

			worst = isfinite(worst) ? fmax(worst, r) : r;
		}
	}
	fputs("\nDesign (Kalibera and Jones, \"Rigorous Benchmarking in Reasonable Time\", ISMM "
	      "2013): each level's variance reaches the ratio divided by the number of draws at that "
	      "level and those above it, so the budget goes where the variance is. With a process "
	      "start costing c_p and a repetition c_r, the repetitions per process that minimise "
	      "the interval for a given time are r* = sqrt((c_p / c_r) x (repetition variance / "
	      "process variance)). Where processes differ far more than repetitions, r* is small: "
	      "run more and shorter processes, not longer ones. Where layout variants differ, run "
	      "more variants rather than more processes of each.", f);
	if (isfinite(worst))
		fprintf(f, " Here the process variance is up to %.3g times what a process median's "
			"repetitions contribute.", worst);
	fputs("\n\n", f);
}

int ic_summary_write(FILE *f, const struct ic_results *res)
{
	fprintf(f, "# inlinecost: %s vs %s\n\n", res->opts.compare, res->opts.baseline);
	ic_answer_write(f, res);
	if (isfinite(res->opts.planted))
		summary_calibration(f, res);
	fputs("## Evidence\n\n", f);
	fprintf(f, "Time per call site in ns and the ratio %s/%s (below 1: %s is faster), each with "
		"its 95%% interval at that N. The band decides (see Method). "
		"Files: points.csv, ratios.csv, crossover.csv; plots in plots/.\n\n",
		res->opts.compare, res->opts.baseline, res->opts.compare);
	for (size_t g = 0; g < res->ngroups; g++) {
		summary_evidence(f, res, &res->groups[g]);
		summary_mark(f, res, &res->groups[g]);
		ic_attribution_write(f, res, &res->groups[g]);
	}
	summary_variance(f, res);
	summary_machine(f, res);
	summary_counters(f, res);
	summary_method(f, res);
	return ferror(f) ? -1 : 0;
}
