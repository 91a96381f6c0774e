/* summary.md's first screen: a line per series, then the machine, the build and
 * the design in a line each (report.h). */
#include "report.h"

#include <math.h>
#include <string.h>

#include "format.h"
#include "load.h"
#include "series.h"

/* " Inlined code outgrows the L1i at N ≈ 176, extern code at N ≈ 1155."; both
 * forms once when they pass at the same measured N. The L1i's size is on
 * the Machine line below, once. */
static void answer_l1i(FILE *f, const struct ic_analysis *an, const struct ic_group *gr,
		       const struct ic_attribution *attr)
{
	double size = ic_results_context_num(an->res, IC_CTX_L1I_SIZE), ac, ab;
	const char *c = an->opts.compare, *b = an->opts.baseline;
	int classic = ic_verdict_classic(an);
	unsigned long pc, pb;

	if (!isfinite(size) || size <= 0 || !gr->nratios)
		return;
	pc = ic_group_cache_pass(gr, c, size, &ac);
	pb = ic_group_cache_pass(gr, b, size, &ab);
	/* Capacity explains a crossover near where the inlined code fills the
	 * L1i, not one far below it: there, say so, and what the copies cost. */
	if (pc && isfinite(ac) && gr->xo.verdict == IC_VERDICT_CROSSOVER &&
	    4.0 * gr->xo.bracket_hi <= ac) {
		const struct ic_line *cp = attr ? &attr->line[IC_LINE_COPIES] : NULL;
		const struct ic_ratio *top = NULL;

		fprintf(f, " The L1i does not explain the crossover: %s code fills it only at N ≈ %.0f",
			classic ? "inlined" : c, ac);
		for (size_t i = 0; cp && i < cp->n; i++)
			if (cp->r[i].side == IC_SIDE_BASELINE)
				top = &cp->r[i];
		if (top)
			fprintf(f, "; the copies do (%s %.3gx at N = %lu)", cp->name, top->ratio, top->sites);
		fputc('.', f);
		return;
	}
	if (pc && pb && pc == pb)
		fprintf(f, " Both forms' code outgrows the L1i by N = %lu.", pc);
	else if (pc && pb)
		fprintf(f, " %s code outgrows the L1i at N ≈ %.0f, %s code at N ≈ %.0f.",
			classic ? "Inlined" : c, ac, b, ab);
	else if (pc || pb)
		fprintf(f, " %s code outgrows the L1i at N ≈ %.0f.", !pc ? b : classic ? "Inlined" : c,
			pc ? ac : ab);
	else
		fprintf(f, " The code stays within the L1i up to N = %lu.",
			gr->ratios[gr->nratios - 1].sites);
}

/* A verdict only where every repeat holds it: where the series' repeats
 * disagree, "the 3 repeats disagree, so no verdict is stated: repeat 1
 * ..., repeat 2 ..." and 1, else nothing and 0. */
static int answer_repeats_disagree(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	static const char *const words[] = { "no N resolved", "crossover in (%.0f, %.0f)",
		"%s faster wherever resolved", "%s faster wherever resolved", "sides switching, no crossover" };
	const struct ic_repeats *rp = se->repeats;
	char w[160];

	if (!rp || rp->nrepeats < 2 || rp->agree || !se->group.nratios)
		return 0;
	fprintf(f, "the %zu repeats disagree, so no verdict is stated:", rp->nrepeats);
	for (size_t k = 0; k < rp->nrepeats; k++)
		fprintf(f, "%s repeat %d %s", k ? ";" : "", rp->repeat[k],
			ic_fmt_crossover(w, sizeof(w), &rp->xo[k], &an->opts, words));
	return 1;
}

/* One line per series: its verdict (verdict.c), where the repeats agree
 * that none alone says otherwise (only where the pooled verdict resolves
 * some N: that each repeat alone resolves nothing adds nothing), then
 * where its code outgrows the L1i. */
static void answer_series(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_repeats *rp = se->repeats;
	char t[512], v[IC_VERDICT_MAX];

	fprintf(f, "- **%s**: ", ic_fmt_series(t, sizeof(t), an, &se->group));
	if (!answer_repeats_disagree(f, an, se)) {
		fputs(ic_verdict_series(v, sizeof(v), an, se), f);
		if (rp && rp->nrepeats >= 2 && rp->agree && se->group.nratios &&
		    se->group.xo.n_compare + se->group.xo.n_baseline > 0)
			fprintf(f, " None of the %zu repeats alone puts an N on the other side.", rp->nrepeats);
	}
	answer_l1i(f, an, &se->group, se->attr);
	fputc('\n', f);
}

/* How long a run would resolve the 2004 effect where this one's range is
 * narrowest, if the machine varies as it did: a range's half-width on the
 * log scale shrinks as one over the root of the processes, so the run
 * grows by the square of the ratio of the two half-widths. */
static void answer_run_length(FILE *f, const struct ic_analysis *an, double half)
{
	const struct ic_results *res = an->res;
	double t0 = INFINITY, t1 = -INFINITY, grow, min;

	for (size_t i = 0; i < res->nfiles; i++) {
		t0 = fmin(t0, res->files[i]->start);
		t1 = fmax(t1, res->files[i]->end);
	}
	if (!isfinite(t0) || !isfinite(t1) || t1 <= t0)
		return;
	grow = pow(log1p(half) / log1p(an->opts.noise_ci), 2.0);
	min = grow * (t1 - t0) / 60.0;
	fprintf(f, " There, about %.0f %s of processes (%.0fx this run's) would, if the machine varies "
		"as it did.", min < 120.0 ? min : min / 60.0, min < 120.0 ? "min" : "h", grow);
}

/* The smallest difference the run can resolve: the narrowest deciding
 * interval's half-width over every series and N, against the 2004
 * effect's 3% (the noise flag's). Nothing without intervals. */
static void answer_resolution(FILE *f, const struct ic_analysis *an)
{
	const struct ic_ratio *best = NULL;
	const struct ic_series *bs = NULL;
	double half = INFINITY;
	char t[512];

	for (size_t s = 0; s < an->nseries; s++)
		for (size_t i = 0; i < an->series[s].group.nratios; i++) {
			const struct ic_ratio *r = &an->series[s].group.ratios[i];
			double h = sqrt(r->holm_hi / r->holm_lo) - 1.0;

			if (r->holm_lo > 0.0 && isfinite(h) && h < half) {
				half = h;
				best = r;
				bs = &an->series[s];
			}
		}
	if (!best)
		return;
	if (ic_analysis_smoke(an, t, sizeof(t))) {
		fprintf(f, "Resolution: none: a smoke test resolves no N (%s); its narrowest 95%% range, "
			"about %.1f%% either side, speaks for its one layout only.\n", t, 100.0 * half);
		return;
	}
	fprintf(f, "Resolution: this run resolves differences of about %.1f%% at best (%s, N = %lu).",
		100.0 * half, ic_fmt_series(t, sizeof(t), an, &bs->group), best->sites);
	if (half > an->opts.noise_ci) {
		fprintf(f, " No difference of %g%% (the 2004 kernel's gain) can be resolved here.",
			100.0 * an->opts.noise_ci);
		answer_run_length(f, an, half);
		fputc('\n', f);
	} else {
		fprintf(f, " Differences of %g%% (the 2004 kernel's gain) can be resolved where the "
			"95%% range is that narrow.\n", 100.0 * an->opts.noise_ci);
	}
}

static void answer_design(FILE *f, const struct ic_results *res)
{
	struct ic_design d = ic_results_design(res);

	fputs("Design: ", f);
	if (res->nrepeats >= 2)   /* each repeat has layouts of its own */
		fprintf(f, "%d repeats; ", res->nrepeats);
	fprintf(f, "%zu layout variant%s%s; %zu", d.variants_max, d.variants_max == 1 ? "" : "s",
		res->nrepeats >= 2 ? " in all" : "", d.units_min);
	if (d.units_max != d.units_min)
		fprintf(f, " to %zu", d.units_max);
	fprintf(f, " processes per point; %zu", d.reps_min);
	if (d.reps_max != d.reps_min)
		fprintf(f, " to %zu", d.reps_max);
	fputs(" repetitions per point in all, the forms interleaved at random within each process.", f);
}

void ic_answer_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	char ctx[IC_RESULTS_CONTEXT_MAX], a[32], b[32], bl[512];
	const char *v;

	fputs("## The answer\n\nUp to how many call sites does inlining pay, and by how much? Per "
	      "series: what to do, then each side with its size. Sizes are in times faster, with "
	      "95% ranges in brackets. An N is on a side only where its range excludes 1, over "
	      "the whole run (see Method).\n\n", f);
	for (size_t s = 0; s < an->nseries; s++)
		answer_series(f, an, &an->series[s]);
	fputc('\n', f);
	answer_resolution(f, an);
	v = ic_results_context(res, IC_CTX_CPU_MODEL, ctx, sizeof(ctx));
	fprintf(f, "Machine: %s", *v ? v : "CPU not recorded");
	v = ic_results_context(res, IC_CTX_CORES, ctx, sizeof(ctx));
	if (!*v)
		v = ic_results_context(res, IC_CTX_NUM_CPUS, ctx, sizeof(ctx));
	if (*v)
		fprintf(f, ", %s cores", v);
	fprintf(f, "; L1i %s, L2 %s.\n",
		ic_fmt_bytes(a, sizeof(a), ic_results_context_num(res, IC_CTX_L1I_SIZE)),
		ic_fmt_bytes(b, sizeof(b), ic_results_context_num(res, IC_CTX_L2_SIZE)));
	if (res->nbuilds > 1)
		fprintf(f, "Builds: %zu, each its own series (see Machine).\n", res->nbuilds);
	else if (*ic_fmt_build_keys(bl, sizeof(bl), &res->builds[0]))
		fprintf(f, "Build: %s.\n", bl);
	answer_design(f, res);
	fputs("\n\n", f);
}
