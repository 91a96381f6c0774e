/* Pricing census rows on a measured run (census.h). */
#define _GNU_SOURCE
#include "census.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format.h"
#include "kit.h"
#include "point_name.h"
#include "states.h"

/* What each op's site runs, from the table gen and run.sh read. */
#define IC_PRICE_OP(e, name, what) what,
static const char *const price_op_what[IC_OP_COUNT] = { IC_OPS(IC_PRICE_OP) };

static int price_is_json(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

int ic_price_run_load(struct ic_price_run *run, const char *dir, char *err, size_t errlen)
{
	char raw[PATH_MAX + 8], why[1024];
	struct dirent **names = NULL;
	struct stat st;
	int n;

	memset(run, 0, sizeof(*run));
	snprintf(run->name, sizeof(run->name), "%s", dir);
	if (!lstat(dir, &st) && S_ISLNK(st.st_mode) && realpath(dir, raw))
		snprintf(run->name, sizeof(run->name), "%s (%s)", dir, basename(raw));
	/* What to do about each, before the engine's reader says what is wrong. */
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return ic_fail(err, errlen, "--results %s: not a directory: give a run's results directory (results/<run>)", dir);
	snprintf(raw, sizeof(raw), "%s/run.conf", dir);
	if (access(raw, R_OK))
		return ic_fail(err, errlen, "--results %s is not a run of ./run.sh (no run.conf): give results/<run>, or leave --results out for results/latest",
			       dir);
	snprintf(raw, sizeof(raw), "%s/raw", dir);
	n = scandir(raw, &names, price_is_json, alphasort);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (n <= 0)
		return ic_fail(err, errlen, "--results %s has no finished process (raw/*.json): let its sweep finish (./run.sh --resume %s) or give another run",
			       dir, dir);
	if (ic_run_open(&run->run, dir, why, sizeof(why)))
		return ic_fail(err, errlen, "--results %s", why);
	run->compare = run->run.an.opts.compare;
	run->baseline = run->run.an.opts.baseline;
	for (size_t g = 0; g < run->run.an.nseries; g++)
		if (run->run.an.series[g].group.nratios)
			return 0;
	return ic_fail(err, errlen, "--results %s measured no %s/%s ratio to price on: give a sweep's run",
		       dir, run->compare, run->baseline);
}

void ic_price_run_free(struct ic_price_run *run)
{
	ic_run_free(&run->run);
}

void ic_price_run_line(FILE *f, const struct ic_price_run *run)
{
	char cpu[IC_RESULTS_CONTEXT_MAX];
	const char *c = ic_results_context(&run->run.res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu));

	fprintf(f, "Priced on %s: time ratio %s/%s per call site (below 1: %s faster), %zu processes%s%s. "
		"At each measured N: the ratio, its 95%% interval, and the band over all N of the series; "
		"the side is Holm's decision (summary.md's rule).\n",
		run->name, run->compare, run->baseline, run->compare, run->run.res.nfiles, *c ? ", " : "", c);
}

/* One measured N: its ratio, and which form is ahead there by what factor
 * (as the verdict gives it): "inlined copies" and "calls" when compare/baseline
 * are an inlined form over a called one. */
static void price_ratio_line(FILE *f, const struct ic_price_run *run, const struct ic_ratio *r, const char *indent)
{
	int classic = (!strcmp(run->compare, "inline") || !strcmp(run->compare, "hint")) &&
		      !strcmp(run->baseline, "extern");
	int cmp = r->side == IC_SIDE_COMPARE;
	const char *c = classic ? "inlined copies" : run->compare, *b = classic ? "calls" : run->baseline;
	double x = cmp ? 1.0 / r->ratio : r->ratio;
	char side[256] = "not resolved (its deciding interval holds 1)";

	if (cmp || r->side == IC_SIDE_BASELINE)
		snprintf(side, sizeof(side), x < 2.0 ? "%s %.2fx faster than %s" : "%s %.1fx faster than %s",
			 cmp ? c : b, x, cmp ? b : c);
	fprintf(f, "%sN = %lu: %s/%s %.3f (95%% interval %.3f–%.3f, band %.3f–%.3f): %s\n",
		indent, r->sites, run->compare, run->baseline, r->ratio, r->lo, r->hi, r->band_lo,
		r->band_hi, side);
}

/* The form ahead below the crossover bracket, or (above) above it. */
static const char *price_ahead(const struct ic_price_run *run, const struct ic_crossover *xo, int above)
{
	return (xo->direction > 0) != above ? run->compare : run->baseline;
}

/* Where n sits among the measured ratios r[0..nr) (ascending N): exact, the
 * two either side, or the nearest end outside them; then its side of the
 * crossover bracket xo (ic_fmt_crossover fills in the ends or the winner). */
static void price_place(FILE *f, const struct ic_price_run *run, const struct ic_ratio *r, size_t nr,
			const struct ic_crossover *xo, unsigned long n, const char *indent)
{
	const struct ic_ratio *below = NULL, *above = NULL;
	int lo = (double)n <= xo->bracket_lo, hi = (double)n >= xo->bracket_hi;
	char runs[512], at[256], wins[640], line[1024];
	const char *const words[5] = {
		[IC_VERDICT_UNRESOLVED] = "no N of this series is resolved: the run cannot tell the forms apart here",
		[IC_VERDICT_CROSSOVER] = at,
		[IC_VERDICT_COMPARE_WINS] = wins,
		[IC_VERDICT_BASELINE_WINS] = wins,
		[IC_VERDICT_CONFLICT] = "no crossover stated: the resolved N switch side more than once",
	};

	for (size_t i = 0; i < nr; i++) {
		if (!isfinite(r[i].ratio))
			continue;
		if (r[i].sites <= n)
			below = &r[i];
		if (r[i].sites >= n && !above)
			above = &r[i];
	}
	if (!below && !above) {
		fprintf(f, "%sno N of it has a ratio\n", indent);
	} else if (below && below == above) {
		fprintf(f, "%sat the measured N = %lu:\n", indent, n);
		price_ratio_line(f, run, below, indent);
	} else if (below && above) {
		fprintf(f, "%sbetween the measured N = %lu and %lu (N = %lu was not measured):\n", indent,
			below->sites, above->sites, n);
		price_ratio_line(f, run, below, indent);
		price_ratio_line(f, run, above, indent);
	} else {
		fprintf(f, "%sN = %lu is %s every measured N; the nearest, not a guess beyond it:\n", indent, n,
			below ? "above" : "below");
		price_ratio_line(f, run, below ? below : above, indent);
	}
	if (lo || hi)
		snprintf(at, sizeof(at), "N = %lu is %s the crossover bracket (%%.0f, %%.0f): on the side where %s is ahead",
			 n, lo ? "below" : "above", price_ahead(run, xo, !lo));
	else
		snprintf(at, sizeof(at), "N = %lu is inside the crossover bracket (%%.0f, %%.0f): neither form is resolved ahead there", n);
	ic_fmt_runs(runs, sizeof(runs), r, nr,
		    xo->verdict == IC_VERDICT_COMPARE_WINS ? IC_SIDE_COMPARE : IC_SIDE_BASELINE);
	snprintf(wins, sizeof(wins), "no crossover: only %%s is resolved ahead (at N = %s)", runs);
	fprintf(f, "%s%s\n", indent, ic_fmt_crossover(line, sizeof(line), xo, &run->run.an.opts, words));
}

const char *ic_price_verdict(char *buf, size_t cap, const struct ic_price_run *run, const struct ic_group *g)
{
	char bracket[256];
	const char *const words[5] = {
		[IC_VERDICT_UNRESOLVED] = "no N resolved",
		[IC_VERDICT_CROSSOVER] = bracket,
		[IC_VERDICT_COMPARE_WINS] = "no crossover: %s ahead wherever resolved",
		[IC_VERDICT_BASELINE_WINS] = "no crossover: %s ahead wherever resolved",
		[IC_VERDICT_CONFLICT] = "no crossover stated: the resolved N switch side more than once",
	};

	snprintf(bracket, sizeof(bracket), "crossover bracket (%%.0f, %%.0f): %s ahead below it, %s above",
		 price_ahead(run, &g->xo, 0), price_ahead(run, &g->xo, 1));
	return ic_fmt_crossover(buf, cap, &g->xo, &run->run.an.opts, words);
}

static void price_series(FILE *f, const struct ic_price_run *run, const struct ic_series *se, unsigned long n)
{
	const struct ic_group *g = &se->group;
	const char *body = run->run.res.builds[g->build].v[IC_B_BODY];
	int op = ic_name_find(ic_op_names, IC_OP_COUNT, g->op);
	char title[1024], what[160], b[32];
	double site = g->code_cmp - (double)g->filler;

	ic_fmt_series(title, sizeof(title), &run->run.an, g);
	fprintf(f, "  %s%s\n", title, g->filler ? " (a whole program: gross times, filler included)" : "");
	price_place(f, run, g->ratios, g->nratios, &g->xo, n, "    ");
	if (se->states && se->states->nstates == 2)
		for (size_t k = 0; k < 2; k++) {
			const struct ic_state *s = &se->states->st[k];

			fprintf(f, "    its processes ran in two states (summary.md); in state %zu, %zu of %zu processes:\n",
				k + 1, s->nproc, se->states->nproc);
			price_place(f, run, s->ratios, s->nratios, &s->xo, n, "      ");
		}
	/* "tail_dequeue: queue_tail(q, n); n = dequeue(q)", or the body's name. */
	if (op >= 0)
		snprintf(what, sizeof(what), "%s: %s", g->op, price_op_what[op]);
	else
		snprintf(what, sizeof(what), "your body %s", *body ? body : g->op);
	if (isfinite(site))
		fprintf(f, "    the measured %s site (%s) is %s\n", run->compare, what, ic_fmt_bytes(b, sizeof(b), site));
	else
		fprintf(f, "    the run has no code size for its %s sites\n", run->compare);
}

void ic_price_write(FILE *f, const struct ic_price_run *run, const struct ic_inline_fn *fn)
{
	char b[32], b2[32];
	double lo = INFINITY, hi = -INFINITY;   /* the measured sites' bytes */
	size_t n = ic_inline_fn_places(fn);

	fprintf(f, "\n%s (%s:%d): N = %zu copies with code", fn->name, *fn->file ? fn->file : "?", fn->line, n);
	if (fn->nested_code)
		fprintf(f, " (%zu standing alone, %zu nested in other inlined copies: moved out of line, it "
			"would be called from all of them)", fn->copies, fn->nested_code);
	if (n)
		fprintf(f, ", %s each (median)", ic_fmt_bytes(b, sizeof(b), fn->median_all));
	fputs("\n", f);
	if (!n) {
		fputs("  nothing to price: DWARF gives none of its copies any code\n", f);
		return;
	}
	for (size_t i = 0; i < run->run.an.nseries; i++) {
		const struct ic_group *g = &run->run.an.series[i].group;
		double site = g->code_cmp - (double)g->filler;

		if (!g->nratios)
			continue;
		price_series(f, run, &run->run.an.series[i], (unsigned long)n);
		if (isfinite(site)) {
			lo = fmin(lo, site);
			hi = fmax(hi, site);
		}
	}
	fprintf(f, "  Size: your copies are %s", ic_fmt_bytes(b, sizeof(b), fn->median_all));
	if (isfinite(lo))
		fprintf(f, ", the measured %s site%s %s%s%s (%.2fx)", run->compare, lo < hi ? "s" : "",
			ic_fmt_bytes(b, sizeof(b), lo), lo < hi ? "–" : "", lo < hi ? ic_fmt_bytes(b2, sizeof(b2), hi) : "",
			fn->median_all / lo);
	fputs(": the curves price sites of the measured size. For a curve of your function's own, write it as a "
	      "body (README, \"Your own body\") and run ./run.sh --body FILE.\n", f);
}
