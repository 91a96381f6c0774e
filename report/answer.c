/* summary.md's first screen: a line per series, then the machine, the build and
 * the design in a line each (report.h). */
#include "report.h"

#include <math.h>
#include <string.h>

#include "format.h"
#include "load.h"
#include "repeats_text.h"

static int answer_classic(const struct ic_analysis *an)
{
	const char *c = an->opts.compare, *b = an->opts.baseline;

	return (!strcmp(c, "inline") || !strcmp(c, "hint")) && !strncmp(b, "extern", 6);
}

/* The smallest and largest factor (slower over faster) on `side`; 0 N
 * when none. */
static size_t answer_span(const struct ic_ratio *r, size_t n, enum ic_point_side side,
			  double *lo, double *hi)
{
	size_t k = 0;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (size_t i = 0; i < n; i++)
		if (r[i].side == side && isfinite(r[i].ratio) && r[i].ratio > 0.0) {
			double x = side == IC_SIDE_COMPARE ? 1.0 / r[i].ratio : r[i].ratio;

			*lo = fmin(*lo, x);
			*hi = fmax(*hi, x);
			k++;
		}
	return k;
}

/* How much faster, from factors >= 1 (slower time over faster time):
 * "12%", "12-14%" below 1.5x, "1.7x", "1.5-2.1x" from there. */
static const char *answer_factor(char *buf, size_t cap, double lo, double hi)
{
	if (hi < 1.5) {
		/* Whole percent, one decimal below 2% so a small effect is not "1%". */
		const char *fmt = hi < 1.02 ? "%.1f" : "%.0f";
		char a[16], b[16];

		snprintf(a, sizeof(a), fmt, 100.0 * (lo - 1.0));
		snprintf(b, sizeof(b), fmt, 100.0 * (hi - 1.0));
		if (!strcmp(a, b))
			snprintf(buf, cap, "%s%%", b);
		else
			snprintf(buf, cap, "%s-%s%%", a, b);
	} else if (hi - lo < 0.05) {
		snprintf(buf, cap, "%.1fx", hi);
	} else {
		snprintf(buf, cap, "%.1f-%.1fx", lo, hi);
	}
	return buf;
}

/* "inline 12-14% faster at N = 1..4; extern 1.7x faster at N = 64..1024;
 * crossover in (4, 64)" from one set of ratios and its verdict. */
static void answer_sides(FILE *f, const struct ic_analysis *an, const struct ic_ratio *r,
			 size_t n, const struct ic_crossover *xo, int program)
{
	char runs[512], fac[48];
	int said = 0;

	if (!n) {
		fprintf(f, "not compared (%s and %s not both measured)", an->opts.compare,
			an->opts.baseline);
		return;
	}
	for (int s = IC_SIDE_COMPARE; s <= IC_SIDE_BASELINE; s++) {
		double lo, hi;

		if (!answer_span(r, n, (enum ic_point_side)s, &lo, &hi))
			continue;
		answer_factor(fac, sizeof(fac), lo, hi);
		ic_fmt_runs(runs, sizeof(runs), r, n, (enum ic_point_side)s);
		if (program)   /* a whole program: its change with the calls out of line */
			fprintf(f, "%s%s %s at N = %s", said ? "; " : answer_classic(an) ?
				"the program with the calls out of line runs " :
				"the program with the baseline form runs ", fac,
				s == IC_SIDE_COMPARE ? "slower" : "faster", runs);
		else
			fprintf(f, "%s%s %s faster at N = %s", said ? "; " : "",
				s == IC_SIDE_COMPARE ? an->opts.compare : an->opts.baseline, fac, runs);
		said = 1;
	}
	if (xo->verdict == IC_VERDICT_CROSSOVER)
		fprintf(f, "; crossover in (%.0f, %.0f)", xo->bracket_lo, xo->bracket_hi);
	else if (xo->verdict == IC_VERDICT_CONFLICT)
		fprintf(f, "; the side switches %zu times, so no crossover is stated", xo->switches);
	else if (!said) {
		size_t noisy = 0;

		for (size_t i = 0; i < n; i++)
			noisy += r[i].noisy;
		/* Said as what the band did, not as "no difference": a state of
		 * two processes at 1.31 resolves nothing for want of processes. */
		fprintf(f, "no N resolved from %lu to %lu", r[0].sites, r[n - 1].sites);
		if (noisy == n)
			fprintf(f, " (every band wider than ±%g%%)", 100.0 * an->opts.noise_ci);
	}
}

/* "inlined code passes the 32 KiB L1i at N ≈ 199"; both forms once when
 * they pass at the same measured N. */
static void answer_l1i(FILE *f, const struct ic_analysis *an, const struct ic_group *gr)
{
	double size = ic_results_context_num(an->res, IC_CTX_L1I_SIZE), ac, ab;
	const char *c = an->opts.compare, *b = an->opts.baseline;
	unsigned long pc, pb;
	char sz[32];

	if (!isfinite(size) || size <= 0 || !gr->nratios)
		return;
	ic_fmt_bytes(sz, sizeof(sz), size);
	pc = ic_group_cache_pass(gr, c, size, &ac);
	pb = ic_group_cache_pass(gr, b, size, &ab);
	if (pc && pb && pc == pb)
		fprintf(f, "; both forms' code passes the %s L1i by N = %lu", sz, pc);
	else if (pc || pb) {
		if (pc)
			fprintf(f, "; %s code passes the %s L1i at N ≈ %.0f", answer_classic(an) ?
				"inlined" : c, sz, ac);
		if (pb)
			fprintf(f, "; %s code passes it at N ≈ %.0f", b, ab);
	} else
		fprintf(f, "; the code stays within the %s L1i up to N = %lu", sz,
			gr->ratios[gr->nratios - 1].sites);
}

/* One line per series; a series in two states says where the code passes
 * the L1i on it, then each state on a line of its own, the larger first. */
static void answer_series(FILE *f, const struct ic_analysis *an, const struct ic_series *se)
{
	const struct ic_group *gr = &se->group;
	const struct ic_states *st = se->states;
	int two = st && st->nstates == 2 && gr->nratios;
	char t[512], fb[32];

	fprintf(f, "- **%s**: ", ic_fmt_series(t, sizeof(t), an, gr));
	if (gr->filler && gr->nratios)
		fprintf(f, "with %s of other code per call site, ",
			ic_fmt_bytes(fb, sizeof(fb), (double)gr->filler));
	if (two)
		fputs("the processes split into two states", f);
	else if (!ic_repeats_disagree(f, an, se)) {
		answer_sides(f, an, gr->ratios, gr->nratios, &gr->xo, gr->filler != 0);
		ic_repeats_agree_note(f, se);
	}
	answer_l1i(f, an, gr);
	fputs(".\n", f);
	for (int i = 0; two && i < 2; i++) {
		int k = i ^ (st->st[1].nproc > st->st[0].nproc);

		fprintf(f, "  - In %zu of %zu processes (%s/%s %.2f): ", st->st[k].nproc, st->nproc,
			an->opts.compare, an->opts.baseline, st->st[k].level);
		answer_sides(f, an, st->st[k].ratios, st->st[k].nratios, &st->st[k].xo,
			     gr->filler != 0);
		fputs(".\n", f);
	}
}

static void answer_design(FILE *f, const struct ic_results *res)
{
	size_t rmin = (size_t)-1, rmax = 0, umin = (size_t)-1, umax = 0, vmax = 0;

	for (size_t i = 0; i < res->npoints; i++) {
		const struct ic_point *p = res->points[i];

		rmin = p->nreps < rmin ? p->nreps : rmin;
		rmax = p->nreps > rmax ? p->nreps : rmax;
		umin = p->nunits < umin ? p->nunits : umin;
		umax = p->nunits > umax ? p->nunits : umax;
		vmax = p->nvariants > vmax ? p->nvariants : vmax;
	}
	fprintf(f, "Design: ");
	if (res->nrepeats >= 2)   /* each repeat has layouts of its own */
		fprintf(f, "%d repeats; ", res->nrepeats);
	fprintf(f, "%zu layout variant%s%s; %zu", vmax, vmax == 1 ? "" : "s",
		res->nrepeats >= 2 ? " in all" : "", umin);
	if (umax != umin)
		fprintf(f, " to %zu", umax);
	fprintf(f, " processes per point; %zu", rmin);
	if (rmax != rmin)
		fprintf(f, " to %zu", rmax);
	fputs(" repetitions per point in all, the forms interleaved at random within each process.", f);
}

void ic_answer_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	char ctx[IC_RESULTS_CONTEXT_MAX], a[32], b[32], bl[512];
	const char *v;

	fputs("## The answer\n\nWhere each form is faster, by how much (time per call site), and "
	      "where the code outgrows the L1i. Only N that Holm's step-down resolves are named "
	      "(see Method).\n\n", f);
	for (size_t s = 0; s < an->nseries; s++)
		answer_series(f, an, &an->series[s]);
	v = ic_results_context(res, IC_CTX_CPU_MODEL, ctx, sizeof(ctx));
	fprintf(f, "\nMachine: %s", *v ? v : "CPU not recorded");
	v = ic_results_context(res, IC_CTX_CORES, ctx, sizeof(ctx));
	if (!*v)
		v = ic_results_context(res, IC_CTX_NUM_CPUS, ctx, sizeof(ctx));
	if (*v)
		fprintf(f, ", %s cores", v);
	fprintf(f, "; L1i %s, L2 %s.\n",
		ic_fmt_bytes(a, sizeof(a), ic_results_context_num(res, IC_CTX_L1I_SIZE)),
		ic_fmt_bytes(b, sizeof(b), ic_results_context_num(res, IC_CTX_L2_SIZE)));
	if (ic_fmt_many_builds(res))
		fprintf(f, "Builds: %zu, each its own series (see Machine).\n", res->nbuilds);
	else if (*ic_fmt_build_keys(bl, sizeof(bl), &res->builds[0]))
		fprintf(f, "Build: %s.\n", bl);
	answer_design(f, res);
	fputs("\n\n", f);
}
