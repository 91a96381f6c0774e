/* ./run.sh history: when, the design, each series' crossover bracket and
 * states (engine/run_history.h). Prints only; writes nothing. */
#define _GNU_SOURCE
#include "across_runs.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "kit.h"
#include "load.h"
#include "run_history.h"

/* The run's own verdict on its history, as its summary.md said it when
 * the run was made (history_line.c's line), indented; nothing without one. */
static void hi_verdict(const char *dir)
{
	static const char *const starts[] = { "Agrees with", "Differs from", "Cannot tell",
					      "History:" };
	char path[4200], line[2048];
	FILE *f;

	snprintf(path, sizeof(path), "%s/summary.md", dir);
	if (!(f = fopen(path, "r")))
		return;
	/* The first screen only: the line comes before the evidence. */
	while (fgets(line, sizeof(line), f) && strncmp(line, "## Evidence", 11))
		for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++)
			if (!strncmp(line, starts[i], strlen(starts[i]))) {
				printf("    %s", line);
				break;
			}
	fclose(f);
}

int ic_history_list(const char *dir, int all, const char *cpu)
{
	char err[1024], host[256] = "";
	struct ic_history_run *runs;
	size_t n, shown = 0;

	if (ic_history_runs(dir, &runs, &n, err, sizeof(err)))
		return ic_bad("%s", err);
	gethostname(host, sizeof(host) - 1);
	for (size_t i = 0; i < n; i++) {
		char when[64], ctx[IC_RESULTS_CONTEXT_MAX], ctx2[IC_RESULTS_CONTEXT_MAX], why[96];
		char mach[2048];
		const char *v, *p;
		struct ic_run run;   /* ic_run_open zeroes it */
		int smoke;

		if (ic_run_open(&run, runs[i].dir, err, sizeof(err))) {
			if (all)
				printf("%s: not readable: %s\n", runs[i].name, err);
			ic_run_free(&run);
			continue;
		}
		/* The context's text, not necessarily in the buffer. */
		if (!all && (strcmp(ic_results_context(&run.res, IC_CTX_HOST_NAME, ctx, sizeof(ctx)), host) ||
			     strcmp(ic_results_context(&run.res, IC_CTX_CPU_MODEL, ctx2, sizeof(ctx2)), cpu))) {
			ic_run_free(&run);
			continue;
		}
		smoke = ic_analysis_smoke(&run.an, why, sizeof(why));
		v = ic_run_conf(&run, "layouts_random");
		p = ic_run_conf(&run, "processes");
		printf("%s  %s  %s layout variant%s x %s process%s%s\n",
		       ic_history_when(when, sizeof(when), runs[i].time), runs[i].dir,
		       *v ? v : "?", strcmp(v, "1") ? "s" : "", *p ? p : "?", strcmp(p, "1") ? "es" : "",
		       smoke ? " (quick: too small for a verdict)" : "");
		if (all)
			printf("    machine: %s\n", ic_history_machine(&run.res, mach, sizeof(mach)));
		for (size_t s = 0; s < run.an.nseries; s++) {
			const struct ic_series *se = &run.an.series[s];
			const struct ic_group *g = &se->group;
			char br[96], st[160];

			/* A smoke run decides no side: its series say so, not a side. */
			if (g->nratios)
				printf("    %s %s/%s%s, %lu thread%s, %s: %s%s%s\n", g->op, g->layout, g->order,
				       g->filler ? " with filler" : "", g->threads, g->threads == 1 ? "" : "s", g->mode,
				       smoke ? "no side decided" : ic_history_bracket(br, sizeof(br), &g->xo, &run.an.opts),
				       *ic_history_states(st, sizeof(st), se) ? "; two states: " : "", st);
		}
		hi_verdict(runs[i].dir);
		ic_run_free(&run);
		shown++;
	}
	if (!shown)
		printf("No runs of this machine (%s, %s) in %s.\n", *cpu ? cpu : "CPU unknown", host, dir);
	ic_history_runs_free(runs, n);
	return 0;
}
