/* ./run.sh agree (and --repeat's repeat.md), with the engine's statistics
 * (engine/agreement.h). A series is one build's: op/layout/order/threads/
 * mode (/filler:F), the build and the forms compared; runs of two builds
 * are never matched.
 */
#define _GNU_SOURCE
#include "across_runs.h"

#include <gsl/gsl_sort_ulong.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agreement.h"
#include "kit.h"
#include "stats.h"

struct agr_series {
	char *name, *pair;
	const struct ic_series *se[IC_RUNS_MAX];   /* its analysis in each run, or NULL */
};

/* One comparison: a pair of runs on a series, all processes or one
 * state matched by level. */
struct agr_cmp {
	size_t a, b, s;
	int state_a, state_b;      /* -1: all processes */
	const char *state;         /* "all", "low", "high" */
	struct ic_agree ag;
	int differ;                /* its joint test resolved by Holm's step-down over
	                            * every comparison of the report (agr_holm) */
};

struct agr {
	struct ic_run *run;
	size_t k;
	double margin;
	struct agr_series *s;
	size_t ns;
	struct agr_cmp *c;
	size_t nc;
};

/* A series' name: op/layout/order/threads/mode[/filler:F] [its build]. */
static char *agr_series_name(const struct ic_results *res, const struct ic_group *g)
{
	char *s = ic_out_series_id(g);
	const char *sep = " [";

	for (int k = 0; k < IC_B_COUNT; k++) {
		const char *v = res->builds[g->build].v[k];

		if (*v) {
			s = ic_out_append(s, "%s%s %s", sep, ic_ctx_name(ic_ctx_of_build((enum ic_build_key)k)), v);
			sep = "; ";
		}
	}
	return *sep == ';' ? ic_out_append(s, "]") : s;
}

static void agr_match_series(struct agr *x)
{
	for (size_t k = 0; k < x->k; k++) {
		const struct ic_results *res = &x->run[k].res;
		const struct ic_analysis *an = &x->run[k].an;

		for (size_t gi = 0; gi < an->nseries; gi++) {
			char *name = agr_series_name(res, &an->series[gi].group);
			char *pair = ic_out_append(NULL, "%s/%s", an->opts.compare, an->opts.baseline);
			size_t j;

			for (j = 0; j < x->ns && (strcmp(x->s[j].name, name) || strcmp(x->s[j].pair, pair)); j++)
				;
			if (j == x->ns) {
				x->s = ic_xalloc(realloc(x->s, (x->ns + 1) * sizeof(*x->s)));
				x->s[x->ns++] = (struct agr_series){ .name = name, .pair = pair };
			} else {
				free(name);
				free(pair);
			}
			x->s[j].se[k] = &an->series[gi];
		}
	}
}

static void agr_add(struct agr *x, size_t a, size_t b, size_t s, int sa, int sb, const char *state)
{
	struct ic_agree_side side[2];
	struct agr_cmp *c;

	for (int i = 0; i < 2; i++) {
		const struct ic_series *e = x->s[s].se[i ? b : a];
		int st = i ? sb : sa;

		side[i] = (struct ic_agree_side){ e->group.ratios, e->group.nratios, &e->procs, e->states, -1 };
		/* A two-state run's state: its own ratios, from its processes. */
		if (st >= 0 && e->states->nstates == 2)
			side[i] = (struct ic_agree_side){ e->states->st[st].ratios, e->states->st[st].nratios,
							  &e->procs, e->states, st };
	}
	x->c = ic_xalloc(realloc(x->c, (x->nc + 1) * sizeof(*x->c)));
	c = &x->c[x->nc++];
	*c = (struct agr_cmp){ .a = a, .b = b, .s = s, .state_a = sa, .state_b = sb, .state = state };
	ic_agree_compare(&side[0], &side[1], x->margin, &c->ag);
}

/* The states of a two-state series matched by level: both runs' low
 * with low and high with high; a run in one state with the other's
 * state nearest its level. */
static void agr_add_states(struct agr *x, size_t a, size_t b, size_t s)
{
	const struct ic_states *sa = x->s[s].se[a]->states, *sb = x->s[s].se[b]->states;
	static const char *const word[] = { "low", "high" };

	if (sa->nstates == 2 && sb->nstates == 2) {
		agr_add(x, a, b, s, 0, 0, word[0]);
		agr_add(x, a, b, s, 1, 1, word[1]);
	} else if (sa->nstates == 2 || sb->nstates == 2) {
		const struct ic_states *two = sa->nstates == 2 ? sa : sb, *one = two == sa ? sb : sa;
		int near = fabs(log(one->st[0].level / two->st[1].level)) <
			   fabs(log(one->st[0].level / two->st[0].level));

		agr_add(x, a, b, s, two == sa ? near : 0, two == sa ? 0 : near, word[near]);
	}
}

/* "differ" is said over many comparisons (series, states, pairs of runs):
 * Holm's step-down over their joint p-values at IC_AGREE_ALPHA keeps the
 * chance of any false "differ" in the report at 5%. Some comparison, as
 * ic_agree_runs makes sure. */
static void agr_holm(struct agr *x)
{
	double *p = ic_xalloc(malloc(x->nc * sizeof(*p)));
	unsigned char *r = ic_xalloc(malloc(x->nc));

	for (size_t i = 0; i < x->nc; i++)
		p[i] = x->c[i].ag.joint.p;
	ic_stats_holm(p, x->nc, IC_AGREE_ALPHA, r);
	for (size_t i = 0; i < x->nc; i++)
		x->c[i].differ = r[i];
	free(p);
	free(r);
}

static const char *agr_interval(char *buf, size_t cap, double lo, double hi)
{
	if (!isfinite(lo))
		return "—";
	snprintf(buf, cap, "[%.4f–%.4f]", lo, hi);
	return buf;
}

/* Each run's verdict, bracket and states: the head of a series. */
static void agr_series_head(FILE *md, const struct agr *x, const struct agr_series *s)
{
	fputs("|", md);
	for (size_t k = 0; k < x->k; k++)
		if (s->se[k])
			fprintf(md, " | run %zu (%s)", k + 1, x->run[k].name);
	fputs(" |\n|---|", md);
	for (size_t k = 0; k < x->k; k++)
		if (s->se[k])
			fputs("---|", md);
	for (int row = 0; row < 4; row++) {
		fprintf(md, "\n| %s", row == 0 ? "verdict" : row == 1 ? "small-N winner"
				      : row == 2 ? "points resolved compare / baseline / neither" : "states");
		for (size_t k = 0; k < x->k; k++) {
			const struct ic_group *g = s->se[k] ? &s->se[k]->group : NULL;
			const struct ic_states *st = g ? s->se[k]->states : NULL;

			if (!g)
				continue;
			fputs(" | ", md);
			if (row == 0) {
				fputs(ic_verdict_name(g->xo.verdict), md);
				if (isfinite(g->xo.bracket_lo))
					fprintf(md, " (%.0f, %.0f)", g->xo.bracket_lo, g->xo.bracket_hi);
			} else if (row == 1) {
				fputs(ic_out_winner(&x->run[k].an, &g->xo, "—"), md);
			} else if (row == 2) {
				fprintf(md, "%zu / %zu / %zu", g->xo.n_compare, g->xo.n_baseline,
					g->xo.n_unresolved);
			} else if (st->nstates < 2) {
				fputs("one", md);
			} else {
				fputs("two:", md);
				for (int i = 0; i < 2; i++) {
					fprintf(md, "%s %.3f in %zu processes, %s", i ? ";" : "", st->st[i].level,
						st->st[i].nproc, ic_verdict_name(st->st[i].xo.verdict));
					if (isfinite(st->st[i].xo.bracket_lo))
						fprintf(md, " (%.0f, %.0f)", st->st[i].xo.bracket_lo,
							st->st[i].xo.bracket_hi);
				}
			}
		}
		fputs(" |", md);
	}
	fputs("\n", md);
}

/* "6 layout variants", "3 processes". */
static void agr_draws(FILE *f, size_t n, int variants)
{
	fprintf(f, "%zu %s", n, variants ? (n == 1 ? "layout variant" : "layout variants")
					 : (n == 1 ? "process" : "processes"));
}

/* The comparison's verdicts over N, one paragraph. */
static void agr_joint(FILE *md, const struct agr *x, const struct agr_cmp *c)
{
	const struct ic_agree_joint *j = &c->ag.joint;

	if (j->equivalent)
		fprintf(md, "Over N: **equivalent at every N** (%zu N) within ±%g%%", c->ag.npts,
			100.0 * x->margin);
	else
		fprintf(md, "Over N: not equivalent at every N (%zu equivalent, %zu differ, %zu cannot tell, %zu without an interval, of %zu N)",
			j->counts[IC_AGREE_EQUIVALENT], j->counts[IC_AGREE_DIFFER],
			j->counts[IC_AGREE_CANNOT_TELL], j->counts[IC_AGREE_NO_INTERVAL], c->ag.npts);
	if (!isfinite(j->p)) {
		fputs("; any difference: not tested (a run has fewer than two draws at every N).\n", md);
		return;
	}
	fprintf(md, "; any difference: the largest |t| is %.2f (N = %lu); over %s%zu splits of ",
		j->t_max, j->t_sites, j->exact ? "all " : "", j->nsplits);
	agr_draws(md, j->draws_a, j->variants_a);
	fputs(" + ", md);
	agr_draws(md, j->draws_b, j->variants_b);
	fprintf(md, " between the runs, 95%% of the largest |t| fall below %.2f: p = %.3g, %s",
		j->t_95, j->p, c->differ ? "**a difference** (Holm over every comparison here)" :
		j->p <= IC_AGREE_ALPHA ? "no difference shown once corrected for the comparisons' number" :
		"no difference shown");
	if (j->p_min > IC_AGREE_ALPHA)
		fprintf(md, " (these draws cannot give a p below %.2g)", j->p_min);
	fputs(".\n", md);
}

/* One comparison: its table in md, its rows in csv. */
static void agr_comparison(FILE *md, FILE *csv, const struct agr *x, const struct agr_cmp *c)
{
	const struct agr_series *s = &x->s[c->s];
	const struct ic_agree_joint *j = &c->ag.joint;
	size_t sh[4] = { 0, 0, 0, 0 };
	double share_p;

	/* The state shares: each run's processes in the state it matched, and
	 * all of them; Fisher's p of the two (NAN for all processes). */
	for (int i = 0; i < 2 && c->state_a >= 0; i++) {
		const struct ic_states *st = s->se[i ? c->b : c->a]->states;

		sh[2 * i + 1] = st->st[0].nproc + (st->nstates == 2 ? st->st[1].nproc : 0);
		sh[2 * i] = st->nstates == 2 ? st->st[i ? c->state_b : c->state_a].nproc : sh[2 * i + 1];
	}
	share_p = c->state_a < 0 ? NAN : ic_agree_fisher(sh[0], sh[1], sh[2], sh[3]);
	fprintf(md, "\n### run %zu against run %zu", c->b + 1, c->a + 1);
	if (c->state_a < 0 && (s->se[c->a]->states->nstates == 2 || s->se[c->b]->states->nstates == 2))
		fputs(": all processes, both states pooled", md);
	else if (c->state_a >= 0)
		fprintf(md, ": the %s state (run %zu: %zu of %zu processes; run %zu: %zu of %zu)", c->state,
			c->a + 1, sh[0], sh[1], c->b + 1, sh[2], sh[3]);
	fprintf(md, "\n\n| N | run %zu ratio [95%% CI] | run %zu ratio [95%% CI] | run %zu / run %zu [90%% CI] | [95%% CI] | verdict |\n"
		"|---:|---|---|---|---|---|\n", c->a + 1, c->b + 1, c->b + 1, c->a + 1);
	for (size_t i = 0; i < c->ag.npts; i++) {
		const struct ic_agree_point *pt = &c->ag.pts[i];
		const double v[] = { pt->a->ratio, pt->b->ratio, exp(pt->d), pt->lo90, pt->hi90, pt->lo95,
				     pt->hi95 };
		char i90[64], i95[64];

		fprintf(md, "| %lu | ", pt->sites);
		ic_out_ratio(md, pt->a);
		fputs(" | ", md);
		ic_out_ratio(md, pt->b);
		fprintf(md, " | %.4f %s | %s | %s |\n", exp(pt->d), agr_interval(i90, sizeof(i90), pt->lo90, pt->hi90),
			agr_interval(i95, sizeof(i95), pt->lo95, pt->hi95), ic_agree_verdict_name(pt->verdict));

		ic_csv_quoted(csv, s->name);
		fputc(',', csv);
		ic_csv_quoted(csv, s->pair);
		fprintf(csv, ",%s,", c->state);
		ic_csv_quoted(csv, x->run[c->a].name);
		fputc(',', csv);
		ic_csv_quoted(csv, x->run[c->b].name);
		fprintf(csv, ",%lu", pt->sites);
		for (size_t f = 0; f < sizeof(v) / sizeof(v[0]); f++)
			ic_out_num(csv, v[f], ",%.6f", ",");
		ic_out_num(csv, pt->df, ",%.4g", ",");
		ic_out_num(csv, x->margin, ",%g", ",");
		fprintf(csv, ",%s,%d", ic_agree_verdict_name(pt->verdict), j->equivalent);
		ic_out_num(csv, j->t_max, ",%.4g", ",");
		ic_out_num(csv, j->p, ",%.4g", ",");
		fputc('\n', csv);
	}
	fputc('\n', md);
	agr_joint(md, x, c);
	if (isfinite(share_p))
		fprintf(md, "\nThe state's share: run %zu %zu of %zu processes, run %zu %zu of %zu: %s (Fisher's exact test, p = %.3g).\n",
			c->a + 1, sh[0], sh[1], c->b + 1, sh[2], sh[3],
			share_p <= IC_AGREE_ALPHA ? "**the runs' state shares differ**" : "alike", share_p);
}

/* The one line that ends repeat.md and the console summary. */
static void agr_sentence(FILE *f, const struct agr *x)
{
	size_t n[3] = { 0, 0, 0 }, pts[4] = { 0, 0, 0, 0 };

	for (size_t i = 0; i < x->nc; i++) {
		const struct ic_agree_joint *j = &x->c[i].ag.joint;

		n[j->equivalent ? 0 : x->c[i].differ ? 1 : 2]++;
		for (int v = 0; v < 4; v++)
			pts[v] += j->counts[v];
	}
	fprintf(f, "Of %zu comparisons (series and their states, every pair of %zu runs): %zu equivalent at every N within ±%g%%, %zu with a difference (joint tests, Holm at 5%% over the %zu), %zu cannot tell; of their N: %zu equivalent, %zu differ, %zu cannot tell, %zu without an interval.\n",
		x->nc, x->k, n[0], 100.0 * x->margin, n[1], x->nc, n[2], pts[IC_AGREE_EQUIVALENT],
		pts[IC_AGREE_DIFFER], pts[IC_AGREE_CANNOT_TELL], pts[IC_AGREE_NO_INTERVAL]);
}

static void agr_summary(FILE *f, const struct agr *x, int detail_written)
{
	for (size_t k = 0; k < x->k; k++)
		fprintf(f, "run %zu: %s (%s)\n", k + 1, x->run[k].name, x->run[k].from);
	for (size_t i = 0; i < x->nc; i++) {
		const struct agr_cmp *c = &x->c[i];
		const struct ic_agree_joint *j = &c->ag.joint;

		fprintf(f, "%s: %s%s%s, run %zu against run %zu: %s", x->s[c->s].name, x->s[c->s].pair,
			c->state_a >= 0 ? ", " : "", c->state_a >= 0 ? c->state : "", c->b + 1, c->a + 1,
			j->equivalent ? "equivalent" : c->differ ? "differ" : "cannot tell");
		if (j->equivalent)
			fprintf(f, " at every N within ±%g%%", 100.0 * x->margin);
		else
			fprintf(f, " (of %zu N: %zu equivalent, %zu differ, %zu cannot tell)", c->ag.npts,
				j->counts[IC_AGREE_EQUIVALENT], j->counts[IC_AGREE_DIFFER],
				j->counts[IC_AGREE_CANNOT_TELL]);
		if (isfinite(j->p))
			fprintf(f, "; joint p = %.3g", j->p);
		fputs(".\n", f);
	}
	if (!detail_written)
		fputs("(The detail per N: ./run.sh agree --out DIR with the same runs.)\n", f);
	agr_sentence(f, x);
}

/* The chart's data: per series, each run's ratio per N and their spread. */
static void agr_chart_data(FILE *dat, FILE *gp, const struct agr *x)
{
	fprintf(gp, "ic_k = %zu\narray ic_series[%zu]\n", x->k, x->ns);
	for (size_t s = 0; s < x->ns; s++) {
		unsigned long *n = NULL;
		size_t nn = 0;

		/* Double quotes: the build goes on a line of its own. */
		fprintf(gp, "ic_series[%zu] = \"", s + 1);
		for (const char *c = x->s[s].name; *c; c++)
			fprintf(gp, c[0] == ' ' && c[1] == '[' ? "\\n" : c[0] == '"' || c[0] == '\\' ? "'" : "%c", *c);
		fputs("\"\n", gp);
		/* Every run's N, ascending, each once. */
		for (size_t k = 0; k < x->k; k++)
			for (size_t i = 0; x->s[s].se[k] && i < x->s[s].se[k]->group.nratios; i++) {
				n = ic_xrealloc(n, nn + 1, sizeof(*n));
				n[nn++] = x->s[s].se[k]->group.ratios[i].sites;
			}
		gsl_sort_ulong(n, 1, nn);
		for (size_t i = 0; i < nn; i++) {
			double r[IC_RUNS_MAX], mn = INFINITY, mx = -INFINITY;

			if (i && n[i] == n[i - 1])
				continue;
			for (size_t k = 0; k < x->k; k++) {
				const struct ic_group *g = x->s[s].se[k] ? &x->s[s].se[k]->group : NULL;
				const struct ic_ratio *ra = g ? ic_agree_ratio_at(g->ratios, g->nratios, n[i]) : NULL;

				r[k] = ra ? ra->ratio : NAN;
				mn = ra ? fmin(mn, r[k]) : mn;
				mx = ra ? fmax(mx, r[k]) : mx;
			}
			fprintf(dat, "%lu ", n[i]);
			ic_out_num(dat, mn > 0.0 && isfinite(mx) ? mx / mn : NAN, "%.6g", "NaN");
			fprintf(dat, " %zu", s + 1);
			for (size_t k = 0; k < x->k; k++)
				fprintf(dat, isfinite(r[k]) ? " %.6f" : " NaN", r[k]);
			fputc('\n', dat);
		}
		fputs("\n\n", dat);
		free(n);
	}
}

/* repeat.md, repeat.csv and the chart into out, whole. */
static void agr_write(const struct agr *x, const char *out)
{
	struct ic_out_dir d;
	char err[1024];
	FILE *md, *csv, *dat, *gp;
	int rc;

	ic_out_dir_begin(&d, out, (const char *[]){ "repeat.md", "repeat.csv", "repeat.dat", "data.gp" },
			 (FILE **[]){ &md, &csv, &dat, &gp }, 4);
	fprintf(md, "# Agreement of %zu runs\n\n| run | directory | from | CPU model | date |\n|---:|---|---|---|---|\n",
		x->k);
	for (size_t k = 0; k < x->k; k++) {
		char cpu[IC_RESULTS_CONTEXT_MAX], date[IC_RESULTS_CONTEXT_MAX];

		fprintf(md, "| %zu | %s | %s | %s | %s |\n", k + 1, x->run[k].name, x->run[k].from,
			ic_results_context(&x->run[k].res, IC_CTX_CPU_MODEL, cpu, sizeof(cpu)),
			ic_results_context(&x->run[k].res, IC_CTX_DATE, date, sizeof(date)));
	}
	fprintf(md, "\nPer series (one build's; runs of different builds are never matched) and N, run b against run a: the ratio of their ratios rb / ra, with its interval from each run's nested estimate (its draws: the layout variants, or the processes when it ran one variant; Welch's degrees of freedom). "
		"**equivalent**: the 90%% interval lies within ±%g%% (1/%g to %g: two one-sided tests at 5%%); **differ**: the 95%% interval excludes 1; **cannot tell**: neither, too noisy to say. "
		"Over a series' N: *equivalent at every N* when each N is; *any difference*: the largest |t| over N against its distribution when whole draws are shuffled between the two runs (every split, or %d from a fixed seed), which keeps the N's correlation. "
		"A series whose processes split into two states is also compared state by state, the states matched by level.\n",
		100.0 * x->margin, 1.0 + x->margin, 1.0 + x->margin, IC_AGREE_PERMUTATIONS);
	fputs("series,forms,state,run_a,run_b,sites,ratio_a,ratio_b,ratio_b_over_a,ci90_lo,ci90_hi,ci95_lo,ci95_hi,df,margin,verdict,every_n_equivalent,t_max,joint_p\n",
	      csv);
	for (size_t s = 0, listed = 0; s < x->ns; s++) {
		size_t in = 0;

		for (size_t k = 0; k < x->k; k++)
			in += x->s[s].se[k] != NULL;
		if (in == x->k)
			continue;
		fprintf(md, "%s- %s: %s only in run", listed++ ? "" : "\nNot in every run:\n\n",
			x->s[s].name, x->s[s].pair);
		for (size_t k = 0, n = 0; k < x->k; k++)
			if (x->s[s].se[k])
				fprintf(md, "%s %zu", n++ ? "," : "", k + 1);
		fputc('\n', md);
	}
	for (size_t s = 0; s < x->ns; s++) {
		fprintf(md, "\n## %s: %s\n\n", x->s[s].name, x->s[s].pair);
		agr_series_head(md, x, &x->s[s]);
		for (size_t i = 0; i < x->nc; i++)
			if (x->c[i].s == s)
				agr_comparison(md, csv, x, &x->c[i]);
	}
	fputc('\n', md);
	agr_sentence(md, x);
	agr_chart_data(dat, gp, x);
	/* data.gp: the chart's settings, not a result */
	rc = ic_out_dir_finish(&d, "agree", "", "repeat", (const char *[]){ "png" }, 1, "data.gp", err, sizeof(err));
	if (rc < 0)
		fputs("agree: no gnuplot: tables written, no chart (apt-get install gnuplot-nox)\n", stderr);
	else if (rc == 0)
		fprintf(stderr, "agree: chart failed: %s; the tables are written\n", err);
}

int ic_agree_runs(struct ic_run *run, size_t k, double margin, const char *out)
{
	static struct agr x;

	x = (struct agr){ .run = run, .k = k, .margin = margin };
	agr_match_series(&x);
	for (size_t a = 0; a < x.k; a++)
		for (size_t b = a + 1; b < x.k; b++)
			for (size_t s = 0; s < x.ns; s++)
				if (x.s[s].se[a] && x.s[s].se[b]) {
					agr_add(&x, a, b, s, -1, -1, "all");
					agr_add_states(&x, a, b, s);
				}
	if (x.nc == 0) {
		/* Nothing to say: one line, as for bad input, but not a usage error. */
		fputs("agree: no series is in two of the runs (a series is one build's: runs of different builds are never matched):", stderr);
		for (size_t s = 0; s < x.ns; s++) {
			fprintf(stderr, "%s %s in run", s ? ";" : "", x.s[s].name);
			for (size_t i = 0, n = 0; i < x.k; i++)
				if (x.s[s].se[i])
					fprintf(stderr, "%s %zu", n++ ? "," : "", i + 1);
		}
		fputs(".\n", stderr);
		return 1;
	}
	agr_holm(&x);
	agr_summary(stdout, &x, out != NULL);
	if (out)
		agr_write(&x, out);
	for (size_t i = 0; i < x.nc; i++)
		ic_agree_free(&x.c[i].ag);
	return 0;
}
