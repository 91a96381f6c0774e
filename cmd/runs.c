/* runs: the work across runs of the sweep, a mode each (compare, agree, history, export) for
 * ./run.sh's subcommands of those names (scripts/runs.sh). A RUN is a results directory or its
 * .tar.gz export. Here each mode's options (its row of the table below) and runs are opened, and
 * history's list made; compare/ does the rest (across_runs.h). Help: ./run.sh MODE --help
 * (scripts/help/MODE.txt). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agreement.h"
#include "kit.h"
#include "across_runs.h"
#include "run_history.h"
#include "topology.h"

static struct {
	const char *out, *results;
	double margin_pct;   /* agree: the % by which two runs may differ and agree */
	int all;
} opt = { .results = "results", .margin_pct = 100.0 * IC_AGREE_MARGIN };

static struct ic_run run[IC_RUNS_MAX];
static size_t nrun;

/* compare and agree: the operands' runs opened (after --out's checks), then the
 * mode's work. The exit status; one line first when a run cannot be read. */
static int runs_across(char **operand, int n)
{
	int compare = !strcmp(ic_prog, "compare");
	char err[1024];

	if (n < 2)
		return ic_bad("give two or more results directories or their .tar.gz exports (see ./run.sh %s --help).",
			      ic_prog);
	if (n > IC_RUNS_MAX)
		return ic_bad("at most %d runs at once.", IC_RUNS_MAX);
	if (compare && !opt.out)
		return ic_bad("--out DIR is required.");
	if (opt.out && ic_out_dir_check(opt.out))
		return 2;
	for (; nrun < (size_t)n; nrun++)
		if (ic_run_open(&run[nrun], operand[nrun], err, sizeof(err)))
			return ic_bad("%s.", err);
	return compare ? ic_compare_runs(run, nrun, opt.out)
		       : ic_agree_runs(run, nrun, opt.margin_pct / 100.0, opt.out);
}

/* The run's verdict on its history as its summary.md said it (run_history.c's
 * line), indented; nothing without one. */
static void runs_history_verdict(const char *dir)
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

/* ./run.sh history: this machine's runs in --results (--all: every machine's,
 * named), newest first: when, the design, each series' crossover bracket and
 * states (engine/run_history.h). Prints only. */
static int runs_history(char **operand, int n)
{
	struct ic_topo_info machine = { .cpu_model = "" };
	char *cpu = machine.cpu_model, err[1024], host[256] = "";
	struct ic_history_run *runs;
	size_t len, nr, shown = 0;

	if (n)
		return ic_bad("unexpected argument '%s' (see ./run.sh history --help)", operand[0]);
	if (!*opt.results)
		return ic_bad("--results needs a directory");
	/* This machine's CPU model from the bench's source, hwloc, trimmed as load.c does. */
	if (!ic_topo_open())
		ic_topo_describe(&machine);
	for (len = strlen(cpu); len && strchr(" \t\n", cpu[len - 1]); len--)
		cpu[len - 1] = '\0';
	cpu += strspn(cpu, " \t");
	if (ic_history_runs(opt.results, &runs, &nr, err, sizeof(err)))
		return ic_bad("%s", err);
	gethostname(host, sizeof(host) - 1);
	for (size_t i = 0; i < nr; i++) {
		char when[64], ctx[IC_RESULTS_CONTEXT_MAX], ctx2[IC_RESULTS_CONTEXT_MAX], why[96];
		char mach[2048];
		const char *v, *p;
		struct ic_run run;   /* ic_run_open zeroes it */
		int unread = ic_run_open(&run, runs[i].dir, err, sizeof(err)), smoke;

		if (unread && opt.all)
			printf("%s: not readable: %s\n", runs[i].name, err);
		/* The context's text, not necessarily in the buffer. */
		if (unread || (!opt.all && (strcmp(ic_results_context(&run.res, IC_CTX_HOST_NAME, ctx, sizeof(ctx)), host) ||
					    strcmp(ic_results_context(&run.res, IC_CTX_CPU_MODEL, ctx2, sizeof(ctx2)), cpu)))) {
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
		if (opt.all)
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
		runs_history_verdict(runs[i].dir);
		ic_run_free(&run);
		shown++;
	}
	if (!shown)
		printf("No runs of this machine (%s, %s) in %s.\n", *cpu ? cpu : "CPU unknown", host, opt.results);
	ic_history_runs_free(runs, nr);
	return 0;
}

/* Each mode: its usage, its work and its options, a row each. */
static const struct runs_mode {
	const char *name, *usage;
	int (*run)(char **operand, int n);
	const struct ic_option *opts;
} runs_modes[] = {
	{ "compare", "--out DIR RUN RUN...", runs_across, (const struct ic_option[]){
		IC_OPTION_STRING("out", &opt.out), IC_OPTIONS_END } },
	{ "agree", "[--margin PCT] [--out DIR] RUN RUN...", runs_across, (const struct ic_option[]){
		IC_OPTION_STRING("out", &opt.out),
		IC_OPTION_DOUBLE("margin", &opt.margin_pct, 0.0, 100.0), IC_OPTIONS_END } },
	{ "history", "[--results DIR] [--all]", runs_history, (const struct ic_option[]){
		IC_OPTION_STRING("results", &opt.results), IC_OPTION_FLAG("all", &opt.all), IC_OPTIONS_END } },
	{ "export", "DIR", ic_export_run, (const struct ic_option[]){ IC_OPTIONS_END } },
};

int main(int argc, char **argv)
{
	char usage[256], help[64];

	for (size_t i = 0; argc > 1 && i < sizeof(runs_modes) / sizeof(runs_modes[0]); i++) {
		const struct runs_mode *m = &runs_modes[i];
		int rc;

		if (strcmp(argv[1], m->name))
			continue;
		ic_prog = m->name;
		snprintf(usage, sizeof(usage),
			 "Usage: runs %s %s (run by ./run.sh %s;\n./run.sh %s --help says what it takes and does).\n",
			 m->name, m->usage, m->name, m->name);
		snprintf(help, sizeof(help), "./run.sh %s --help", m->name);
		/* argv[1], the mode, stands where getopt looks for the program's name */
		if ((rc = ic_options_parse(argc - 1, argv + 1, m->opts, usage, help)) >= 0)
			return rc;
		return m->run(argv + 1 + optind, argc - 1 - optind);
	}
	ic_prog = "runs";
	return ic_bad("give a mode: compare, agree, history or export (./run.sh MODE --help says what each does)");
}
