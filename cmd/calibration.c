/* calibration: the coverage check of run.sh --calibrate, from its trials'
 * processes (a run opened as every front opens one, a trial at a
 * time). Each trial is a whole design measured with the baseline form
 * and copies of it that carry a planted extra cost F (form
 * <baseline>_plant<100 F>). Per trial and F the engine analyses the ratio
 * copy/baseline as summarize would with --planted F; this writes every
 * ratio to calibration_trials.csv and, per F over the trials, how often the
 * 95% interval holds 1 + F and how often the band excludes 1 (for F = 0: a
 * false positive) to calibration.md. Both are written whole or not at all;
 * on bad input nothing is written.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis.h"
#include "atomic_file.h"
#include "format.h"
#include "kit.h"
#include "load.h"
#include "run.h"

#define CAL_PLANTS_MAX 16

static const char cal_usage[] =
	"usage: calibration --run DIR [--out DIR] [--seconds S]\n"
	"\n"
	"Reads the processes of each trial of a --calibrate run (raw/t<T>_*.json; the\n"
	"planted fractions, trials, baseline and design from its run.conf) and writes,\n"
	"each atomically:\n"
	"  DIR/calibration_trials.csv  per trial, planted fraction and N: the ratio\n"
	"                              planted copy/baseline, its 95% interval, whether\n"
	"                              the band excludes 1 and the interval holds 1 + F\n"
	"  DIR/calibration.md          per planted fraction over the trials: the mean\n"
	"                              ratio and interval width, how often the interval\n"
	"                              holds the planted ratio and how often it excludes 1\n"
	"\n"
	"options:\n"
	"  --run DIR         the results directory of run.sh --calibrate\n"
	"  --out DIR         output directory (default: the run's)\n"
	"  --seconds S       how long the calibration took, as calibration.md states it\n"
	"  --help            this text\n"
	"\n"
	"exit status: 0 done; 2 bad input (nothing written); 1 an output could not be written\n";

struct cal_plant {
	double f;
	char form[96];
	/* Over the trials: rows, and those whose interval holds 1 + f, whose
	 * band excludes 1; sums of what the table holds, and how many had it. */
	size_t n, holds, excludes, nratio, nwidth;
	double sum_ratio, sum_width;
};

struct cal_run {
	const char *dir;
	struct cal_plant plant[CAL_PLANTS_MAX];
	size_t nplants;
	size_t ntrials;
	const char *baseline;
	char design[256];   /* each trial's, from run.conf */
	char series[512];   /* the first trial's series, for calibration.md */
};

static int cal_oom(void)
{
	fprintf(stderr, "%s: out of memory\n", ic_prog);
	return 1;
}

/* "0,0.01,0.03": each a fraction in [0, 10), the forms named by 100 F. */
static int cal_plants(struct cal_run *run, const char *list, const char *baseline)
{
	char *copy = strdup(list), *save = NULL, *end;
	int rc = 0;

	if (!copy)
		return -1;
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		struct cal_plant *p = &run->plant[run->nplants];

		if (run->nplants == CAL_PLANTS_MAX) {
			rc = -1;
			break;
		}
		errno = 0;
		p->f = strtod(w, &end);
		if (errno || *end || end == w || !(p->f >= 0.0 && p->f < 10.0))
			rc = -1;
		else
			snprintf(p->form, sizeof(p->form), "%s_plant%g", baseline, 100.0 * p->f);
		run->nplants++;
	}
	free(copy);
	return rc || !run->nplants ? -1 : 0;
}

/* A number as calibration.csv writes it (%.6f, empty when not measured),
 * and its value as written: calibration.md's means are of the table. */
static double cal_cell(FILE *f, double x)
{
	char buf[64];

	if (!isfinite(x))
		return NAN;
	snprintf(buf, sizeof(buf), "%.6f", x);
	fputs(buf, f);
	return strtod(buf, NULL);
}

/* "N = 256, 1 thread, private queue" for each series of the first trial,
 * joined by " and ". */
static void cal_series(struct cal_run *run, const struct ic_analysis *an)
{
	size_t len = 0, cap = sizeof(run->series);

	for (size_t s = 0; s < an->nseries && len + 1 < cap; s++) {
		const struct ic_group *g = &an->series[s].group;
		char title[512];

		len += (size_t)snprintf(run->series + len, cap - len, "%sN = ", s ? " and " : "");
		for (size_t i = 0; i < g->nratios && len + 1 < cap; i++)
			len += (size_t)snprintf(run->series + len, cap - len, "%s%lu", i ? ", " : "",
						g->ratios[i].sites);
		if (len + 1 < cap)
			len += (size_t)snprintf(run->series + len, cap - len, ", %s",
						ic_fmt_series(title, sizeof(title), an, g));
	}
}

/* One trial with one planted fraction: the analysis of its processes and a
 * row per series and N. -1 with err on bad input or when memory runs out. */
static int cal_trial(struct cal_run *run, size_t t, struct cal_plant *p, FILE *csv, char *err,
		     size_t errlen)
{
	struct ic_analysis_opts opts = ic_analysis_defaults;
	struct ic_run_select sel = { .trial = (int)(t + 1) };
	struct ic_run r;
	const struct ic_analysis *an = &r.an;
	int rc = -1;

	opts.compare = p->form;
	opts.baseline = run->baseline;
	opts.planted = p->f;
	if (ic_run_open_select(&r, run->dir, &sel, &opts, err, errlen))
		goto out;
	if (t == 0 && p == run->plant)
		cal_series(run, an);
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;

		for (size_t i = 0; i < g->nratios; i++) {
			const struct ic_ratio *r = &g->ratios[i];
			double ratio, lo, hi;

			fprintf(csv, "%zu,%g,", t + 1, p->f);
			ratio = cal_cell(csv, r->ratio);
			fputc(',', csv);
			lo = cal_cell(csv, r->lo);
			fputc(',', csv);
			hi = cal_cell(csv, r->hi);
			fprintf(csv, ",%d,%d\n", ic_ratio_resolved(r), ic_ratio_holds(r, 1.0 + p->f));
			p->n++;
			p->holds += ic_ratio_holds(r, 1.0 + p->f);
			p->excludes += ic_ratio_resolved(r);
			if (isfinite(ratio)) {
				p->sum_ratio += ratio;
				p->nratio++;
			}
			if (isfinite(lo) && isfinite(hi)) {
				p->sum_width += hi - lo;
				p->nwidth++;
			}
		}
	}
	rc = 0;
out:
	ic_run_free(&r);
	return rc;
}

/* A mean to four places, "—" when nothing was measured. */
static void cal_mean(FILE *md, double sum, size_t n)
{
	if (n)
		fprintf(md, " %.4f |", sum / (double)n);
	else
		fputs(" — |", md);
}

static void cal_markdown(FILE *md, const struct cal_run *run, long seconds)
{
	fputs("# Calibration: coverage of the 95% interval\n\n", md);
	fprintf(md, "%zu trials at %s", run->ntrials, *run->series ? run->series : "no series");
	if (*run->design)
		fprintf(md, "; each trial %s", run->design);
	if (seconds >= 0)
		fprintf(md, "; %ld s in all", seconds);
	fputs(".\n\n| planted | trials | mean ratio | mean width | holds the planted ratio | excludes 1 |\n"
	      "|---:|---:|---:|---:|---:|---:|\n", md);
	for (size_t k = 0; k < run->nplants; k++) {
		const struct cal_plant *p = &run->plant[k];

		if (!p->n)
			continue;
		fprintf(md, "| %g%% | %zu |", p->f * 100, p->n);
		cal_mean(md, p->sum_ratio, p->nratio);
		cal_mean(md, p->sum_width, p->nwidth);
		fprintf(md, " %zu (%.0f%%) | %zu (%.0f%%)%s |\n", p->holds,
			100.0 * (double)p->holds / (double)p->n, p->excludes,
			100.0 * (double)p->excludes / (double)p->n, p->f == 0 ? " false positives" : "");
	}
}

/* Both files, each renamed into place once both are whole. */
static int cal_write(const char *dir, const char *csv, size_t ncsv, const char *md, size_t nmd)
{
	static const char *const name[2] = { "calibration_trials.csv", "calibration.md" };
	const char *text[2] = { csv, md };
	size_t len[2] = { ncsv, nmd };
	struct ic_atomic_file af[2];
	char path[4096];
	int k;

	memset(af, 0, sizeof(af));
	for (k = 0; k < 2; k++) {
		snprintf(path, sizeof(path), "%s/%s", dir, name[k]);
		if (ic_atomic_open(&af[k], path, IC_ATOMIC_SYNC) ||
		    fwrite(text[k], 1, len[k], af[k].f) != len[k] || ic_atomic_finish(&af[k]))
			goto fail;
	}
	for (k = 0; k < 2; k++)
		if (ic_atomic_rename(&af[k]))
			goto fail;
	return 0;
fail:
	fprintf(stderr, "calibration: %s\n", *af[k].err ? af[k].err : strerror(errno));
	ic_atomic_abort(&af[0]);
	ic_atomic_abort(&af[1]);
	return 1;
}

struct cal_opts {
	const char *run, *out;
	long seconds;   /* -1 when not given */
};

/* The run's settings into run: its plants, trials, baseline and design. */
static int cal_settings(struct cal_run *run, const char *dir)
{
	struct ic_settings conf = { 0 };
	char path[4096], err[1024], *end;
	const char *v;
	int rc = 2;

	snprintf(path, sizeof(path), "%s/run.conf", dir);
	if (ic_settings_load(&conf, path, err, sizeof(err))) {
		ic_bad("--run: %s", err);
		goto out;
	}
	run->dir = dir;
	v = ic_settings_get(&conf, "baseline");
	run->baseline = ic_xalloc(strdup(*v ? v : ic_analysis_defaults.baseline));
	if (cal_plants(run, ic_settings_get(&conf, "plant"), run->baseline)) {
		ic_bad("--run: %s: plant='%s' is not a list of fractions like 0,0.01,0.03 "
		       "(not a --calibrate run?)",
		       path, ic_settings_get(&conf, "plant"));
		goto out;
	}
	v = ic_settings_get(&conf, "trials");
	run->ntrials = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || run->ntrials < 1 || run->ntrials > 1000) {
		ic_bad("--run: %s: trials='%s' is not a whole number 1..1000", path, v);
		goto out;
	}
	/* "" (no design said) where the run does not record one */
	if (*ic_settings_get(&conf, "layouts_random") && *ic_settings_get(&conf, "processes") &&
	    *ic_settings_get(&conf, "reps") && *ic_settings_get(&conf, "min_time"))
		snprintf(run->design, sizeof(run->design), "%s variants x %s processes x %s reps of %s s",
			 ic_settings_get(&conf, "layouts_random"), ic_settings_get(&conf, "processes"),
			 ic_settings_get(&conf, "reps"), ic_settings_get(&conf, "min_time"));
	rc = 0;
out:
	ic_settings_free(&conf);
	return rc;
}

/* The command line into o and the run's settings into run: 0, -1 after
 * --help (done), or the exit status after its one line. */
static int cal_args(int argc, char **argv, struct cal_opts *o, struct cal_run *run)
{
	const struct ic_option opts[] = {
		IC_OPTION_STRING("run", &o->run),
		IC_OPTION_STRING("out", &o->out),
		IC_OPTION_LONG("seconds", &o->seconds, 0, 1000000000),
		IC_OPTIONS_END,
	};
	struct stat st;
	int rc;

	if ((rc = ic_options_parse(argc, argv, opts, cal_usage, "--help")) >= 0)
		return rc ? rc : -1;
	if (optind < argc)
		return ic_bad("unexpected argument '%s' (see --help)", argv[optind]);
	if (!o->run || !*o->run)
		return ic_bad("--run DIR is required (see --help)");
	if (!o->out)
		o->out = o->run;
	if (!*o->out || stat(o->out, &st) || !S_ISDIR(st.st_mode))
		return ic_bad("--out: '%s' is not a directory (see --help)", o->out);
	return cal_settings(run, o->run);
}

int main(int argc, char **argv)
{
	struct cal_opts o = { .seconds = -1 };
	struct cal_run run = { 0 };
	char *csv = NULL, *md = NULL, err[1024];
	size_t ncsv = 0, nmd = 0;
	FILE *fcsv = NULL, *fmd = NULL;
	int rc;

	ic_prog = "calibration";
	rc = cal_args(argc, argv, &o, &run);
	if (rc) {
		rc = rc < 0 ? 0 : rc;
		goto done;
	}
	fcsv = open_memstream(&csv, &ncsv);
	fmd = open_memstream(&md, &nmd);
	if (!fcsv || !fmd)
		goto oom;
	fputs("trial,planted,ratio,ratio_ci_lo,ratio_ci_hi,excludes_1,contains_planted\n", fcsv);
	for (size_t t = 0; t < run.ntrials; t++)
		for (size_t k = 0; k < run.nplants; k++)
			if (cal_trial(&run, t, &run.plant[k], fcsv, err, sizeof(err))) {
				rc = ic_bad("trial %zu, planted %g: %s", t + 1, run.plant[k].f, err);
				goto done;
			}
	cal_markdown(fmd, &run, o.seconds);
	rc = fclose(fcsv) | fclose(fmd);
	fcsv = fmd = NULL;
	if (rc)
		goto oom;
	rc = cal_write(o.out, csv, ncsv, md, nmd);
	goto done;
oom:
	rc = cal_oom();
done:
	if (fcsv)
		fclose(fcsv);
	if (fmd)
		fclose(fmd);
	free(csv);
	free(md);
	free((char *)run.baseline);
	return rc;
}
