/* calibration: the coverage check of run.sh --calibrate, from its trials'
 * processes. Each trial is a whole design measured with the baseline form
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

#define CAL_PLANTS_MAX 16

static const char cal_usage[] =
	"usage: calibration --out DIR --plants LIST [options] --trial FILE.json... [--trial FILE.json...]...\n"
	"\n"
	"Reads the processes of each --calibrate trial (the files after one --trial are\n"
	"one trial) and writes, each atomically:\n"
	"  DIR/calibration_trials.csv  per trial, planted fraction and N: the ratio\n"
	"                              planted copy/baseline, its 95% interval, whether\n"
	"                              the band excludes 1 and the interval holds 1 + F\n"
	"  DIR/calibration.md          per planted fraction over the trials: the mean\n"
	"                              ratio and interval width, how often the interval\n"
	"                              holds the planted ratio and how often it excludes 1\n"
	"\n"
	"options:\n"
	"  --out DIR         output directory (must exist)\n"
	"  --plants LIST     the planted fractions, e.g. 0,0.01,0.03: form\n"
	"                    <baseline>_plant<100 F> carries F\n"
	"  --baseline FORM   the form the copies are of (default extern)\n"
	"  --design TEXT     each trial's design, as calibration.md states it\n"
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

struct cal_trial {
	const char **files;
	size_t nfiles;
};

struct cal_run {
	struct cal_plant plant[CAL_PLANTS_MAX];
	size_t nplants;
	struct cal_trial *trial;
	size_t ntrials;
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

		errno = 0;
		p->f = strtod(w, &end);
		if (errno || *end || end == w || !(p->f >= 0.0 && p->f < 10.0) ||
		    run->nplants == CAL_PLANTS_MAX)
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

/* One trial with one planted fraction: the analysis of its files and a row
 * per series and N. -1 with err on bad input or when memory runs out. */
static int cal_trial(struct cal_run *run, size_t t, struct cal_plant *p, FILE *csv, char *err,
		     size_t errlen)
{
	struct ic_analysis_opts opts = ic_analysis_defaults;
	struct ic_analysis an = { 0 };
	struct ic_results res;
	int rc = -1;

	opts.compare = p->form;
	opts.planted = p->f;
	ic_results_init(&res);
	for (size_t i = 0; i < run->trial[t].nfiles; i++)
		if (ic_results_load(&res, run->trial[t].files[i], err, errlen))
			goto out;
	if (ic_analyse(&an, &res, &opts, err, errlen))
		goto out;
	if (t == 0 && p == run->plant)
		cal_series(run, &an);
	for (size_t s = 0; s < an.nseries; s++) {
		const struct ic_group *g = &an.series[s].group;

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
	ic_analysis_free(&an);
	ic_results_free(&res);
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

static void cal_markdown(FILE *md, const struct cal_run *run, const char *design, long seconds)
{
	fputs("# Calibration: coverage of the 95% interval\n\n", md);
	fprintf(md, "%zu trials at %s", run->ntrials, *run->series ? run->series : "no series");
	if (design)
		fprintf(md, "; each trial %s", design);
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

/* path into the trial of the last --trial: 0, -1 when there is none yet,
 * -2 when memory runs out. */
static int cal_add_file(struct cal_run *run, const char *path)
{
	struct cal_trial *t = run->ntrials ? &run->trial[run->ntrials - 1] : NULL;
	const char **nf;

	if (!t)
		return -1;
	nf = realloc(t->files, (t->nfiles + 1) * sizeof(*nf));
	if (!nf)
		return -2;
	t->files = nf;
	t->files[t->nfiles++] = path;
	return 0;
}

/* --trial: the files that follow are the next trial's. */
static int cal_new_trial(void *dest, const char *unused)
{
	struct cal_run *run = dest;

	(void)unused;
	run->trial = ic_xrealloc(run->trial, run->ntrials + 1, sizeof(*run->trial));
	run->trial[run->ntrials++] = (struct cal_trial){ 0 };
	return 0;
}

/* A process file of the current trial. */
static int cal_file_arg(void *dest, const char *file)
{
	int rc = cal_add_file(dest, file);

	if (rc)
		return rc == -1 ? ic_bad("'%s' comes before the first --trial (see --help)", file) : cal_oom();
	return 0;
}

struct cal_opts {
	const char *out, *plants, *baseline, *design;
	long seconds;   /* -1 when not given */
};

/* The command line into o and run's trials: 0, -1 after --help (done), or
 * the exit status after its one line. */
static int cal_args(int argc, char **argv, struct cal_opts *o, struct cal_run *run)
{
	const struct ic_option opts[] = {
		IC_OPTION_STRING("out", &o->out),
		IC_OPTION_STRING("plants", &o->plants),
		IC_OPTION_STRING("baseline", &o->baseline),
		IC_OPTION_STRING("design", &o->design),
		IC_OPTION_LONG("seconds", &o->seconds, 0, 1000000000),
		IC_OPTION_ACTION("trial", run, cal_new_trial),
		/* a file comes in order, so it joins the trial of the --trial before it */
		IC_OPTION_CALL("", run, cal_file_arg),
		IC_OPTIONS_END,
	};
	struct stat st;
	int rc;

	if ((rc = ic_options_parse(argc, argv, opts, cal_usage, "--help")) >= 0)
		return rc ? rc : -1;
	for (; optind < argc; optind++)   /* files after "--" */
		if ((rc = cal_file_arg(run, argv[optind])))
			return rc;
	if (!o->out || !*o->out || stat(o->out, &st) || !S_ISDIR(st.st_mode))
		return ic_bad("--out: '%s' is not a directory (see --help)", o->out ? o->out : "");
	if (!o->plants || cal_plants(run, o->plants, o->baseline))
		return ic_bad("--plants: '%s' is not a list of fractions like 0,0.01,0.03",
			      o->plants ? o->plants : "");
	if (!run->ntrials)
		return ic_bad("no --trial FILE.json... given (see --help)");
	for (size_t t = 0; t < run->ntrials; t++)
		if (!run->trial[t].nfiles)
			return ic_bad("--trial %zu has no files", t + 1);
	return 0;
}

int main(int argc, char **argv)
{
	struct cal_opts o = { .baseline = ic_analysis_defaults.baseline, .seconds = -1 };
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
	cal_markdown(fmd, &run, o.design, o.seconds);
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
	for (size_t t = 0; t < run.ntrials; t++)
		free(run.trial[t].files);
	free(run.trial);
	return rc;
}
