/* The coverage check of run.sh --calibrate over its trials. Each trial is a
 * whole design measured with the baseline form and copies of it that carry
 * a planted extra cost F (form <baseline>_plant<100 F>). Per trial and F
 * the engine analyses the ratio copy/baseline as summarize does with
 * --planted F; this writes every ratio to calibration_trials.csv and, per F
 * over the trials, how often the 95% interval holds 1 + F and how often the
 * band excludes 1 (for F = 0: a false positive) to calibration.md.
 */
#ifndef IC_CALIBRATION_H
#define IC_CALIBRATION_H

#include <stdio.h>

#include "analysis.h"
#include "run_conf.h"

#define IC_CALIBRATION_PLANTS_MAX 16

struct ic_calibration_plant {
	double f;
	char form[96];
	/* Over the trials: rows, and those whose interval holds 1 + f, whose
	 * band excludes 1; sums of what the table holds, and how many had it. */
	size_t n, holds, excludes, nratio, nwidth;
	double sum_ratio, sum_width;
};

struct ic_calibration {
	struct ic_calibration_plant plant[IC_CALIBRATION_PLANTS_MAX];
	size_t nplants, ntrials;
	char baseline[64];
	char design[256];   /* each trial's, from run.conf */
	char series[512];   /* the first trial's series, for calibration.md */
};

/* The run's plants, trials, baseline and design from its run.conf (conf,
 * read from path). -1 with one line in err when it is no --calibrate run's. */
int ic_calibration_settings(struct ic_calibration *c, const struct ic_settings *conf,
			    const char *path, char *err, size_t errlen);

/* The analysis of trial t (0..) with plant k: its rows into csv (the
 * header before the first), its counts into c. */
void ic_calibration_add(struct ic_calibration *c, FILE *csv, size_t t, size_t k,
			const struct ic_analysis *an);

/* calibration.md, seconds (-1: not said) the calibration's time. */
void ic_calibration_markdown(FILE *md, const struct ic_calibration *c, long seconds);

#endif /* IC_CALIBRATION_H */
