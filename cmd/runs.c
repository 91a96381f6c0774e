/* runs: the work across runs of the sweep, one mode each (compare, agree,
 * history, export), as ./run.sh's subcommands of the same names run it
 * (scripts/runs.sh). A RUN is a results directory or its .tar.gz export.
 * Each mode's options are parsed here, by its row of the table below, and
 * its runs opened here; compare/ does the work (across_runs.h). The user's
 * help is ./run.sh MODE --help (scripts/help/MODE.txt).
 */
#include <stdio.h>
#include <string.h>

#include "agreement.h"
#include "kit.h"
#include "across_runs.h"
#include "topology.h"

/* Every mode's options. */
static struct {
	const char *out, *results;
	double margin_pct;   /* agree: the % by which two runs may differ and agree */
	int all;
} opt = { .results = "results", .margin_pct = 100.0 * IC_AGREE_MARGIN };

static struct ic_run run[IC_RUNS_MAX];
static size_t nrun;

/* The runs named by the operands, opened (after the checks of --out). 0, or
 * the exit status after one line. */
static int runs_open(char **operand, int n, int out_required)
{
	char err[1024];

	if (n < 2)
		return ic_bad("give two or more results directories or their .tar.gz exports (see ./run.sh %s --help).",
			      ic_prog);
	if (n > IC_RUNS_MAX)
		return ic_bad("at most %d runs at once.", IC_RUNS_MAX);
	if (out_required && !opt.out)
		return ic_bad("--out DIR is required.");
	if (opt.out && ic_out_dir_check(opt.out))
		return 2;
	for (; nrun < (size_t)n; nrun++)
		if (ic_run_open(&run[nrun], operand[nrun], err, sizeof(err)))
			return ic_bad("%s.", err);
	return 0;
}

static int runs_compare(char **operand, int n)
{
	return runs_open(operand, n, 1) ?: ic_compare_runs(run, nrun, opt.out);
}

static int runs_agree(char **operand, int n)
{
	return runs_open(operand, n, 0) ?: ic_agree_runs(run, nrun, opt.margin_pct / 100.0, opt.out);
}

static int runs_history(char **operand, int n)
{
	struct ic_topo_info machine = { .cpu_model = "" };
	char *cpu = machine.cpu_model;
	size_t len;

	if (n)
		return ic_bad("unexpected argument '%s' (see ./run.sh history --help)", operand[0]);
	if (!*opt.results)
		return ic_bad("--results needs a directory");
	/* This machine's CPU model from the bench's own source, hwloc, trimmed
	 * as the engine reads a run's (load.c). */
	if (!ic_topo_open())
		ic_topo_describe(&machine);
	for (len = strlen(cpu); len && strchr(" \t\n", cpu[len - 1]); len--)
		cpu[len - 1] = '\0';
	return ic_history_list(opt.results, opt.all, cpu + strspn(cpu, " \t"));
}

static int runs_export(char **operand, int n)
{
	if (n != 1)
		return ic_bad("give one results directory (see ./run.sh export --help).");
	return ic_export_run(operand[0]);
}

/* Each mode: its usage, its work and its options, a row each. */
static const struct runs_mode {
	const char *name, *usage;
	int (*run)(char **operand, int n);
	const struct ic_option *opts;
} runs_modes[] = {
	{ "compare", "--out DIR RUN RUN...", runs_compare, (const struct ic_option[]){
		IC_OPTION_STRING("out", &opt.out), IC_OPTIONS_END } },
	{ "agree", "[--margin PCT] [--out DIR] RUN RUN...", runs_agree, (const struct ic_option[]){
		IC_OPTION_STRING("out", &opt.out),
		IC_OPTION_DOUBLE("margin", &opt.margin_pct, 0.0, 100.0), IC_OPTIONS_END } },
	{ "history", "[--results DIR] [--all]", runs_history, (const struct ic_option[]){
		IC_OPTION_STRING("results", &opt.results), IC_OPTION_FLAG("all", &opt.all), IC_OPTIONS_END } },
	{ "export", "DIR", runs_export, (const struct ic_option[]){ IC_OPTIONS_END } },
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
