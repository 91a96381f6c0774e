/* agree: how far runs of the same sweep agree (./run.sh agree, and
 * --repeat's repeat.md). The statistics are the engine's (engine/agreement.h);
 * this front matches the runs' series, prints a short summary and, with
 * --out, writes the detail.
 *
 * A series is one build's: op/layout/order/threads/mode (/filler:F), the
 * build and the forms compared; runs of two builds are never matched.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agree_report.h"
#include "kit.h"
#include "out_dir.h"

/* The user's help is ./run.sh agree --help (run.sh); this program is
 * what it runs. */
static const char agr_usage[] =
	"Usage: agree [--margin PCT] [--out DIR] RUN RUN... (run by ./run.sh agree;\n"
	"./run.sh agree --help says what it takes and writes).\n";

/* A series' name: op/layout/order/threads/mode[/filler:F] [its build]. */
static char *agr_series_name(const struct ic_results *res, const struct ic_group *g)
{
	char *s = NULL;
	size_t len;
	FILE *f = ic_xalloc(open_memstream(&s, &len));
	const char *sep = " [";

	fprintf(f, "%s/%s/%s/%lu/%s", g->op, g->layout, g->order, g->threads, g->mode);
	if (g->filler)
		fprintf(f, "/filler:%lu", g->filler);
	for (int k = 0; k < IC_B_COUNT; k++) {
		const char *v = res->builds[g->build].v[k];

		if (*v) {
			fprintf(f, "%s%s %s", sep, ic_ctx_name(ic_ctx_of_build((enum ic_build_key)k)), v);
			sep = "; ";
		}
	}
	if (strcmp(sep, " ["))
		fputc(']', f);
	fclose(f);
	return ic_xalloc(s);
}

static void agr_match_series(struct agr *x)
{
	for (size_t k = 0; k < x->k; k++) {
		const struct ic_results *res = &x->run[k].res;
		const struct ic_analysis *an = &x->run[k].an;

		for (size_t gi = 0; gi < an->nseries; gi++) {
			char *name = agr_series_name(res, &an->series[gi].group), *pair;
			size_t j;

			if (asprintf(&pair, "%s/%s", an->opts.compare, an->opts.baseline) < 0)
				ic_xalloc(NULL);
			for (j = 0; j < x->ns && (strcmp(x->s[j].name, name) || strcmp(x->s[j].pair, pair)); j++)
				;
			if (j == x->ns) {
				x->s = ic_xalloc(realloc(x->s, (x->ns + 1) * sizeof(*x->s)));
				x->s[x->ns++] = (struct agr_series){ .name = name, .pair = pair };
			} else {
				free(name);
				free(pair);
			}
			x->s[j].g[k] = &an->series[gi].group;
			x->s[j].se[k] = &an->series[gi];
		}
	}
}

static void agr_add(struct agr *x, size_t a, size_t b, size_t s, int sa, int sb, const char *state)
{
	const struct ic_series *ea = x->s[s].se[a], *eb = x->s[s].se[b];
	const struct ic_group *ga = &ea->group, *gb = &eb->group;
	struct ic_agree_side side[2] = {
		{ ga->ratios, ga->nratios, &ea->procs, ea->states, sa },
		{ gb->ratios, gb->nratios, &eb->procs, eb->states, sb },
	};
	struct agr_cmp *c;

	/* A two-state run's state: its own ratios, from its processes. */
	if (sa >= 0 && ea->states->nstates == 2)
		side[0].ratios = ea->states->st[sa].ratios, side[0].nratios = ea->states->st[sa].nratios;
	else
		side[0].state = -1;
	if (sb >= 0 && eb->states->nstates == 2)
		side[1].ratios = eb->states->st[sb].ratios, side[1].nratios = eb->states->st[sb].nratios;
	else
		side[1].state = -1;
	x->c = ic_xalloc(realloc(x->c, (x->nc + 1) * sizeof(*x->c)));
	c = &x->c[x->nc++];
	*c = (struct agr_cmp){ .a = a, .b = b, .s = s, .state_a = sa, .state_b = sb, .state = state };
	if (ic_agree_compare(&side[0], &side[1], x->margin, &c->ag))
		ic_xalloc(NULL);
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
	} else if (sa->nstates == 2) {
		int near = fabs(log(sb->st[0].level / sa->st[1].level)) <
			   fabs(log(sb->st[0].level / sa->st[0].level));

		agr_add(x, a, b, s, near, 0, word[near]);
	} else if (sb->nstates == 2) {
		int near = fabs(log(sa->st[0].level / sb->st[1].level)) <
			   fabs(log(sa->st[0].level / sb->st[0].level));

		agr_add(x, a, b, s, 0, near, word[near]);
	}
}

int main(int argc, char **argv)
{
	static struct agr x = { .margin = IC_AGREE_MARGIN };
	double margin_pct = 100.0 * IC_AGREE_MARGIN;   /* --margin PCT: the % runs may differ and agree */
	const char *out = NULL;
	const struct ic_option opts[] = {
		IC_OPTION_STRING("out", &out),
		IC_OPTION_DOUBLE("margin", &margin_pct, 0.0, 100.0),
		IC_OPTIONS_END,
	};
	char err[1024];
	int rc;

	ic_prog = "agree";
	if ((rc = ic_options_parse(argc, argv, opts, agr_usage, "./run.sh agree --help")) >= 0)
		return rc;
	x.margin = margin_pct / 100.0;
	if (argc - optind < 2)
		return ic_bad("give two or more results directories or their .tar.gz exports (see ./run.sh agree --help).");
	if (argc - optind > AGR_MAX_RUNS)
		return ic_bad("at most %d runs at once.", AGR_MAX_RUNS);
	if (out && ic_out_dir_check(out, err, sizeof(err)))
		return ic_bad("%s.", err);
	for (; optind < argc; optind++, x.k++)
		if (ic_run_open(&x.run[x.k], argv[optind], err, sizeof(err)))
			return ic_bad("%s.", err);
	agr_match_series(&x);
	for (size_t a = 0; a < x.k; a++)
		for (size_t b = a + 1; b < x.k; b++)
			for (size_t s = 0; s < x.ns; s++)
				if (x.s[s].g[a] && x.s[s].g[b]) {
					agr_add(&x, a, b, s, -1, -1, "all");
					agr_add_states(&x, a, b, s);
				}
	if (x.nc == 0) {
		/* Nothing to say: one line, as for bad input, but not a usage error. */
		fputs("agree: no series is in two of the runs (a series is one build's: runs of different builds are never matched):", stderr);
		for (size_t s = 0; s < x.ns; s++) {
			fprintf(stderr, "%s %s in run", s ? ";" : "", x.s[s].name);
			for (size_t k = 0, n = 0; k < x.k; k++)
				if (x.s[s].g[k])
					fprintf(stderr, "%s %zu", n++ ? "," : "", k + 1);
		}
		fputs(".\n", stderr);
		rc = 1;
	} else {
		rc = agr_report(&x, out);
	}
	for (size_t i = 0; i < x.nc; i++)
		ic_agree_free(&x.c[i].ag);
	for (size_t k = 0; k < x.k; k++)
		ic_run_free(&x.run[k]);
	return rc;
}
