/* summary.md's line on the run's history (engine/run_history.h): whether it
 * agrees with the latest earlier run of this machine and build. */
#include "history_line.h"

#include <math.h>
#include <stdio.h>
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

static void history_states(FILE *f, const struct ic_history_cmp *c)
{
	if (!*c->states_then && !*c->states_now)
		return;
	fprintf(f, "; states then %s, now %s", *c->states_then ? c->states_then : "one",
		*c->states_now ? c->states_now : "one");
}

void ic_history_line(FILE *f, const struct ic_analysis *an)
{
	struct ic_history_cmp c;
	char dir[4096], when[64], err[256];

	if (isfinite(an->opts.planted) || !history_run_dir(an, dir, sizeof(dir)))
		return;
	ic_history_compare(an, dir, &c, err, sizeof(err));
	ic_history_when(when, sizeof(when), c.then_time);
	switch (c.verdict) {
	case IC_HISTORY_SMOKE:
		fprintf(f, "History: a quick run (%s) cannot tell whether it agrees with earlier runs.\n\n",
			c.smoke_why);
		return;
	case IC_HISTORY_FIRST:
		fputs("History: no earlier run of this machine and build in its results directory to "
		      "compare with (./run.sh history lists them).\n\n", f);
		return;
	case IC_HISTORY_NOTHING_SHARED:
		fprintf(f, "History: the run of %s (%s) shares no series and N with this one.\n\n",
			when, history_short(c.then_dir));
		return;
	case IC_HISTORY_AGREES:
		fprintf(f, "Agrees with the run of %s (%s): within %.0f%% at every shared N of %zu "
			"series.\n\n", when, history_short(c.then_dir), 100.0 * IC_AGREE_MARGIN,
			c.nseries);
		return;
	case IC_HISTORY_DIFFERS:
		fprintf(f, "Differs from the run of %s (%s) in %zu of %zu series (Holm over the series): "
			"%s: %s then, %s now", when, history_short(c.then_dir), c.ndiffer, c.nseries,
			c.series, c.bracket_then, c.bracket_now);
		history_states(f, &c);
		if (c.others[0])
			fprintf(f, "; also %s", c.others);
		fputs("; run ./run.sh watch.\n\n", f);
		return;
	case IC_HISTORY_CANNOT_TELL:
		fprintf(f, "Cannot tell whether it agrees with the run of %s (%s): %s: too noisy to "
			"hold within %.0f%% (%s then, %s now", when, history_short(c.then_dir),
			c.series, 100.0 * IC_AGREE_MARGIN, c.bracket_then, c.bracket_now);
		history_states(f, &c);
		fputs(").\n\n", f);
		return;
	}
}
