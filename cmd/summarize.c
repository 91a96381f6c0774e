/* summarize: what ic_usage says. Every output is written to a temporary file in its directory,
 * synced and renamed into place, so a reader never sees half a file; a run's report is a new
 * directory swapped in whole; on bad input nothing is written. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "analysis.h"
#include "atomic_file.h"
#include "chart_data.h"
#include "format.h"
#include "gnuplot_run.h"
#include "kit.h"
#include "load.h"
#include "report.h"
#include "run.h"
#include "run_conf.h"

static const char ic_usage[] =
	"usage: summarize [options] --out DIR FILE.json...\n"
	"       summarize [options] --out DIR --run RUN [--repeat K | --trial T]\n"
	"       summarize --run RUN [--seconds S] | --so-far TOTAL | --closing\n"
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
	"With --run and no --out, the run's report in place: RUN/report points to a\n"
	"new directory of the files above with their charts (RUN/summary.md, plots,\n"
	"... link through it), the forms from run.conf; with repeat=K in run.conf each\n"
	"repeat's report in RUN/repeat<K>/ and their agreement in RUN/repeat.md (runs agree);\n"
	"with calibrate=1 each trial's per planted copy in RUN/trial<T>/plant<P>/ and\n"
	"RUN/calibration.md and calibration_trials.csv. Then the closing lines on\n"
	"stdout: summary.md's first section (or calibration.md) as plain text.\n"
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
	"  --seconds S        in place: the calibration's time, as calibration.md says it\n"
	"  --so-far TOTAL     the verdict so far of the K of TOTAL processes on disk, as\n"
	"                     plain text (nothing below 4); nothing is written\n"
	"  --closing          the closing lines of the run's report as it is; nothing is\n"
	"                     written\n"
	"  --help             this text\n"
	"\n"
	"exit status: 0 done; 2 bad input or --out (nothing written); 1 an output could not\n"
	"be written (the previous results stay)\n";

/* benchmark.json: all files' benchmarks in order under the first file's
 * context, in Google Benchmark's own layout (tools/compare.py reads it);
 * load.c offset family_index per file so that families stay distinct. */
static int ic_merged_write(FILE *f, const struct ic_analysis *an)
{
	const struct ic_results *res = an->res;
	json_t *merged = json_pack("{s:o,s:[]}", "context", res->nfiles && res->files[0]->context ?
				   json_deep_copy(res->files[0]->context) : json_object(), "benchmarks");
	json_t *all = json_object_get(merged, "benchmarks");
	int rc = !merged;

	for (size_t i = 0; !rc && i < res->nfiles; i++)   /* load.c saw each one's array */
		rc = json_array_extend(all, json_object_get(res->files[i]->doc, "benchmarks"));
	rc = rc || json_dumpf(merged, f, JSON_INDENT(2)) || fputc('\n', f) == EOF;
	json_decref(merged);
	return rc ? -1 : 0;
}

/* Each output and its writer; ic_chart_data_write writes the charts' data
 * (IC_OUT_CHARTS on, chart_data.h's order); calibration.csv, last, only with --planted. */
#define IC_OUT_CHARTS 9
#define IC_OUT_COUNT (IC_OUT_CHARTS + IC_CHART_COUNT + 1)
static const struct {
	const char *name;
	int (*write)(FILE *f, const struct ic_analysis *an);
} outputs[IC_OUT_COUNT] = {
	{ "benchmark.json", ic_merged_write },
	{ "points.csv", ic_tables_points_write },
	{ "ratios.csv", ic_tables_ratios_write },
	{ "crossover.csv", ic_tables_crossover_write },
	{ "process_ratios.csv", ic_tables_process_ratios_write },
	{ "summary.md", ic_summary_write },
	{ "refine_next.txt", ic_tables_refine_next_write },
	{ "verdict.json", ic_verdict_json_write },
	{ "verdict.txt", ic_verdict_text_write },
	{ "plots/data.gp", NULL }, { "plots/time.dat", NULL }, { "plots/l1i.dat", NULL },
	{ "plots/ratio.dat", NULL }, { "plots/attribution.dat", NULL }, { "plots/process.dat", NULL },
	{ "plots/timeline.dat", NULL },
	{ "calibration.csv", ic_tables_calibration_write },
};

static int ic_write_all(const struct ic_analysis *an, const char *dir)
{
	struct ic_atomic_file outs[IC_OUT_COUNT] = { 0 };   /* unopened entries: nothing to discard */
	size_t n = isfinite(an->opts.planted) ? IC_OUT_COUNT : IC_OUT_COUNT - 1;
	char plots[PATH_MAX], path[PATH_MAX];
	FILE *cf[IC_CHART_COUNT];
	const char *what = "write";

	snprintf(plots, sizeof(plots), "%s/plots", dir);
	if (ic_mkdir_p(plots))   /* and dir; a bad --out: nothing written yet */
		return ic_bad("--out %s: cannot create %s: %s", dir, plots, strerror(errno));
	for (size_t i = 0; i < n; i++) {
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, outputs[i].name) >= sizeof(path))
			errno = ENAMETOOLONG;
		else if (!ic_atomic_open(&outs[i], path, IC_ATOMIC_SYNC))
			continue;
		ic_bad("cannot create a file next to %s: %s", path, strerror(errno));
		goto discard;
	}
	for (size_t k = 0; k < IC_CHART_COUNT; k++)
		cf[k] = outs[IC_OUT_CHARTS + k].f;
	errno = 0;   /* a writer may fail without it (jansson refuses a name that is not UTF-8) */
	for (size_t i = 0; i < n; i++)
		if (outputs[i].write && outputs[i].write(outs[i].f, an))
			goto fail;
	if (ic_chart_data_write(cf, an))
		goto fail;
	/* Everything on disk first; only then replace the old results. */
	for (size_t i = 0; i < 2 * n; i++) {
		what = i < n ? "sync" : "rename";
		if (i < n ? ic_atomic_finish(&outs[i]) : ic_atomic_rename(&outs[i - n]))
			goto fail;
	}
	return 0;
fail:
	ic_bad("cannot %s the results in %s%s%s", what, dir, errno ? ": " : "",
	       errno ? strerror(errno) : "");
discard:
	for (size_t i = 0; i < n; i++)
		ic_atomic_abort(&outs[i]);
	return 1;
}

/* ---- a run's report in place ------------------------------------------ */

/* What users open in a run, each linked through RUN/report. */
static const char *const sum_linked[] = { "benchmark.json", "points.csv", "ratios.csv",
	"crossover.csv", "process_ratios.csv", "summary.md", "verdict.txt", "verdict.json",
	"calibration.csv", "plots" };

/* The report directories made and not yet swapped in. */
static struct sum_new {
	char dir[PATH_MAX], made[PATH_MAX];
} *sum_new;
static size_t sum_nnew, sum_nswapped;
static int sum_no_gnuplot;

/* The terminal's lines: plain text here, said by ic_bad (ic_prog is "inlinecost" in place). */
#define IC_PLAIN_PREFIX "inlinecost: "
/* ic_bad's line and 1, an output's failure, for `return SUM_FAIL(...)`. */
#define SUM_FAIL(...) (ic_bad(__VA_ARGS__), 1)

/* The path of the program name beside this one. */
static const char *sum_beside(const char *name)
{
	static char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	path[n > 0 ? n : 0] = '\0';
	slash = strrchr(path, '/');
	snprintf(slash ? slash + 1 : path, sizeof(path) - (size_t)(slash ? slash + 1 - path : 0), "%s", name);
	return path;
}

/* A new report of run in d/.report.XXXXXX (with charts if charts), swapped in
 * with the others (sum_swap); a failed chart leaves none, never the old ones. */
static int sum_report_new(const char *d, const struct ic_run *run, int charts)
{
	struct sum_new *n;
	char err[1024];
	int rc;

	sum_new = ic_xrealloc(sum_new, sum_nnew + 1, sizeof(*sum_new));
	n = &sum_new[sum_nnew];
	snprintf(n->dir, sizeof(n->dir), "%s", d);
	if ((size_t)snprintf(n->made, sizeof(n->made), "%s/.report.XXXXXX", d) >= sizeof(n->made) ||
	    ic_mkdir_p(d) || !mkdtemp(n->made))
		return SUM_FAIL("cannot make a report directory in %s: %s", d, strerror(errno));
	sum_nnew++;
	if ((rc = ic_write_all(&run->an, n->made)) || !charts || sum_no_gnuplot)
		return rc;
	rc = ic_gnuplot_draw_sweep(n->made, err, sizeof(err));
	if (rc > 0)
		ic_bad("no gnuplot: results are written; for plots: apt-get install gnuplot-nox, then %s %s/report",
		       sum_beside("draw"), d);
	else if (rc < 0)
		ic_bad("plots failed (%s); the new results are in %s without charts", err, d);
	sum_no_gnuplot = rc > 0;
	return 0;
}

/* Every new report swapped in: d/report points to it, the files users open
 * link through it, and the report it replaced (or a stopped run's) goes. */
static int sum_swap(void)
{
	for (; sum_nswapped < sum_nnew; sum_nswapped++) {
		const struct sum_new *n = &sum_new[sum_nswapped];
		const char *base = strrchr(n->made, '/') + 1;
		char link[PATH_MAX + 16], path[PATH_MAX + 300], made[PATH_MAX + 32];
		struct stat st;
		struct dirent *e;
		DIR *dir;

		snprintf(link, sizeof(link), "%s/.report.link", n->dir);
		snprintf(path, sizeof(path), "%s/report", n->dir);
		unlink(link);
		if (symlink(base, link) || rename(link, path))
			return SUM_FAIL("cannot link %s to its new report: %s", path,
					strerror(errno));
		for (size_t i = 0; i < sizeof(sum_linked) / sizeof(*sum_linked); i++) {
			snprintf(path, sizeof(path), "%s/%s", n->dir, sum_linked[i]);
			snprintf(made, sizeof(made), "%s/%s", n->made, sum_linked[i]);
			if ((!lstat(path, &st) && S_ISLNK(st.st_mode)) || access(made, F_OK))
				continue;
			snprintf(made, sizeof(made), "report/%s", sum_linked[i]);
			unlink(path);
			if (symlink(made, path))
				return SUM_FAIL("cannot link %s: %s", path, strerror(errno));
		}
		for (dir = opendir(n->dir); dir && (e = readdir(dir));)
			if ((!strncmp(e->d_name, ".report.", 8) && strcmp(e->d_name, base)) ||
			    !strncmp(e->d_name, ".repeat.", 8)) {
				snprintf(path, sizeof(path), "%s/%s", n->dir, e->d_name);
				ic_rm_rf(path);
			}
		if (dir)
			closedir(dir);
	}
	return 0;
}

/* Repeat r as its own run for agree and compare: links to the run's run.conf and its processes. */
static int sum_repeat_links(const char *dir, long r, const struct ic_run *run)
{
	char raw[PATH_MAX], path[PATH_MAX + 300], target[PATH_MAX];
	int rc;

	snprintf(raw, sizeof(raw), "%s/repeat%ld/raw", dir, r);
	snprintf(path, sizeof(path), "%s/repeat%ld/run.conf", dir, r);
	rc = ic_mkdir_p(raw) || (unlink(path), symlink("../run.conf", path));
	for (size_t i = 0; i < run->res.nfiles && !rc; i++) {
		const char *base = strrchr(run->res.files[i]->path, '/');

		base = base ? base + 1 : run->res.files[i]->path;
		snprintf(target, sizeof(target), "../../raw/%s", base);
		snprintf(path, sizeof(path), "%s/%s", raw, base);
		unlink(path);
		rc = symlink(target, path);
	}
	if (rc)
		ic_bad("cannot link the processes of repeat %ld into %s: %s", r, raw, strerror(errno));
	return rc;
}

/* How far the k repeats agree (runs agree, beside this program, on repeat1..k),
 * beside the pooled report: RUN/repeat.md, .csv, .dat and .png. */
static int sum_agreement(const char *dir, long k)
{
	static const char *const files[] = { "repeat.md", "repeat.csv", "repeat.dat", "repeat.png" };
	char tmp[PATH_MAX], out[PATH_MAX + 8], log[PATH_MAX + 8], from[PATH_MAX + 32],
		to[PATH_MAX + 32], last[1024];
	char **argv;
	int rc = 1, status;

	snprintf(tmp, sizeof(tmp), "%s/.repeat.XXXXXX", dir);
	if (!mkdtemp(tmp))
		return SUM_FAIL("cannot write in %s: %s", dir, strerror(errno));
	argv = ic_xalloc(calloc((size_t)k + 5, sizeof(*argv)));
	snprintf(out, sizeof(out), "%s/out", tmp);
	snprintf(log, sizeof(log), "%s/log", tmp);
	memcpy(argv, (char *[]){ "runs", "agree", "--out", out }, 4 * sizeof(*argv));
	for (long r = 1; r <= k; r++)
		if (asprintf(&argv[3 + r], "%s/repeat%ld", dir, r) < 0)
			ic_xalloc(NULL);
	/* a program beside this one, its output in log */
	if (ic_spawn_logged(sum_beside(argv[0]), argv, environ, log, &status) || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		ic_bad("the agreement of the repeats failed: %s",
		       *ic_log_last(log, " \t", NULL, last, sizeof(last)) ? last : "runs did not start");
		goto out;
	}
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++) {
		snprintf(from, sizeof(from), "%s/%s", out, files[i]);
		snprintf(to, sizeof(to), "%s/%s", dir, files[i]);
		if (!access(from, F_OK) && rename(from, to)) {
			ic_bad("cannot move %s into %s: %s", files[i], dir, strerror(errno));
			goto out;
		}
	}
	snprintf(to, sizeof(to), "%s/repeat.md", dir);
	if ((rc = !*ic_log_last(to, " \t", NULL, last, sizeof(last))))
		ic_bad("the agreement of the repeats wrote no %s", to);
	else
		ic_bad("repeatability: %s (%s)", to, last);
out:
	ic_rm_rf(tmp);
	for (long r = 1; r <= k; r++)
		free(argv[3 + r]);
	free(argv);
	return rc;
}

/* ---- the terminal's plain text ------------------------------------------ */

/* Markdown as plain lines for the terminal, each under IC_PLAIN_PREFIX: links and images as their
 * text, no emphasis, code or heading marks, no blank lines, wrapped at a space at 100 bytes (a
 * bullet's continuation under its text). Bytes, as run.sh's C locale counted them. */
#define PLAIN_WIDTH 100

/* One line of that: links and images first, then the marks. */
static void plain_line(FILE *out, const char *s, size_t n)
{
	char *a = ic_xalloc(malloc(n + 1)), *p = a;
	size_t len = 0, k = 0, ind = 0, c;

	for (size_t i = 0; i < n; i++) {
		const char *open = s + i + (s[i] == '!' && i + 1 < n && s[i + 1] == '[');
		const char *close = *open == '[' ? memchr(open, ']', (size_t)(s + n - open)) : NULL;
		const char *target = close && close + 1 < s + n && close[1] == '(' ?
			memchr(close, ')', (size_t)(s + n - close)) : NULL;

		if (target) {
			memcpy(a + len, open + 1, (size_t)(close - open - 1));
			len += (size_t)(close - open - 1);
			i = (size_t)(target - s);
		} else {
			a[len++] = s[i];
		}
	}
	for (size_t i = 0; i < len; i++)
		if (a[i] == '*' && i + 1 < len && a[i + 1] == '*')
			i++;
		else if (a[i] != '`')
			a[k++] = a[i];
	a[k] = '\0';
	if (*p == '#' && p[strspn(p, "#")] == ' ')
		p += strspn(p, "#") + strspn(p + strspn(p, "#"), " ");
	if (p[strspn(p, " \t\r\f\v")]) {
		if (!strncmp(p + strspn(p, " "), "- ", 2))
			ind = strspn(p, " ") + 2;
		while (strlen(p) > PLAIN_WIDTH) {
			for (c = PLAIN_WIDTH - 1; c > ind && p[c] != ' '; c--)
				;
			if (c <= ind)
				c = PLAIN_WIDTH - 1;
			fprintf(out, IC_PLAIN_PREFIX "%.*s\n", (int)c, p);
			/* the byte at c (the space) goes; the rest under the indent */
			p += c + 1 - ind;
			memset(p, ' ', ind);
		}
		fprintf(out, IC_PLAIN_PREFIX "%s\n", p);
	}
	free(a);
}

/* ---- --calibrate ----------------------------------------------------------- */

/* The coverage over the trials: how often the 95% interval holds 1 + F for
 * a copy of the baseline with a planted extra cost F (form
 * <baseline>_plant<100 F>), how often it excludes 1 (for F = 0: a false positive). */
#define IC_CALIBRATION_PLANTS_MAX 16
struct ic_calibration {
	struct ic_calibration_plant {
		double f;
		char form[96];
		/* Over the trials: rows, those whose interval holds 1 + f, whose band
		 * excludes 1; sums of the table's ratio and width, and how many had each. */
		size_t n, holds, excludes, nsum[2];
		double sum[2];
	} plant[IC_CALIBRATION_PLANTS_MAX];
	size_t nplants, ntrials;
	char baseline[64];
	char design[256];   /* each trial's, from run.conf */
	char series[512];   /* the first trial's series, for calibration.md */
};

/* From run.conf (conf, read from path); -1 with one line in err when it is no --calibrate run's. */
static int ic_calibration_settings(struct ic_calibration *c, const struct ic_settings *conf,
				   const char *path, char *err, size_t errlen)
{
	const char *v = ic_settings_get(conf, "baseline");
	/* "0,0.01,0.03": each a fraction in [0, 10), the forms named by 100 F */
	char *list = ic_xalloc(strdup(ic_settings_get(conf, "plant"))), *save = NULL, *end;
	int rc = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->baseline, sizeof(c->baseline), "%s", *v ? v : ic_analysis_defaults.baseline);
	for (char *w = strtok_r(list, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		struct ic_calibration_plant *p = &c->plant[c->nplants];

		if ((rc = c->nplants++ == IC_CALIBRATION_PLANTS_MAX))
			break;
		errno = 0;
		p->f = strtod(w, &end);
		rc = errno || *end || end == w || !(p->f >= 0.0 && p->f < 10.0);
		snprintf(p->form, sizeof(p->form), "%s_plant%g", c->baseline, 100.0 * p->f);
	}
	free(list);
	if (rc || !c->nplants)
		return ic_fail(err, errlen, "%s: plant='%s' is not a list of fractions like 0,0.01,0.03 "
			       "(not a --calibrate run?)", path, ic_settings_get(conf, "plant"));
	v = ic_settings_get(conf, "trials");
	c->ntrials = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || c->ntrials < 1 || c->ntrials > 1000)
		return ic_fail(err, errlen, "%s: trials='%s' is not a whole number 1..1000", path, v);
	/* "" (no design said) where the run does not record one */
	if (*ic_settings_get(conf, "layouts_random") && *ic_settings_get(conf, "processes") &&
	    *ic_settings_get(conf, "reps") && *ic_settings_get(conf, "min_time"))
		snprintf(c->design, sizeof(c->design), "%s variants x %s processes x %s reps of %s s",
			 ic_settings_get(conf, "layouts_random"), ic_settings_get(conf, "processes"),
			 ic_settings_get(conf, "reps"), ic_settings_get(conf, "min_time"));
	return 0;
}

/* A number after a comma as calibration.csv writes it (%.6f, empty when not
 * measured), and its value as written: calibration.md's means are the table's. */
static double cal_cell(FILE *f, double x)
{
	char buf[64] = "";

	if (isfinite(x))
		snprintf(buf, sizeof(buf), "%.6f", x);
	fprintf(f, ",%s", buf);
	return isfinite(x) ? strtod(buf, NULL) : NAN;
}

/* Trial t (0..) with plant k: its rows into csv (before the first, the header
 * and, for calibration.md, the series "N = 256, 1 thread, private queue"
 * joined by " and "), its counts into c. */
static void ic_calibration_add(struct ic_calibration *c, FILE *csv, size_t t, size_t k,
			       const struct ic_analysis *an)
{
	struct ic_calibration_plant *p = &c->plant[k];
	size_t len = 0;
	char title[512];

	if (t == 0 && k == 0) {
		fputs("trial,planted,ratio,ratio_ci_lo,ratio_ci_hi,excludes_1,contains_planted\n", csv);
		for (size_t s = 0; s < an->nseries; s++) {
			const struct ic_group *g = &an->series[s].group;

			ic_fmt_add(c->series, sizeof(c->series), &len, "%sN = ", s ? " and " : "");
			for (size_t i = 0; i < g->nratios; i++)
				ic_fmt_add(c->series, sizeof(c->series), &len, "%s%lu", i ? ", " : "",
					   g->ratios[i].sites);
			ic_fmt_add(c->series, sizeof(c->series), &len, ", %s",
				   ic_fmt_series(title, sizeof(title), an, g));
		}
	}
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;

		for (size_t i = 0; i < g->nratios; i++) {
			const struct ic_ratio *r = &g->ratios[i];
			double lo, v[2];

			fprintf(csv, "%zu,%g", t + 1, p->f);
			v[0] = cal_cell(csv, r->ratio);
			lo = cal_cell(csv, r->lo);
			v[1] = cal_cell(csv, r->hi) - lo;
			fprintf(csv, ",%d,%d\n", ic_ratio_resolved(r), ic_ratio_holds(r, 1.0 + p->f));
			p->n++;
			p->holds += ic_ratio_holds(r, 1.0 + p->f);
			p->excludes += ic_ratio_resolved(r);
			for (int j = 0; j < 2; j++)
				if (isfinite(v[j])) {
					p->nsum[j]++;
					p->sum[j] += v[j];
				}
		}
	}
}

/* calibration.md; seconds (-1: not said) the calibration's time. */
static void ic_calibration_markdown(FILE *md, const struct ic_calibration *c, long seconds)
{
	fputs("# Calibration: coverage of the 95% interval\n\n", md);
	fprintf(md, "%zu trials at %s", c->ntrials, *c->series ? c->series : "no series");
	if (*c->design)
		fprintf(md, "; each trial %s", c->design);
	if (seconds >= 0)
		fprintf(md, "; %ld s in all", seconds);
	fputs(".\n\n| planted | trials | mean ratio | mean width | holds the planted ratio | excludes 1 |\n"
	      "|---:|---:|---:|---:|---:|---:|\n", md);
	for (size_t k = 0; k < c->nplants; k++) {
		const struct ic_calibration_plant *p = &c->plant[k];

		if (!p->n)
			continue;
		fprintf(md, "| %g%% | %zu |", p->f * 100, p->n);
		for (int j = 0; j < 2; j++)   /* the means to four places, "—" when none was measured */
			fprintf(md, p->nsum[j] ? " %.4f |" : " — |", p->sum[j] / (double)p->nsum[j]);
		fprintf(md, " %zu (%.0f%%) | %zu (%.0f%%)%s |\n", p->holds,
			100.0 * (double)p->holds / (double)p->n, p->excludes,
			100.0 * (double)p->excludes / (double)p->n, p->f == 0 ? " false positives" : "");
	}
}

/* The closing lines of the run's report as it is: summary.md's smoke mark
 * (its title's) and first section, else calibration.md, by plain_line, else verdict.txt. */
static int sum_closing(const char *dir)
{
	static const char *const name[] = { "summary.md", "calibration.md", "verdict.txt" };
	static const char smoke[] = " — smoke test", said[] = "Smoke test";
	char path[PATH_MAX], *text = NULL, *nl, *mark = NULL;
	size_t i;
	int sections = 0;

	for (i = 0; i < 3 && !text; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, name[i]);
		text = ic_read_path(path, &(size_t){ 0 });
	}
	for (char *at = text; i == 1 && (at = memmem(at, strcspn(at, "\n"), smoke, strlen(smoke))); at++)
		mark = at;
	if (mark) {
		/* said and the rest of the title, over the mark's end (the title is not printed) */
		mark += strlen(smoke) - strlen(said);
		memcpy(mark, said, strlen(said));
		plain_line(stdout, mark, strcspn(mark, "\n"));
	}
	for (char *s = text; s && *s; s = *nl ? nl + 1 : nl) {
		nl = s + strcspn(s, "\n");
		sections += !strncmp(s, "## ", 3);
		if (i == 3 && s + strspn(s, " \t\r\f\v") < nl)
			printf(IC_PLAIN_PREFIX "%.*s\n", (int)(nl - s), s);
		else if (i == 2 || (i == 1 && sections == 1))   /* summary.md: from the first heading to the next */
			plain_line(stdout, s, (size_t)(nl - s));
	}
	free(text);
	return fflush(stdout) ? 1 : 0;
}

/* A --calibrate run: each trial's report per planted copy (no charts: only
 * their tables are read), then calibration_trials.csv and calibration.md
 * over the trials, renamed into place once both are written; the closing lines. */
static int sum_calibration(const char *dir, const struct ic_settings *conf, long seconds)
{
	static const char *const name[] = { "calibration_trials.csv", "calibration.md" };
	struct ic_atomic_file af[2] = { 0 }, *bad = NULL;
	char path[PATH_MAX], err[1024], *trials = NULL;
	size_t len = 0;
	struct ic_calibration c;
	FILE *csv;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/run.conf", dir);
	if (ic_calibration_settings(&c, conf, path, err, sizeof(err)))
		return ic_bad("--run: %s", err);
	/* The table in memory until every trial is read: if interrupted, no temporary file. */
	csv = ic_xalloc(open_memstream(&trials, &len));
	for (size_t t = 0; t < c.ntrials && !rc; t++)
		for (size_t k = 0; k < c.nplants && !rc; k++) {
			struct ic_analysis_opts opts = ic_analysis_defaults;
			struct ic_run_select sel = { .trial = (int)t + 1 };
			struct ic_run run;

			opts.compare = c.plant[k].form;
			opts.baseline = c.baseline;
			opts.planted = c.plant[k].f;
			if (ic_run_open_select(&run, dir, &sel, &opts, err, sizeof(err))) {
				rc = ic_bad("trial %zu, planted %g: %s", t + 1, c.plant[k].f, err);
			} else {
				snprintf(path, sizeof(path), "%s/trial%zu/plant%g", dir, t + 1, 100.0 * c.plant[k].f);
				rc = sum_report_new(path, &run, 0);
				ic_calibration_add(&c, csv, t, k, &run.an);
			}
			ic_run_free(&run);
		}
	ic_xalloc(fclose(csv) ? NULL : trials);   /* a memory stream fails only for memory */
	for (size_t k = 0; k < 2 && !rc && !bad; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, name[k]);
		if (ic_atomic_open(&af[k], path, IC_ATOMIC_SYNC))
			bad = &af[k];
	}
	if (!rc && !bad) {
		fwrite(trials, 1, len, af[0].f);
		ic_calibration_markdown(af[1].f, &c, seconds);   /* a failed write fails the finish */
		for (size_t k = 0; k < 4 && !bad; k++)
			if (k < 2 ? ic_atomic_finish(&af[k]) : ic_atomic_rename(&af[k - 2]))
				bad = &af[k % 2];
	}
	if (bad)
		ic_bad("%s", bad->err);
	rc = rc ? rc : bad ? 1 : sum_swap() || sum_closing(dir);
	ic_atomic_abort(&af[0]);
	ic_atomic_abort(&af[1]);
	free(trials);
	return rc;
}

/* The verdict so far from the processes on disk, a line per series; nothing written. */
static int sum_so_far(const char *dir, long total)
{
	char pattern[PATH_MAX], err[1024], *v = NULL;
	size_t n;
	glob_t g;
	struct ic_run run;
	FILE *f;
	int rc = 0;

	snprintf(pattern, sizeof(pattern), "%s/raw/*.json", dir);
	n = glob(pattern, 0, NULL, &g) ? 0 : g.gl_pathc;
	globfree(&g);
	if (n < 4)
		return 0;
	if (ic_run_open_select(&run, dir, NULL, NULL, err, sizeof(err))) {
		rc = ic_bad("%s", err);
	} else if (ic_analysis_smoke(&run.an, err, sizeof(err))) {
		printf(IC_PLAIN_PREFIX "so far, from %zu of %ld processes: too few for a verdict yet\n", n, total);
	} else {
		printf(IC_PLAIN_PREFIX "so far, from %zu of %ld processes (provisional; the answer comes at the end):\n",
		       n, total);
		f = ic_xalloc(open_memstream(&v, &(size_t){ 0 }));
		ic_verdict_text_write(f, &run.an);
		fclose(f);
		/* verdict.txt after its first line: a line per series */
		for (const char *s = strchr(v, '\n') + 1, *nl; *s; s = *nl ? nl + 1 : nl) {
			nl = s + strcspn(s, "\n");
			plain_line(stdout, s, (size_t)(nl - s));
		}
		free(v);
	}
	ic_run_free(&run);
	return rc ? rc : fflush(stdout) ? 1 : 0;
}

/* The whole report of the run in dir, the closing lines after it. */
static int sum_in_place(const char *dir, long seconds)
{
	struct ic_settings conf = { 0 };
	char path[PATH_MAX], err[1024], *end = "";
	const char *v;
	long k = 1;
	int rc = 0;

	snprintf(path, sizeof(path), "%s/run.conf", dir);
	if (ic_settings_load(&conf, path, err, sizeof(err)))
		return ic_bad("--run: %s", err);
	if (*(v = ic_settings_get(&conf, "repeat")))
		k = strtol(v, &end, 10);
	if (!strcmp(ic_settings_get(&conf, "calibrate"), "1")) {
		rc = sum_calibration(dir, &conf, seconds);
	} else if (*end || k < 1 || k > 1000) {
		rc = ic_bad("--run: %s: repeat=%s is not a whole number 1..1000", path, v);
	} else {
		/* r = 0: the run, its repeats pooled; then each repeat of several */
		for (long r = 0; r <= (k > 1 ? k : 0) && !rc; r++) {
			struct ic_run_select sel = { .repeat = (int)r };
			struct ic_run run;

			if (ic_run_open_select(&run, dir, &sel, NULL, err, sizeof(err))) {
				rc = ic_bad("%s", err);
			} else {
				snprintf(path, sizeof(path), "%s/repeat%ld", dir, r);
				rc = sum_report_new(r ? path : dir, &run, 1) || (r && sum_repeat_links(dir, r, &run));
			}
			ic_run_free(&run);
		}
		rc = rc ? rc : sum_swap() || (k > 1 && sum_agreement(dir, k)) || sum_closing(dir);
	}
	ic_settings_free(&conf);
	/* What was not swapped in, and its directories when they hold nothing else (a trial's). */
	for (size_t i = sum_nnew; i-- > sum_nswapped;) {
		ic_rm_rf(sum_new[i].made);
		if (strcmp(sum_new[i].dir, dir) && !rmdir(sum_new[i].dir))
			rmdir(dirname(sum_new[i].dir));
	}
	free(sum_new);
	return rc;
}

/* 0 when each form compared (given or the defaults) is measured at some point of res; else bad input's line and 2. */
static int sum_forms_measured(const struct ic_results *res, const struct ic_analysis_opts *o)
{
	for (int k = 0; k < 2; k++) {
		const char *form = k ? o->baseline : o->compare;
		const char *dflt = k ? ic_analysis_defaults.baseline : ic_analysis_defaults.compare;
		size_t i = 0;

		while (i < res->npoints && strcmp(res->points[i]->form, form))
			i++;
		if (i == res->npoints)
			return ic_bad("--%s '%s'%s: no point of the input measures that form",
				      k ? "baseline" : "compare", form, strcmp(form, dflt) ? "" : " (the default)");
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ic_analysis_opts opts = ic_analysis_defaults;
	const char *out = NULL, *run_path = NULL;
	long repeat = 0, trial = 0, seconds = -1, so_far = 0;
	int closing = 0;
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
		IC_OPTION_LONG("seconds", &seconds, 0, 1000000000),
		IC_OPTION_LONG("so-far", &so_far, 1, 1000000000),
		IC_OPTION_FLAG("closing", &closing),
		IC_OPTIONS_END,
	};
	struct ic_analysis an = { 0 }, *pan = &an;
	struct ic_results res;
	struct ic_run run = { 0 };
	char err[1024];
	int rc;

	ic_prog = "summarize";
	if ((rc = ic_options_parse(argc, argv, options, ic_usage, "--help")) >= 0)
		return rc;
	if (run_path && optind < argc)
		return ic_bad("--run and FILE.json: give one of them");
	if (run_path && !out) {
		if (repeat || trial)
			return ic_bad("--repeat and --trial select the processes of a report --out DIR");
		/* The terminal's lines, run.sh's own (the sweep forwards them). */
		ic_prog = "inlinecost";
		return closing ? sum_closing(run_path) : so_far ? sum_so_far(run_path, so_far)
								  : sum_in_place(run_path, seconds);
	}
	if (!out || !*out)
		return ic_bad("--out DIR is required, or --run RUN alone (see --help)");
	if (!run_path && (repeat || trial))
		return ic_bad("--repeat and --trial select a run's processes: they need --run");
	if (!run_path && optind >= argc)
		return ic_bad("no input FILE.json given (see --help)");
	if (!*opts.compare || !*opts.baseline || !strcmp(opts.compare, opts.baseline))
		return ic_bad("--compare '%s' and --baseline '%s' must be two different forms",
			      opts.compare, opts.baseline);

	ic_results_init(&res);
	if (run_path) {
		/* The run's processes, analysed with these options. */
		pan = &run.an;
		rc = ic_run_open_select(&run, run_path, &(struct ic_run_select){ (int)repeat, (int)trial }, &opts,
					err, sizeof(err));
	} else {
		while (optind < argc && !ic_results_load(&res, argv[optind], err, sizeof(err)))
			optind++;
		rc = optind < argc || ic_analyse(&an, &res, &opts, err, sizeof(err));
	}
	rc = rc ? ic_bad("%s", err) : sum_forms_measured(pan->res, &opts);
	rc = rc ? rc : ic_write_all(pan, out);
	ic_run_free(&run);
	ic_analysis_free(&an);
	ic_results_free(&res);
	return rc;
}
