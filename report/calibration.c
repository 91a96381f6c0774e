/* --calibrate's coverage over its trials: how often the 95% interval holds
 * the planted ratio 1 + F of a copy of the baseline with a planted extra
 * cost F (form <baseline>_plant<100 F>), how often it excludes 1 (for
 * F = 0: a false positive). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "kit.h"
#include "report.h"
#include "run_conf.h"

/* "0,0.01,0.03": each a fraction in [0, 10), the forms named by 100 F. */
static int cal_plants(struct ic_calibration *c, const char *list)
{
	char *copy = strdup(list), *save = NULL, *end;
	int rc = 0;

	if (!copy)
		return -1;
	for (char *w = strtok_r(copy, ",", &save); w && !rc; w = strtok_r(NULL, ",", &save)) {
		struct ic_calibration_plant *p = &c->plant[c->nplants];

		if (c->nplants == IC_CALIBRATION_PLANTS_MAX) {
			rc = -1;
			break;
		}
		errno = 0;
		p->f = strtod(w, &end);
		if (errno || *end || end == w || !(p->f >= 0.0 && p->f < 10.0))
			rc = -1;
		else
			snprintf(p->form, sizeof(p->form), "%s_plant%g", c->baseline, 100.0 * p->f);
		c->nplants++;
	}
	free(copy);
	return rc || !c->nplants ? -1 : 0;
}

int ic_calibration_settings(struct ic_calibration *c, const struct ic_settings *conf,
			    const char *path, char *err, size_t errlen)
{
	const char *v = ic_settings_get(conf, "baseline");
	char *end;

	memset(c, 0, sizeof(*c));
	snprintf(c->baseline, sizeof(c->baseline), "%s", *v ? v : ic_analysis_defaults.baseline);
	if (cal_plants(c, ic_settings_get(conf, "plant")))
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

/* A number as calibration.csv writes it after a comma (%.6f, empty when
 * not measured), and its value as written: calibration.md's means are of
 * the table. */
static double cal_cell(FILE *f, double x)
{
	char buf[64] = "";

	if (isfinite(x))
		snprintf(buf, sizeof(buf), "%.6f", x);
	fprintf(f, ",%s", buf);
	return isfinite(x) ? strtod(buf, NULL) : NAN;
}

/* "N = 256, 1 thread, private queue" for each series of the first trial,
 * joined by " and ". */
static void cal_series(struct ic_calibration *c, const struct ic_analysis *an)
{
	size_t len = 0, cap = sizeof(c->series);

	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;
		char title[512];

		ic_fmt_add(c->series, cap, &len, "%sN = ", s ? " and " : "");
		for (size_t i = 0; i < g->nratios; i++)
			ic_fmt_add(c->series, cap, &len, "%s%lu", i ? ", " : "", g->ratios[i].sites);
		ic_fmt_add(c->series, cap, &len, ", %s", ic_fmt_series(title, sizeof(title), an, g));
	}
}

void ic_calibration_add(struct ic_calibration *c, FILE *csv, size_t t, size_t k,
			const struct ic_analysis *an)
{
	struct ic_calibration_plant *p = &c->plant[k];

	if (t == 0 && k == 0) {
		fputs("trial,planted,ratio,ratio_ci_lo,ratio_ci_hi,excludes_1,contains_planted\n", csv);
		cal_series(c, an);
	}
	for (size_t s = 0; s < an->nseries; s++) {
		const struct ic_group *g = &an->series[s].group;

		for (size_t i = 0; i < g->nratios; i++) {
			const struct ic_ratio *r = &g->ratios[i];
			double ratio, lo, hi;

			fprintf(csv, "%zu,%g", t + 1, p->f);
			ratio = cal_cell(csv, r->ratio);
			lo = cal_cell(csv, r->lo);
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
}

/* A mean to four places, "—" when nothing was measured. */
static void cal_mean(FILE *md, double sum, size_t n)
{
	fprintf(md, n ? " %.4f |" : " — |", sum / (double)n);
}

void ic_calibration_markdown(FILE *md, const struct ic_calibration *c, long seconds)
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
		cal_mean(md, p->sum_ratio, p->nratio);
		cal_mean(md, p->sum_width, p->nwidth);
		fprintf(md, " %zu (%.0f%%) | %zu (%.0f%%)%s |\n", p->holds,
			100.0 * (double)p->holds / (double)p->n, p->excludes,
			100.0 * (double)p->excludes / (double)p->n, p->f == 0 ? " false positives" : "");
	}
}
