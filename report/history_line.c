/* summary.md's line on the run's history (engine/run_history.h): whether it
 * agrees with the latest earlier run of this machine and build. */
#include "history_line.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agreement.h"
#include "run_history.h"

/* The run's directory: its processes are DIR/raw/NAME.json beside
 * DIR/run.conf. 0 when the run is not laid out so (tests, loose files). */
static int history_run_dir(const struct ic_analysis *an, char *dir, size_t cap)
{
	const char *path, *slash;
	char conf[4200];
	struct stat st;
	size_t len;

	if (!an->res->nfiles || !(path = an->res->files[0]->path) || !(slash = strrchr(path, '/')))
		return 0;
	len = (size_t)(slash - path);
	if (len < 4 || strncmp(slash - 4, "/raw", 4) || len - 4 >= cap)
		return 0;
	memcpy(dir, path, len - 4);
	dir[len - 4] = '\0';
	snprintf(conf, sizeof(conf), "%s/run.conf", dir);
	return stat(conf, &st) == 0;
}

/* results/NAME for a run in a results/ directory, else the path. */
static const char *history_short(const char *dir)
{
	const char *r = strstr(dir, "/results/");

	return r ? r + 1 : dir;
}

static void history_name(FILE *f, const struct ic_group *g)
{
	fprintf(f, "%s %s/%s, %lu thread%s, %s", g->op, g->layout, g->order, g->threads,
		g->threads == 1 ? "" : "s", g->mode);
	if (g->filler)
		fprintf(f, ", %lu B filler", g->filler);
}

/* The series d's name, then mid, its answer then and now, and its states
 * if two. */
static void history_detail(FILE *f, const struct ic_history_series *d, const struct ic_analysis *then,
			   const struct ic_analysis *now, const char *mid)
{
	char bt[96], bn[96], st[160], sn[160];

	history_name(f, &d->now->group);
	fprintf(f, ": %s%s then, %s now", mid, ic_history_bracket(bt, sizeof(bt), &d->then->group.xo, &then->opts),
		ic_history_bracket(bn, sizeof(bn), &d->now->group.xo, &now->opts));
	ic_history_states(st, sizeof(st), d->then);
	if (*ic_history_states(sn, sizeof(sn), d->now) || *st)
		fprintf(f, "; states then %s, now %s", *st ? st : "one", *sn ? sn : "one");
}

void ic_history_line(FILE *f, const struct ic_analysis *an)
{
	char dir[4096], then_dir[4096], when[64], why[96], mid[64];
	struct ic_history_series *h;
	struct ic_run then;
	size_t m, ndiff, u;
	double t;

	if (isfinite(an->opts.planted) || !history_run_dir(an, dir, sizeof(dir)))
		return;
	if (ic_analysis_smoke(an, why, sizeof(why))) {
		fprintf(f, "History: a quick run (%s) cannot tell whether it agrees with earlier runs.\n\n", why);
		return;
	}
	if (ic_history_earlier(an, dir, &then, then_dir, sizeof(then_dir), &t)) {
		fputs("History: no earlier run of this machine and build in its results directory to "
		      "compare with (./run.sh history lists them).\n\n", f);
		return;
	}
	ic_history_when(when, sizeof(when), t);
	m = ic_history_against(an, &then.an, &h, &ndiff);
	/* Else the first series that cannot tell. */
	for (u = ndiff; u < m && h[u].equivalent; u++)
		;
	if (!m) {
		fprintf(f, "History: the run of %s (%s) shares no series and N with this one.\n\n",
			when, history_short(then_dir));
	} else if (ndiff) {
		fprintf(f, "Differs from the run of %s (%s) in %zu of %zu series (Holm over the series): ",
			when, history_short(then_dir), ndiff, m);
		history_detail(f, &h[0], &then.an, an, "");
		for (size_t i = 1; i < ndiff; i++) {
			fputs(i == 1 ? "; also " : "; ", f);
			history_name(f, &h[i].now->group);
		}
		fputs("; run ./run.sh watch.\n\n", f);
	} else if (u < m) {
		fprintf(f, "Cannot tell whether it agrees with the run of %s (%s): ", when, history_short(then_dir));
		snprintf(mid, sizeof(mid), "too noisy to hold within %.0f%% (", 100.0 * IC_AGREE_MARGIN);
		history_detail(f, &h[u], &then.an, an, mid);
		fputs(").\n\n", f);
	} else {
		fprintf(f, "Agrees with the run of %s (%s): within %.0f%% at every shared N of %zu "
			"series.\n\n", when, history_short(then_dir), 100.0 * IC_AGREE_MARGIN, m);
	}
	free(h);
	ic_run_free(&then);
}
