/* summarize: Google Benchmark JSON from sites_bench -> merged JSON, CSV
 * tables, summary.md and the data cmd/draw turns into charts.
 *
 * Every output is written to a temporary file in its directory, synced and
 * renamed into place, so a reader never sees half a file; on bad input
 * nothing is written at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "atomic_file.h"
#include "chart_data.h"
#include "kit.h"
#include "load.h"
#include "report.h"
#include "run.h"
#include "timeline_data.h"

static const char ic_usage[] =
	"usage: summarize [options] --out DIR FILE.json...\n"
	"       summarize [options] --out DIR --run RUN [--repeat K | --trial T]\n"
	"\n"
	"Reads sites_bench's Google Benchmark JSON, one file per process (its context\n"
	"names the layout variant and the build): the files given, or a run's\n"
	"(RUN/raw/*.json of a results directory or its .tar.gz export, in name order;\n"
	"with --repeat K the repeat's processes only, with --trial T the calibration\n"
	"trial's), and writes, each atomically:\n"
	"  DIR/summary.md          the answer first, then the evidence and the method\n"
	"  DIR/verdict.txt         the verdict per series in plain text (the console's)\n"
	"  DIR/verdict.json        the verdict per series as data (docs/verdict-json.md)\n"
	"  DIR/points.csv          per point: time per call site, 95% interval, counters\n"
	"  DIR/ratios.csv          per N: compare/baseline, its interval, band, Holm side\n"
	"  DIR/crossover.csv       per series: verdict, bracket, states\n"
	"  DIR/process_ratios.csv  every process's ratio at every N, with its state\n"
	"  DIR/benchmark.json      every file's benchmarks under the first context\n"
	"  DIR/refine_next.txt     the N to measure next inside the crossover brackets\n"
	"  DIR/calibration.csv     only with --planted\n"
	"  DIR/plots/              the data draw DIR draws (plots/)\n"
	"Files of different builds are different series, never pooled.\n"
	"\n"
	"options:\n"
	"  --out DIR          output directory (created if missing)\n"
	"  --compare FORM     numerator of the ratio (default inline)\n"
	"  --baseline FORM    denominator of the ratio (default extern)\n"
	"  --noise-ci X       flag a point whose band half-width exceeds X (default 0.03)\n"
	"  --planted F        calibration: the compare form carries a planted extra cost F\n"
	"  --run RUN          a run's processes instead of FILE.json...\n"
	"  --repeat K         with --run: repeat K's processes (./run.sh --repeat)\n"
	"  --trial T          with --run: calibration trial T's processes\n"
	"  --help             this text\n"
	"\n"
	"exit status: 0 done; 2 bad input or --out (nothing written); 1 an output could not\n"
	"be written (the previous results stay)\n";

enum {
	IC_OUT_JSON, IC_OUT_POINTS, IC_OUT_RATIOS, IC_OUT_CROSSOVER, IC_OUT_PROCESS, IC_OUT_SUMMARY,
	IC_OUT_GP, IC_OUT_TIME, IC_OUT_L1I, IC_OUT_RATIO_DAT, IC_OUT_PROCESS_DAT,
	IC_OUT_ATTR_DAT, IC_OUT_TIMELINE_DAT, IC_OUT_REFINE, IC_OUT_VERDICT_JSON, IC_OUT_VERDICT_TXT,
	IC_OUT_CALIBRATION,
	IC_OUT_COUNT
};

static const char *const ic_out_name[IC_OUT_COUNT] = {
	[IC_OUT_JSON] = "benchmark.json",
	[IC_OUT_POINTS] = "points.csv",
	[IC_OUT_RATIOS] = "ratios.csv",
	[IC_OUT_CROSSOVER] = "crossover.csv",
	[IC_OUT_PROCESS] = "process_ratios.csv",
	[IC_OUT_SUMMARY] = "summary.md",
	[IC_OUT_GP] = "plots/data.gp",
	[IC_OUT_TIME] = "plots/time.dat",
	[IC_OUT_L1I] = "plots/l1i.dat",
	[IC_OUT_RATIO_DAT] = "plots/ratio.dat",
	[IC_OUT_PROCESS_DAT] = "plots/process.dat",
	[IC_OUT_ATTR_DAT] = "plots/attribution.dat",
	[IC_OUT_TIMELINE_DAT] = "plots/timeline.dat",
	[IC_OUT_REFINE] = "refine_next.txt",
	[IC_OUT_VERDICT_JSON] = "verdict.json",
	[IC_OUT_VERDICT_TXT] = "verdict.txt",
	[IC_OUT_CALIBRATION] = "calibration.csv",
};

static void ic_out_discard(struct ic_atomic_file *outs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		ic_atomic_abort(&outs[i]);
}

/* All files' benchmarks in order under the first file's context, in
 * Google Benchmark's own layout (tools/compare.py reads it); load.c offset
 * family_index per file so that families stay distinct. */
static json_t *ic_merged(const struct ic_results *res)
{
	json_t *merged = json_object(), *all = json_array(), *ctx;

	if (!merged || !all)
		goto fail;
	ctx = res->nfiles && res->files[0]->context ? json_deep_copy(res->files[0]->context)
						     : json_object();
	if (json_object_set_new(merged, "context", ctx))
		goto fail;
	for (size_t i = 0; i < res->nfiles; i++) {
		json_t *entry;
		size_t idx;

		json_array_foreach(json_object_get(res->files[i]->doc, "benchmarks"), idx, entry)
			if (json_array_append(all, entry))
				goto fail;
	}
	if (json_object_set(merged, "benchmarks", all))
		goto fail;
	json_decref(all);
	return merged;
fail:
	json_decref(all);
	json_decref(merged);
	return NULL;
}

static int ic_write_all(const struct ic_analysis *an, json_t *merged, const char *dir)
{
	struct ic_atomic_file outs[IC_OUT_COUNT];
	size_t n = isfinite(an->opts.planted) ? IC_OUT_COUNT : IC_OUT_CALIBRATION;
	char plots[PATH_MAX], path[PATH_MAX];
	struct ic_chart_files cf;
	const char *what = "write";

	memset(outs, 0, sizeof(outs));   /* unopened entries: nothing to discard */
	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (ic_mkdir_p(plots))   /* and dir; a bad --out: nothing written yet */
		return ic_bad("--out %s: cannot create %s: %s", dir, plots, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, ic_out_name[i]) >= sizeof(path))
			errno = ENAMETOOLONG;
		else if (!ic_atomic_open(&outs[i], path, IC_ATOMIC_SYNC))
			continue;
		fprintf(stderr, "summarize: cannot create a file next to %s: %s\n", path,
			strerror(errno));
		ic_out_discard(outs, n);
		return 1;
	}
	cf = (struct ic_chart_files){ outs[IC_OUT_GP].f, outs[IC_OUT_TIME].f, outs[IC_OUT_L1I].f,
				      outs[IC_OUT_RATIO_DAT].f,
				      outs[IC_OUT_ATTR_DAT].f, outs[IC_OUT_PROCESS_DAT].f };
	if (json_dumpf(merged, outs[IC_OUT_JSON].f, JSON_INDENT(2)) ||
	    fputc('\n', outs[IC_OUT_JSON].f) == EOF ||
	    ic_tables_points_write(outs[IC_OUT_POINTS].f, an) ||
	    ic_tables_ratios_write(outs[IC_OUT_RATIOS].f, an) ||
	    ic_tables_crossover_write(outs[IC_OUT_CROSSOVER].f, an) ||
	    ic_tables_process_ratios_write(outs[IC_OUT_PROCESS].f, an) ||
	    ic_summary_write(outs[IC_OUT_SUMMARY].f, an) ||
	    ic_chart_data_write(&cf, an) ||
	    ic_timeline_data_write(outs[IC_OUT_GP].f, outs[IC_OUT_TIMELINE_DAT].f, an) ||
	    ic_tables_refine_next_write(outs[IC_OUT_REFINE].f, an) ||
	    ic_verdict_json_write(outs[IC_OUT_VERDICT_JSON].f, an) ||
	    ic_verdict_text_write(outs[IC_OUT_VERDICT_TXT].f, an) ||
	    (n == IC_OUT_COUNT && ic_tables_calibration_write(outs[IC_OUT_CALIBRATION].f, an)))
		goto fail;
	what = "sync";
	for (size_t i = 0; i < n; i++)
		if (ic_atomic_finish(&outs[i]))
			goto fail;
	/* Everything is on disk; only now replace the old results. */
	what = "rename";
	for (size_t i = 0; i < n; i++)
		if (ic_atomic_rename(&outs[i]))
			goto fail;
	return 0;
fail:
	fprintf(stderr, "summarize: cannot %s the results in %s: %s\n", what, dir, strerror(errno));
	ic_out_discard(outs, n);
	return 1;
}

int main(int argc, char **argv)
{
	struct ic_analysis_opts opts = ic_analysis_defaults;
	const char *out = NULL, *run_path = NULL;
	long repeat = 0, trial = 0;
	const struct ic_option options[] = {
		IC_OPTION_STRING("out", &out),
		IC_OPTION_STRING("compare", &opts.compare),
		IC_OPTION_STRING("baseline", &opts.baseline),
		IC_OPTION_DOUBLE("noise-ci", &opts.noise_ci, 0.0, INFINITY),
		/* the fraction a planted copy adds, like 0.03 */
		IC_OPTION_DOUBLE("planted", &opts.planted, -1.0, 10.0),
		IC_OPTION_STRING("run", &run_path),
		IC_OPTION_LONG("repeat", &repeat, 1, 1000),
		IC_OPTION_LONG("trial", &trial, 1, 1000),
		IC_OPTIONS_END,
	};
	struct ic_run_select sel = { 0, 0 };
	struct ic_analysis an = { 0 };
	struct ic_results res;
	struct ic_run run;
	char err[1024];
	json_t *merged;
	int rc;

	ic_prog = "summarize";
	if ((rc = ic_options_parse(argc, argv, options, ic_usage, "--help")) >= 0)
		return rc;
	sel.repeat = (int)repeat;
	sel.trial = (int)trial;
	if (!out || !*out)
		return ic_bad("--out DIR is required (see --help)");
	if (run_path && optind < argc)
		return ic_bad("--run and FILE.json: give one of them");
	if (!run_path && (sel.repeat || sel.trial))
		return ic_bad("--repeat and --trial select a run's processes: they need --run");
	if (!run_path && optind >= argc)
		return ic_bad("no input FILE.json given (see --help)");
	if (!*opts.compare || !*opts.baseline || !strcmp(opts.compare, opts.baseline))
		return ic_bad("--compare '%s' and --baseline '%s' must be two different forms",
			      opts.compare, opts.baseline);

	if (run_path) {
		/* The run's processes, analysed with these options. */
		if (ic_run_open_select(&run, run_path, &sel, &opts, err, sizeof(err))) {
			ic_run_free(&run);
			return ic_bad("%s", err);
		}
		merged = ic_merged(&run.res);
		rc = merged ? ic_write_all(&run.an, merged, out) : 1;
		if (!merged)
			fputs("summarize: out of memory\n", stderr);
		json_decref(merged);
		ic_run_free(&run);
		return rc;
	}
	ic_results_init(&res);
	while (optind < argc && !ic_results_load(&res, argv[optind], err, sizeof(err)))
		optind++;
	if (optind < argc || ic_analyse(&an, &res, &opts, err, sizeof(err))) {
		ic_analysis_free(&an);
		ic_results_free(&res);
		return ic_bad("%s", err);
	}
	merged = ic_merged(&res);
	if (!merged) {
		ic_analysis_free(&an);
		ic_results_free(&res);
		fputs("summarize: out of memory\n", stderr);
		return 1;
	}
	rc = ic_write_all(&an, merged, out);
	json_decref(merged);
	ic_analysis_free(&an);
	ic_results_free(&res);
	return rc;
}
