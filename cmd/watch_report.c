/* ./run.sh watch's analysis (engine/watch_analysis.h) written out, as wr_usage says. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "atomic_file.h"
#include "kit.h"
#include "load.h"
#include "watch_analysis.h"
#include "chart_data.h"

static const char wr_usage[] =
	"usage: watch_report --out DIR [--long FILE] [--window S] SHORT.json...\n"
	"\n"
	"Reads the sentinel's short processes (SHORT.json, one per process) and the\n"
	"long process (FILE; cut into windows of about S seconds, default 1.5, for the\n"
	"chart), finds the states in every repetition in time order (engine/\n"
	"state_model.h) and prints each state's level per N, its share of the time,\n"
	"its mean spell and whether the states switch inside a process. Writes, each whole or not at all:\n"
	"  DIR/watch.txt        what it printed\n"
	"  DIR/watch.json       the same, and every sample\n"
	"  DIR/plots/watch.dat, DIR/plots/data.gp   the chart's data (plots/watch.gp)\n"
	"\n"
	"exit status: 0 done; 2 bad input (nothing written); 1 an output could not be written\n";

static const char *wr_dur(char *buf, size_t cap, double s)
{
	snprintf(buf, cap, !isfinite(s) ? "unknown" : s < 90.0 ? "%.0f s" : "%.1f min", s < 90.0 ? s : s / 60.0);
	return buf;
}

/* "+58" of "+58% [52-64%]"; + 0.0 makes a -0 0: no "-0" */
static double wr_pct(double ratio)
{
	return round(100.0 * (ratio - 1.0)) + 0.0;
}

/* The kinds of change in the order the report groups them, and its words. */
static const struct { enum ic_watch_change kind; const char *words; } wr_group[] = {
	{ IC_CHANGE_SLOWER, "slower in state 2" }, { IC_CHANGE_FASTER, "faster in state 2" },
	{ IC_CHANGE_SAME, "no change (within ±5%)" },
	{ IC_CHANGE_UNSURE, "cannot tell (interval wider than ±5%)" } };

/* Form k's level at the j-th N (NULL where not measured), or probe k's; its
 * name, and what one iteration is (NULL for a form). */
static const struct ic_watch_level *wr_item(const struct ic_watch *w, int probe, size_t k, size_t j,
					    const char **name, const char **what)
{
	if (!probe) {
		*name = w->forms[k].form;
		*what = NULL;
		return w->forms[k].measured ? &w->forms[k].at[j] : NULL;
	}
	*name = w->probes[k].name;
	*what = w->probes[k].what ? w->probes[k].what : "one iteration";
	return &w->probes[k].level;
}

/* What changes between the states: the forms at the j-th N (two measured at
 * least), or the probes. Each one's time per state, then a line per kind of
 * change that has any, "  a, b: slower in state 2." */
static void wr_changes(FILE *f, const struct ic_watch *w, int probe, size_t j)
{
	size_t n = probe ? w->nprobes : IC_WATCH_NFORMS, shown = 0;
	const struct ic_watch_level *lv;
	const char *name, *what;

	for (size_t k = 0; k < n; k++)
		shown += (lv = wr_item(w, probe, k, j, &name, &what)) &&
			 (!probe || lv->verdict != IC_CHANGE_NONE);
	if (shown < (probe ? 1u : 2u))
		return;
	if (probe)
		fputs("The machine in its own terms (each probe's ns per iteration, state 1 -> state 2):\n", f);
	else
		fprintf(f, "What changes between the states at N = %lu (each form's ns per site, state 1 -> "
			"state 2):\n", w->sites[j]);
	for (size_t k = 0; k < n; k++) {
		if (!(lv = wr_item(w, probe, k, j, &name, &what)) || lv->verdict == IC_CHANGE_NONE)
			continue;
		fprintf(f, "  %-*s %.3g -> %.3g ns%s%s%s, %+.0f%% [%+.0f..%+.0f%%]\n", probe ? 17 : 14, name, lv->ns[0],
			lv->ns[1], what ? " (" : "", what ? what : "", what ? ")" : "", wr_pct(lv->change),
			wr_pct(lv->change_lo), wr_pct(lv->change_hi));
	}
	for (size_t g = 0; g < sizeof(wr_group) / sizeof(*wr_group); g++) {
		int any = 0;

		for (size_t k = 0; k < n; k++)
			if ((lv = wr_item(w, probe, k, j, &name, &what)) && lv->verdict == wr_group[g].kind)
				fprintf(f, "%s%s", any++ ? ", " : "  ", name);
		if (any)
			fprintf(f, ": %s.\n", wr_group[g].words);
	}
}

/* A change's words between the states, and with the ratio: the separator
 * after the first, then not told apart, slower, faster. */
static const char *const wr_between[] = { "; ", "not told apart (%.2fx, 95%% %.2f-%.2fx)",
	"%.2fx slower [%.2f-%.2fx]", "%.2fx faster [%.2f-%.2fx]" };
static const char *const wr_with[] = { ", ", "not told apart (x%.2f, 95%% %.2f-%.2f)",
	"slowed %.2fx [%.2f-%.2fx]", "ran %.2fx faster [%.2f-%.2fx]" };

/* After lead (the first) or the separator: "x unchanged (within ±5%)", "x 1.6x slower [1.4-1.8x]". */
static int wr_words(FILE *f, int any, const char *lead, const char *const *words, const char *name, int same,
		    int unsure, double c, double lo, double hi)
{
	fprintf(f, "%s%s ", any ? words[0] : lead, name);
	if (same)
		fprintf(f, "unchanged (within ±%.0f%%)", 100.0 * IC_WATCH_SAME);
	else if (unsure || c >= 1.0)
		fprintf(f, words[unsure ? 1 : 2], c, lo, hi);
	else
		fprintf(f, words[3], 1.0 / c, 1.0 / hi, 1.0 / lo);
	return 1;
}

/* The probes in one sentence, where their change is measured. */
static void wr_probes_words(FILE *f, const struct ic_watch *w)
{
	int any = 0;

	for (size_t k = 0; k < w->nprobes; k++) {
		const struct ic_watch_level *lv = &w->probes[k].level;

		if (lv->verdict != IC_CHANGE_NONE)
			any = wr_words(f, any, "In the machine's terms, state 2 has: ", wr_between, w->probes[k].name,
				       lv->verdict == IC_CHANGE_SAME, lv->verdict == IC_CHANGE_UNSURE, lv->change,
				       lv->change_lo, lv->change_hi);
	}
	if (any)
		fputs(".\n", f);
}

/* The forms' story in one sentence, where the Zen 5 guest's pattern shows:
 * only the inlined locked sequence slows. */
static void wr_forms_words(FILE *f, const struct ic_watch *w, size_t j)
{
	static const int ctl[] = { IC_WATCH_FORM_clone, IC_WATCH_FORM_inline_nolock };
	const struct ic_watch_form *in = &w->forms[IC_WATCH_FORM_inline];

	if (!in->measured || in->at[j].verdict != IC_CHANGE_SLOWER)
		return;
	for (size_t k = 0; k < sizeof(ctl) / sizeof(*ctl); k++) {
		const struct ic_watch_level *c = &w->forms[ctl[k]].at[j];

		/* Not slower: no slowdown past the ±5% band inside its interval. */
		if (!w->forms[ctl[k]].measured || c->verdict == IC_CHANGE_NONE || c->verdict == IC_CHANGE_SLOWER ||
		    !(c->change_hi <= 1.0 + IC_WATCH_SAME))
			return;
	}
	fprintf(f, "State 2 slows the inlined locked sequence by %.0f%%; the same copies called (clone) "
		"and the inlined code without the lock (inline_nolock) do not slow: the lock's "
		"interaction with straight-line code, not code size, tells the states apart.\n",
		100.0 * (in->at[j].change - 1.0));
}

/* "38%": a between-unit SD on the log scale as a percentage. */
static double wr_sd_pct(double tau)
{
	return 100.0 * (exp(tau) - 1.0);
}

/* The steadiness test at each N, one line: the units' SD beyond noise with its
 * 95% interval, Cochran's Q, and the bound one answer needs. */
static void wr_steadiness(FILE *f, const struct ic_watch *w)
{
	const double need = IC_STEADY_MARGIN / 1.6448536269514722;

	fprintf(f, "Steadiness (%zu short process%s", w->nshort, w->nshort == 1 ? "" : "es");
	if (w->nwindows)   /* the long process's, when there is one */
		fprintf(f, " and %zu window%s", w->nwindows, w->nwindows == 1 ? "" : "s");
	fprintf(f, " as units):");
	for (size_t j = 0; j < w->nsites; j++) {
		const struct ic_steady *h = &w->steady[j].h;

		if (!isfinite(h->q)) {
			fprintf(f, "%s at N = %lu too few units", j ? ";" : "", w->sites[j]);
			continue;
		}
		fprintf(f, "%s at N = %lu their SD beyond noise is %.1f%% [95%% %.1f-%.1f%%] (Q = %.0f on %.0f df, ",
			j ? ";" : "", w->sites[j], wr_sd_pct(h->tau), wr_sd_pct(h->tau_lo), wr_sd_pct(h->tau_hi),
			h->q, h->df);
		fprintf(f, h->p < 0.001 ? "p < 0.001)" : "p = %.3f)", h->p);
	}
	fprintf(f, "; one answer needs at most %.1f%% (90%% of moments within ±%.0f%% of the mean).\n",
		wr_sd_pct(need), 100.0 * IC_WATCH_SAME);
}

/* "inline/extern at N = 16 moved between 1.4 and 3.5, at N = 1024 between
 * 1.3 and 2.4 (10th-90th percentile ...) in 6.4 min", then tail */
static void wr_spread(FILE *f, const struct ic_watch *w, const char *tail)
{
	char a[32];

	fprintf(f, "%s/%s", w->an.opts.compare, w->an.opts.baseline);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(f, "%s at N = %lu %sbetween %.2f and %.2f", j ? "," : "", w->sites[j], j ? "" : "moved ",
			w->steady[j].p10, w->steady[j].p90);
	fprintf(f, " (10th-90th percentile of its %.1f s windows and processes) in %s%s", w->window_s > 0.0 ?
		w->window_s : IC_WATCH_WINDOW_S, wr_dur(a, sizeof(a), w->t1 - w->t0), tail);
}

static const char *const wr_moves[] = {
	[IC_MOVES_NOT_READ] = "not read", [IC_MOVES_UNCHANGED] = "unchanged (within ±5%)",
	[IC_MOVES_WITH] = "moves with the ratio", [IC_MOVES_AGAINST] = "moves against it",
	[IC_MOVES_UNSURE] = "cannot tell (interval past ±5%)" };

static void wr_elastic_row(FILE *f, const char *name, const struct ic_watch_elastic *el)
{
	if (el->verdict != IC_MOVES_NOT_READ)
		fprintf(f, "  %-24s x%.2f [%.2f-%.2f], R² %.2f: %s\n", name, el->change,
			el->change_lo, el->change_hi, el->fit.r2, wr_moves[el->verdict]);
}

static int wr_elastic_words(FILE *f, int any, const char *name, const struct ic_watch_elastic *el)
{
	return el->verdict == IC_MOVES_NOT_READ ? any : wr_words(f, any, "", wr_with, name,
		el->verdict == IC_MOVES_UNCHANGED, el->verdict == IC_MOVES_UNSURE, el->change, el->change_lo, el->change_hi);
}

/* What moves with the ratio: each form's (per N) and probe's change over the
 * ratio's range, then one sentence at the N the ratio is read at. */
static void wr_elasticities(FILE *f, const struct ic_watch *w)
{
	const struct ic_watch_steady *st = &w->steady[w->ref];
	char name[96];
	int any = 0;

	if (w->where != IC_WATCH_DRIFTS && w->where != IC_WATCH_WANDERS)
		return;
	fprintf(f, "What moves with the ratio (each one's mean log time per unit on log %s/%s at N = %lu; "
		"its change as the ratio went from %.2f to %.2f, 95%% Newey-West interval, and R²):\n",
		w->an.opts.compare, w->an.opts.baseline, w->sites[w->ref], st->p10, st->p90);
	for (size_t k = 0; k < IC_WATCH_NFORMS; k++)
		for (size_t j = 0; j < w->nsites; j++) {
			snprintf(name, sizeof(name), "%s, N = %lu", w->forms[k].form, w->sites[j]);
			wr_elastic_row(f, name, &w->forms[k].el[j]);
		}
	for (size_t k = 0; k < w->nprobes; k++)
		wr_elastic_row(f, w->probes[k].name, &w->probes[k].el);
	fprintf(f, "As %s/%s at N = %lu moved from %.2f to %.2f: ", w->an.opts.compare, w->an.opts.baseline,
		w->sites[w->ref], st->p10, st->p90);
	for (size_t k = 0; k < IC_WATCH_NFORMS; k++)
		any = wr_elastic_words(f, any, w->forms[k].form, &w->forms[k].el[w->ref]);
	for (size_t k = 0; k < w->nprobes; k++)
		any = wr_elastic_words(f, any, w->probes[k].name, &w->probes[k].el);
	fputs(any ? ".\n" : "nothing else was measured in the same units.\n", f);
}

/* The report: the figures, then the plain words, last. */
static void wr_text(FILE *f, const struct ic_watch *w)
{
	char a[32], b[32], c[32];
	int two = w->where == IC_WATCH_BETWEEN || w->where == IC_WATCH_INSIDE;   /* only with two states */
	const struct ic_watch_steady *rs = &w->steady[w->ref];   /* where the ratio is read */

	fprintf(f, "Sentinel: %s; inline/extern at N =", w->series);
	for (size_t j = 0; j < w->nsites; j++)
		fprintf(f, "%s %lu", j ? " and" : "", w->sites[j]);
	fprintf(f, ".\nOver %s: %zu short processes", wr_dur(a, sizeof(a), w->t1 - w->t0), w->nshort);
	if (w->have_long)
		fprintf(f, " and one long process (%zu windows drawn)", w->nwindows);
	fputs(", every repetition read in time order.\n", f);
	/* Two states whose levels are not clean describe nothing: no levels. */
	for (int s = 0; s < (int)w->nstates && (w->nstates == 1 || two); s++) {
		const struct ic_watch_state *st = &w->st[s];

		/* A machine that moves has no state to name: its mean describes, promises nothing. */
		if (w->nstates == 1 && w->where != IC_WATCH_ONE_STATE && w->where != IC_WATCH_TOO_FEW)
			fputs("Mean over the processes (t interval as if independent, which on a machine "
			      "that moves they are not): inline/extern", f);
		else
			fprintf(f, "State %d%s: inline/extern", s + 1, w->nstates == 2 ? (s ? " (high)" : " (low)") : "");
		/* "1.02 [0.99-1.05]" at each N; one draw has no interval. */
		for (size_t j = 0; j < w->nsites; j++) {
			fprintf(f, "%s N = %lu: %.2f", j ? "," : "", w->sites[j], st->ratio[j]);
			if (isfinite(st->lo[j]))
				fprintf(f, " [%.2f-%.2f]", st->lo[j], st->hi[j]);
			else
				fprintf(f, " [%zu process%s: no interval]", st->nproc[j],
					st->nproc[j] == 1 ? "" : "es");
		}
		fputs(".\n", f);
		if (w->nstates != 2)
			continue;
		fprintf(f, "  %.0f%% of the time [95%% %.0f-%.0f%%]; ", 100.0 * st->of->share,
			100.0 * st->of->share_lo, 100.0 * st->of->share_hi);
		if (st->switches < 0.5)
			/* Never left while watched: only a lower bound. */
			fprintf(f, "not seen to end: its mean spell is at least %s",
				wr_dur(b, sizeof(b), st->of->spell_lo));
		else
			fprintf(f, "mean spell %s [%s-%s], %.0f switch%s out of it",
				wr_dur(a, sizeof(a), st->of->spell_s), wr_dur(b, sizeof(b), st->of->spell_lo),
				isfinite(st->of->spell_hi) ? wr_dur(c, sizeof(c), st->of->spell_hi) : "unbounded",
				st->switches, st->switches < 1.5 ? "" : "es");
		fprintf(f, "; %zu of %zu short processes mostly in it.\n", st->procs, w->nshort);
	}
	if (two)
		fprintf(f, "Switching inside a process: %zu process%s%s (firm runs of both states).\n",
			w->switching, w->switching == 1 ? "" : "es",
			w->long_switches ? ", the long one among them" : "");
	if (w->where != IC_WATCH_TOO_FEW)
		wr_steadiness(f, w);
	if (two) {
		wr_changes(f, w, 0, w->part);
		wr_changes(f, w, 1, 0);
	}
	wr_elasticities(f, w);
	/* The plain words, last on the console. */
	switch (w->where) {
	case IC_WATCH_TOO_FEW:
		fprintf(f, "Too few samples (%zu short process%s and %zu window%s of the long one) to tell "
			"states apart: watch longer (--minutes).\n", w->nshort, w->nshort == 1 ? "" : "es",
			w->nwindows, w->nwindows == 1 ? "" : "s");
		break;
	case IC_WATCH_ONE_STATE:
		fprintf(f, "One state for these %s (its windows and processes vary by an SD of at most",
			wr_dur(a, sizeof(a), w->t1 - w->t0));
		for (size_t j = 0; j < w->nsites; j++)
			fprintf(f, "%s %.1f%% at N = %lu", j ? "," : "", wr_sd_pct(w->steady[j].h.tau_hi), w->sites[j]);
		fprintf(f, " (95%%): 90%% of moments within ±%.0f%% of the mean; the best two-state fit's "
			"levels are %.1f noise scales apart): this machine gave one answer while watched, and "
			"there is nothing to attribute to a change of state. Whether it stays so over hours, "
			"./run.sh history shows.\n", 100.0 * IC_WATCH_SAME, w->separation);
		break;
	case IC_WATCH_DRIFTS:
	case IC_WATCH_WANDERS:
		wr_spread(f, w, ": no one answer now.\n");
		if (w->where == IC_WATCH_DRIFTS)
			fprintf(f, "It drifts: a straight line in time takes away %.0f%% of its variation beyond "
				"noise at N = %lu (half or more counts as a drift); two states do not describe it "
				"(%s).\n", 100.0 * rs->trend_share, w->sites[w->ref], w->why);
		else
			fprintf(f, "It wanders: two states do not describe it (%s), and a straight line in time "
				"takes away only %.0f%% of its variation beyond noise at N = %lu (a drift would "
				"take half or more).\n", w->why, 100.0 * rs->trend_share, w->sites[w->ref]);
		fputs("A sweep's answer here depends on when it ran: run ./run.sh --repeat 3 --spread 30 and "
		      "trust only what every repeat says, or run on a dedicated or bare-metal host for one "
		      "answer.\n", f);
		break;
	case IC_WATCH_UNBOUNDED:
		wr_spread(f, w, ": no variation shown beyond the noise");
		fprintf(f, " (p = %.2f), but none ruled out: the noise leaves room for an SD of %.1f%% at N = "
			"%lu (95%%), more than one answer allows. Watch longer (--minutes) before trusting one "
			"sweep's answer.\n", rs->h.p, wr_sd_pct(rs->h.tau_hi), w->sites[w->ref]);
		break;
	case IC_WATCH_BRIEF:
		wr_spread(f, w, ": no one answer now.\n");
		fprintf(f, "No firm answer on states: %s. That is too little to say this machine has two "
			"states, and too much to say it has one: watch longer (./run.sh watch --minutes 6) "
			"before trusting one sweep's answer.\n", w->why);
		break;
	case IC_WATCH_BETWEEN:
	case IC_WATCH_INSIDE:
		fprintf(f, "Two states%s: at N = %lu inline/extern is %.2f in one and %.2f in the other.\n",
			w->where == IC_WATCH_BETWEEN ? ", drawn when a process starts and kept while it runs" :
			" that switch while a process runs (the machine changes under the benchmark)",
			w->sites[w->part], w->st[0].ratio[w->part], w->st[1].ratio[w->part]);
		wr_forms_words(f, w, w->part);
		wr_probes_words(f, w);
		fprintf(f, "This machine cannot give one answer now: a sweep's answer depends on when it "
			"ran. Its summary gives the time average over its run, each state's level and where "
			"the faster form changes with the state. For one answer, run on a dedicated or "
			"bare-metal host; here, run ./run.sh --repeat 3 --spread 30 and trust only what "
			"every repeat says.\n");
		break;
	}
}

static json_t *wr_num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

/* A JSON array of elem, an expression of j, for j = 0..n-1. */
#define WR_ARRAY(n, elem) ({ \
	json_t *a_ = json_array(); \
	for (size_t j = 0; j < (n); j++) \
		json_array_append_new(a_, (elem)); \
	a_; \
})

/* A change from state 1 to 2: {ratio, lo, hi, verdict}. */
static json_t *wr_json_change(const struct ic_watch_level *lv)
{
	static const char *const change[] = { "not measured", "none", "slower", "faster", "cannot tell" };

	return json_pack("{s:o,s:o,s:o,s:s}", "ratio", wr_num(lv->change), "lo", wr_num(lv->change_lo), "hi",
			 wr_num(lv->change_hi), "verdict", change[lv->verdict]);
}

/* A form's or probe's elasticity. */
static json_t *wr_json_elastic(const struct ic_watch_elastic *el)
{
	static const char *const v[] = { [IC_MOVES_NOT_READ] = "not read", [IC_MOVES_UNCHANGED] = "unchanged",
		[IC_MOVES_WITH] = "with the ratio", [IC_MOVES_AGAINST] = "against it",
		[IC_MOVES_UNSURE] = "cannot tell" };

	return json_pack("{s:o,s:o,s:o,s:o,s:I,s:o,s:o,s:o,s:s}", "slope", wr_num(el->fit.b), "lo",
			 wr_num(el->fit.lo), "hi", wr_num(el->fit.hi), "r2", wr_num(el->fit.r2), "units",
			 (json_int_t)el->fit.k, "change", wr_num(el->change), "change_lo", wr_num(el->change_lo),
			 "change_hi", wr_num(el->change_hi), "verdict", v[el->verdict]);
}

/* The steadiness test at one N. */
static json_t *wr_json_steady(const struct ic_watch *w, const struct ic_watch_steady *st)
{
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:o,s:o,s:o}",
		"units", (json_int_t)st->h.k, "q", wr_num(st->h.q), "df", wr_num(st->h.df), "p",
		wr_num(st->h.p), "tau", wr_num(st->h.tau), "tau_lo", wr_num(st->h.tau_lo), "tau_hi",
		wr_num(st->h.tau_hi), "noise_sd", wr_num(st->noise_sd), "noise_rho", wr_num(w->noise_rho),
		"steady", st->h.steady,
		"ratio_p10", wr_num(st->p10), "ratio_p90", wr_num(st->p90), "trend_share",
		wr_num(st->trend_share));
}

/* A measured form: its level per state and N, its change and elasticity per N. */
static json_t *wr_json_form(const struct ic_watch *w, const struct ic_watch_form *wf)
{
	json_t *st = json_array();

	for (int s = 0; s < (int)w->nstates && w->nstates == 2; s++)
		json_array_append_new(st, json_pack("{s:o,s:o,s:o}",
			"ns_per_n", WR_ARRAY(w->nsites, wr_num(wf->at[j].ns[s])),
			"lo_per_n", WR_ARRAY(w->nsites, wr_num(wf->at[j].lo[s])),
			"hi_per_n", WR_ARRAY(w->nsites, wr_num(wf->at[j].hi[s]))));
	return json_pack("{s:s,s:o,s:o,s:o}", "form", wf->form, "states", st,
			 "change_per_n", WR_ARRAY(w->nsites, wr_json_change(&wf->at[j])),
			 "elasticity_per_n", WR_ARRAY(w->nsites, wr_json_elastic(&wf->el[j])));
}

/* A short process or a window of the long one. */
static json_t *wr_json_sample(const struct ic_watch *w, const struct ic_watch_sample *s)
{
	return json_pack("{s:s,s:s,s:o,s:o,s:o,s:i}",
		"kind", s->in_long ? "window" : "process", "file", w->res.files[s->file]->path,
		"start_s", wr_num(s->start), "end_s", wr_num(s->end),
		"ratio_per_n", WR_ARRAY(w->nsites, wr_num(s->ratio[j])),
		"state", s->state >= 0 ? s->state + 1 : 0);
}

static json_t *wr_json(const struct ic_watch *w, const char *text)
{
	json_t *states = json_array(), *forms = json_array(), *probes = json_array();
	char cpu[IC_RESULTS_CONTEXT_MAX], host[IC_RESULTS_CONTEXT_MAX];
	int read = w->where == IC_WATCH_DRIFTS || w->where == IC_WATCH_WANDERS;

	for (int s = 0; s < (int)w->nstates; s++) {
		const struct ic_watch_state *st = &w->st[s];

		json_array_append_new(states, json_pack(
			"{s:o,s:o,s:o,s:o,s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o}",
			"ratio_per_n", WR_ARRAY(w->nsites, wr_num(st->ratio[j])),
			"lo_per_n", WR_ARRAY(w->nsites, wr_num(st->lo[j])),
			"hi_per_n", WR_ARRAY(w->nsites, wr_num(st->hi[j])),
			"processes_per_n", WR_ARRAY(w->nsites, json_integer((json_int_t)st->nproc[j])),
			"short_processes", (json_int_t)st->procs, "time_share", wr_num(st->of->share),
			"time_share_lo", wr_num(st->of->share_lo), "time_share_hi", wr_num(st->of->share_hi),
			"mean_spell_s", wr_num(st->of->spell_s), "mean_spell_lo", wr_num(st->of->spell_lo),
			"mean_spell_hi", wr_num(st->of->spell_hi), "switches", wr_num(st->switches)));
	}
	for (size_t k = 0; k < IC_WATCH_NFORMS; k++)
		if (w->forms[k].measured)
			json_array_append_new(forms, wr_json_form(w, &w->forms[k]));
	for (size_t k = 0; k < w->nprobes; k++) {
		const struct ic_watch_probe *p = &w->probes[k];

		json_array_append_new(probes, json_pack("{s:s,s:s?,s:o,s:o,s:o}", "probe", p->name,
			"iteration", p->what, "states", WR_ARRAY(w->nstates == 2 ? 2u : 0u,
				json_pack("{s:o,s:o,s:o,s:I}", "ns", wr_num(p->level.ns[j]),
					  "lo", wr_num(p->level.lo[j]), "hi", wr_num(p->level.hi[j]),
					  "processes", (json_int_t)p->level.nproc[j])),
			"change", wr_json_change(&p->level), "elasticity", wr_json_elastic(&p->el)));
	}
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:o,s:o,s:o,s:I,s:I,s:o,s:o,s:o,s:o,s:o,s:I,s:b,s:o,s:f,s:f,"
			 "s:o,s:s,s:b,s:s,s:o}",
		"cpu_model", ic_results_context(&w->res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu)),
		"host_name", ic_results_context(&w->res, IC_CTX_HOST_NAME, host, sizeof(host)),
		"series", w->series, "compare", w->an.opts.compare, "baseline", w->an.opts.baseline,
		"sites", WR_ARRAY(w->nsites, json_integer((json_int_t)w->sites[j])),
		"start_s", wr_num(w->t0), "end_s", wr_num(w->t1),
		"short_processes", (json_int_t)w->nshort, "long_windows", (json_int_t)w->nwindows,
		"states", states, "forms", forms, "probes", probes,
		"why_one", w->nstates == 1 && w->why ? json_string(w->why) : json_null(),
		"separation_sd", wr_num(w->separation),
		"processes_switching_inside", (json_int_t)w->switching, "long_switches_inside", w->long_switches,
		"steadiness", WR_ARRAY(w->nsites, wr_json_steady(w, &w->steady[j])),
		"one_answer_margin", IC_WATCH_SAME, "one_answer_cover", IC_STEADY_COVER,
		"elasticity_site", read ? json_integer((json_int_t)w->sites[w->ref]) : json_null(),
		"where", ic_watch_where_name(w->where), "one_answer", w->where == IC_WATCH_ONE_STATE,
		"text", text, "samples", WR_ARRAY(w->nsamples, wr_json_sample(w, &w->samples[j])));
}

enum { WR_TXT, WR_JSON, WR_DAT, WR_GP, WR_COUNT };
static const char *const wr_name[WR_COUNT] = { "watch.txt", "watch.json", "plots/watch.dat",
					       "plots/data.gp" };

static int wr_write(const struct ic_watch *w, const char *dir, const char *text)
{
	struct ic_atomic_file af[WR_COUNT] = { 0 }, *bad = NULL;   /* aborting one never opened is harmless */
	char path[PATH_MAX + 32];
	json_t *doc;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/plots", dir);
	if (ic_mkdir_p(path))
		return ic_bad("--out %s: cannot create %s: %s", dir, path, strerror(errno));
	for (int i = 0; i < WR_COUNT && !bad; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, wr_name[i]);
		if (ic_atomic_open(&af[i], path, 0))
			bad = &af[i];
	}
	if (!bad) {
		fputs(text, af[WR_TXT].f);
		doc = wr_json(w, text);
		rc = !doc || json_dumpf(doc, af[WR_JSON].f, JSON_INDENT(1) | JSON_REAL_PRECISION(15));
		json_decref(doc);
		ic_watch_data_write(af[WR_DAT].f, af[WR_GP].f, w);
		/* Every file finished before any is renamed. */
		for (int i = 0; i < 2 * WR_COUNT && !rc && !bad; i++)
			if (i < WR_COUNT ? ic_atomic_finish(&af[i]) : ic_atomic_rename(&af[i - WR_COUNT]))
				bad = &af[i % WR_COUNT];
	}
	if (bad)
		ic_bad("%s", bad->err);
	for (int i = 0; i < WR_COUNT; i++)
		ic_atomic_abort(&af[i]);
	return rc || bad;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *lng = NULL;
	double window = IC_WATCH_WINDOW_S;
	const struct ic_option opts[] = {
		IC_OPTION_STRING("out", &out),
		IC_OPTION_STRING("long", &lng),
		IC_OPTION_DOUBLE("window", &window, 0.0, 3600.0),   /* the long process's windows, s */
		IC_OPTIONS_END,
	};
	struct ic_watch w;
	char err[1024], *text = NULL;
	FILE *mem;
	int rc;

	ic_prog = "watch_report";
	if ((rc = ic_options_parse(argc, argv, opts, wr_usage, "--help")) >= 0)
		return rc;
	if (!out || !*out)
		return ic_bad("--out DIR is required (see --help)");
	if (optind >= argc && !lng)
		return ic_bad("no process files given (see --help)");
	ic_watch_init(&w);
	for (rc = 0; optind < argc && !rc; optind++)
		rc = ic_watch_add_short(&w, argv[optind], err, sizeof(err));
	if (rc || (lng && ic_watch_add_long(&w, lng, window, err, sizeof(err))) ||
	    ic_watch_analyse(&w, err, sizeof(err))) {
		ic_watch_free(&w);
		return ic_bad("%s", err);
	}
	mem = ic_xalloc(open_memstream(&text, &(size_t){ 0 }));
	wr_text(mem, &w);
	fclose(mem);
	if (!(rc = wr_write(&w, out, text)))
		fputs(text, stdout);
	free(text);
	ic_watch_free(&w);
	return rc;
}
